"""What comes in the box: the three colours, how many cubes of each, and the scoring table.

The numbers live in `editions/standard.toml` so that they can be checked against a real box
and corrected without touching the rules; the file is read once and validated by one pydantic
model (`BoxFile`), whose errors name the field; only the total count (64) is checked across
fields by hand.

>>> box = load_box()
>>> box.count[Colour.RED], box.per_turn[Colour.BLACK], box.points[0][Colour.YELLOW]
(16, 3, 5)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator

from cubegames.core.data import Positive, Rgb, Text, Whole, validated
from cubegames.core.errors import shown

#: the cells of the 4×4×4 cube, which the cubes of the box fill exactly
CELLS = 64


class Colour(StrEnum):
    """A cube colour; its value is the letter used in notation and position files.

    >>> Colour("K").name, str(Colour.RED)
    ('BLACK', 'R')
    """

    YELLOW = "Y"
    RED = "R"
    BLACK = "K"

    def __repr__(self) -> str:
        # Pasteable, so that a move's repr can be typed back into Python.
        return f"Colour.{self.name}"


#: the colours in a fixed order (the order of the data file and of move lists), as a
#: tuple (iterating an Enum class is slow) and as their letters
COLOURS = tuple(Colour)
LETTERS = "".join(c.value for c in COLOURS)


class BoxError(ValueError):
    """A box data file that cannot be used; the message names the field."""


@dataclass(frozen=True)
class Box:
    """The validated contents of a box.

    `points[0]` scores the cubes in pile 1, `points[1]` those in pile 2.
    """

    name: str
    colour_names: dict[Colour, str]
    rgb: dict[Colour, str]
    count: dict[Colour, int]
    per_turn: dict[Colour, int]
    points: tuple[dict[Colour, int], dict[Colour, int]]

    def pile_points(self, pile: int, cubes: str) -> int:
        """Points scored by the cubes `cubes` (letters) lying in pile `pile` (0 or 1).

        >>> load_box().pile_points(0, "YRK"), load_box().pile_points(1, "YRK")
        (8, 1)
        """
        table = self.points[pile]
        return sum(table[Colour(letter)] for letter in cubes)


def _colours(value: Any) -> Any:
    """A table with exactly the colours Y, R and K."""
    if not isinstance(value, dict):
        raise ValueError("must be a table")
    keys = set(value)
    missing = sorted(set(LETTERS) - keys)
    if missing:
        raise ValueError(f"colour {missing[0]} is missing (give Y, R and K)")
    if keys != set(LETTERS):
        raise ValueError(f"unknown colour {shown(sorted(keys - set(LETTERS))[0])}")
    return value


def _table(value: Any) -> Any:
    if not isinstance(value, dict):
        raise ValueError("must be a table with name, rgb, count and per_turn")
    return value


def _piles(value: Any) -> Any:
    if not isinstance(value, dict) or set(value) != {"pile1", "pile2"}:
        raise ValueError("must have exactly the tables pile1 and pile2")
    return value


Points = Annotated[dict[Colour, Whole], BeforeValidator(_colours)]


class ColourFile(BaseModel):
    """One colour of a box file."""

    name: Text
    rgb: Rgb
    count: Whole
    per_turn: Positive


class PointsFile(BaseModel):
    """The scoring tables of a box file."""

    pile1: Points
    pile2: Points


class BoxFile(BaseModel):
    """A box file (`editions/standard.toml`): the model that validates it, field by field."""

    name: Text
    colours: Annotated[
        dict[Colour, Annotated[ColourFile, BeforeValidator(_table)]], BeforeValidator(_colours)
    ]
    points: Annotated[PointsFile, BeforeValidator(_piles)]


def parse_box(data: dict[str, Any], where: str) -> Box:
    """Validate a parsed box file with `BoxFile`; `where` names it in error messages, which
    name the field.

    >>> parse_box({"name": "odd"}, "odd.toml")
    Traceback (most recent call last):
    ...
    cubegames.games.unstackable.box.BoxError: odd.toml: missing field 'colours'
    """
    read = validated(BoxFile, data, where, BoxError)
    colours = read.colours
    count = {c: colours[c].count for c in Colour}
    if sum(count.values()) != CELLS:
        raise BoxError(
            f"{where}: colours: the counts add up to {sum(count.values())}, "
            f"but the cube has {CELLS} cells"
        )
    return Box(
        read.name,
        {c: colours[c].name for c in Colour},
        {c: colours[c].rgb for c in Colour},
        count,
        {c: colours[c].per_turn for c in Colour},
        (dict(read.points.pile1), dict(read.points.pile2)),
    )


@cache
def load_box(name: str = "standard") -> Box:
    """A box shipped with the package, by name (only `standard` exists)."""
    if name != "standard":
        raise BoxError(f"unknown box {shown(name)}; the only one is 'standard'")
    where = f"editions/{name}.toml"
    text = resources.files("cubegames.games.unstackable").joinpath(where).read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoxError(f"{where}: not valid TOML ({exc})") from None
    return parse_box(data, where)
