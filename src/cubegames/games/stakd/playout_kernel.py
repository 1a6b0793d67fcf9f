"""STAKD's stacking rules and the flat search's playouts, compiled with numba.

Once the bases are down every later node lies over a base node, so a round's geometry is
the base nodes (at most 64): a layer is a 64-bit mask over them. `search_bridge.tables`
lists every way a stacking piece fits over the bases (a *candidate*: its type, its nodes as
a mask and as a list, and the nodes beside it), and `search_bridge.encode` writes a
position into a `Position` of arrays; the functions here repeat `board.py`'s and
`state.py`'s stacking rules on them (the BASE phase stays in Python). The tests replay the
kernel's moves through the Python rules move for move (`tests/stakd/test_playout_kernel.py`).

Piece types are numbered as `pieces.TYPES` lists them (BASE 0, UNI 1, DUO 2, TRIO 3,
QUAD 4, BOMBER 5); a type's bit in a mask of carried types is `1 << type`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

from cubegames.core import compiled  # noqa: F401  (drops numba caches older than the kernels)

Arr = npt.NDArray[np.int64]
Masks = npt.NDArray[np.uint64]
F = TypeVar("F", bound=Callable[..., Any])

UNI = 1
BOMBER = 5
TYPES = 6

#: the small fields of `Position.meta`
M_TO_MOVE = 0  # the seat to move; -1 once the round is over
M_TOP = 1  # the current layer (0 while only bases are down)
M_PIECES = 2  # pieces laid this round (bases included)
M_OUT = 3  # the seats out of the round, as bits
M_LAST = 4  # the owner of the last piece laid that is not a BOMBER
M_WINNER = 5  # the round's winner once it is over, else -1
M_PLAYERS = 6
M_NEED = 7  # pieces on a layer before the next may start (`new_layer_after`)
M_LOOSE = 8  # 1: a UNI may open a layer beside BOMBERs (`uni_opens_beside_bombers`)
M_LAST_TYPE = 9  # the type of the last piece laid
META = 10


class Position(NamedTuple):
    """A STAKD round after the bases, as arrays (numba passes a named tuple as a tuple)."""

    meta: Arr
    #: pieces of each type in each seat's hand, [seat, type]
    hands: Arr
    #: per piece laid: type, carried types (bits), nodes (mask)
    ptype: Arr
    pcarry: Arr
    pmask: Masks
    #: per layer: nodes taken, nodes of terminated pieces, has its BOMBER, pieces on it
    occ: Masks
    dead: Masks
    bombed: Arr
    size: Arr
    #: the piece on each node of each layer, [layer, node]
    cover: Arr


class Tables(NamedTuple):
    """The candidates of one round's bases (`search_bridge.tables`)."""

    ctype: Arr
    cmask: Masks
    #: the base nodes beside the candidate's nodes
    cnbr: Masks
    #: the candidate's nodes, [candidate, i], `csize` of them
    cnodes: Arr
    csize: Arr
    #: candidates are sorted by their least node: those of node `n` are `start[n]` to
    #: `start[n + 1]` (a placement fits only if its least node is free)
    start: Arr


_ONE = np.uint64(1)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_NODES = np.array(
    [
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
    ],
    dtype=np.int64,
)  # fmt: skip


def jit(fn: F) -> F:
    """Compile `fn` with numba in nopython mode, cached on disk after the first call."""
    return cast(F, njit(cache=True)(fn))


@jit
def copy_position(dst: Position, src: Position) -> None:
    """`dst` becomes `src`, copying only what is in use (the layers up to the top + 1)."""
    meta = src.meta
    for i in range(META):
        dst.meta[i] = meta[i]
    for s in range(src.hands.shape[0]):
        for t in range(TYPES):
            dst.hands[s, t] = src.hands[s, t]
    for p in range(meta[M_PIECES]):
        dst.ptype[p] = src.ptype[p]
        dst.pcarry[p] = src.pcarry[p]
        dst.pmask[p] = src.pmask[p]
    for z in range(meta[M_TOP] + 2):
        dst.occ[z] = src.occ[z]
        dst.dead[z] = src.dead[z]
        dst.bombed[z] = src.bombed[z]
        dst.size[z] = src.size[z]
        for n in range(64):
            dst.cover[z, n] = src.cover[z, n]


