"""The flat search's playouts for Unstackable, compiled with numba: the root move, then a
light policy to the end of the game, and the final point difference judged.

The rules are those of `vector_rules.py` (checked step by step against the Python rules by
the learning environment's tests); this module only adds the policy and the scoring, and
its playouts are replayed move by move through the Python rules in
`tests/unstackable/test_playout_kernel.py`. `search_bridge.KernelPlayouts` calls it.

A game is one row of `vector_rules`' arrays (three colour boards and the row of small
integers `vector_rules.FIELDS` names); actions are `vector_rules`' (`c·72 + k` stacks
colour `c` on stacking cell `k`, `216 + i` removes cell `i`, `280` ends a turn).

The policy, each move: with probability `greed` the greedy heuristic's kind of move (stage
1: the colour worth most in pile 1 on the lowest layer it may go to; stage 2: the cube
worth most in the pile it goes to), ties at random; otherwise any legal move, uniformly.
It never ends a stacking turn early (`end`, only with `exact_counts = false`): the turn ends
by itself.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from cubegames.core import compiled  # noqa: F401  (drops numba caches older than the kernels)
from cubegames.games.unstackable.solver_kernel import _ONE, U64, lowest_cell, popcount, removable
from cubegames.games.unstackable.vector_rules import (
    COLOUR,
    PILES,
    REMOVALS,
    REMOVED,
    STACK_CELLS,
    STAGE,
    SUPPLY,
    Boards,
    Rows,
    _random,
    edges,
    placements,
    play,
)

Floats = npt.NDArray[np.float64]
#: the cells of each layer z of the grid
_LAYER = U64(0xFFFF)


@njit(cache=True, inline="always")
def _below(n: np.uint64, rng: npt.NDArray[np.uint64]) -> int:
    """A number drawn uniformly from 0 to `n` - 1."""
    return int(np.int64(_random(rng, 0) % n))


@njit(cache=True)
def _nth_bit(board: np.uint64, n: int) -> int:
    """The cell of the `n`-th set bit of `board`, lowest first."""
    while n > 0:
        board &= board - _ONE
        n -= 1
    return lowest_cell(board & (~board + _ONE))


@njit(cache=True)
def policy(
    boards: Boards, st: Rows, gains: Rows, bag: bool, greed: float, rng: npt.NDArray[np.uint64]
) -> int:
    """The light policy's action in game 0 (see the module's docstring)."""
    occ = boards[0, 0] | boards[0, 1] | boards[0, 2]
    greedy = (_random(rng, 0) % U64(1000)) < U64(int(greed * 1000))
    if st[0, STAGE] == 1:
        free = removable(occ, bag)
        if greedy:
            pile = st[0, REMOVED]
            best = -1
            pick = -1
            ties = 0
            board = free
            while board:
                bit = board & (~board + _ONE)
                board ^= bit
                c = 0 if boards[0, 0] & bit else 1 if boards[0, 1] & bit else 2
                value = gains[pile, c]
                if value > best:
                    best, pick, ties = value, lowest_cell(bit), 1
                elif value == best:
                    ties += 1
                    if _below(U64(ties), rng) == 0:
                        pick = lowest_cell(bit)
            return REMOVALS + pick
        return REMOVALS + _nth_bit(free, _below(U64(popcount(free)), rng))
    targets = placements(occ)
    west, south = edges(occ)
    if greedy:
        colour = -1
        for c in range(3):
            if st[0, COLOUR] >= 0 and st[0, COLOUR] != c:
                continue
            if st[0, SUPPLY + c] == 0:
                continue
            if colour < 0 or gains[0, c] > gains[0, colour]:
                colour = c
        for z in range(4):
            layer = targets & (_LAYER << U64(16 * z))
            extra = 0
            if z == 0:
                for j in range(4):
                    extra += (west >> j & 1) + (south >> j & 1)
            n = popcount(layer) + extra
            if n == 0:
                continue
            pick = _below(U64(n), rng)
            if pick < popcount(layer):
                return colour * STACK_CELLS + _nth_bit(layer, pick)
            pick -= popcount(layer)
            return colour * STACK_CELLS + _edge(west, south, pick)
    cells = popcount(targets)
    for j in range(4):
        cells += (west >> j & 1) + (south >> j & 1)
    colours = 0
    for c in range(3):
        if (st[0, COLOUR] < 0 or st[0, COLOUR] == c) and st[0, SUPPLY + c] > 0:
            colours += 1
    pick = _below(U64(cells * colours), rng)
    nth = pick // cells
    k = pick % cells
    for c in range(3):
        if (st[0, COLOUR] < 0 or st[0, COLOUR] == c) and st[0, SUPPLY + c] > 0:
            if nth == 0:
                if k < popcount(targets):
                    return c * STACK_CELLS + _nth_bit(targets, k)
                return c * STACK_CELLS + _edge(west, south, k - popcount(targets))
            nth -= 1
    return -1


@njit(cache=True)
def _edge(west: int, south: int, n: int) -> int:
    """The stacking cell of the `n`-th open edge cell: rows `-1,y,0` first (cells 64 + y),
    then columns `x,-1,0` (cells 68 + x)."""
    for j in range(4):
        if west >> j & 1:
            if n == 0:
                return 64 + j
            n -= 1
    for j in range(4):
        if south >> j & 1:
            if n == 0:
                return 68 + j
            n -= 1
    return -1


@njit(cache=True)
def points(st: Rows, seat: int, gains: Rows) -> int:
    """The points in `seat`'s piles (game 0)."""
    total = 0
    for p in range(2):
        for c in range(3):
            total += st[0, PILES + 6 * seat + 3 * p + c] * gains[p, c]
    return total


