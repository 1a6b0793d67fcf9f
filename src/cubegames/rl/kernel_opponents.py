"""Opponents that the compiled vector environments play inside their kernels: the greedy
bot and the flat Monte Carlo search of `cubegames.bot("mcts")`, in numba, so that a learner
trains against them at the speed of the random opponent's environment rather than through
the Python rules (`SessionVectorEnv`).

- CUBED (`cubegames.rl.vector.cubed`): `greedy` is the greedy bot's rule (every placement
  valued by `search_kernel.greedy_values`, the best played, ties drawn at random; nothing
  fits: draw, else pass); `mcts` (and `mcts:iterations=N`) is the bot's flat search:
  sequential halving over the same root moves (the `ROOT_WIDTH` best placements by the
  greedy value, and the draw or the pass) with the same playouts (`search_kernel.playout`:
  the hidden pieces dealt afresh from the searching seat's view, then the light policy), the
  default budget 300 playouts. Both see only their own seat's hand (the playouts re-deal the
  others' and the bag).
- Unstackable (`cubegames.rl.vector.unstackable`): `greedy` is the greedy bot's heuristic
  (`Unstackable.greedy_move`).

The searches are the bots' algorithms, not their exact draws: ties and deals come from the
environment's generators, so a game against `greedy` here is one the Python greedy bot
could have played, not the one it would have played with a given seed.

`spec(game_id, opponent)` says whether an opponent by name runs in a game's kernel.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from cubegames.bots.greedy import GreedyBot
from cubegames.bots.mcts import FLAT_ITERATIONS, MctsBot
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed import search_kernel as sk
from cubegames.games.cubed.kernel_bridge import KernelPlayouts
from cubegames.games.cubed.search_hooks import ROOT_WIDTH
from cubegames.games.unstackable import search as _search
from cubegames.games.unstackable import vector_rules as vr
from cubegames.games.unstackable.solver_kernel import removable as sk_removable

jit = k.jit
Arr = k.Arr
_U1 = np.uint64(1)

#: opponent kinds, as the kernels read them
SELF = 0
RANDOM = 1
GREEDY = 2
MCTS = 3

#: games whose kernels play each kind
KINDS = {"cubed": (RANDOM, GREEDY, MCTS), "unstackable": (RANDOM, GREEDY)}

#: the flat search's playout settings: the bot's (`KernelPlayouts`)
HORIZON = KernelPlayouts.HORIZON
GREED = KernelPlayouts.GREED
TEMPERATURE = KernelPlayouts.TEMPERATURE


def spec(game_id: str, opponent: Any) -> tuple[int, int] | None:
    """`(kind, iterations)` of an opponent by name that `game_id`'s kernel plays ("self",
    "random", "greedy", "mcts", "mcts:iterations=N"), or None when it does not (another
    bot, other parameters such as `seconds` or `tree=true`, a callable): those run over
    the Python rules. A malformed bot name raises ValueError, as `cubegames.bot` does."""
    if not isinstance(opponent, str):
        return None
    if opponent == "self":
        return SELF, 0
    if opponent == "random":
        return (RANDOM, 0) if RANDOM in KINDS.get(game_id, ()) else None
    from cubegames.bots import bot

    made = bot(opponent)
    if isinstance(made, GreedyBot) and opponent.strip() == "greedy":
        kind, iterations = GREEDY, 0
    elif isinstance(made, MctsBot) and not made.tree and made.seconds is None:
        kind, iterations = MCTS, made.budget(FLAT_ITERATIONS) or FLAT_ITERATIONS
    else:
        return None
    return (kind, iterations) if kind in KINDS.get(game_id, ()) else None


# -- CUBED --------------------------------------------------------------------------------

#: rows of the integer work array: placements (rotation, cell), the kernels' own room for
#: placements, root moves (kind, rotation, cell), and the moves still in a search
W_ROT, W_CELL, W_OUT_ROT, W_OUT_CELL, W_KIND, W_RROT, W_RCELL, W_ALIVE, W_ORDER = range(9)
#: rows of the float work array: placement values, playout totals and visits per root move,
#: match totals, rewards per seat
F_VALUE, F_TOTAL, F_VISITS, F_TOTALS, F_REWARDS = range(5)


#: what `cubed_choose` works in
CubedWork = tuple[k.Game, Arr, Arr]


def cubed_work(players: int) -> CubedWork:
    """Room for the CUBED opponents: a scratch game and the work arrays above."""
    ints = np.zeros((9, k.MAX_MOVES), dtype=np.int64)
    floats = np.zeros((5, k.MAX_MOVES), dtype=np.float64)
    return k.new_game(players), ints, floats


@jit
def cubed_choose(
    st: k.Game, ed: k.Tables, work: CubedWork, rng: Arr, kind: int, budget: int
) -> tuple[int, int, int, int]:
    """The move of the seat to move by the opponent `kind` (`GREEDY` or `MCTS` with
    `budget` playouts): `(move kind, rotation code, kernel cell, placements)` with move kind
    0 a placement, 1 the draw, 2 the pass (as `rl.vector.cubed._move` plays them), and the
    number of placements the seat had (a pass with none is a stuck turn)."""
    scratch, ints, floats = work
    seat = st.meta[k.M_TO_MOVE]
    count = k.placements(st, ed, seat, ints[W_ROT], ints[W_CELL])
    other = 1 if k.can_draw(st) else 2
    if count == 0:
        return other, 0, 0, 0
    values = floats[F_VALUE]
    sk.greedy_values(
        scratch,
        st,
        ed,
        ints[W_ROT][:count],
        ints[W_CELL][:count],
        values[:count],
        ints[W_OUT_ROT],
        ints[W_OUT_CELL],
    )
    if kind == GREEDY:
        pick = _best(values, count, rng)
        return 0, ints[W_ROT][pick], ints[W_CELL][pick], count
    # the root moves: the best ROOT_WIDTH placements (all when no more), then the draw or
    # the pass
    order = ints[W_ORDER]
    for i in range(count):
        order[i] = i
    if count > ROOT_WIDTH:
        ranked = np.argsort(-values[:count], kind="mergesort")
        for i in range(ROOT_WIDTH):
            order[i] = ranked[i]
        width = ROOT_WIDTH
    else:
        width = count
    kinds, rots, cells = ints[W_KIND], ints[W_RROT], ints[W_RCELL]
    for i in range(width):
        kinds[i] = sk.PLACE
        rots[i] = ints[W_ROT][order[i]]
        cells[i] = ints[W_CELL][order[i]]
    kinds[width] = sk.DRAW if other == 1 else sk.PASS
    rots[width] = 0
    cells[width] = 0
    best = _halving(st, ed, work, rng, seat, width + 1, budget)
    if best == width:
        return other, 0, 0, count
    return 0, rots[best], cells[best], count


@jit
def _best(values: Arr, count: int, rng: Arr) -> int:
    """The index of the highest of `values[:count]`, ties drawn uniformly from `rng`."""
    top = values[0]
    ties = 0
    pick = 0
    for i in range(count):
        if values[i] > top:
            top = values[i]
            ties = 1
            pick = i
        elif values[i] == top:
            ties += 1
            if k.splitmix(rng) % ties == 0:
                pick = i
    return pick


@jit
def _halving(
    st: k.Game,
    ed: k.Tables,
    work: CubedWork,
    rng: Arr,
    seat: int,
    n: int,
    budget: int,
) -> int:
    """`cubegames.bots.mcts.halving` over the `n` root moves in the work arrays: in each of
    `ceil(log2 n)` rounds every move still in is played out equally often on the same
    deals, then the better half by mean reward goes on (ties: the earlier move). Returns
    the best move left."""
    scratch, ints, floats = work
    kinds, rots, cells, alive = ints[W_KIND], ints[W_RROT], ints[W_RCELL], ints[W_ALIVE]
    totals, visits = floats[F_TOTAL], floats[F_VISITS]
    match, rewards = floats[F_TOTALS], floats[F_REWARDS]
    for s in range(st.meta[k.M_PLAYERS]):
        match[s] = 0.0  # one round: no totals carried in
    for i in range(n):
        alive[i] = i
        totals[i] = 0.0
        visits[i] = 0.0
    live = n
    rounds = max(1, math.ceil(math.log2(n)))
    done = 0
    seeds = np.empty(budget + n, dtype=np.int64)
    means = np.empty(n, dtype=np.float64)
    for r in range(rounds):
        left = rounds - r
        per = max(1, (budget - done) // (live * left))
        for j in range(per):
            seeds[j] = (k.splitmix(rng) << 32) | k.splitmix(rng)
        for a in range(live):
            arm = alive[a]
            for j in range(per):
                sk.playout(
                    scratch,
                    st,
                    ed,
                    seat,
                    kinds[arm],
                    rots[arm],
                    cells[arm],
                    seeds[j],
                    HORIZON,
                    GREED,
                    match,
                    True,
                    TEMPERATURE,
                    rewards,
                    ints[W_OUT_ROT],
                    ints[W_OUT_CELL],
                )
                totals[arm] += rewards[seat]
                visits[arm] += 1.0
        done += per * live
        for a in range(live):
            means[a] = -totals[alive[a]] / visits[alive[a]]
        ranked = np.argsort(means[:live], kind="mergesort")  # stable: ties keep move order
        keep = (live + 1) // 2
        kept = np.sort(alive[:live][ranked[:keep]])
        for a in range(keep):
            alive[a] = kept[a]
        live = keep
    best = int(alive[0])
    for a in range(1, live):
        arm = alive[a]
        if totals[arm] / visits[arm] > totals[best] / visits[best]:
            best = arm
    return best


# -- Unstackable ----------------------------------------------------------------------------

#: the layers a cube worth points in pile 1 is kept out of when the turn may end instead
#: (`search.EXPOSED_FROM`)
EXPOSED_FROM = _search.EXPOSED_FROM


@njit(cache=True)
def _u_held(occ: np.uint64, x: int, y: int, z: int) -> int:
    """Cubes beside cell `(x, y, z)` in its layer, inside the box."""
    held = 0
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        a, b = x + dx, y + dy
        if (
            0 <= a < 4
            and 0 <= b < 4
            and 0 <= z < 4
            and (occ >> np.uint64(a + 4 * b + 16 * z)) & _U1
        ):
            held += 1
    return held


@njit(cache=True)
def unstackable_greedy(
    boards: vr.Boards,
    st: vr.Rows,
    g: int,
    mask: npt.NDArray[np.bool_],
    gains: vr.Rows,
    bag: bool,
    rng: npt.NDArray[np.uint64],
) -> int:
    """The greedy bot's action (`search.greedy_move`) in game `g`, whose legal actions are
    set in `mask`; ties drawn from game `g`'s generator `rng`."""
    occ = boards[g, 0] | boards[g, 1] | boards[g, 2]
    best = -1
    ties = 0
    if st[g, vr.STAGE] == 1:
        pile = st[g, vr.REMOVED]
        free = sk_removable(occ, bag)
        top_points = -1
        top_handed = 0
        for i in range(64):
            if not mask[vr.REMOVALS + i]:
                continue
            bit = _U1 << np.uint64(i)
            c = 0 if boards[g, 0] & bit else 1 if boards[g, 1] & bit else 2
            gained = gains[pile, c]
            bared = sk_removable(occ & ~bit, bag) & ~free
            handed = 0
            for colour in range(3):
                handed += gains[0, colour] * _count(bared & boards[g, colour])
            if gained > top_points or (gained == top_points and handed < top_handed):
                top_points, top_handed, best, ties = gained, handed, i, 1
            elif gained == top_points and handed == top_handed:
                ties += 1
                if vr._random(rng, g) % np.uint64(ties) == 0:
                    best = i
        return vr.REMOVALS + best
    colour = -1
    for c in range(3):
        offered = False
        for cell in range(vr.STACK_CELLS):
            if mask[c * vr.STACK_CELLS + cell]:
                offered = True
                break
        if offered and (colour < 0 or gains[0, c] > gains[0, colour]):
            colour = c  # the most points in pile 1; ties: the earlier colour
    low_z = 99
    low_held = 0
    base = colour * vr.STACK_CELLS
    for cell in range(vr.STACK_CELLS):
        if not mask[base + cell]:
            continue
        if cell < 64:
            x, y, z = cell % 4, (cell // 4) % 4, cell // 16
        elif cell < 68:
            x, y, z = -1, cell - 64, 0
        else:
            x, y, z = cell - 68, -1, 0
        held = _u_held(occ, x, y, z)
        if z < low_z or (z == low_z and held > low_held):
            low_z, low_held, best, ties = z, held, cell, 1
        elif z == low_z and held == low_held:
            ties += 1
            if vr.random_action(np.ones(ties, dtype=np.bool_), ties, rng, g) == 0:
                best = cell
    if mask[vr.END] and gains[0, colour] > 0 and low_z >= EXPOSED_FROM:
        return vr.END  # the next valuable cube could only stand where stage 2 bares it early
    return base + best


@njit(cache=True)
def _count(board: np.uint64) -> int:
    n = 0
    while board:
        board &= board - _U1
        n += 1
    return n


@njit(cache=True)
def unstackable_step(
    boards: vr.Boards,
    st: vr.Rows,
    actions: vr.Rows,
    pending: npt.NDArray[np.bool_],
    rng: npt.NDArray[np.uint64],
    bag: bool,
    exact: bool,
    per_turn: vr.Rows,
    counts: vr.Rows,
    gains: vr.Rows,
    most: float,
    obs: npt.NDArray[np.float32],
    rewards: npt.NDArray[np.float32],
    terminated: npt.NDArray[np.bool_],
    illegal: npt.NDArray[np.bool_],
    masks: npt.NDArray[np.bool_],
    to_move: vr.Rows,
) -> None:
    """`vector_rules.step` against the greedy opponent: the learner is seat 0 and seat 1's
    moves (`unstackable_greedy`) are played inside the step; the same conventions."""
    for g in range(st.shape[0]):
        rewards[g] = 0.0
        terminated[g] = False
        illegal[g] = False
        if pending[g]:
            pending[g] = False
            vr.reset(boards, st, g, counts)
        else:
            vr.legal(boards, st, g, bag, exact, masks[g])
            a = actions[g]
            if a < 0 or a >= vr.ACTIONS or not masks[g, a]:
                rewards[g] = -1.0
                terminated[g] = True
                illegal[g] = True
                pending[g] = True
                st[g, vr.LAST_MOVER] = st[g, vr.TO_MOVE]
            else:
                vr.play(boards, st, g, a, per_turn)
                while st[g, vr.STAGE] != 2 and st[g, vr.TO_MOVE] == 1:
                    vr.legal(boards, st, g, bag, exact, masks[g])
                    move = unstackable_greedy(boards, st, g, masks[g], gains, bag, rng)
                    vr.play(boards, st, g, move, per_turn)
                if st[g, vr.STAGE] == 2:
                    mine = vr.points(st, g, 0, gains)
                    theirs = vr.points(st, g, 1, gains)
                    rewards[g] = 1.0 if mine > theirs else -1.0 if mine < theirs else 0.0
                    terminated[g] = True
                    pending[g] = True
        vr.observe(boards, st, g, 0, bag, counts, gains, most, obs[g])
        if terminated[g]:
            masks[g, :] = False
            to_move[g] = -1
        else:
            vr.legal(boards, st, g, bag, exact, masks[g])
            to_move[g] = st[g, vr.TO_MOVE]