@jit
def fits(pos: Position, tb: Tables, c: int, z: int) -> bool:
    """Whether candidate `c` may go on layer `z` (1 to top + 1) by the board's rules
    (`Board.stack_problem`; when a layer may start is `moves`')."""
    free = pos.occ[z - 1] & ~pos.dead[z - 1] & ~pos.occ[z]
    return _fits(pos, tb, c, z, free)


@njit(cache=True, inline="always")
def _fits(pos: Position, tb: Tables, c: int, z: int, free: np.uint64) -> bool:
    """`fits`, given the free nodes of layer `z` (over the layer below, not on a
    terminated piece, not taken)."""
    m = tb.cmask[c]
    if m & ~free:
        return False
    occ = pos.occ[z]
    if occ and not (tb.cnbr[c] & occ):
        return False
    t = tb.ctype[c]
    bit = 0
    if t == BOMBER:
        if pos.bombed[z]:
            return False
    else:
        bit = 1 << t
    below = z - 1
    for i in range(tb.csize[c]):
        s = pos.cover[below, tb.cnodes[c, i]]
        if pos.pcarry[s] & bit or pos.pmask[s] == m:
            return False
    return True


@jit
def moves(pos: Position, tb: Tables, seat: int, out_c: Arr, out_z: Arr, first: bool) -> int:
    """The placements of `seat` as if it were to move (`StakdState.placements`), as
    candidates and layers written into `out_c`, `out_z`; returns how many (with `first`,
    stops at the first: 1 if there is any)."""
    hand = pos.hands[seat]
    held = 0
    for t in range(1, TYPES):
        if hand[t]:
            held |= 1 << t
    if held == 0:
        return 0
    top = pos.meta[M_TOP]
    n = 0
    if top >= 1:
        free = pos.occ[top - 1] & ~pos.dead[top - 1] & ~pos.occ[top]
        n = _layer(pos, tb, top, free, held, out_c, out_z, n, first)
        if first and n:
            return 1
    if top == 0 or n == 0 or pos.size[top] >= pos.meta[M_NEED]:
        company = (1 << UNI) | ((1 << BOMBER) if pos.meta[M_LOOSE] else 0)
        openers = held & ~(1 << BOMBER)
        if held & ~company:
            openers &= ~(1 << UNI)
        if openers:
            free = pos.occ[top] & ~pos.dead[top]
            n = _layer(pos, tb, top + 1, free, openers, out_c, out_z, n, first)
    return n


@jit
def _layer(
    pos: Position,
    tb: Tables,
    z: int,
    free: np.uint64,
    types: int,
    out_c: Arr,
    out_z: Arr,
    n: int,
    first: bool,
) -> int:
    """Append the placements of `types` (bits) on layer `z` to `out_c`, `out_z` from
    index `n`, trying only the candidates whose least node is free; return the new count
    (with `first`, stop at the first)."""
    board = free
    while board:
        bit = board & (~board + _ONE)
        board ^= bit
        node = _DEBRUIJN_NODES[np.int64((bit * _DEBRUIJN) >> np.uint64(58))]
        for c in range(tb.start[node], tb.start[node + 1]):
            if types >> tb.ctype[c] & 1 and _fits(pos, tb, c, z, free):
                out_c[n] = c
                out_z[n] = z
                n += 1
                if first:
                    return n
    return n


