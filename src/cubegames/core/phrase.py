"""A sentence for a player as data: a message id of the catalogs and its parameters, with
its English words beside them.

The games' move describers (`games.<game>.web.described`, CUBES' `outcome.described`)
give a `Phrase`: the server sends `said()` (`[key, params]`) and the page words it from
its catalogs (`static/locales/<lang>.ftl`) in the reader's language, naming each seat as
the page names it; `str(phrase)` is the English the project has always written, for
programs that read the protocol and for the terminal.

A parameter is a string, a number, a `Seat` (the page puts the seat's name there, and
`<name>-you`, `yes` or `no`, for the words that change when the seat is the reader's own:
"you take", "seat 1 takes"), `Seats` (their names as a list), or another `Phrase` (worded
first, then filled in; its English goes with it, for a key a catalog lacks: a colour of a
home-made edition).

>>> p = Phrase("words-cubed-drew", {"who": Seat(1)}, "Seat 1 drew a piece.")
>>> str(p), p.said()
('Seat 1 drew a piece.', ['words-cubed-drew', {'who': {'seat': 1}}])
>>> Phrase("unst-place", {"layer": Phrase("unst-layer", {"z": 2}, "layer 2")}, "").said()
['unst-place', {'layer': {'say': ['unst-layer', {'z': 2}], 'text': 'layer 2'}}]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat named in a phrase (the reader's own is "you")."""

    seat: int


@dataclass(frozen=True, slots=True)
class Seats:
    """Seats named together in a phrase ("seat 1 and seat 2"; the page adds `<name>-count`
    and `<name>-you`, `yes` when the reader's seat is among them)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Phrase:
    """A message `key` with `params`, and `text`, its English words."""

    key: str
    params: Mapping[str, str | int | Seat | Seats | Phrase] = field(default_factory=dict)
    text: str = ""

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:  # (its params are a mapping: hashed by their items)
        return hash((self.key, tuple(self.params.items()), self.text))

    def said(self, known: Callable[[str], bool] | None = None) -> list[Any]:
        """The phrase as JSON: `[key, params]`, a seat as `{"seat": n}`, a phrase inside
        as `{"say": [key, params], "text": English}`; given `known` (which keys the
        catalogs have), a phrase inside carries its English only where its key is not
        known (a colour of a home-made edition): the reader words the others itself.

        >>> inner = Phrase("unst-layer", {"z": 2}, "layer 2")
        >>> Phrase("unst-place", {"layer": inner}, "").said(known=lambda key: True)
        ['unst-place', {'layer': {'say': ['unst-layer', {'z': 2}]}}]
        """
        return [
            self.key,
            {name: _json(value, known) for name, value in self.params.items()},
        ]


#: what a phrase's parameter may be
Param = str | int | Seat | Seats | Phrase


def _json(value: str | int | Seat | Seats | Phrase, known: Callable[[str], bool] | None) -> Any:
    kind = type(value)
    if kind is str or kind is int:
        return value
    if kind is Phrase:
        assert isinstance(value, Phrase)
        if known is not None and known(value.key):
            return _inside(value, known)
        return {"say": value.said(known), "text": value.text}
    if isinstance(value, Seat):
        return {"seat": value.seat}
    if isinstance(value, Seats):
        return {"seats": list(value.seats)}
    if isinstance(value, Phrase):
        return {"say": value.said(known), "text": value.text}
    return value


@functools.lru_cache(maxsize=4096)
def _inside(phrase: Phrase, known: Callable[[str], bool]) -> dict[str, Any]:
    """A phrase inside another whose key the catalogs know, as sent: made once for each
    such phrase (a colour, a place on the table, a piece) and shared by every message that
    holds it (messages are never changed once made). A server keeps every move's phrase
    in its games' logs: shared, they spare its garbage collector a dozen objects a move."""
    return {"say": phrase.said(known)}


def edition_phrase(game: str, edition: str) -> Phrase:
    """An edition of `game` named in the catalogs (`edition-GAME-ID`; a home-made edition,
    which the catalogs do not know, by its id).

    >>> edition_phrase("cubed", "ja").said()
    ['edition-cubed-ja', {}]
    """
    return Phrase(f"edition-{game}-{edition}", {}, edition)


class Worded(ValueError):
    """A `ValueError` whose message is also a phrase of the catalogs: `str(exc)` is its
    English (as before), `exc.phrase` the message `key` and its parameters, which the web
    server words in the language of the request (a bad option, bot or time control).

    >>> exc = Worded("error-option-whole", "option players: must be a whole number", option="n")
    >>> str(exc), exc.phrase.said()
    ('option players: must be a whole number', ['error-option-whole', {'option': 'n'}])
    """

    def __init__(
        self, key: str, english: str, /, **params: str | int | float | Seat | Phrase
    ) -> None:
        super().__init__(english)
        self.phrase = Phrase(key, {k: _plain(v) for k, v in params.items()}, english)


def _plain(value: str | int | float | Seat | Phrase) -> str | int | Seat | Phrase:
    """A number as a phrase takes it: a whole float as an int, another as its text."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else f"{value:g}"
    return value
