"""Terminal drawings of each game, made from what one seat may see (`state.view(seat)`).

A game draws itself with its own `terminal` part (`cubegames.kit.parts`: the module
`terminal` beside its game module, `cubegames.games.cubed.terminal` for CUBED) holding
`draw(game, view, legal) -> rich renderable`; `legal` are the moves the viewing seat may make
now (or empty), so the drawing can point them out. The module may also have `tell(game, view)
-> str | None`, the last move in words. A game's `TextDrawing` capability
(`cubegames.core.capabilities`) comes before its module; a game with neither is drawn as its
view's tree with its legal moves under it. The module may list the exact odds of its
chance, `odds_of(game) -> rich renderable`, for `cubegames odds`. Their words are the
catalogs' (`kit.terminal.t`), in the language set by `kit.terminal.speaking(lang)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text

from cubegames.core.capabilities import Telling, TextDrawing
from cubegames.core.game import Game, Move
from cubegames.kit.parts import part
from cubegames.kit.terminal import t


class Drawing(Protocol):
    """What every terminal module has."""

    def draw(
        self, game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move]
    ) -> RenderableType: ...


@runtime_checkable
class Tells(Protocol):
    """A terminal module that tells the last move in fuller words."""

    def tell(self, game: Game[Any], view: Mapping[str, Any]) -> str | None: ...


@runtime_checkable
class Odds(Protocol):
    """A terminal module that lists the exact odds of its game's chance (`cubegames odds`)."""

    def odds_of(self, game: Game[Any]) -> RenderableType: ...


def _module(game: Game[Any]) -> Drawing | None:
    """The game's own terminal module, or None."""
    return cast(Drawing | None, part(game.id, "terminal"))


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> RenderableType:
    """The drawing of `view` for `game`: by its `TextDrawing` capability, else by its own
    terminal module, else the view as a tree with the legal moves under it."""
    if isinstance(game, TextDrawing):
        return Text(game.draw_text(view, legal))
    module = _module(game)
    if module is not None:
        return module.draw(game, view, legal)
    tree = Pretty(dict(view), expand_all=True)
    title = Text(f"{game.info.title}", style="bold")
    if not legal:
        return Group(title, tree)
    moves = Text(t("term-moves", moves="  ".join(str(m) for m in legal)))
    return Group(title, tree, moves)


def tell(game: Game[Any], view: Mapping[str, Any]) -> str | None:
    """What the last move did, in words, if the game can say more than its notation
    (CUBES: what a roll meant); None otherwise."""
    if isinstance(game, Telling):
        return game.tell(view)
    module = _module(game)
    return module.tell(game, view) if isinstance(module, Tells) else None


def odds(game: Game[Any]) -> RenderableType | None:
    """The exact odds of the game's chance events, drawn by its terminal part (CUBES: every
    outcome of a roll of its dice), or None for a game that lists none."""
    module = _module(game)
    return module.odds_of(game) if isinstance(module, Odds) else None
