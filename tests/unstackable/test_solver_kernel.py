"""The compiled stage-2 kernel (`solver_kernel.py`) against the Python rules and the Python search.

The Python rules and `search.Solver` are the reference: the kernel must find the same
removable cubes, the same exact values, the same depth-limited values, and only moves that
the Python search scores as best.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cubegames
from cubegames.games.unstackable import bitboard as bb
from cubegames.games.unstackable import solver_kernel
from cubegames.games.unstackable.search import (
    CompiledSolver,
    Position,
    Solver,
    Timeout,
    gains,
)
from tests.bots.helpers import seeded

BOX = cubegames.make("unstackable").box


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 63), max_size=60), st.booleans())
def test_removable_cubes_are_the_rules(picks: list[int], bag: bool) -> None:
    board = bb.FULL
    for pick in picks:
        free = list(bb.cells(bb.removable(board, bag_exposed=bag)))
        assert int(solver_kernel.removable(np.uint64(board), bag)) == bb.removable(
            board, bag_exposed=bag
        )
        board &= ~(1 << free[pick % len(free)])


@pytest.mark.parametrize("bag", [False, True])
def test_exact_values_and_moves_agree_with_the_python_search(bag: bool) -> None:
    options = {"bag_counts_as_exposed": True} if bag else {}
    compiled = CompiledSolver(BOX, bag_exposed=bag, table_bits=16)
    for seed in range(24):
        state = seeded(300 + seed, 8 + seed % 7, **options)
        position = Position.of(state)
        reference = Solver(BOX, bag_exposed=bag)
        value = reference.solve(position)
        assert CompiledSolver(BOX, bag_exposed=bag, table_bits=12).solve(position) == value
        found = compiled.search(position)  # a table shared across positions, too
        assert (found.value, found.exact, found.depth) == (value, True, position.left)
        # the kernel's move is one the Python search scores as best
        assert cell_value(reference, position, found.cell) == value


def cell_value(solver: Solver, position: Position, cell: int) -> int:
    """The exact value of removing `cell` first, by the Python search."""
    colour = position.colour_at(cell)
    assert colour is not None
    points = gains(BOX)[position.pile][(Position._fields.index(colour.name.lower()))]
    after = position.without(cell)
    rest = solver.solve(after) if after.left else 0
    return points + rest if position.pile == 0 else points - rest


@pytest.mark.parametrize("depth", [1, 2, 3, 5])
def test_depth_limited_values_agree_with_the_python_search(depth: int) -> None:
    for seed in range(8):
        position = Position.of(seeded(400 + seed, 20))
        want = Solver(BOX).search(position, depth)
        got = CompiledSolver(BOX, table_bits=14).search(position, depth)
        assert (got.value, got.depth, got.exact) == (want.value, want.depth, want.exact)


@pytest.mark.parametrize("bounds", [0, 1, 2])
def test_every_bound_setting_gives_the_same_values(bounds: int) -> None:
    for seed in range(6):
        position = Position.of(seeded(500 + seed, 16))
        want = Solver(BOX).solve(position)
        assert CompiledSolver(BOX, table_bits=14, bounds=bounds).solve(position) == want


def test_the_bounds_hold_the_value() -> None:
    order = np.array([[0, 1, 2], [2, 0, 1]], dtype=np.int64)
    points = np.array(gains(BOX), dtype=np.int64)
    for seed in range(10):
        position = Position.of(seeded(600 + seed, 12))
        y, r, k = (np.uint64(b) for b in position)
        least, most = solver_kernel.bounds(y, r, k, 64, points, order)
        assert least <= Solver(BOX).solve(position) <= most
    # only black left: the bounds meet, and that is the value
    blacks = Position(0, 0, (1 << bb.index(0, 0, 0)) | (1 << bb.index(1, 0, 0)))
    least, most = solver_kernel.bounds(
        np.uint64(0), np.uint64(0), np.uint64(blacks.black), 64, points, order
    )
    assert least == most == Solver(BOX).solve(blacks)


def test_a_passed_deadline_stops_the_search() -> None:
    position = Position.of(seeded(7, 40))
    solver = CompiledSolver(BOX, table_bits=12)
    with pytest.raises(Timeout):
        solver.solve(position, deadline=time.perf_counter() - 1)
    # the first depth always runs; the clock is read every few thousand nodes, so a few
    # small depths may finish, but not the exact solve
    found = solver.search(position, deadline=time.perf_counter() - 1)
    assert found.depth < position.left and not found.exact
