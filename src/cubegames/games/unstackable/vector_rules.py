"""Many Unstackable games stepped together in compiled code (numba), for the batched
learning environment (`cubegames.games.unstackable.vector`).

The rules are the Python ones (`state.py`, `bitboard.py`), repeated on arrays: every game
is three 64-bit colour boards and a row of small integers. The learning environment's
tests decode each game back into an `UnstackableState` and check its legal moves and its
observation against the Python rules and encoders, step after step.

Actions are those of `cubegames.games.unstackable.rl` (281): `c·72 + k` stacks colour `c`
on stacking cell `k` (a grid cell below 64, `-1,y,0` at `64 + y`, `x,-1,0` at `68 + x`),
`216 + i` removes the cube on cell `i`, `280` ends a stacking turn (`exact_counts =
false`).

Row `st[g]` of a game `g` (`FIELDS` names them):

    0 stage (0 stacking, 1 unstacking, 2 over)    1 seat to move (-1 once over)
    2, 3, 4 supply of yellow, red, black          5 turn colour (-1 none)   6 placed
    7 removed this turn (0 or 1)                  8 last red (-1 none)
    9 + 6·seat + 3·pile + colour: cubes in that seat's pile (0 for pile 1, 1 for pile 2)
    21 the seat that made the last move
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from cubegames.games.unstackable.solver_kernel import (
    _FLOOR,
    _ONE,
    _X_HIGH,
    _X_LOW,
    _Y_HIGH,
    _Y_LOW,
    U64,
    lowest_cell,
    removable,
)

_TOP = U64(0xFFFF_0000_0000_0000)

STAGE, TO_MOVE, SUPPLY, COLOUR, PLACED, REMOVED, LAST_RED, PILES, LAST_MOVER = (
    0, 1, 2, 5, 6, 7, 8, 9, 21,
)  # fmt: skip
FIELDS = 22
STACK_CELLS = 72
REMOVALS = 216
END = 280
ACTIONS = 281

Boards = npt.NDArray[np.uint64]
Rows = npt.NDArray[np.int64]


@njit(cache=True, inline="always")
def placements(occ: np.uint64) -> np.uint64:
    """The grid cells a cube may go to (`bitboard.placements`)."""
    if occ == 0:
        return _ONE
    floor = occ & _FLOOR
    side = ((floor & ~_X_HIGH) << _ONE) | ((floor & ~_X_LOW) >> _ONE)
    side |= ((floor & ~_Y_HIGH) << U64(4)) | ((floor & ~_Y_LOW) >> U64(4))
    up = (occ & ~_TOP) << U64(16)
    return ((side & _FLOOR) | up) & ~occ


@njit(cache=True, inline="always")
def edges(occ: np.uint64) -> tuple[int, int]:
    """The rows `y` open on `-1,y,0` and the columns `x` on `x,-1,0`, as 4 bits each
    (`bitboard.edge_placements`)."""
    if occ == 0:
        return 0, 0
    west = 0
    south = 0
    if occ & _X_HIGH == 0:
        for y in range(4):
            if occ & (_ONE << U64(4 * y)):
                west |= 1 << y
    if occ & _Y_HIGH == 0:
        for x in range(4):
            if occ & (_ONE << U64(x)):
                south |= 1 << x
    return west, south


@njit(cache=True)
def reset(boards: Boards, st: Rows, g: int, counts: Rows) -> None:
    """Game `g` back to the bare bag, seat 0 to stack."""
    boards[g, 0] = boards[g, 1] = boards[g, 2] = U64(0)
    st[g, :] = 0
    st[g, TO_MOVE] = 0
    for c in range(3):
        st[g, SUPPLY + c] = counts[c]
    st[g, COLOUR] = -1
    st[g, LAST_RED] = -1
    st[g, LAST_MOVER] = -1


@njit(cache=True)
def legal(
    boards: Boards, st: Rows, g: int, bag: bool, exact: bool, out: npt.NDArray[np.bool_]
) -> int:
    """Write game `g`'s legal actions into `out` (281 booleans); return how many."""
    out[:] = False
    if st[g, STAGE] == 2:
        return 0
    occ = boards[g, 0] | boards[g, 1] | boards[g, 2]
    n = 0
    if st[g, STAGE] == 1:
        free = removable(occ, bag)
        while free:
            bit = free & (~free + _ONE)
            free ^= bit
            out[REMOVALS + lowest_cell(bit)] = True
            n += 1
        return n
    targets = placements(occ)
    west, south = edges(occ)
    for c in range(3):
        if st[g, COLOUR] >= 0 and st[g, COLOUR] != c:
            continue
        if st[g, SUPPLY + c] == 0:
            continue
        base = c * STACK_CELLS
        board = targets
        while board:
            bit = board & (~board + _ONE)
            board ^= bit
            out[base + lowest_cell(bit)] = True
            n += 1
        for j in range(4):
            if west >> j & 1:
                out[base + 64 + j] = True
                n += 1
            if south >> j & 1:
                out[base + 68 + j] = True
                n += 1
    if not exact and st[g, COLOUR] >= 0:
        out[END] = True
        n += 1
    return n