@jit
def place(pos: Position, tb: Tables, c: int, z: int, out_c: Arr, out_z: Arr) -> None:
    """Lay candidate `c` on layer `z` for the seat to move (already known to be legal),
    then hand the turn on (`StakdState._apply`)."""
    meta = pos.meta
    seat = meta[M_TO_MOVE]
    t = tb.ctype[c]
    m = tb.cmask[c]
    p = meta[M_PIECES]
    pos.ptype[p] = t
    pos.pcarry[p] = 0
    pos.pmask[p] = m
    meta[M_PIECES] = p + 1
    if z > meta[M_TOP]:
        meta[M_TOP] = z
        pos.occ[z + 1] = 0
        pos.dead[z + 1] = 0
        pos.bombed[z + 1] = 0
        pos.size[z + 1] = 0
    for i in range(tb.csize[c]):
        node = tb.cnodes[c, i]
        pos.cover[z, node] = p
        s = pos.cover[z - 1, node]
        pos.pcarry[s] |= 1 << t
        if t == BOMBER:
            pos.dead[z - 1] |= pos.pmask[s]
    pos.occ[z] |= m
    pos.size[z] += 1
    if t == BOMBER:
        pos.bombed[z] = 1
    else:
        meta[M_LAST] = seat
    meta[M_LAST_TYPE] = t
    pos.hands[seat, t] -= 1
    pass_turn(pos, tb, seat, out_c, out_z)


@jit
def pass_turn(pos: Position, tb: Tables, after: int, out_c: Arr, out_z: Arr) -> None:
    """The turn to the next seat that can move, putting out those that cannot; when none
    can, the round is over and its winner is the owner of the last piece that is not a
    BOMBER (`StakdState._pass_turn`, `_end_round`)."""
    meta = pos.meta
    players = meta[M_PLAYERS]
    for step in range(1, players + 1):
        seat = (after + step) % players
        if meta[M_OUT] >> seat & 1:
            continue
        if moves(pos, tb, seat, out_c, out_z, True):
            meta[M_TO_MOVE] = seat
            return
        meta[M_OUT] |= 1 << seat
    meta[M_TO_MOVE] = -1
    meta[M_WINNER] = meta[M_LAST] if meta[M_LAST] >= 0 else after


