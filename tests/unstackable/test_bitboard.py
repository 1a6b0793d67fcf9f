"""The bitboard helpers against direct definitions on single cells and small boards."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cubegames.games.unstackable import bitboard as bb

boards = st.integers(0, bb.FULL)
MOVES = {
    bb.Direction.EAST: (1, 0, 0),
    bb.Direction.WEST: (-1, 0, 0),
    bb.Direction.NORTH: (0, 1, 0),
    bb.Direction.SOUTH: (0, -1, 0),
    bb.Direction.UP: (0, 0, 1),
    bb.Direction.DOWN: (0, 0, -1),
}


def test_index_and_coords_are_inverse() -> None:
    for i in range(64):
        assert bb.index(*bb.coords(i)) == i
    assert bb.index(3, 3, 3) == 63


def test_edge_masks() -> None:
    for i in range(64):
        x, y, z = bb.coords(i)
        assert bool(bb.X_LOW >> i & 1) == (x == 0)
        assert bool(bb.X_HIGH >> i & 1) == (x == 3)
        assert bool(bb.Y_LOW >> i & 1) == (y == 0)
        assert bool(bb.Y_HIGH >> i & 1) == (y == 3)
        assert bool(bb.LAYERS[z] >> i & 1)


@given(boards)
def test_a_step_moves_each_cell_one_cell_and_drops_those_leaving_the_box(board: int) -> None:
    for direction, (dx, dy, dz) in MOVES.items():
        expected = 0
        for i in bb.cells(board):
            x, y, z = bb.coords(i)
            if bb.in_box(x + dx, y + dy, z + dz):
                expected |= 1 << bb.index(x + dx, y + dy, z + dz)
        assert bb.step(board, direction) == expected
        assert direction.opposite.opposite is direction


@given(st.lists(boards, max_size=7), st.integers(0, 8))
def test_tally_and_at_least_count_per_cell(layers: list[int], k: int) -> None:
    digits = bb.tally(layers)
    expected = 0
    for i in range(64):
        n = sum(board >> i & 1 for board in layers)
        assert sum((d >> i & 1) << j for j, d in enumerate(digits)) == n
        if n >= k:
            expected |= 1 << i
    assert bb.at_least(digits, k) == expected


def test_floating_and_holding_up() -> None:
    low, high = 1 << bb.index(1, 1, 0), 1 << bb.index(1, 1, 1)
    assert bb.floating(high) == high
    assert bb.floating(low | high) == 0
    assert bb.holding_up(low | high) == low


def test_flood_follows_faces_within_a_layer_only() -> None:
    ring = sum(1 << bb.index(x, y, 0) for x, y in [(0, 0), (1, 0), (2, 0), (2, 1), (0, 2)])
    assert bb.flood(1, ring) == ring & ~(1 << bb.index(0, 2, 0))
    above = 1 << bb.index(0, 0, 1)
    assert bb.flood(1, 1 | above) == 1
