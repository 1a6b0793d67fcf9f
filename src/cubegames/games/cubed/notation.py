"""CUBED moves and their notation.

| move                          | text          |
|-------------------------------|---------------|
| place (slots top, left, right)| `GPY@1,-1`    |
| draw one                      | `draw`        |
| pass                          | `pass`        |
| draw k, keep one (`draw3`)    | `draw3:2`, then `keep:GPY` |
| give after filling a void     | `give:GPY>2`, or `skip` |

Pieces in `keep:` and `give:` may start at any diamond: they are stored in their least
rotation, so `keep:GPY == keep:PYG`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from cubegames.core.errors import IllegalMove, Refusal, typed, typed_number
from cubegames.core.game import Move
from cubegames.core.hexgrid import LIMIT, in_range


def least_rotation(letters: str) -> str:
    """One spelling for a piece however it is turned.

    >>> least_rotation("YGP")
    'GPY'
    """
    return min(letters, letters[1:] + letters[:1], letters[2:] + letters[:2])


class CubedMove(Move):
    """Any CUBED move."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Place(CubedMove):
    """Lay a piece with colours `slots` (top, left, right) on cell `(q, r)`.

    >>> str(Place("GPY", 1, -1))
    'GPY@1,-1'
    """

    slots: str
    q: int
    r: int

    def __str__(self) -> str:
        return f"{self.slots}@{self.q},{self.r}"


@dataclass(frozen=True, slots=True)
class Draw(CubedMove):
    """Draw one piece from the bag."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass(CubedMove):
    """End the turn without placing."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Draw3(CubedMove):
    """Variant draw3: draw `k` pieces at the start of the turn, to keep one."""

    k: int

    def __str__(self) -> str:
        return f"draw3:{self.k}"


@dataclass(frozen=True, slots=True)
class Keep(CubedMove):
    """Variant draw3: keep this one of the drawn pieces."""

    piece: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "piece", least_rotation(self.piece))

    def __str__(self) -> str:
        return f"keep:{self.piece}"


@dataclass(frozen=True, slots=True)
class Give(CubedMove):
    """Variant void: give a piece from hand to seat `to`.

    >>> Give("PYG", 2) == Give("GPY", 2)
    True
    """

    piece: str
    to: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "piece", least_rotation(self.piece))

    def __str__(self) -> str:
        return f"give:{self.piece}>{self.to}"


@dataclass(frozen=True, slots=True)
class Skip(CubedMove):
    """Variant void: give nothing."""

    def __str__(self) -> str:
        return "skip"


_PLACE = re.compile(r"([A-Z]{3})@(-?\d+),(-?\d+)", re.IGNORECASE)
_DRAW3 = re.compile(r"draw3:(\d+)", re.IGNORECASE)
_KEEP = re.compile(r"keep:([A-Z]{3})", re.IGNORECASE)
_GIVE = re.compile(r"give:([A-Z]{3})>(\d+)", re.IGNORECASE)
_WORDS: dict[str, CubedMove] = {"draw": Draw(), "pass": Pass(), "skip": Skip()}

FORMS = "GPY@1,-1, draw, pass, draw3:2, keep:GPY, give:GPY>1 or skip"


#: the longest move text whose reading is remembered (every well-formed move is shorter)
_REMEMBERED = 24


def parse(text: str, letters: str) -> CubedMove:
    """Read a move; `letters` are the edition's colour letters. A move is read several
    times on its way (checked, played, told in words for each seat): a short text's
    reading is remembered (moves are frozen, so one reading can be shared).

    >>> parse("gpy@1,-1", "GPLNYBWK")
    Place(slots='GPY', q=1, r=-1)
    >>> parse("GXY@0,0", "GPLNYBWK")
    Traceback (most recent call last):
    ...
    cubegames.core.errors.IllegalMove: 'X' is not a colour here (the colours are GPLNYBWK)
    >>> parse("GPY@-2,257", "GPLNYBWK")
    Traceback (most recent call last):
    ...
    cubegames.core.errors.IllegalMove: cell -2,257 is out of reach (coordinates go to ±126)
    """
    if isinstance(text, str) and len(text) <= _REMEMBERED:
        return _remembered(text, letters)
    return _parse(text, letters)


@functools.lru_cache(maxsize=4096)
def _remembered(text: str, letters: str) -> CubedMove:
    return _parse(text, letters)


def _parse(text: str, letters: str) -> CubedMove:
    if not isinstance(text, str):
        raise IllegalMove(f"a move is text like {FORMS}")
    t = text.strip()
    if t.lower() in _WORDS:
        return _WORDS[t.lower()]

    def colours(raw: str) -> str:
        up = raw.upper()
        for ch in up:
            if ch not in letters:
                raise IllegalMove(f"{ch!r} is not a colour here (the colours are {letters})")
        return up

    if m := _PLACE.fullmatch(t):
        q, r = typed_number(m[2]), typed_number(m[3])
        if not in_range(q, r):
            # a cell beyond the grid's span would be packed onto another one: 0,257 is 1,1
            raise IllegalMove(
                Refusal(
                    "reach",
                    f"cell {q},{r} is out of reach (coordinates go to ±{LIMIT})",
                    limit=LIMIT,
                )
            )
        return Place(colours(m[1]), q, r)
    if m := _DRAW3.fullmatch(t):
        return Draw3(typed_number(m[1]))
    if m := _KEEP.fullmatch(t):
        return Keep(colours(m[1]))
    if m := _GIVE.fullmatch(t):
        return Give(colours(m[1]), typed_number(m[2]))
    raise IllegalMove(f"cannot read {typed(text)}: moves look like {FORMS}")
