"""The CUBED rules compiled with numba: the same placements and turns as `state.py`, on arrays.

The Python rules (`state.py`, `frontier.py`, `placement.py`) are the reference and the
readable spec; this kernel plays the same rules for the paths where speed matters (random
simulations, the search bot's playouts in `search_kernel.py`, the batched learning
environment) and is tested move for move against them (`tests/cubed/test_compiled_rules.py`).
`kernel_bridge.py` moves positions between the two. Covered: two or more players, the
strict colour rule, the variants `bridging` and `void` (a pending bonus or gift is part of
the position) and `draw3`'s draw (played by the search's playouts); a round's end is handed
back to Python, which scores it and deals the next round. Solo play (one player, spec §8) is
covered for the search's playouts and for random-bot games (`play_solo_random`): placements
while one fits, else up to two draws, and the losses of `solo_check` (its deal stays in
Python). Random-bot games use it through `random_playout` with any number of players and
no variants, and through the batch path (`batch_games`, which deals in the kernel) with two
or more.

Encodings
---------
A piece as placed is `code = top * 64 + left * 8 + right` (colour indexes below 8). A cell
`(q, r)` is `(q + OFF) * W + (r + OFF)`, so sorting cells sorts them by `(q, r)` as the
Python rules do. For every empty cell next to the table, `edges[cell * 6 + d]` is what
touches it across edge `d`: -1, or the neighbour's facing colour plus `FLAG` (32) when the
neighbour is a blocking piece; `touch` and `dead` count occupied and black edges.

A game is a named tuple of arrays, `Game` (`st.meta`, `st.tab`, ...); `meta` holds the
small fields (`M_*` below), `have[seat, key]` counts the pieces of each least rotation in a
hand and `hbits[seat]` marks, by text rank, the rotations those pieces can show (32 bits a
word). An edition is a named tuple `Tables` (`ed.acc`, `ed.canon`, ...) built by
`kernel_bridge.tables`; `ranked` lists the box's rotations by the text of their colours,
which is the order of the moves, and `block_rank[slot, colour]` is the rank of the blocking rotation
showing `colour` in `slot` (-1 if the box has none).

Generating placements: `shows[slot, mask]` is the set of the box's rotations (by rank) whose
colour in `slot` is in the colour set `mask`; a playable cell accepts a colour set per slot,
so the hand's rotations that fit it are three table look-ups and'ed with `hbits`. Walking
the ranks upwards, and the (sorted) playable cells for each, lists the placements in the
order of `legal_moves()`. A random playout needs only their number and the one it picks:
`fit_count` adds up the popcounts of each playable cell's set (64-bit words) and
`fit_pick` finds placement number k in that same order by walking the ranks, counting the
cells each fits, and only the picked rank's cells. (`fit_lists` and `nth_placement` do the
same by dropping each fitting (rank, cell) pair into its rank's list of cells: every
placement costs a step, where the random playouts need only one.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

from cubegames.core import compiled  # noqa: F401  (drops numba caches older than the kernels)

Arr = npt.NDArray[Any]
#: a plain tuple of arrays (the learning environment's batches and tables)
Arrays = tuple[Arr, ...]
F = TypeVar("F", bound=Callable[..., Any])


class Game(NamedTuple):
    """One game's position as arrays (numba passes a named tuple as it does a tuple)."""

    #: the small fields, `M_*`
    meta: Arr
    #: the piece code on each cell, -1 if empty
    tab: Arr
    #: per empty cell next to the table, what touches it across each edge (-1: nothing)
    edges: Arr
    #: per cell, its occupied and its black neighbouring edges
    touch: Arr
    dead: Arr
    #: the table's cells in the order laid
    order: Arr
    #: the playable cells, sorted (`meta[M_NPLAY]` of them)
    play: Arr
    #: per seat, the codes in hand (`hsize[seat]` of them)
    hands: Arr
    hsize: Arr
    #: the bag, from `meta[M_BAG_HEAD]` to `meta[M_BAG_END]`
    bag: Arr
    #: per seat, the pieces of each least rotation in hand, and the rotations they show
    have: Arr
    hbits: Arr
    #: room for `placements`
    scratch: Arr


class Tables(NamedTuple):
    """An edition as the kernel reads it (`kernel_bridge.tables`), indexed by piece code."""

    #: per edge code + 1, the colours a slot may show against it
    acc: Arr
    #: a piece's least rotation, its rank by text, its points, whether it is blocking
    canon: Arr
    rank: Arr
    points: Arr
    isblock: Arr
    #: a piece's rotations and how many there are
    rots: Arr
    nrots: Arr
    #: `I_*` fields
    info: Arr
    #: the box's rotations by the text of their colours (the order of the moves)
    ranked: Arr
    #: `shows[slot, mask]`: the rotations (by rank) whose colour in `slot` is in `mask`
    shows: Arr
    #: `block_rank[slot, colour]`: the blocking rotation showing `colour` in `slot`, or -1
    block_rank: Arr


class Room(NamedTuple):
    """Scratch room for `fit_lists`, `fit_count` and friends (`fit_scratch`)."""

    wide: Arr
    cnt: Arr
    lists: Arr
    fits: Arr
    union: Arr