@jit
def splitmix(state: npt.NDArray[np.uint64]) -> int:
    """The next number (below 2**62) of a splitmix64 generator kept in `state[0]`."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return int(z >> np.uint64(2))


@jit
def policy(
    pos: Position, tb: Tables, greed: float, rng: npt.NDArray[np.uint64], out_c: Arr, out_z: Arr
) -> int:
    """The light policy's placement for the seat to move, as an index into `out_c`,
    `out_z` (which it fills): with probability `greed` one of the biggest pieces it may
    lay, else any, uniformly."""
    n = moves(pos, tb, pos.meta[M_TO_MOVE], out_c, out_z, False)
    if splitmix(rng) % 1000 < greed * 1000:
        best = -1
        ties = 0
        pick = 0
        for i in range(n):
            size = tb.csize[out_c[i]]
            if size > best:
                best, ties, pick = size, 1, i
            elif size == best:
                ties += 1
                if splitmix(rng) % ties == 0:
                    pick = i
        return pick
    return splitmix(rng) % n


@jit
def rewards(
    pos: Position, points: Arr, target: int, total: int, out: npt.NDArray[np.float64]
) -> None:
    """Rewards in [0, 1] per seat once the round is over (`search_hooks.rewards`): the
    round's winner gets 0.8 (all of it once the match is won) and every seat up to 0.2 for
    its points towards `target`; solo, 1 for a win (every piece laid, the last not a
    BOMBER), else half the share of the `total` pieces laid."""
    meta = pos.meta
    players = meta[M_PLAYERS]
    if players == 1:
        left = 0
        for t in range(1, TYPES):
            left += pos.hands[0, t]
        if left == 0 and meta[M_LAST_TYPE] != BOMBER:
            out[0] = 1.0
        else:
            out[0] = 0.5 * (total - left) / total
        return
    winner = meta[M_WINNER]
    if points[winner] + 1 >= target:
        for s in range(players):
            out[s] = 1.0 if s == winner else 0.0
        return
    for s in range(players):
        won = points[s] + (1 if s == winner else 0)
        out[s] = (0.8 if s == winner else 0.0) + 0.2 * won / target


@jit
def playout(
    pos: Position,
    start: Position,
    tb: Tables,
    c: int,
    z: int,
    seed: int,
    greed: float,
    points: Arr,
    target: int,
    total: int,
    out: npt.NDArray[np.float64],
    out_c: Arr,
    out_z: Arr,
    log: Arr,
) -> None:
    """One playout: `start` copied into `pos`, candidate `c` laid on layer `z`, then the
    light policy (`policy`) to the end of the round, and the rewards written into `out`.
    The placements after the root one go into `log` as `candidate * 4096 + layer` (as many
    as fit; `log[0]` holds their number), for the tests."""
    copy_position(pos, start)
    rng = np.array([np.uint64(seed)], dtype=np.uint64)
    place(pos, tb, c, z, out_c, out_z)
    n = 0
    while pos.meta[M_TO_MOVE] >= 0:
        pick = policy(pos, tb, greed, rng, out_c, out_z)
        if n + 1 < log.shape[0]:
            log[n + 1] = out_c[pick] * 4096 + out_z[pick]
        n += 1
        place(pos, tb, out_c[pick], out_z[pick], out_c, out_z)
    log[0] = n
    rewards(pos, points, target, total, out)


@jit
def playout_batch(
    pos: Position,
    start: Position,
    tb: Tables,
    roots_c: Arr,
    roots_z: Arr,
    arms: Arr,
    seeds: Arr,
    seat: int,
    greed: float,
    points: Arr,
    target: int,
    total: int,
    out: npt.NDArray[np.float64],
) -> None:
    """`playout` of root move `arms[i]` (`roots_c`, `roots_z`) on seed `seeds[i]` for every
    `i`, `seat`'s reward into `out[i]`."""
    rewards_ = np.empty(pos.hands.shape[0], dtype=np.float64)
    out_c = np.empty(tb.ctype.shape[0] * 2, dtype=np.int64)
    out_z = np.empty(tb.ctype.shape[0] * 2, dtype=np.int64)
    log = np.empty(1, dtype=np.int64)
    for i in range(arms.shape[0]):
        arm = arms[i]
        playout(
            pos,
            start,
            tb,
            roots_c[arm],
            roots_z[arm],
            seeds[i],
            greed,
            points,
            target,
            total,
            rewards_,
            out_c,
            out_z,
            log,
        )
        out[i] = rewards_[seat]


@jit
def greedy_values(
    pos: Position,
    start: Position,
    tb: Tables,
    roots_c: Arr,
    roots_z: Arr,
    round_won: float,
    size_weight: float,
    values: npt.NDArray[np.float64],
) -> None:
    """The greedy bot's value of each move (`search_hooks.greedy_move`): `round_won` for
    ending the round as its winner (minus for another winner), else the mover's
    placements after it, minus those of the next seat to move (when that is another
    seat), plus `size_weight` per node of the piece."""
    seat = start.meta[M_TO_MOVE]
    out_c = np.empty(tb.ctype.shape[0] * 2, dtype=np.int64)
    out_z = np.empty(tb.ctype.shape[0] * 2, dtype=np.int64)
    for i in range(roots_c.shape[0]):
        copy_position(pos, start)
        place(pos, tb, roots_c[i], roots_z[i], out_c, out_z)
        meta = pos.meta
        if meta[M_TO_MOVE] < 0:
            if meta[M_PLAYERS] > 1:
                values[i] = round_won if meta[M_WINNER] == seat else -round_won
            elif pos.hands[0].sum() == 0 and meta[M_LAST_TYPE] != BOMBER:
                values[i] = round_won  # solo: every piece laid, the last not a BOMBER
            else:
                values[i] = size_weight * tb.csize[roots_c[i]]  # a lost solo round
            continue
        mine = 0 if meta[M_OUT] >> seat & 1 else moves(pos, tb, seat, out_c, out_z, False)
        theirs = 0
        if meta[M_TO_MOVE] != seat:
            theirs = moves(pos, tb, meta[M_TO_MOVE], out_c, out_z, False)
        values[i] = mine - theirs + size_weight * tb.csize[roots_c[i]]
