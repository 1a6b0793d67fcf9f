"""Hand-built Unstackable positions for rule tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cubegames
from cubegames.games.unstackable import UnstackableState, load_box
from tests.helpers import refusal as refusal

Cell = tuple[int, int, int]
BOX = load_box()
#: the position of shared/api.md, which must round-trip exactly
API_EXAMPLE: dict[str, Any] = {
    "game": "unstackable",
    "options": {},
    "stage": "stack",
    "to_move": 1,
    "grid": "RK..............................................................",
    "supply": {"Y": 3, "R": 15, "K": 44},
    "turn": {"colour": "K", "placed": 1},
    "piles": [["", ""], ["", ""]],
    "last_red": 0,
}


def grid(cells: Mapping[Cell, str], fill: str = ".") -> str:
    """A 64-letter grid with `cells` set and every other cell `fill`."""
    letters = [fill] * 64
    for (x, y, z), letter in cells.items():
        letters[x + 4 * y + 16 * z] = letter
    return "".join(letters)


def stacking(
    cells: Mapping[Cell, str] | str = "." * 64,
    *,
    to_move: int = 0,
    colour: str | None = None,
    placed: int = 0,
    last_red: int | None = None,
    **options: Any,
) -> UnstackableState:
    """A stage-1 position; the supply is the box minus the grid."""
    text = cells if isinstance(cells, str) else grid(cells)
    if last_red is None and "R" in text:
        last_red = 0
    data = {
        "game": "unstackable",
        "options": options,
        "stage": "stack",
        "to_move": to_move,
        "grid": text,
        "supply": {c.value: BOX.count[c] - text.count(c.value) for c in BOX.count},
        "turn": {"colour": colour, "placed": placed},
        "piles": [["", ""], ["", ""]],
        "last_red": last_red,
    }
    return load(data)


def unstacking(text: str, *, last_red: int = 0, **options: Any) -> UnstackableState:
    """A stage-2 position with grid `text`; the missing cubes are dealt into the piles in
    removal order (black first, then red, then yellow), which fixes the seat to move."""
    missing = "".join(c.value * (BOX.count[c] - text.count(c.value)) for c in reversed(BOX.count))
    starter = 1 - last_red
    piles = [["", ""], ["", ""]]
    for n, letter in enumerate(missing):
        seat = starter if (n // 2) % 2 == 0 else 1 - starter
        piles[seat][n % 2] += letter
    n = len(missing)
    to_move = None if n == 64 else (starter if (n // 2) % 2 == 0 else 1 - starter)
    data = {
        "game": "unstackable",
        "options": options,
        "stage": "unstack",
        "to_move": to_move,
        "grid": text,
        "supply": {"Y": 0, "R": 0, "K": 0},
        "turn": {"removed": n % 2},
        "piles": piles,
        "last_red": last_red,
    }
    return load(data)


def load(data: Mapping[str, Any]) -> UnstackableState:
    game = cubegames.make("unstackable", **data["options"])
    state = game.state_from_dict(data)
    assert isinstance(state, UnstackableState)
    return state


def full_cube(**options: Any) -> UnstackableState:
    """The start of stage 2: a full cube, yellow and red in the bottom layers, seat 1 first."""
    text = "Y" * 3 + "R" * 16 + "K" * 45
    return unstacking(text, last_red=0, **options)


def moves(state: UnstackableState) -> list[str]:
    return [str(m) for m in state.legal_moves()]