def jit(fn: F) -> F:
    """Compile `fn` with numba in nopython mode, cached on disk after the first call."""
    return cast(F, njit(cache=True)(fn))


def inline(fn: F) -> F:
    """`jit`, and inlined into its callers: a call passing a game's arrays costs a
    reference count on each of them, which small helpers would pay on every move."""
    return cast(F, njit(cache=True, inline="always")(fn))


W = 128
OFF = 64
CELLS = W * W
ORIGIN = OFF * W + OFF
FLAG = 32
#: neighbour steps in directions E, NE, NW, W, SW, SE (as in `core.hexgrid`)
STEP = np.array([W, W - 1, -1, -W, -W + 1, 1], dtype=np.int64)
#: the slot (0 top, 1 left, 2 right) behind each edge
SLOT = np.array([2, 0, 0, 1, 1, 2], dtype=np.int64)
#: the two edges of each slot
SLOT_EDGES = np.array([[1, 2], [3, 4], [5, 0]], dtype=np.int64)

MAX_TABLE = 128
MAX_PLAY = 512
MAX_HAND = 128
MAX_BOX = 128
MAX_MOVES = 8192
#: bits used in each word of a bit set (low enough that products never overflow int64)
BITS = 32
#: words of a set of rotations (by rank)
RANK_WORDS = 8
MAX_RANKS = BITS * RANK_WORDS
#: scratch: per playable cell, the set of the hand's rotations that fit it, then their union
SCRATCH = (MAX_PLAY + 1) * RANK_WORDS
#: bit index of a power of two below 2**32 by de Bruijn multiplication
DEBRUIJN = 0x077CB531
DEBRUIJN_INDEX = np.array(
    [
        0,
        1,
        28,
        2,
        29,
        14,
        24,
        3,
        30,
        22,
        20,
        15,
        25,
        17,
        4,
        8,
        31,
        27,
        13,
        23,
        21,
        19,
        16,
        7,
        26,
        12,
        18,
        6,
        11,
        5,
        10,
        9,
    ],
    dtype=np.int64,
)

# meta fields
M_PLAYERS = 0
M_TO_MOVE = 1
M_DREW = 2
M_IDLE = 3
M_STUCK = 4
M_DRAWS = 5
M_NTAB = 6
M_NPLAY = 7
M_BAG_HEAD = 8
M_BAG_END = 9
M_END = 10
M_WINNER = 11
#: the variants in play (`V_*` bits), and the turn's pending bridging bonus and void gift
M_VARIANTS = 12
M_BONUS = 13
M_GIVE = 14
META = 15

# variant bits of `meta[M_VARIANTS]`
V_BRIDGING = 1
V_VOID = 2
V_DRAW3 = 4

# round endings (`state.py`): 0 while the round goes on
EMPTIED = 1
BLOCKED = 2
STALLED = 3
STANDSTILL = 4
#: solo's losses: nothing fits after two draws, or a draw is due and the bag is empty
STUCK = 5
BAG_EMPTY = 6

# edition info fields
I_BLACK = 0
I_ORDINARY = 1
I_RANK_WORDS = 2


def new_game(players: int) -> Game:
    """Empty arrays for one game of `players` seats (an empty table, nothing dealt)."""
    meta = np.zeros(META, dtype=np.int64)
    meta[M_PLAYERS] = players
    meta[M_END] = 0
    meta[M_WINNER] = -1
    tab = np.full(CELLS, -1, dtype=np.int16)
    edges = np.full(CELLS * 6, -1, dtype=np.int8)
    touch = np.zeros(CELLS, dtype=np.int8)
    dead = np.zeros(CELLS, dtype=np.int8)
    order = np.zeros(MAX_TABLE, dtype=np.int16)
    play = np.zeros(MAX_PLAY, dtype=np.int16)
    play[0] = ORIGIN
    meta[M_NPLAY] = 1
    hands = np.zeros((players, MAX_HAND), dtype=np.int16)
    hsize = np.zeros(players, dtype=np.int64)
    bag = np.zeros(MAX_BOX, dtype=np.int16)
    have = np.zeros((players, 512), dtype=np.int16)
    hbits = np.zeros((players, RANK_WORDS), dtype=np.int64)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    return Game(meta, tab, edges, touch, dead, order, play, hands, hsize, bag, have, hbits, scratch)


# -- the generators (`core.splitmix`, states below 2**64) ----------------------------------


@inline
def sm_next(rng: Arr, k: int) -> np.uint64:
    """The next 64-bit output of SplitMix64 generator `k`, whose state is `rng[k]`
    (`np.uint64`, advanced), as `splitmix.step`."""
    z = rng[k] + np.uint64(0x9E3779B97F4A7C15)
    rng[k] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: np.uint64 = z ^ (z >> np.uint64(31))
    return out


