"""The terminal drawing: layers, marked cells, supply and piles, all from a view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console

from cubegames.core.game import Move
from cubegames.games.unstackable import UnstackableState
from cubegames.render.terminal import draw
from tests.unstackable.helpers import API_EXAMPLE, full_cube, load


def shown(state: UnstackableState, seat: int, legal: Sequence[Move] = ()) -> list[str]:
    console = Console(width=100, record=True, color_system=None)
    console.print(draw(state.game, state.view(seat), legal))
    return console.export_text().splitlines()


def layer_row(lines: list[str], y: int) -> str:
    """The drawn row `y` of all four layers (rows start with their y number)."""
    return next(line for line in lines if line.startswith(f"{y}  "))


def test_stacking_shows_layers_targets_and_supply() -> None:
    state = load(API_EXAMPLE)
    lines = shown(state, 1, state.legal_moves())
    assert "stage 1: stacking" in lines[0]
    assert "Seat 1 stacking black, 1 of 3 placed" in lines[0]
    assert all(name in lines[2] for name in ("z=0 (bag)", "z=1", "z=2", "z=3"))
    # row y = 0: a target before the structure (x = -1), R and K on the bag, the next cell
    # a target; above them targets on z=1
    row = layer_row(lines, 0).split()
    assert row[:6] == ["0", "+", "R", "K", "+", "·"]
    assert row[6:11] == ["0", "+", "+", "·", "·"]
    # the row y = -1 before the structure: targets under R and K on the bag only
    assert layer_row(lines, -1).split() == ["-1", "+", "+", "-1", "-1", "-1"]
    assert any("Y  ×3" in line and "R  ×15" in line and "K  ×44" in line for line in lines)
    assert any("1 (you)" in line for line in lines)
    assert any("0 (last red)" in line for line in lines)


def test_unstacking_marks_removable_cubes_and_counts_points() -> None:
    state = full_cube()
    state.play("3,3,3")
    state.play("3,3,2")
    lines = shown(state, 0, state.legal_moves())
    assert "stage 2: unstacking" in lines[0]
    assert "Seat 0 to remove a cube for pile 1" in lines[0]
    assert "[K]" in layer_row(lines, 3)
    seat_1 = next(line for line in lines if line.startswith("    1"))
    assert seat_1.split()[-1] == "1"  # a black cube in pile 2


def test_without_legal_moves_nothing_is_marked_and_the_end_is_said() -> None:
    state = full_cube()
    lines = shown(state, 0)
    assert not any("[" in line or "+" in line for line in lines[3:8])
    data: dict[str, Any] = {**state.to_dict(), "options": {"bag_counts_as_exposed": True}}
    bagged = load(data)
    assert "the bag counts as exposed" in shown(bagged, 1)[0]


def test_exact_counts_off_is_said() -> None:
    data: dict[str, Any] = {**API_EXAMPLE, "options": {"exact_counts": False}}
    state = load(data)
    text = " ".join(shown(state, 1, state.legal_moves())[:3])
    assert "1 of up to 3 placed" in text and "fewer cubes (end)" in text
