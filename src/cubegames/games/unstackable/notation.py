"""Unstackable moves and their notation. One move is one cube.

| move                                   | text      |
|----------------------------------------|-----------|
| stack a cube of a colour on a cell     | `K@1,0,2` |
| end a stacking turn early              | `end`     |
| unstack (remove) the cube on a cell    | `1,0,2`   |

Colours are `Y` (yellow), `R` (red) and `K` (black); coordinates are `x,y,z`, with `z = 0`
on the bag. The structure is kept in the corner of the 4×4×4 grid, so cells are 0..3, except
that a stacking move may name `x = -1` or `y = -1` (the column just before the structure,
which then shifts by one). `end` is legal only with the option `exact_counts = false`.
Coordinates outside the grid still parse, so that the rules can say why such a move is
refused.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from cubegames.core.errors import IllegalMove, typed
from cubegames.core.game import Move
from cubegames.games.unstackable.box import LETTERS, Colour


class UnstackableMove(Move):
    """Any Unstackable move."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Stack(UnstackableMove):
    """Place one cube of `colour` on cell `(x, y, z)` (stage 1).

    >>> str(Stack(Colour.BLACK, 1, 0, 2))
    'K@1,0,2'
    """

    colour: Colour
    x: int
    y: int
    z: int

    def __str__(self) -> str:
        return f"{self.colour.value}@{self.x},{self.y},{self.z}"


@dataclass(frozen=True, slots=True)
class End(UnstackableMove):
    """End a stacking turn before it has placed its colour's count (option
    `exact_counts = false`).

    >>> str(End())
    'end'
    """

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Unstack(UnstackableMove):
    """Take the cube on cell `(x, y, z)` out of the cube (stage 2).

    >>> str(Unstack(3, 3, 3))
    '3,3,3'
    """

    x: int
    y: int
    z: int

    def __str__(self) -> str:
        return f"{self.x},{self.y},{self.z}"


_CELL = r"(-?\d{1,3}),(-?\d{1,3}),(-?\d{1,3})"
_STACK = re.compile(r"([A-Za-z])@" + _CELL)
_UNSTACK = re.compile(_CELL)

FORMS = "K@x,y,z to stack a cube (colour Y, R or K), end to end a turn, x,y,z to remove one"


#: the longest move text whose reading is remembered (every well-formed move is shorter)
_REMEMBERED = 24


def parse(text: str) -> UnstackableMove:
    """Read a move from its notation (spaces around the parts are allowed). A move is
    read several times on its way (checked, played, told in words for each seat): a short
    text's reading is remembered (moves are frozen, so one reading can be shared).

    >>> parse("r@0, 1, 0")
    Stack(colour=Colour.RED, x=0, y=1, z=0)
    >>> parse("3,0,3")
    Unstack(x=3, y=0, z=3)
    >>> parse("G@0,0,0")
    Traceback (most recent call last):
    ...
    cubegames.core.errors.IllegalMove: 'G' is not a cube colour: use Y, R or K
    """
    if isinstance(text, str) and len(text) <= _REMEMBERED:
        return _remembered(text)
    return _parse(text)


@functools.lru_cache(maxsize=4096)
def _remembered(text: str) -> UnstackableMove:
    return _parse(text)


def _parse(text: str) -> UnstackableMove:
    if not isinstance(text, str):
        raise IllegalMove(f"a move is text: {FORMS}")
    compact = "".join(text.split())
    if compact.lower() == "end":
        return End()
    if m := _STACK.fullmatch(compact):
        letter = m[1].upper()
        if letter not in LETTERS:
            raise IllegalMove(
                f"{typed(m[1])} is not a cube colour: "
                f"use {', '.join(LETTERS[:-1])} or {LETTERS[-1]}"
            )
        return Stack(Colour(letter), int(m[2]), int(m[3]), int(m[4]))
    if m := _UNSTACK.fullmatch(compact):
        return Unstack(int(m[1]), int(m[2]), int(m[3]))
    raise IllegalMove(f"cannot read {typed(text)}: {FORMS}")
