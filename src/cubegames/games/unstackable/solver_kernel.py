"""Unstackable's second stage as a compiled kernel (numba): the exact alpha-beta solver.

The rules of stage 2 are the Python ones (`bitboard.removable`, `search.removable`); this
module repeats them on 64-bit integers in nopython code so that a search visits millions of
positions a second instead of half a million. It is tested position by position against
the Python rules and value by value against `search.Solver` (`tests/unstackable/
test_solver_kernel.py`); no rule lives only here.

The search is the one `search.Solver` documents (negamax over single removals that
negates only where a turn ends, values are future point differences for the player making
the next removal), written as a loop over an explicit stack of frames (numba caches no
recursive function safely), with:

- a transposition table in one `uint64` array of `2**bits` rows, each `occupied, yellow,
  red, packed` where `packed` holds the lower and upper bound, the plies searched and the
  best cell; rows go in buckets of two, the first kept for the deeper search, the second
  for the latest, and a search of the same depth merges its bounds with the row's;
- a bound on what each player can still score (`bounds`): the seats and piles of the
  coming removals follow from the cubes left alone, so each player scores at most the most
  valuable cubes left in their pile slots and at least the least valuable. When the two
  bounds on the point difference meet (one colour left, say only black) the node is
  closed without a search. With `use_bounds=2` they also cut nodes whose window lies
  outside them; measured, that costs more nodes than it saves (the bound returned is
  looser than a searched value, so the table learns less), so the default is 1;
- move ordering: the table's cell, then by the points the removal scores now, then the
  highest cell first.

A search can stop at a deadline: every 4096 nodes it reads the clock (in object mode) and
unwinds when the deadline has passed, storing nothing on the way out.

Compilation is cached on disk (`cache=True`): the first call on a machine compiles for
a few seconds, later processes load the machine code.
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt
from numba import njit, objmode

from cubegames.core import compiled  # noqa: F401  (drops numba caches older than the kernels)

U64 = np.uint64
_ONE = U64(1)
_X_LOW = U64(0x1111_1111_1111_1111)
_X_HIGH = U64(0x8888_8888_8888_8888)
_Y_LOW = U64(0x000F_000F_000F_000F)
_Y_HIGH = U64(0xF000_F000_F000_F000)
_FLOOR = U64(0xFFFF)
_DEBRUIJN = U64(0x03F7_9D71_B4CB_0A89)
_DEBRUIJN_CELLS = np.array(
    [
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
    ],
    dtype=np.int64,
)  # fmt: skip
#: beyond any reachable point difference
INFINITY = 1000
#: bits of the packed table field: low and high bounds (+ OFFSET), plies, best cell + 1
_OFFSET = 2048
_CLOCK_EVERY = 4096

Table = npt.NDArray[np.uint64]


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> int:
    """The number of set bits of a 64-bit board."""
    x = x - ((x >> _ONE) & U64(0x5555_5555_5555_5555))
    x = (x & U64(0x3333_3333_3333_3333)) + ((x >> U64(2)) & U64(0x3333_3333_3333_3333))
    x = (x + (x >> U64(4))) & U64(0x0F0F_0F0F_0F0F_0F0F)
    return int(np.int64((x * U64(0x0101_0101_0101_0101)) >> U64(56)))


@njit(cache=True, inline="always")
def lowest_cell(bit: np.uint64) -> int:
    """The cell of a board holding exactly one bit."""
    return int(_DEBRUIJN_CELLS[np.int64((bit * _DEBRUIJN) >> U64(58))])


@njit(cache=True, inline="always")
def removable(occ: np.uint64, bag: bool) -> np.uint64:
    """The cubes of `occ` that may be removed (the rule of `search.removable`: nothing on
    top, at least two side faces exposed, or one when the bag counts as exposed)."""
    east = _X_HIGH | ~(occ >> _ONE)
    west = _X_LOW | ~(occ << _ONE)
    north = _Y_HIGH | ~(occ >> U64(4))
    south = _Y_LOW | ~(occ << U64(4))
    two = (east & west) | (north & south) | ((east | west) & (north | south))
    if bag:
        two |= _FLOOR & (east | west | north | south)
    return occ & ~(occ >> U64(16)) & two


@njit(cache=True, inline="always")
def _take(
    slots: int,
    counts: tuple[int, int, int],
    gains: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    most: bool,
) -> int:
    """The most (`most`) or the least `slots` cubes of `counts` (Y, R, K) can score with a
    pile's `gains`, taking colours in `order` (by falling gain) or the reverse."""
    total = 0
    left = slots
    for j in range(3):
        c = order[j] if most else order[2 - j]
        n = min(left, counts[c])
        total += n * gains[c]
        left -= n
    return total


