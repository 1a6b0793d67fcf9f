"""SVG drawings for the web app, one module per game, each made from one seat's view.

Every game module here has:

- `svg(game, view, legal) -> str`: the table as `view["seat"]` sees it (`None`: a
  spectator), with `legal` (the viewer's legal moves, or none) pointed out;
- `info(game) -> dict`: what the page needs to know about the game that is not in a view
  (colour names and screen colours, piece shapes), sent once when a page connects;
- `words(game, move, mover, viewer) -> str`: a move in plain words, saying only what
  `viewer` may know (a CUBED piece kept from a draw3 draw stays secret from the others);
- optionally `tell(game, view) -> str | None`: the last move in fuller words (CUBES says
  what a roll did);
- optionally `hints(game, view) -> dict`: facts the page needs to draw `view` that only
  the engine can work out from it (CUBED: the cells where a piece may go and the dead
  cells), made from `view` alone; and optionally `state_hints(game, state)`, the same
  as `hints` of the state's public view, made faster from what the state keeps.

Drawings carry data attributes that the page maps to moves: `data-cell`, `data-node`,
`data-hand`, `data-move` (an element that plays that move when clicked). Every colour is
drawn with its letter, so nothing depends on telling colours apart.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping, Sequence
from html import escape
from types import ModuleType
from typing import Any

from cubegames.core.game import Game, Move, State

#: the font stack of every drawing (the page's own font where it has one)
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


@functools.cache
def _module_of(game_id: str) -> ModuleType:
    return importlib.import_module(f"cubegames.render.web.{game_id}")


def _module(game: Game[Any]) -> ModuleType:
    """The game's drawing module (found once: the server asks for it several times a move)."""
    return _module_of(game.id)


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> str:
    """The SVG drawing of `view` by the game's own module."""
    drawing: str = _module(game).svg(game, view, legal)
    return drawing


def info(game: Game[Any]) -> dict[str, Any]:
    """Static facts about `game` that its page needs (colours, shapes), JSON-able."""
    facts: dict[str, Any] = _module(game).info(game)
    return facts


def words(
    game: Game[Any], move: str, mover: int, viewer: int | None, earlier: Sequence[str] = ()
) -> str:
    """`move` (notation, played by seat `mover`) in words for seat `viewer` (None: a
    spectator); it says nothing `viewer` may not know. `earlier`, the moves before it,
    matters to a game that names places in a frame set by its history (`framed`)."""
    module = _module(game)
    if getattr(module, "FRAMED", False):
        framed: str = module.words(game, move, mover, viewer, earlier)
        return framed
    said: str = module.words(game, move, mover, viewer)
    return said


def framed(game: Game[Any]) -> bool:
    """Whether `words` needs the moves before the one it tells (Unstackable's places are
    named on a board fixed by its first cube)."""
    return bool(getattr(_module(game), "FRAMED", False))


def history_hints(game: Game[Any], moves: Sequence[str]) -> dict[str, Any]:
    """What the page needs from the moves so far to name places as `words` does (the
    Unstackable board's `frame`); empty for other games."""
    made = getattr(_module(game), "history_hints", None)
    found: dict[str, Any] = made(game, moves) if made is not None else {}
    return found


def tell(game: Game[Any], view: Mapping[str, Any]) -> str | None:
    """What the last move did, in words, when the game can say more than `words` (CUBES
    explains its rolls); None otherwise."""
    telling = getattr(_module(game), "tell", None)
    if telling is None:
        return None
    said: str | None = telling(game, view)
    return said


def hints(game: Game[Any], view: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the page needs besides `view` to draw it (None for games that need nothing)."""
    hinting = getattr(_module(game), "hints", None)
    if hinting is None:
        return None
    found: dict[str, Any] = hinting(game, view)
    return found


def state_hints(game: Game[Any], state: State[Any]) -> dict[str, Any] | None:
    """`hints(game, state.public_view())`, by the game module's faster `state_hints` where
    it has one (made from what the state keeps, never from anything a seat cannot see)."""
    module = _module(game)
    fast = getattr(module, "state_hints", None)
    if fast is None:
        return hints(game, state.public_view()) if hasattr(module, "hints") else None
    found: dict[str, Any] = fast(game, state)
    return found


def tells(game: Game[Any]) -> bool:
    """Whether the game's module has `tell` (so `tell` can be skipped for the others)."""
    return hasattr(_module(game), "tell")


def visible(game: Game[Any], move: str, mover: int, viewer: int | None) -> bool:
    """Whether `viewer` may read `move`'s notation (its words are always safe to show)."""
    check = getattr(_module(game), "visible", None)
    return True if check is None else bool(check(game, move, mover, viewer))


def esc(text: object) -> str:
    """Text made safe for SVG content and attribute values."""
    return escape(str(text), quote=True)


def ink(rgb: str) -> str:
    """Black or white, whichever reads better on the background `rgb` (`#rrggbb`)."""
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def fmt(value: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def points(coords: Sequence[tuple[float, float]]) -> str:
    """A `points` attribute for a polygon."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in coords)


def text(
    x: float,
    y: float,
    content: object,
    *,
    size: float = 12,
    fill: str = "#222",
    anchor: str = "middle",
    weight: str = "normal",
    cls: str = "",
) -> str:
    """One line of text; `y` is its middle."""
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" fill="{fill}" '
        f'text-anchor="{anchor}" dominant-baseline="central" font-weight="{weight}"{klass}>'
        f"{esc(content)}</text>"
    )


def document(
    game_id: str,
    box: tuple[float, float, float, float],
    body: Sequence[str],
    *,
    label: str,
    style: str = "",
) -> str:
    """A whole SVG document: `box` is the view box (x, y, width, height).

    The root carries the classes `cg cg-GAME`; `style` rules should start with
    `svg.cg-GAME` so that, inlined in a page, they touch nothing else.
    """
    x, y, w, h = box
    css = f"<style>{style}</style>" if style else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cg cg-{game_id}" '
        f'viewBox="{fmt(x)} {fmt(y)} {fmt(w)} {fmt(h)}" width="{fmt(w)}" height="{fmt(h)}" '
        f'role="img" aria-label="{esc(label)}" font-family="{esc(FONT)}">'
        f"{css}{''.join(body)}</svg>"
    )


def seat_name(seat: int, viewer: int | None) -> str:
    """`you` for the viewer's own seat, else `seat N`."""
    return "you" if seat == viewer else f"seat {seat}"


def capitalised(sentence: str) -> str:
    """The sentence with its first letter in capitals."""
    return sentence[:1].upper() + sentence[1:]