@inline
def sm_seed(seed: int) -> np.uint64:
    """The state a seed below 2**63 starts (`splitmix.from_seed`): the first output of
    SplitMix64 started at the seed."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: np.uint64 = z ^ (z >> np.uint64(31))
    return out


@inline
def sm_below(rng: Arr, k: int, n: int) -> int:
    """A number from 0 to n-1 from generator `k` as `splitmix.below` draws it: outputs at
    or past the last whole multiple of `n` below 2**64 are drawn again."""
    un = np.uint64(n)
    rem = (np.uint64(0) - un) % un  # 2**64 mod n
    limit = np.uint64(0) - rem
    while True:
        out = sm_next(rng, k)
        if rem == np.uint64(0) or out < limit:
            return int(out % un)


# -- the table ---------------------------------------------------------------------------


@inline
def colour(code: int, slot: int) -> int:
    if slot == 0:
        return code >> 6
    if slot == 1:
        return (code >> 3) & 7
    return code & 7


@inline
def _play_add(meta: Arr, play: Arr, cell: int) -> None:
    n = meta[M_NPLAY]
    i = n
    while i > 0 and play[i - 1] >= cell:
        if play[i - 1] == cell:
            return
        i -= 1
    for j in range(n, i, -1):
        play[j] = play[j - 1]
    play[i] = cell
    meta[M_NPLAY] = n + 1


@inline
def _play_remove(meta: Arr, play: Arr, cell: int) -> None:
    n = meta[M_NPLAY]
    for i in range(n):
        if play[i] == cell:
            for j in range(i, n - 1):
                play[j] = play[j + 1]
            meta[M_NPLAY] = n - 1
            return


@inline
def add_piece(st: Game, ed: Tables, code: int, cell: int) -> None:
    """Lay `code` on `cell` and bring the frontier up to date (`frontier.add_piece`)."""
    meta, tab, edges, touch, dead, order, play = (
        st.meta,
        st.tab,
        st.edges,
        st.touch,
        st.dead,
        st.order,
        st.play,
    )
    isblock, info = ed.isblock, ed.info
    black = info[I_BLACK]
    tab[cell] = code
    n = meta[M_NTAB]
    order[n] = cell
    n += 1
    meta[M_NTAB] = n
    _play_remove(meta, play, cell)
    flag = FLAG if isblock[code] else 0
    need = 1 if n == 1 else 2
    for d in range(6):
        other = cell + STEP[d]
        if tab[other] >= 0:
            continue
        c = colour(code, SLOT[d])
        edges[other * 6 + (d + 3) % 6] = c | flag
        touch[other] += 1
        if c == black:
            dead[other] += 1
        if dead[other] or touch[other] < need:
            _play_remove(meta, play, other)
        else:
            _play_add(meta, play, other)
    if n == 2:
        i = 0
        while i < meta[M_NPLAY]:
            if touch[play[i]] < 2:
                _play_remove(meta, play, play[i])
            else:
                i += 1


@jit
def load_table(st: Game, ed: Tables, cells: Arr, codes: Arr) -> None:
    """Lay a table's pieces in the order they were laid."""
    for i in range(cells.shape[0]):
        add_piece(st, ed, codes[i], cells[i])


@inline
def wipe_cells(st: Game) -> None:
    """Empty every cell of the table and forget its neighbours' contacts (`M_NTAB` and the
    playable cells are the caller's to set)."""
    meta, tab, edges, touch, dead, order = st.meta, st.tab, st.edges, st.touch, st.dead, st.order
    for i in range(meta[M_NTAB]):
        cell = order[i]
        tab[cell] = -1
        for d in range(7):
            other = cell + (STEP[d] if d < 6 else 0)
            touch[other] = 0
            dead[other] = 0
            for e in range(6):
                edges[other * 6 + e] = -1


@jit
def clear_table(st: Game) -> None:
    """An empty table: only the origin is playable."""
    meta, play = st.meta, st.play
    wipe_cells(st)
    meta[M_NTAB] = 0
    play[0] = ORIGIN
    meta[M_NPLAY] = 1


# -- placements --------------------------------------------------------------------------


