"""Terminal drawings of each game, made from what one seat may see (`state.view(seat)`).

Each game has a module here with `draw(game, view, legal) -> rich renderable`; `legal` are
the moves the viewing seat may make now (or empty), so the drawing can point them out. A
module may also have `tell(game, view) -> str | None`, the last move in words.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.style import Style

from cubegames.core.game import Game, Move


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> RenderableType:
    """The drawing of `view` for `game`, by the game's own terminal module."""
    module = importlib.import_module(f"cubegames.render.terminal.{game.id}")
    drawing: RenderableType = module.draw(game, view, legal)
    return drawing


def tell(game: Game[Any], view: Mapping[str, Any]) -> str | None:
    """What the last move did, in words, if the game's module can say more than its
    notation (CUBES: what a roll meant); None otherwise."""
    module = importlib.import_module(f"cubegames.render.terminal.{game.id}")
    telling = getattr(module, "tell", None)
    if telling is None:
        return None
    said: str | None = telling(game, view)
    return said


def on_colour(rgb: str) -> Style:
    """A background `rgb` with black or white text, whichever reads better."""
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    light = 0.299 * r + 0.587 * g + 0.114 * b > 140
    return Style(bgcolor=rgb, color="black" if light else "white", bold=True)
