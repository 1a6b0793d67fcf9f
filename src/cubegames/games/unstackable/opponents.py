"""The opponent Unstackable's compiled vector environment (`games/unstackable/vector.py`)
plays inside its kernel: the greedy bot's heuristic (`Unstackable.greedy_move`). Which bot
names run here: `cubegames.rl.kernel_opponents.spec`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from cubegames.core import compiled  # noqa: F401 (numba's cache kept true first)
from cubegames.games.unstackable import search as _search
from cubegames.games.unstackable import vector_rules as vr
from cubegames.games.unstackable.solver_kernel import removable as sk_removable
from cubegames.kit.vector import GREEDY, RANDOM

_U1 = np.uint64(1)

#: the kinds of opponent the kernel plays (`kit.vector`)
KINDS = (RANDOM, GREEDY)


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