@inline
def hand_add(st: Game, ed: Tables, seat: int, piece: int) -> None:
    """Put `piece` at the end of `seat`'s hand."""
    hands, hsize, have, hbits = st.hands, st.hsize, st.have, st.hbits
    canon, rank, rots, nrots = ed.canon, ed.rank, ed.rots, ed.nrots
    hands[seat, hsize[seat]] = piece
    hsize[seat] += 1
    key = canon[piece]
    have[seat, key] += 1
    if have[seat, key] == 1:
        for j in range(nrots[key]):
            r = rank[rots[key, j]]
            hbits[seat, r // BITS] |= 1 << (r % BITS)


@inline
def hand_remove(st: Game, ed: Tables, seat: int, key: int) -> None:
    """Take the first piece whose least rotation is `key` out of `seat`'s hand."""
    hands, hsize, have, hbits = st.hands, st.hsize, st.have, st.hbits
    canon, rank, rots, nrots = ed.canon, ed.rank, ed.rots, ed.nrots
    size = hsize[seat]
    for i in range(size):
        if canon[hands[seat, i]] == key:
            for j in range(i, size - 1):
                hands[seat, j] = hands[seat, j + 1]
            hsize[seat] = size - 1
            break
    have[seat, key] -= 1
    if have[seat, key] == 0:
        for j in range(nrots[key]):
            r = rank[rots[key, j]]
            hbits[seat, r // BITS] &= ~(1 << (r % BITS))


@jit
def sync_hands(st: Game, ed: Tables) -> None:
    """Recount `have` and `hbits` from the hands (after writing them directly)."""
    hands, hsize, have, hbits = st.hands, st.hsize, st.have, st.hbits
    have[:] = 0
    hbits[:] = 0
    for seat in range(hsize.shape[0]):
        size = hsize[seat]
        hsize[seat] = 0
        for i in range(size):
            hand_add(st, ed, seat, hands[seat, i])


@inline
def lowest_bit(word: int) -> int:
    """The index of the lowest set bit of a non-zero word below 2**32."""
    low = word & -word
    return int(DEBRUIJN_INDEX[((low * DEBRUIJN) & 0xFFFFFFFF) >> 27])


@jit
def placements(st: Game, ed: Tables, seat: int, out_rot: Arr, out_cell: Arr) -> int:
    """Every legal placement of `seat`, in the order of `legal_moves()` (by the text of the
    rotation, then by cell); returns how many were written to `out_rot`, `out_cell`."""
    meta, edges, touch, play, hbits, fits = (
        st.meta,
        st.edges,
        st.touch,
        st.play,
        st.hbits,
        st.scratch,
    )
    acc, info, ranked, shows, block_rank = ed.acc, ed.info, ed.ranked, ed.shows, ed.block_rank
    ordinary = info[I_ORDINARY]
    words = info[I_RANK_WORDS]
    blocking_ok = meta[M_NTAB] >= 3
    nplay = meta[M_NPLAY]
    # fits[i * RANK_WORDS + w]: the hand's rotations (by rank) that fit the i-th cell; the
    # row after the last cell's is their union
    union_row = MAX_PLAY * RANK_WORDS
    for w in range(words):
        fits[union_row + w] = 0
    for i in range(nplay):
        cell = play[i]
        base = cell * 6
        m0 = acc[edges[base + 1] + 1] & acc[edges[base + 2] + 1]
        m1 = acc[edges[base + 3] + 1] & acc[edges[base + 4] + 1]
        m2 = acc[edges[base + 5] + 1] & acc[edges[base] + 1]
        row = i * RANK_WORDS
        for w in range(words):
            fits[row + w] = shows[0, m0, w] & shows[1, m1, w] & shows[2, m2, w] & hbits[seat, w]
        if blocking_ok and touch[cell] == 2:
            for slot in range(3):
                ea = edges[base + SLOT_EDGES[slot, 0]]
                eb = edges[base + SLOT_EDGES[slot, 1]]
                if ea >= 0 and eb >= 0 and (ea & 31) == (eb & 31) and (ea & 31) < ordinary:
                    r = block_rank[slot, ea & 31]
                    if r >= 0:
                        fits[row + r // BITS] |= hbits[seat, r // BITS] & (1 << (r % BITS))
        for w in range(words):
            fits[union_row + w] |= fits[row + w]
    count = 0
    for w in range(words):
        union = fits[union_row + w]
        while union:
            bit = union & -union
            union ^= bit
            rot = ranked[w * BITS + lowest_bit(bit)]
            for i in range(nplay):
                if fits[i * RANK_WORDS + w] & bit:
                    if count == out_rot.shape[0]:
                        raise IndexError("more placements than the kernel's move buffer holds")
                    out_rot[count] = rot
                    out_cell[count] = play[i]
                    count += 1
    return count


#: 64-bit words of a set of rotations (by rank), for `fit_lists`
WIDE = MAX_RANKS // 64


@inline
def lowest_bit64(bit: int) -> int:
    """The index of the one set bit of `bit` (any of the 64; bit 63 makes it negative)."""
    low = bit & 0xFFFFFFFF
    if low:
        return lowest_bit(low)
    return 32 + lowest_bit((bit >> 32) & 0xFFFFFFFF)


@jit
def fit_scratch(ed: Tables) -> Room:
    """Room for `fit_lists` and `nth_placement`: `(wide, cnt, lists, fits, union)`, where
    `wide[slot, mask, w]` is `shows` (`kernel_bridge.tables`) in 64-bit words."""
    shows = ed.shows
    wide = np.zeros((3, 256, WIDE), dtype=np.int64)
    for slot in range(3):
        for mask in range(256):
            for w in range(WIDE):
                wide[slot, mask, w] = shows[slot, mask, 2 * w] | (
                    shows[slot, mask, 2 * w + 1] << 32
                )
    cnt = np.zeros(MAX_RANKS, dtype=np.int64)
    lists = np.zeros(MAX_RANKS * MAX_PLAY, dtype=np.int16)
    fits = np.zeros((MAX_PLAY, WIDE), dtype=np.int64)
    union = np.zeros(WIDE, dtype=np.int64)
    return Room(wide, cnt, lists, fits, union)


@inline
def fit_lists(st: Game, ed: Tables, seat: int, room: Room) -> int:
    """The placements of `placements` without writing them out: returns how many there
    are and leaves, in `room` (`fit_scratch`), for each rotation rank `r` in `union` the
    indexes (into the playable cells, ascending) of the `cnt[r]` cells it fits in
    `lists[r * MAX_PLAY :]`; `nth_placement` then finds one in the order of
    `legal_moves()`. Each placement costs a few steps, where listing them all walks every
    rotation of the union against every playable cell; the sets are 64-bit words, half
    as many as `placements` reads."""
    cnt, lists, fits, union = room.cnt, room.lists, room.fits, room.union
    nplay = st.meta[M_NPLAY]
    fit_count(st, ed, seat, room)
    for w in range(WIDE):
        u = union[w]
        while u:
            bit = u & -u
            u ^= bit
            cnt[w * 64 + lowest_bit64(bit)] = 0
    count = 0
    for i in range(nplay):
        for w in range(WIDE):
            bits = fits[i, w]
            while bits:
                bit = bits & -bits
                bits ^= bit
                r = w * 64 + lowest_bit64(bit)
                lists[r * MAX_PLAY + cnt[r]] = i
                cnt[r] += 1
                count += 1
    return count


@inline
def nth_placement(st: Game, ed: Tables, pick: int, room: Room) -> tuple[int, int]:
    """Placement number `pick` (in the order of `legal_moves()`) of those `fit_lists`
    found: `(rotation code, cell)`."""
    play, ranked = st.play, ed.ranked
    cnt, lists, union = room.cnt, room.lists, room.union
    for w in range(WIDE):
        u = union[w]
        while u:
            bit = u & -u
            u ^= bit
            r = w * 64 + lowest_bit64(bit)
            if pick < cnt[r]:
                return ranked[r], play[lists[r * MAX_PLAY + pick]]
            pick -= cnt[r]
    raise IndexError("no such placement")


@inline
def popcount(x: int) -> int:
    """The number of set bits of a 64-bit word (the sign bit included)."""
    c = 0
    if x < 0:
        c = 1
        x &= 0x7FFFFFFFFFFFFFFF
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return c + ((x * 0x0101010101010101) >> 56)


@inline
def fit_count(st: Game, ed: Tables, seat: int, room: Room) -> int:
    """The number of placements of `fit_lists`, counted with popcounts, without listing
    them: leaves in `room` (`fit_scratch`) each playable cell's fitting rotations
    (`fits`) and their `union` for `fit_pick`."""
    meta, edges, touch, play, hbits = st.meta, st.edges, st.touch, st.play, st.hbits
    acc, info, block_rank = ed.acc, ed.info, ed.block_rank
    wide, fits, union = room.wide, room.fits, room.union
    ordinary = info[I_ORDINARY]
    blocking_ok = meta[M_NTAB] >= 3
    nplay = meta[M_NPLAY]
    h0 = hbits[seat, 0] | (hbits[seat, 1] << 32)
    h1 = hbits[seat, 2] | (hbits[seat, 3] << 32)
    h2 = hbits[seat, 4] | (hbits[seat, 5] << 32)
    h3 = hbits[seat, 6] | (hbits[seat, 7] << 32)
    u0 = u1 = u2 = u3 = 0
    count = 0
    for i in range(nplay):
        cell = play[i]
        base = cell * 6
        m0 = acc[edges[base + 1] + 1] & acc[edges[base + 2] + 1]
        m1 = acc[edges[base + 3] + 1] & acc[edges[base + 4] + 1]
        m2 = acc[edges[base + 5] + 1] & acc[edges[base] + 1]
        f0 = wide[0, m0, 0] & wide[1, m1, 0] & wide[2, m2, 0] & h0
        f1 = wide[0, m0, 1] & wide[1, m1, 1] & wide[2, m2, 1] & h1
        f2 = wide[0, m0, 2] & wide[1, m1, 2] & wide[2, m2, 2] & h2
        f3 = wide[0, m0, 3] & wide[1, m1, 3] & wide[2, m2, 3] & h3 if h3 else 0
        if blocking_ok and touch[cell] == 2:
            for slot in range(3):
                ea = edges[base + SLOT_EDGES[slot, 0]]
                eb = edges[base + SLOT_EDGES[slot, 1]]
                if ea >= 0 and eb >= 0 and (ea & 31) == (eb & 31) and (ea & 31) < ordinary:
                    r = block_rank[slot, ea & 31]
                    if r >= 0 and (hbits[seat, r // BITS] >> (r % BITS)) & 1:
                        bit = 1 << (r % 64)
                        w = r // 64
                        if w == 0:
                            f0 |= bit
                        elif w == 1:
                            f1 |= bit
                        elif w == 2:
                            f2 |= bit
                        else:
                            f3 |= bit
        fits[i, 0] = f0
        fits[i, 1] = f1
        fits[i, 2] = f2
        fits[i, 3] = f3
        u0 |= f0
        u1 |= f1
        u2 |= f2
        u3 |= f3
        count += popcount(f0) + popcount(f1) + popcount(f2) + (popcount(f3) if f3 else 0)
    union[0] = u0
    union[1] = u1
    union[2] = u2
    union[3] = u3
    return count


@inline
def fit_pick(st: Game, ed: Tables, pick: int, room: Room) -> tuple[int, int]:
    """Placement number `pick` (in the order of `legal_moves()`) of those `fit_count`
    counted: `(rotation code, cell)`. Walks the rotations in rank order, counting the
    cells each fits, and only the picked rotation's cells."""
    meta, play, ranked = st.meta, st.play, ed.ranked
    fits, union = room.fits, room.union
    nplay = meta[M_NPLAY]
    for w in range(WIDE):
        u = union[w]
        while u:
            bit = u & -u
            u ^= bit
            c = 0
            for i in range(nplay):
                c += (fits[i, w] & bit) != 0
            if pick < c:
                for i in range(nplay):
                    if fits[i, w] & bit:
                        if pick == 0:
                            return ranked[w * 64 + lowest_bit64(bit)], play[i]
                        pick -= 1
            pick -= c
    raise IndexError("no such placement")


# -- turns -------------------------------------------------------------------------------


@inline
def end_turn(st: Game, placed: bool, stuck: bool) -> None:
    """`CubedState._end_turn`: count idle and stuck turns, end the round or pass the turn."""
    meta = st.meta
    players = meta[M_PLAYERS]
    if placed:
        meta[M_IDLE] = 0
    else:
        meta[M_IDLE] = min(meta[M_IDLE] + 1, players)
    meta[M_STUCK] = meta[M_STUCK] + 1 if stuck else 0
    meta[M_DREW] = 0
    meta[M_DRAWS] = 0
    meta[M_BONUS] = 0
    meta[M_GIVE] = 0
    if meta[M_STUCK] >= players:
        meta[M_END] = STALLED
        meta[M_WINNER] = -1
        return
    if meta[M_IDLE] >= players and meta[M_BAG_HEAD] >= meta[M_BAG_END]:
        meta[M_END] = STANDSTILL
        meta[M_WINNER] = -1
        return
    meta[M_TO_MOVE] = (meta[M_TO_MOVE] + 1) % players


@inline
def arcs_and_touches(st: Game, cell: int) -> tuple[int, int]:
    """The separate runs of occupied neighbours around an empty `cell` and how many
    neighbours are occupied (`frontier.CellInfo.arcs`, `touches`)."""
    tab = st.tab
    touches = 0
    arcs = 0
    before = tab[cell + STEP[5]] >= 0
    for d in range(6):
        occupied = tab[cell + STEP[d]] >= 0
        if occupied:
            touches += 1
            if not before:
                arcs += 1
        before = occupied
    return (1 if touches == 6 else arcs), touches


@inline
def place(st: Game, ed: Tables, code: int, cell: int) -> None:
    """`CubedState._place`: lay a piece of the mover's hand; with `bridging` a placement
    that bridges a gap (outside a bonus) leaves the turn open for one more, and with `void`
    one that fills a void leaves a gift to make."""
    meta, hsize = st.meta, st.hsize
    seat = meta[M_TO_MOVE]
    variants = meta[M_VARIANTS]
    arcs, touches = arcs_and_touches(st, cell) if variants else (0, 0)
    hand_remove(st, ed, seat, ed.canon[code])
    add_piece(st, ed, code, cell)
    meta[M_DRAWS] = 0
    if hsize[seat] == 0:
        meta[M_END] = EMPTIED
        meta[M_WINNER] = seat
        return
    if meta[M_NPLAY] == 0:
        meta[M_END] = BLOCKED
        meta[M_WINNER] = -1
        return
    if variants & V_BRIDGING and meta[M_BONUS] == 0 and arcs >= 2:
        meta[M_BONUS] = 1
        return
    if variants & V_VOID and touches == 6:
        meta[M_GIVE] = 1
        return
    end_turn(st, True, False)


@inline
def pass_turn(st: Game, ed: Tables, out_rot: Arr, out_cell: Arr) -> None:
    """A pass: after a bridging bonus the turn ends as one with a placement; otherwise
    it ends stuck when nothing fits (`out_*` are room for the placements)."""
    if st.meta[M_BONUS]:
        end_turn(st, True, False)
    else:
        seat = st.meta[M_TO_MOVE]
        end_turn(st, False, placements(st, ed, seat, out_rot, out_cell) == 0)


@inline
def give(st: Game, ed: Tables, key: int, to: int) -> None:
    """`void`'s gift: the mover's first piece whose least rotation is `key` goes, as held,
    to the end of seat `to`'s hand; giving the last piece empties the mover's hand."""
    meta, hands, hsize = st.meta, st.hands, st.hsize
    seat = meta[M_TO_MOVE]
    piece = -1
    for i in range(hsize[seat]):
        if ed.canon[hands[seat, i]] == key:
            piece = hands[seat, i]
            break
    hand_remove(st, ed, seat, key)
    hand_add(st, ed, to, piece)
    meta[M_GIVE] = 0
    if hsize[seat] == 0:
        meta[M_END] = EMPTIED
        meta[M_WINNER] = seat
        return
    end_turn(st, True, False)


@inline
def skip(st: Game) -> None:
    """`void`: no gift; the turn ends as one with a placement."""
    st.meta[M_GIVE] = 0
    end_turn(st, True, False)


@inline
def draw(st: Game, ed: Tables) -> None:
    """`CubedState._draw_one`: the first piece of the bag into the mover's hand."""
    meta, bag = st.meta, st.bag
    hand_add(st, ed, meta[M_TO_MOVE], bag[meta[M_BAG_HEAD]])
    meta[M_BAG_HEAD] += 1
    meta[M_DREW] = 1
    meta[M_DRAWS] += 1


@inline
def solo_check(st: Game, ed: Tables, out_rot: Arr, out_cell: Arr) -> int:
    """`CubedState._check_solo`, after a move of a solo game (`players = 1`) that did not
    end it: when nothing fits, the game is lost if the bag is empty (a draw is due) or two
    draws were made since the last placement. Returns the placements (written to `out_*`),
    0 once the game has ended."""
    if st.meta[M_END] != 0:
        return 0
    count = placements(st, ed, 0, out_rot, out_cell)
    if count == 0:
        solo_stuck(st)
    return count


@inline
def solo_stuck(st: Game) -> None:
    """A solo game in which nothing fits: lost if the bag is empty (a draw is due) or two
    draws were made since the last placement (`solo_check`)."""
    meta = st.meta
    if meta[M_BAG_HEAD] >= meta[M_BAG_END]:
        meta[M_END] = BAG_EMPTY
    elif meta[M_DRAWS] >= 2:
        meta[M_END] = STUCK


@inline
def can_draw(st: Game) -> bool:
    """Whether the one other move is a draw (else it is a pass)."""
    meta = st.meta
    return bool(meta[M_DREW] == 0 and meta[M_BONUS] == 0 and meta[M_BAG_HEAD] < meta[M_BAG_END])


@inline
def play_index(
    st: Game,
    ed: Tables,
    pick: int,
    count: int,
    out_rot: Arr,
    out_cell: Arr,
) -> None:
    """Play legal move number `pick` of `count` placements (in `out_*`) then the draw or the
    pass, as `legal_moves()` lists them."""
    if pick < count:
        place(st, ed, out_rot[pick], out_cell[pick])
    elif can_draw(st):
        draw(st, ed)
    else:
        # nothing fitting now means nothing fitted at the start of the turn either
        end_turn(st, False, count == 0)


@jit
def play_round_random(st: Game, ed: Tables, rngs: Arr, log: Arr) -> int:
    """Play the round on as random bots would, seat `s` drawing from SplitMix64 generator
    `s` (state `rngs[s]`, advanced): each move is `randrange(len(legal_moves()))` of that
    seat's generator (`splitmix.Draws`). Writes the seat of each move into `log`; returns
    the number of moves (the round's end is in `meta`)."""
    return play_round(st, ed, rngs, log, fit_scratch(ed))


@jit
def play_solo_random(st: Game, ed: Tables, rngs: Arr, log: Arr) -> int:
    """Play a solo game (`players = 1`, spec §8) on to its end as the random bot would,
    drawing from SplitMix64 generator 0 (`rngs[0]`, advanced): each move is
    `randrange(len(legal_moves()))`, the legal moves being the placements in order, or
    the one draw when nothing fits; after every move the losses of `solo_check`. Writes
    the seat (0) of each move into `log`; returns the number of moves (the end is in
    `meta`)."""
    return play_solo(st, ed, rngs, log, fit_scratch(ed))


@inline
def play_solo(st: Game, ed: Tables, rngs: Arr, log: Arr, room: Room) -> int:
    """`play_solo_random` with room for `fit_lists` given (`fit_scratch`), for callers
    that play many games."""
    meta = st.meta
    moves = 0
    count = fit_count(st, ed, 0, room)
    while meta[M_END] == 0:
        if count > 0:
            rot, cell = fit_pick(st, ed, sm_below(rngs, 0, count), room)
            place(st, ed, rot, cell)
        else:
            sm_below(rngs, 0, 1)  # the one legal move, drawn for all the same
            draw(st, ed)
        log[moves] = 0
        moves += 1
        if meta[M_END] == 0:
            count = fit_count(st, ed, 0, room)  # the next move's, and `solo_check`'s
            if count == 0:
                solo_stuck(st)
    return moves


@inline
def play_round(st: Game, ed: Tables, rngs: Arr, log: Arr, room: Room) -> int:
    """`play_round_random` with room for `fit_lists` given (`fit_scratch`), for callers
    that play many rounds."""
    meta = st.meta
    moves = 0
    while meta[M_END] == 0:
        seat = meta[M_TO_MOVE]
        count = fit_count(st, ed, seat, room)
        pick = sm_below(rngs, seat, count + 1)
        log[moves] = seat
        moves += 1
        if pick < count:
            rot, cell = fit_pick(st, ed, pick, room)
            place(st, ed, rot, cell)
        elif can_draw(st):
            draw(st, ed)
        else:
            # nothing fitting now means nothing fitted at the start of the turn either
            end_turn(st, False, count == 0)
    return moves


@jit
def deal(st: Game, ed: Tables, box: Arr, hand_size: int, rng: Arr) -> None:
    """A fresh round from the whole box, shuffled with the position's generator (SplitMix64,
    state `rng[0]`, advanced) as `splitmix.shuffle` shuffles it: a game's first deal
    (`Cubed.new_state`) and a later round's (`CubedState._end_round`)."""
    pieces = box.copy()
    for i in range(box.shape[0] - 1, 0, -1):
        j = sm_below(rng, 0, i + 1)
        pieces[i], pieces[j] = pieces[j], pieces[i]
    deal_order(st, ed, pieces, hand_size)


@jit
def deal_solo(st: Game, ed: Tables, box: Arr, hand_size: int, rng: Arr, aside: Arr) -> int:
    """A solo game's deal (`CubedState.deal` with `_solo_setup`, spec §8), drawing from
    the position's generator (SplitMix64, state `rng[0]`, advanced) as Python does: the box
    shuffled as `deal` shuffles it, `hand_size` pieces to the hand and the rest to the bag;
    while the hand holds more than 3 blocking pieces, every blocking piece after its first
    three goes back into the bag, each at a random place (`randint(0, len(bag))`), and as
    many pieces come off the front of the bag into the hand; then the bag's first piece
    that is not blocking starts the table on the origin in a random one of its distinct
    rotations (`choice(rotations(piece))`), the blocking pieces before it set aside.
    Writes the pieces set aside, in order, to `aside`; returns how many."""
    isblock = ed.isblock
    n = box.shape[0]
    pieces = box.copy()
    for i in range(n - 1, 0, -1):
        j = sm_below(rng, 0, i + 1)
        pieces[i], pieces[j] = pieces[j], pieces[i]
    hand = pieces[:hand_size].copy()
    bag = np.zeros(n, dtype=np.int64)
    nbag = n - hand_size
    bag[:nbag] = pieces[hand_size:]
    back = np.zeros(hand_size, dtype=np.int64)
    while True:
        kept = seen = nback = 0
        for i in range(hand_size):
            piece = hand[i]
            if isblock[piece]:
                seen += 1
                if seen > 3:
                    back[nback] = piece
                    nback += 1
                    continue
            hand[kept] = piece
            kept += 1
        if nback == 0:
            break
        for t in range(nback):
            at = sm_below(rng, 0, nbag + 1)
            for i in range(nbag, at, -1):
                bag[i] = bag[i - 1]
            bag[at] = back[t]
            nbag += 1
        for t in range(nback):
            hand[kept + t] = bag[t]
        for i in range(nbag - nback):
            bag[i] = bag[i + nback]
        nbag -= nback
    head = naside = 0
    while head < nbag - 1 and isblock[bag[head]]:
        aside[naside] = bag[head]
        naside += 1
        head += 1
    start = bag[head]
    head += 1
    a, b, c = start >> 6, (start >> 3) & 7, start & 7
    turns = sm_below(rng, 0, 1 if a == b == c else 3)  # a triple has one rotation
    if turns == 1:
        start = b * 64 + c * 8 + a
    elif turns == 2:
        start = c * 64 + a * 8 + b
    pieces[:hand_size] = hand
    rest = nbag - head
    pieces[hand_size : hand_size + rest] = bag[head:nbag]
    deal_order(st, ed, pieces[: hand_size + rest], hand_size)
    add_piece(st, ed, start, ORIGIN)
    return naside


@inline
def deal_order(st: Game, ed: Tables, pieces: Arr, hand_size: int) -> None:
    """Clear the table and deal `pieces` in order: `hand_size` to each seat, the rest to
    the bag (`CubedState.deal`)."""
    meta, hsize, bag, have, hbits = st.meta, st.hsize, st.bag, st.have, st.hbits
    clear_table(st)
    n = pieces.shape[0]
    players = meta[M_PLAYERS]
    at = 0
    have[:] = 0
    hbits[:] = 0
    for s in range(players):
        hsize[s] = 0
        for _ in range(hand_size):
            hand_add(st, ed, s, pieces[at])
            at += 1
    nbag = n - at
    for i in range(nbag):
        bag[i] = pieces[at + i]
    meta[M_BAG_HEAD] = 0
    meta[M_BAG_END] = nbag
    meta[M_TO_MOVE] = 0
    meta[M_DREW] = 0
    meta[M_IDLE] = 0
    meta[M_STUCK] = 0
    meta[M_DRAWS] = 0
    meta[M_END] = 0
    meta[M_WINNER] = -1


@jit
def random_games(
    st: Game, ed: Tables, box: Arr, hand_size: int, games: int, deal_rng: Arr, rngs: Arr
) -> int:
    """Deal (from `deal_rng[0]`) and play `games` one-round random games, seat `s` drawing
    from `rngs[s]`; returns the moves played (for the benchmark, which times the kernel
    alone)."""
    log = np.empty(4096, dtype=np.int8)
    room = fit_scratch(ed)
    total = 0
    for _ in range(games):
        deal(st, ed, box, hand_size, deal_rng)
        total += play_round(st, ed, rngs, log, room)
    return total


# -- shared by the kernels ------------------------------------------------------------------


@inline
def splitmix(state: Arr) -> int:
    """The next 31 bits of a splitmix64 generator whose state is `state[0]`."""
    state[0] = state[0] + np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return int((z ^ (z >> np.uint64(31))) >> np.uint64(33))


@jit
def copy_game(dst: Game, src: Game) -> None:
    """Make `dst` the same position as `src` (arrays of the same shapes), touching only the
    cells around the two tables."""
    clear_table(dst)
    tab, edges, touch, dead, order = src.tab, src.edges, src.touch, src.dead, src.order
    for i in range(src.meta[M_NTAB]):
        cell = order[i]
        for d in range(7):
            other = cell + (STEP[d] if d < 6 else 0)
            dst.tab[other] = tab[other]
            dst.touch[other] = touch[other]
            dst.dead[other] = dead[other]
            for e in range(6):
                dst.edges[other * 6 + e] = edges[other * 6 + e]
    dst.meta[:] = src.meta
    dst.order[:] = src.order
    dst.play[:] = src.play
    dst.hsize[:] = src.hsize
    dst.bag[:] = src.bag
    dst.hbits[:, :] = src.hbits
    dst.hands[:, :] = src.hands
    dst.have[:, :] = src.have