@njit(cache=True)
def bounds(
    y: np.uint64,
    r: np.uint64,
    k: np.uint64,
    plies: int,
    gains: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """The least and the most the future point difference (the player making the next
    removal minus the other) can be over the next `plies` removals (`gains[p]` scores pile
    `p + 1`, `order[p]` its colours by falling gain).

    Seats and piles of the coming removals follow from the cubes left alone; each player
    scores at most the most valuable cubes left in each of their pile slots and at least
    the least valuable (every gain is at least 0). When one colour is left the two bounds
    meet: the value is known without a search.
    """
    counts = (popcount(y), popcount(r), popcount(k))
    left = counts[0] + counts[1] + counts[2]
    n = min(plies, left)
    if (64 - left) & 1 == 0:  # a turn begins: me 1 2, them 1 2, me 1 2, ...
        me1, me2, them1, them2 = (n + 3) // 4, (n + 2) // 4, (n + 1) // 4, n // 4
    else:  # my second removal, then them 1 2, me 1 2, ...
        me2, them1, them2, me1 = (n + 3) // 4, (n + 2) // 4, (n + 1) // 4, n // 4
    g1, g2, o1, o2 = gains[0], gains[1], order[0], order[1]
    my_most = _take(me1, counts, g1, o1, True) + _take(me2, counts, g2, o2, True)
    my_least = _take(me1, counts, g1, o1, False) + _take(me2, counts, g2, o2, False)
    their_most = _take(them1, counts, g1, o1, True) + _take(them2, counts, g2, o2, True)
    their_least = _take(them1, counts, g1, o1, False) + _take(them2, counts, g2, o2, False)
    return my_least - their_most, my_most - their_least


@njit(cache=True)
def _late(clock: npt.NDArray[np.float64]) -> bool:
    """True once the deadline `clock[0]` has passed (reads the clock in object mode)."""
    with objmode(now="float64"):
        now = time.perf_counter()
    return bool(now > clock[0])


@njit(cache=True, inline="always")
def _slot(table: Table, occ: np.uint64, y: np.uint64, r: np.uint64) -> int:
    h = (
        occ * U64(0x9E37_79B9_7F4A_7C15)
        ^ y * U64(0xC2B2_AE3D_27D4_EB4F)
        ^ r * U64(0x1656_67B1_9E37_79F9)
    )
    h ^= h >> U64(29)
    return int(np.int64(h & U64(table.shape[0] - 1)))


@njit(cache=True)
def _order_moves(
    y: np.uint64,
    r: np.uint64,
    k: np.uint64,
    tt_cell: int,
    gains: npt.NDArray[np.int64],
    bag: bool,
    out: npt.NDArray[np.int64],
) -> int:
    """Write the removals of the position into `out`, best first, each as `score * 64 +
    cell`, and return how many there are: the table's cell, then by the points the removal
    scores now, then the highest cell first (top layers before lower ones, which measured
    fewer nodes than lowest first or a history heuristic)."""
    occ = y | r | k
    left = popcount(occ)
    gain = gains[(64 - left) & 1]
    free = removable(occ, bag)
    n = 0
    board = free
    while board:
        bit = board & (~board + _ONE)
        board ^= bit
        cell = lowest_cell(bit)
        colour = 0 if y & bit else 1 if r & bit else 2
        score = gain[colour] << 40
        if cell == tt_cell:
            score = 1 << 50
        out[n] = score * 64 + cell
        n += 1
    for i in range(1, n):  # insertion sort, best first
        item = out[i]
        j = i - 1
        while j >= 0 and out[j] < item:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = item
    return n


@njit(cache=True)
def search_root(
    table: Table,
    y0: np.uint64,
    r0: np.uint64,
    k0: np.uint64,
    depth0: int,
    alpha0_: int,
    beta0_: int,
    gains: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
    bag: bool,
    use_bounds: int,
    stats: npt.NDArray[np.int64],
    clock: npt.NDArray[np.float64],
) -> int:
    """The value of the position searched `depth0` plies (at most the cubes left); the
    best cell lands in `stats[4]`, and `stats[3]` is 1 if the deadline `clock[0]` (0:
    none) passed first, the value then meaningless. `stats[0:3]` count nodes, table probes
    and table hits.

    Fail-soft alpha-beta written as a loop over an explicit stack of frames, one per ply
    (numba caches no recursive function safely).
    """
    size = 66
    ys = np.zeros(size, dtype=np.uint64)
    rs = np.zeros(size, dtype=np.uint64)
    ks = np.zeros(size, dtype=np.uint64)
    depth = np.zeros(size, dtype=np.int64)
    alpha = np.zeros(size, dtype=np.int64)
    beta = np.zeros(size, dtype=np.int64)
    alpha0 = np.zeros(size, dtype=np.int64)
    best = np.zeros(size, dtype=np.int64)
    best_cell = np.zeros(size, dtype=np.int64)
    points = np.zeros(size, dtype=np.int64)
    cell_now = np.zeros(size, dtype=np.int64)
    slots = np.zeros(size, dtype=np.int64)
    count = np.zeros(size, dtype=np.int64)
    nxt = np.zeros(size, dtype=np.int64)
    moves = np.zeros((size, 64), dtype=np.int64)
    stats[3] = 0
    stats[4] = -1
    occ0 = y0 | r0 | k0
    ys[0], rs[0], ks[0] = y0, r0, k0
    depth[0] = min(depth0, popcount(occ0))
    alpha[0], beta[0] = alpha0_, beta0_
    ply = 0
    entering = True
    have_ret = False
    ret = 0
    while True:
        if entering:
            entering = False
            stats[0] += 1
            if clock[0] > 0.0 and stats[0] % _CLOCK_EVERY == 0 and _late(clock):
                stats[3] = 1
                return 0
            y, r, k = ys[ply], rs[ply], ks[ply]
            occ = y | r | k
            a, b, d = alpha[ply], beta[ply], depth[ply]
            tt_cell = -1
            bucket = _slot(table, occ, y, r) & ~1
            slots[ply] = bucket
            stats[1] += 1
            for slot in (bucket, bucket + 1):
                if table[slot, 0] == occ and table[slot, 1] == y and table[slot, 2] == r:
                    stats[2] += 1
                    packed = table[slot, 3]
                    low = int(np.int64(packed & U64(0xFFFF))) - _OFFSET
                    high = int(np.int64((packed >> U64(16)) & U64(0xFFFF))) - _OFFSET
                    done = int(np.int64((packed >> U64(32)) & U64(0xFF)))
                    tt_cell = int(np.int64((packed >> U64(40)) & U64(0xFF))) - 1
                    if done >= d and ply > 0:
                        if low >= b:
                            ret, have_ret = low, True
                        elif high <= a:
                            ret, have_ret = high, True
                        elif low == high:
                            ret, have_ret = low, True
                    break
            if not have_ret and ply > 0 and use_bounds:
                # what each side can still score bounds the value from both sides
                # they meet when one colour is left: the value is known; with
                # use_bounds == 2 a window outside them also closes the node
                least, most = bounds(y, r, k, d, gains, order)
                if least == most or (use_bounds == 2 and most <= a):
                    ret, have_ret = most, True
                elif use_bounds == 2 and least >= b:
                    ret, have_ret = least, True
            if not have_ret:
                count[ply] = _order_moves(y, r, k, tt_cell, gains, bag, moves[ply])
                nxt[ply] = 0
                best[ply] = -INFINITY
                best_cell[ply] = -1
                alpha0[ply] = a
        if have_ret:  # hand `ret` to the parent frame
            have_ret = False
            if ply == 0:
                return ret
            ply -= 1
            left = popcount(ys[ply] | rs[ply] | ks[ply])
            value = points[ply] + ret if (64 - left) & 1 == 0 else points[ply] - ret
            if value > best[ply]:
                best[ply], best_cell[ply] = value, cell_now[ply]
                if value > alpha[ply]:
                    alpha[ply] = value
                    if value >= beta[ply]:
                        nxt[ply] = count[ply]
        # the frame's next move: a leaf is scored here, anything else pushes a child
        y, r, k = ys[ply], rs[ply], ks[ply]
        pile = (64 - popcount(y | r | k)) & 1
        pushed = False
        while nxt[ply] < count[ply]:
            cell = int(moves[ply, nxt[ply]] & 63)
            nxt[ply] += 1
            bit = _ONE << U64(cell)
            colour = 0 if y & bit else 1 if r & bit else 2
            pts = int(gains[pile, colour])
            if depth[ply] == 1:
                if pts > best[ply]:
                    best[ply], best_cell[ply] = pts, cell
                    if pts > alpha[ply]:
                        alpha[ply] = pts
                        if pts >= beta[ply]:
                            nxt[ply] = count[ply]
                continue
            points[ply] = pts
            cell_now[ply] = cell
            c = ply + 1
            ys[c], rs[c], ks[c] = y & ~bit, r & ~bit, k & ~bit
            depth[c] = depth[ply] - 1
            if pile == 0:  # the same player removes again
                alpha[c], beta[c] = alpha[ply] - pts, beta[ply] - pts
            else:  # the other player's turn begins
                alpha[c], beta[c] = pts - beta[ply], pts - alpha[ply]
            pushed = True
            break
        if pushed:
            ply += 1
            entering = True
            continue
        # every move tried: store the bounds, return the best value
        value = int(best[ply])
        if value <= alpha0[ply]:
            low, high = -INFINITY, value
        elif value >= beta[ply]:
            low, high = value, INFINITY
        else:
            low = high = value
        if ply == 0:
            stats[4] = best_cell[0]
        # a bucket of two rows: the position's own row if there is one, else the first
        # row unless it holds a deeper search, else the second
        occ = y | r | k
        bucket = slots[ply]
        slot = bucket + 1
        for row in (bucket, bucket + 1):
            if table[row, 0] == occ and table[row, 1] == y and table[row, 2] == r:
                slot = row
                packed = table[row, 3]
                if int(np.int64((packed >> U64(32)) & U64(0xFF))) == depth[ply]:
                    # the same depth searched with another window: keep both bounds
                    old_low = int(np.int64(packed & U64(0xFFFF))) - _OFFSET
                    old_high = int(np.int64((packed >> U64(16)) & U64(0xFFFF))) - _OFFSET
                    if max(low, old_low) <= min(high, old_high):
                        low, high = max(low, old_low), min(high, old_high)
                break
        else:
            if int(np.int64((table[bucket, 3] >> U64(32)) & U64(0xFF))) <= depth[ply]:
                slot = bucket
        table[slot, 0] = occ
        table[slot, 1] = y
        table[slot, 2] = r
        table[slot, 3] = (
            U64(low + _OFFSET)
            | (U64(high + _OFFSET) << U64(16))
            | (U64(depth[ply]) << U64(32))
            | (U64(best_cell[ply] + 1) << U64(40))
        )
        ret, have_ret = value, True


def new_table(bits: int) -> Table:
    """An empty transposition table of `2**bits` rows."""
    return np.zeros((1 << bits, 4), dtype=np.uint64)
