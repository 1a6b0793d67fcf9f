"""A sentence for a player as data: a message id of the catalogs and its parameters, with
its English words beside them.

The games' move describers (`render.web.<game>.described`, CUBES' `outcome.described`)
give a `Phrase`: the server sends `said()` (`[key, params]`) and the page words it from
its catalogs (`static/locales/<lang>.ftl`) in the reader's language, naming each seat as
the page names it; `str(phrase)` is the English the project has always written, for
programs that read the protocol and for the terminal.

A parameter is a string, a number, a `Seat` (the page puts the seat's name there, and
`<name>-you`, `yes` or `no`, for the words that change when the seat is the reader's own:
"you take", "seat 1 takes"), `Seats` (their names as a list), or another `Phrase` (worded
first, then filled in; its English goes with it, for a key a catalog lacks: a colour of a
home-made edition).

>>> p = Phrase("cubed-drew", {"who": Seat(1)}, "Seat 1 drew a piece.")
>>> str(p), p.said()
('Seat 1 drew a piece.', ['cubed-drew', {'who': {'seat': 1}}])
>>> Phrase("x", {"where": Phrase("y", {"z": 2}, "two")}, "at two").said()
['x', {'where': {'say': ['y', {'z': 2}], 'text': 'two'}}]
"""

from __future__ import annotations

from collections.abc import Mapping
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

    def said(self) -> list[Any]:
        """The phrase as JSON: `[key, params]`, a seat as `{"seat": n}`, a phrase inside
        as `{"say": [key, params]}`."""
        return [self.key, {name: _json(value) for name, value in self.params.items()}]


#: what a phrase's parameter may be
Param = str | int | Seat | Seats | Phrase


def _json(value: str | int | Seat | Seats | Phrase) -> Any:
    if isinstance(value, Seat):
        return {"seat": value.seat}
    if isinstance(value, Seats):
        return {"seats": list(value.seats)}
    if isinstance(value, Phrase):
        return {"say": value.said(), "text": value.text}
    return value
