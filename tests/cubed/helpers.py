"""Hand-built CUBED positions for rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cubegames
from cubegames.games.cubed import CubedState
from tests.helpers import refusal as refusal


def position(
    table: Sequence[tuple[tuple[int, int], str]] = (),
    hands: Sequence[Sequence[str]] = (("GGG",), ("PPP",)),
    bag: Sequence[str] = ("YYY",),
    *,
    to_move: int = 0,
    turn: dict[str, Any] | None = None,
    fields: dict[str, Any] | None = None,
    **options: Any,
) -> CubedState:
    """A position with `table` as ((q, r), "TLR") pairs, in the order laid."""
    options = {"players": len(hands), "rounds": 1, **options}
    game = cubegames.make("cubed", **options)
    data = {
        "game": "cubed",
        "options": game.options,
        "table": [{"cell": list(cell), "slots": slots} for cell, slots in table],
        "hands": [list(h) for h in hands],
        "bag": list(bag),
        "to_move": to_move,
        "turn": turn or {"drew": False, "bonus": False},
        "round": 1,
        "totals": [0] * len(hands),
        **(fields or {}),
    }
    state = game.state_from_dict(data)
    assert isinstance(state, CubedState)
    return state


#: a test box holding every piece four times (see the file): tables may repeat pieces
WORKSHOP = str(Path(__file__).parent / "data" / "workshop.toml")


def workshop(
    table: Sequence[tuple[tuple[int, int], str]] = (),
    hands: Sequence[Sequence[str]] = (("GGG",), ("PPP",)),
    bag: Sequence[str] = ("YYY",),
    **kwargs: Any,
) -> CubedState:
    """`position` with the workshop box instead of a real edition's."""
    return position(table, hands, bag, edition=WORKSHOP, **kwargs)


def placements(state: CubedState) -> list[str]:
    return [str(m) for m in state.legal_moves() if "@" in str(m)]