@njit(cache=True)
def playout(
    boards: Boards,
    st: Rows,
    boards0: Boards,
    st0: Rows,
    action: int,
    seed: int,
    seat: int,
    per_turn: Rows,
    gains: Rows,
    bag: bool,
    greed: float,
    temperature: float,
    log: Rows,
) -> float:
    """One playout from game 0 of `boards0`, `st0` (copied into the scratch `boards`,
    `st`): `action`, then the light policy to the end; `seat`'s reward, `1 / (1 +
    e^(-d / temperature))` for its final point difference `d`. The actions played after the
    root one go into `log` (as many as fit; `log[0]` holds their number) for the tests."""
    for j in range(3):
        boards[0, j] = boards0[0, j]
    for j in range(st0.shape[1]):
        st[0, j] = st0[0, j]
    rng = np.array([U64(seed)], dtype=np.uint64)
    play(boards, st, 0, action, per_turn)
    n = 0
    while st[0, STAGE] != 2:
        a = policy(boards, st, gains, bag, greed, rng)
        if n + 1 < log.shape[0]:
            log[n + 1] = a
        n += 1
        play(boards, st, 0, a, per_turn)
    log[0] = n
    diff = points(st, seat, gains) - points(st, 1 - seat, gains)
    reward: float = 1.0 / (1.0 + np.exp(-diff / temperature))
    return reward


@njit(cache=True)
def playout_batch(
    boards0: Boards,
    st0: Rows,
    actions: Rows,
    arms: Rows,
    seeds: Rows,
    seat: int,
    per_turn: Rows,
    gains: Rows,
    bag: bool,
    greed: float,
    temperature: float,
    out: Floats,
) -> None:
    """`playout` of root action `actions[arms[i]]` on seed `seeds[i]` for every `i`, `seat`'s
    reward into `out[i]`."""
    boards = np.empty_like(boards0)
    st = np.empty_like(st0)
    log = np.empty(1, dtype=np.int64)
    for i in range(arms.shape[0]):
        out[i] = playout(
            boards,
            st,
            boards0,
            st0,
            actions[arms[i]],
            seeds[i],
            seat,
            per_turn,
            gains,
            bag,
            greed,
            temperature,
            log,
        )
