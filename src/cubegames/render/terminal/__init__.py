"""Terminal drawings of each game, made from what one seat may see (`state.view(seat)`).

Each game has a module here with `draw(game, view, legal) -> rich renderable`; `legal` are
the moves the viewing seat may make now (or empty), so the drawing can point them out. A
module may also have `tell(game, view) -> str | None`, the last move in words. Their words
are the catalogs' (`words.t`), in the language set by `words.speaking(lang)`. A game with
no module here (a plug-in game) is drawn by its `TextDrawing` capability, or as its view's
tree (`cubegames.core.capabilities`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.style import Style
from rich.text import Text

from cubegames.core.capabilities import Telling, TextDrawing
from cubegames.core.game import Game, Move
from cubegames.core.registry import built_in
from cubegames.render.terminal.words import t


class Drawing(Protocol):
    """What every terminal module has."""

    def draw(
        self, game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move]
    ) -> RenderableType: ...


@runtime_checkable
class Tells(Protocol):
    """A terminal module that tells the last move in fuller words."""

    def tell(self, game: Game[Any], view: Mapping[str, Any]) -> str | None: ...


def _module(game: Game[Any]) -> Drawing | None:
    """The game's own terminal module (built-in games), or None (a plug-in game)."""
    if not built_in(game.id):
        return None
    return cast(Drawing, importlib.import_module(f"cubegames.render.terminal.{game.id}"))


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> RenderableType:
    """The drawing of `view` for `game`: by the game's own terminal module, else by its
    `TextDrawing` capability, else the view as a tree with the legal moves under it."""
    module = _module(game)
    if module is not None:
        return module.draw(game, view, legal)
    if isinstance(game, TextDrawing):
        return Text(game.draw_text(view, legal))
    tree = Pretty(dict(view), expand_all=True)
    title = Text(f"{game.info.title}", style="bold")
    if not legal:
        return Group(title, tree)
    moves = Text(t("term-moves", moves="  ".join(str(m) for m in legal)))
    return Group(title, tree, moves)


def tell(game: Game[Any], view: Mapping[str, Any]) -> str | None:
    """What the last move did, in words, if the game can say more than its notation
    (CUBES: what a roll meant); None otherwise."""
    module = _module(game)
    if module is None:
        return game.tell(view) if isinstance(game, Telling) else None
    return module.tell(game, view) if isinstance(module, Tells) else None


def on_colour(rgb: str) -> Style:
    """A background `rgb` with black or white text, whichever reads better."""
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    light = 0.299 * r + 0.587 * g + 0.114 * b > 140
    return Style(bgcolor=rgb, color="black" if light else "white", bold=True)
