"""The drawing data of a game that has no module of its own here (a plug-in game): what the
generic table of the page (static/games/generic.js) needs, and the game's own capabilities
(`cubegames.core.capabilities`) where it has them.

- `svg`: the seat's view as an indented list of its fields (for the few places that want a
  picture, such as a finished game's preview);
- `info`: `{"generic": true, "title": ...}`: the page shows the view as a tree and the
  legal moves as buttons and a text box;
- `words`: the game's `MoveWords`, else "Seat 1 played take 2." (the notation, which is
  public unless the game has `SecretMoves`);
- `visible`: the game's `SecretMoves`, else True;
- `tell` and `hints`: the game's `Telling` and `WebHints`, else None.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from cubegames.core.capabilities import MoveWords, SecretMoves, Telling, WebHints, conforms
from cubegames.core.game import Game, Move
from cubegames.core.phrase import Phrase, Seat
from cubegames.kit.svg import capitalised, document, seat_name, text

#: the most lines of a view the picture shows
LINES = 40
LINE = 16.0


def lines(view: Any, indent: int = 0) -> list[str]:
    """`view` as indented `key: value` lines (a list or object nested deeper on its own
    lines).

    >>> lines({"pile": 5, "taken": [1, 2], "seat": None})
    ['pile: 5', 'taken: [1, 2]', 'seat: null']
    """
    pad = "  " * indent
    out: list[str] = []
    if isinstance(view, Mapping):
        for key, value in view.items():
            if isinstance(value, Mapping | list) and len(json.dumps(value)) > 60:
                out.append(f"{pad}{key}:")
                out += lines(value, indent + 1)
            else:
                out.append(f"{pad}{key}: {json.dumps(value, ensure_ascii=False)}")
    elif isinstance(view, list):
        for item in view:
            out += [f"{pad}- {line.lstrip()}" for line in lines(item, 0)] or [f"{pad}-"]
    else:
        out.append(f"{pad}{json.dumps(view, ensure_ascii=False)}")
    return out


def svg(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> str:
    """The view as lines of text, with the legal moves under it."""
    rows = lines(view)[:LINES]
    if legal:
        rows.append("moves: " + ", ".join(str(m) for m in legal[:20]))
    width = 640.0
    body = [text(12, 14 + LINE * i, row, size=13, anchor="start") for i, row in enumerate(rows)]
    height = 14 + LINE * max(len(rows), 1)
    return document(game.id, (0, 0, width, height), body, label=f"{game.info.title}: the table")


def info(game: Game[Any]) -> dict[str, Any]:
    """What the generic table needs to know about the game."""
    return {"generic": True, "title": game.info.title}


def words(game: Game[Any], move: str, mover: int, viewer: int | None) -> str:
    """The game's own words for the move, else its notation after the seat's name."""
    if conforms(game, MoveWords):
        return cast(MoveWords, game).move_words(move, mover, viewer)
    if not visible(game, move, mover, viewer):
        return capitalised(f"{seat_name(mover, viewer)} moved.")
    return capitalised(f"{seat_name(mover, viewer)} played {move}.")


def described(game: Game[Any], move: str, mover: int, viewer: int | None) -> Phrase | None:
    """`words` as a phrase of the catalogs (`words-generic-played`, `-moved`: the move's
    notation after the seat's name, which the page words in its language); None where the
    game words its moves itself (`MoveWords`: its own words, in its own language)."""
    if conforms(game, MoveWords):
        return None
    english = words(game, move, mover, viewer)
    if not visible(game, move, mover, viewer):
        return Phrase("words-generic-moved", {"who": Seat(mover)}, english)
    return Phrase("words-generic-played", {"who": Seat(mover), "move": move}, english)


def visible(game: Game[Any], move: str, mover: int, viewer: int | None) -> bool:
    """Whether `viewer` may read the move's notation: always, unless the game says not."""
    if conforms(game, SecretMoves):
        return cast(SecretMoves, game).move_visible(move, mover, viewer)
    return True


def tell(game: Game[Any], view: Mapping[str, Any]) -> str | None:
    """The game's `Telling`, else None."""
    return cast(Telling, game).tell(view) if conforms(game, Telling) else None


def hints(game: Game[Any], view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The game's `WebHints`, else None."""
    return cast(WebHints, game).web_hints(view) if conforms(game, WebHints) else None
