"""The bitboard engine against the plain reference engine in `reference.py`."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cubegames
from cubegames.games.unstackable import bitboard as bb
from tests.unstackable import reference
from tests.unstackable.helpers import unstacking

PERFT = Path(__file__).parent.parent / "data" / "perft" / "unstackable.json"
ENTRIES: list[dict[str, Any]] = json.loads(PERFT.read_text())


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_the_pinned_perft_counts_agree_with_the_reference(entry: dict[str, Any]) -> None:
    position = entry["position"]
    counts = [reference.perft(position, depth) for depth in range(1, len(entry["counts"]) + 1)]
    assert counts == entry["counts"]


def test_the_perft_file_covers_both_stages_and_the_option() -> None:
    names = {e["name"] for e in ENTRIES}
    assert {"start", "unstacking-start", "unstacking-start-bag-exposed"} <= names
    stages = {e["position"]["stage"] for e in ENTRIES}
    assert stages == {"stack", "unstack"}
    start = next(e for e in ENTRIES if e["name"] == "unstacking-start")
    assert start["position"]["grid"].count(".") == 0
    assert len(start["counts"]) >= 3


@pytest.mark.parametrize("options", [{}, {"bag_counts_as_exposed": True}, {"exact_counts": False}])
@pytest.mark.parametrize("seed", range(12))
def test_moves_and_results_agree_along_random_games(options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    state = cubegames.make("unstackable", **options).new_state()
    while True:
        data = state.to_dict()
        moves = [str(m) for m in state.legal_moves()]
        assert moves == reference.legal(data)
        assert state.scores() == reference.scores(data)
        if state.is_over:
            break
        for text in rng.sample(moves, min(3, len(moves))):
            twin = state.clone()
            twin.play(text)
            assert twin.to_dict() == reference.play(data, text)
        state.play(rng.choice(moves))


def board_of(heights: list[int]) -> int:
    """Stacks of the given heights on the 16 floor cells: every shape that cannot float."""
    board = 0
    for column, height in enumerate(heights):
        for z in range(height):
            board |= 1 << (column + 16 * z)
    return board


def text_of(board: int) -> str:
    return "".join("K" if board >> i & 1 else "." for i in range(64))


heights = st.lists(st.integers(0, 4), min_size=16, max_size=16)


@settings(max_examples=300, deadline=None)
@given(heights, st.booleans())
def test_removable_cubes_agree_on_every_shape(shape: list[int], bag: bool) -> None:
    board = board_of(shape)
    plain = [bb.index(*cell) for cell in reference.removable(text_of(board), bag)]
    assert list(bb.cells(bb.removable(board, bag_exposed=bag))) == plain


@settings(max_examples=300, deadline=None)
@given(heights)
def test_placements_agree_on_every_shape(shape: list[int]) -> None:
    (board,) = bb.to_corner(board_of(shape))
    cells = [bb.coords(i) for i in bb.cells(bb.placements(board))]
    west, south = bb.edge_placements(board)
    cells += [(-1, y, 0) for y in range(4) if west >> y & 1]
    cells += [(x, -1, 0) for x in range(4) if south >> x & 1]
    assert sorted(cells, key=lambda c: (c[2], c[1], c[0])) == reference.placements(text_of(board))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 63), min_size=0, max_size=40), st.booleans())
def test_stage_2_positions_of_every_shape_agree(picks: list[int], bag: bool) -> None:
    # a shape left by legal removals from the full cube, the n-th removable cube each time
    board = bb.FULL
    for pick in picks:
        free = list(bb.cells(bb.removable(board, bag_exposed=bag)))
        board &= ~(1 << free[pick % len(free)])
    if bb.count(board) > 45:  # the helper fills the grid with black only
        return
    options = {"bag_counts_as_exposed": True} if bag else {}
    state = unstacking(text_of(board), **options)
    assert [str(m) for m in state.legal_moves()] == reference.legal(state.to_dict())
