"""Nim's terminal drawing: its `terminal` part, found beside the game module by
`cubegames.kit.parts` (as `cubegames.games.cubed.terminal` is for CUBED), so `cubegames play
nim` draws the pile instead of the view's tree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from cubegames.core.game import Game, Move
from cubegames.kit.terminal import on_colour

STONE = "#868e96"


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move]) -> RenderableType:
    """The pile as a row of stones, what each seat took, and the legal moves."""
    pile = Text(f"Nim: {view['pile']} stones  ", style="bold")
    pile.append(" o " * int(view["pile"]), style=on_colour(STONE))
    taken = Text("  ".join(f"seat {s}: took {n}" for s, n in enumerate(view["taken"])))
    lines: list[RenderableType] = [pile, taken]
    if legal:
        lines.append(Text("moves: " + "  ".join(str(m) for m in legal)))
    return Group(*lines)