@njit(cache=True)
def _end_turn(boards: Boards, st: Rows, g: int, seat: int) -> None:
    st[g, COLOUR] = -1
    st[g, PLACED] = 0
    if st[g, SUPPLY] == 0 and st[g, SUPPLY + 1] == 0:  # only black left: fill, stage 2
        occ = boards[g, 0] | boards[g, 1] | boards[g, 2]
        boards[g, 2] |= ~occ
        st[g, SUPPLY + 2] = 0
        st[g, STAGE] = 1
        st[g, REMOVED] = 0
        st[g, TO_MOVE] = 1 - st[g, LAST_RED]
    else:
        st[g, TO_MOVE] = 1 - seat


@njit(cache=True)
def play(boards: Boards, st: Rows, g: int, action: int, per_turn: Rows) -> None:
    """Play a legal `action` in game `g`."""
    seat = st[g, TO_MOVE]
    st[g, LAST_MOVER] = seat
    if action == END:
        _end_turn(boards, st, g, seat)
        return
    if action < REMOVALS:
        c, k = action // STACK_CELLS, action % STACK_CELLS
        if k >= 64:  # before the structure: it shifts by one to stay in the corner
            shift = U64(1) if k < 68 else U64(4)
            for j in range(3):
                boards[g, j] = boards[g, j] << shift
            k = 4 * (k - 64) if k < 68 else k - 68
        boards[g, c] |= _ONE << U64(k)
        st[g, SUPPLY + c] -= 1
        st[g, COLOUR] = c
        st[g, PLACED] += 1
        if c == 1:
            st[g, LAST_RED] = seat
        if st[g, PLACED] < per_turn[c] and st[g, SUPPLY + c] > 0:
            return
        _end_turn(boards, st, g, seat)
        return
    bit = _ONE << U64(action - REMOVALS)
    c = 0 if boards[g, 0] & bit else 1 if boards[g, 1] & bit else 2
    boards[g, c] &= ~bit
    st[g, PILES + 6 * seat + 3 * st[g, REMOVED] + c] += 1
    if st[g, REMOVED] == 0:
        st[g, REMOVED] = 1
        return
    st[g, REMOVED] = 0
    if boards[g, 0] | boards[g, 1] | boards[g, 2]:
        st[g, TO_MOVE] = 1 - seat
    else:
        st[g, STAGE] = 2
        st[g, TO_MOVE] = -1


@njit(cache=True)
def points(st: Rows, g: int, seat: int, gains: Rows) -> int:
    """The points in `seat`'s piles."""
    total = 0
    for p in range(2):
        for c in range(3):
            total += st[g, PILES + 6 * seat + 3 * p + c] * gains[p, c]
    return total


@njit(cache=True)
def observe(
    boards: Boards,
    st: Rows,
    g: int,
    seat: int,
    bag: bool,
    counts: Rows,
    gains: Rows,
    most: float,
    out: npt.NDArray[np.float32],
) -> None:
    """Game `g` as `seat` sees it, in the layout of `cubegames.games.unstackable.rl`
    (planes `[c, z, y, x]` flattened, then the 36-value vector)."""
    out[:] = 0.0
    occ = boards[g, 0] | boards[g, 1] | boards[g, 2]
    for c in range(3):
        board = boards[g, c]
        while board:
            bit = board & (~board + _ONE)
            board ^= bit
            out[64 * c + lowest_cell(bit)] = 1.0
    over = st[g, STAGE] == 2
    stacking = st[g, STAGE] == 0
    if not over:
        marked = placements(occ) if stacking else removable(occ, bag)
        plane = 192 if stacking else 256
        while marked:
            bit = marked & (~marked + _ONE)
            marked ^= bit
            out[plane + lowest_cell(bit)] = 1.0
    v = 320
    for c in range(3):
        out[v + c] = np.float32(st[g, SUPPLY + c]) / np.float32(counts[c])
    if stacking:
        if st[g, COLOUR] >= 0:
            out[v + 4 + st[g, COLOUR]] = 1.0
        out[v + 7] = st[g, PLACED] / 3.0
    else:
        out[v + 3] = 1.0
        out[v + 8] = st[g, REMOVED]
    if over:
        out[v + 11] = 1.0
    else:
        out[v + 9 + (0 if st[g, TO_MOVE] == seat else 1)] = 1.0
    if st[g, LAST_RED] >= 0:
        out[v + 12 + (0 if st[g, LAST_RED] == seat else 1)] = 1.0
    for k in range(2):
        who = seat if k == 0 else 1 - seat
        for p in range(2):
            for c in range(3):
                n = st[g, PILES + 6 * who + 3 * p + c]
                out[v + 14 + 6 * k + 3 * p + c] = np.float32(n) / np.float32(counts[c])
        out[v + 26 + k] = points(st, g, who, gains) / most
    if stacking:
        west, south = edges(occ)
        for j in range(4):
            out[v + 28 + j] = west >> j & 1
            out[v + 32 + j] = south >> j & 1


