"""The opponents CUBED's compiled vector environment (`games/cubed/vector.py`) plays inside
its kernel: the greedy bot's rule (every placement valued by `search_kernel.greedy_values`,
the best played, ties drawn at random; nothing fits: draw, else pass) and the mcts bot's
flat search (sequential halving over the same root moves, the `ROOT_WIDTH` best placements
by the greedy value and the draw or the pass, with the same playouts, `search_kernel.playout`:
the hidden pieces dealt afresh from the searching seat's view, then the light policy). Both
see only their own seat's hand (the playouts re-deal the others' and the bag).

They are the bots' algorithms, not their exact draws: ties and deals come from the
environment's generators. Which bot names run here: `cubegames.rl.kernel_opponents.spec`.
"""

from __future__ import annotations

import math

import numpy as np

from cubegames.core import compiled  # noqa: F401 (numba's cache kept true first)
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed import search_kernel as sk
from cubegames.games.cubed.compiled_rules import jit
from cubegames.games.cubed.kernel_bridge import KernelPlayouts
from cubegames.games.cubed.search_hooks import ROOT_WIDTH, flat_horizon, flat_judge
from cubegames.kit.vector import GREEDY, MCTS, RANDOM

Arr = k.Arr

#: the kinds of opponent the kernel plays (`kit.vector`)
KINDS = (RANDOM, GREEDY, MCTS)

#: the flat search's playout policy: the bot's (`KernelPlayouts`); its horizon and its
#: judgement depend on the seats and are the bot's too (`cubed_work`)
GREED = KernelPlayouts.GREED


#: rows of the integer work array: placements (rotation, cell), the kernels' own room for
#: placements, root moves (kind, rotation, cell), and the moves still in a search
W_ROT, W_CELL, W_OUT_ROT, W_OUT_CELL, W_KIND, W_RROT, W_RCELL, W_ALIVE, W_ORDER = range(9)
#: rows of the float work array: placement values, playout totals and visits per root move,
#: match totals, rewards per seat, and the playouts' settings (`S_*`)
F_VALUE, F_TOTAL, F_VISITS, F_TOTALS, F_REWARDS, F_SETTINGS = range(6)
#: the playouts' settings: moves after the root move, and how their end is judged
#: (`search_hooks.flat_horizon`, `flat_judge`, as `KernelPlayouts` reads them)
S_HORIZON, S_TEMPERATURE, S_FIELD, S_PER_PIECE = range(4)


#: what `cubed_choose` works in
CubedWork = tuple[k.Game, Arr, Arr]


def cubed_work(players: int) -> CubedWork:
    """Room for the CUBED opponents: a scratch game and the work arrays above, with the
    playout settings the `mcts` bot's flat search uses with `players` seats."""
    ints = np.zeros((9, k.MAX_MOVES), dtype=np.int64)
    floats = np.zeros((6, k.MAX_MOVES), dtype=np.float64)
    field, per_piece, temperature = flat_judge(players)
    settings = floats[F_SETTINGS]
    settings[S_HORIZON] = flat_horizon(players)
    settings[S_TEMPERATURE] = temperature
    settings[S_FIELD] = float(field)
    settings[S_PER_PIECE] = per_piece
    return k.new_game(players), ints, floats


@jit
def cubed_choose(
    st: k.Game, ed: k.Tables, work: CubedWork, rng: Arr, kind: int, budget: int
) -> tuple[int, int, int, int]:
    """The move of the seat to move by the opponent `kind` (`GREEDY` or `MCTS` with
    `budget` playouts): `(move kind, rotation code, kernel cell, placements)` with move kind
    0 a placement, 1 the draw, 2 the pass (as `vector._move` plays them), and the
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
    settings = floats[F_SETTINGS]
    horizon = int(settings[S_HORIZON])
    temperature = settings[S_TEMPERATURE]
    field = settings[S_FIELD] != 0.0
    per_piece = settings[S_PER_PIECE]
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
                    horizon,
                    GREED,
                    match,
                    True,
                    temperature,
                    field,
                    per_piece,
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