@njit(cache=True, inline="always")
def _random(rng: npt.NDArray[np.uint64], g: int) -> np.uint64:
    """The next number of game `g`'s splitmix64 generator."""
    rng[g] += U64(0x9E37_79B9_7F4A_7C15)
    z: np.uint64 = rng[g]
    z = (z ^ (z >> U64(30))) * U64(0xBF58_476D_1CE4_E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D0_49BB_1331_11EB)
    return U64(z ^ (z >> U64(31)))


@njit(cache=True)
def random_action(mask: npt.NDArray[np.bool_], n: int, rng: npt.NDArray[np.uint64], g: int) -> int:
    """A uniformly random action among the `n` set in `mask`."""
    pick = int(np.int64(_random(rng, g) % U64(n)))
    for a in range(mask.shape[0]):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True)
def step(
    boards: Boards,
    st: Rows,
    actions: Rows,
    pending: npt.NDArray[np.bool_],
    rng: npt.NDArray[np.uint64],
    versus_random: bool,
    bag: bool,
    exact: bool,
    per_turn: Rows,
    counts: Rows,
    gains: Rows,
    most: float,
    obs: npt.NDArray[np.float32],
    rewards: npt.NDArray[np.float32],
    terminated: npt.NDArray[np.bool_],
    illegal: npt.NDArray[np.bool_],
    masks: npt.NDArray[np.bool_],
    to_move: Rows,
) -> None:
    """Step every game with its action, writing observations, rewards, terminations,
    illegal actions, masks and seats to move (see `cubegames.games.unstackable.vector` for
    the conventions).

    A game `pending` a reset (it ended at the last step) is reset and its action ignored.
    An illegal action loses the game for the seat that sent it (reward -1).
    """
    for g in range(st.shape[0]):
        rewards[g] = 0.0
        terminated[g] = False
        illegal[g] = False
        if pending[g]:
            pending[g] = False
            reset(boards, st, g, counts)
        else:
            n = legal(boards, st, g, bag, exact, masks[g])
            seat = st[g, TO_MOVE]
            a = actions[g]
            if a < 0 or a >= ACTIONS or not masks[g, a]:
                rewards[g] = -1.0
                terminated[g] = True
                illegal[g] = True
                pending[g] = True
                st[g, LAST_MOVER] = seat
            else:
                play(boards, st, g, a, per_turn)
                if versus_random:
                    while st[g, STAGE] != 2 and st[g, TO_MOVE] == 1:
                        n = legal(boards, st, g, bag, exact, masks[g])
                        play(boards, st, g, random_action(masks[g], n, rng, g), per_turn)
                if st[g, STAGE] == 2:
                    mover = 0 if versus_random else seat
                    mine = points(st, g, mover, gains)
                    theirs = points(st, g, 1 - mover, gains)
                    rewards[g] = 1.0 if mine > theirs else -1.0 if mine < theirs else 0.0
                    terminated[g] = True
                    pending[g] = True
        viewer = st[g, TO_MOVE]
        if terminated[g]:
            viewer = 0 if versus_random else st[g, LAST_MOVER]
        observe(boards, st, g, viewer, bag, counts, gains, most, obs[g])
        if terminated[g]:
            masks[g, :] = False
            to_move[g] = -1
        else:
            legal(boards, st, g, bag, exact, masks[g])
            to_move[g] = st[g, TO_MOVE]


@njit(cache=True)
def reset_all(
    boards: Boards,
    st: Rows,
    pending: npt.NDArray[np.bool_],
    bag: bool,
    exact: bool,
    counts: Rows,
    gains: Rows,
    most: float,
    obs: npt.NDArray[np.float32],
    masks: npt.NDArray[np.bool_],
    to_move: Rows,
) -> None:
    """Every game back to the bare bag, with its observation, mask and seat to move."""
    for g in range(st.shape[0]):
        pending[g] = False
        reset(boards, st, g, counts)
        observe(boards, st, g, 0, bag, counts, gains, most, obs[g])
        legal(boards, st, g, bag, exact, masks[g])
        to_move[g] = 0


@njit(cache=True)
def seat_rewards(
    terminated: npt.NDArray[np.bool_],
    illegal: npt.NDArray[np.bool_],
    rewards: npt.NDArray[np.float32],
    movers: npt.NDArray[np.int64],
    out: npt.NDArray[np.float64],
) -> None:
    """Each seat's reward at the end of a game into `out` (games by seats), 0 elsewhere:
    the mover's reward to the mover and, two seats being zero-sum, its opposite to the other
    seat, but nothing when the mover lost by an illegal action."""
    for i in range(terminated.shape[0]):
        out[i, 0] = 0.0
        out[i, 1] = 0.0
        if terminated[i]:
            mover = movers[i]
            out[i, mover] = rewards[i]
            if not illegal[i]:
                out[i, 1 - mover] = -rewards[i]
