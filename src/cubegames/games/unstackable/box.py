"""What comes in the box: the three colours, how many cubes of each, and the scoring table.

The numbers live in `editions/standard.toml` so that they can be checked against a real box
and corrected without touching the rules; the file is read and validated once.

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
from typing import Any

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


def _whole(value: Any, where: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BoxError(f"{where}: must be a whole number of at least {low}")
    return value


def _table(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BoxError(f"{where}: must be a table")
    keys = set(data)
    if keys != set(LETTERS):
        missing = sorted(set(LETTERS) - keys)
        if missing:
            raise BoxError(f"{where}: colour {missing[0]} is missing (give Y, R and K)")
        raise BoxError(f"{where}: unknown colour {sorted(keys - set(LETTERS))[0]!r}")
    return data


def parse_box(data: dict[str, Any], where: str) -> Box:
    """Validate a parsed box file; `where` names it in error messages.

    >>> parse_box({"name": "odd"}, "odd.toml")
    Traceback (most recent call last):
    ...
    cubegames.games.unstackable.box.BoxError: odd.toml: colours: must be a table
    """
    name = data.get("name")
    if not isinstance(name, str):
        raise BoxError(f"{where}: name: must be text")
    colours = _table(data.get("colours"), f"{where}: colours")
    names: dict[Colour, str] = {}
    rgb: dict[Colour, str] = {}
    count: dict[Colour, int] = {}
    per_turn: dict[Colour, int] = {}
    for colour in Colour:
        spec = colours[colour.value]
        here = f"{where}: colours.{colour.value}"
        if not isinstance(spec, dict):
            raise BoxError(f"{here}: must be a table with name, rgb, count and per_turn")
        if not isinstance(spec.get("name"), str):
            raise BoxError(f"{here}.name: must be text")
        names[colour] = spec["name"]
        code = spec.get("rgb")
        if not isinstance(code, str) or len(code) != 7 or code[0] != "#":
            raise BoxError(f"{here}.rgb: must look like #12ab3f")
        rgb[colour] = code
        count[colour] = _whole(spec.get("count"), f"{here}.count", 0)
        per_turn[colour] = _whole(spec.get("per_turn"), f"{here}.per_turn", 1)
    if sum(count.values()) != CELLS:
        raise BoxError(
            f"{where}: colours: the counts add up to {sum(count.values())}, "
            f"but the cube has {CELLS} cells"
        )
    points_data = data.get("points")
    if not isinstance(points_data, dict) or set(points_data) != {"pile1", "pile2"}:
        raise BoxError(f"{where}: points: must have exactly the tables pile1 and pile2")
    piles: list[dict[Colour, int]] = []
    for pile in ("pile1", "pile2"):
        table = _table(points_data[pile], f"{where}: points.{pile}")
        piles.append(
            {c: _whole(table[c.value], f"{where}: points.{pile}.{c.value}", 0) for c in Colour}
        )
    return Box(name, names, rgb, count, per_turn, (piles[0], piles[1]))


@cache
def load_box(name: str = "standard") -> Box:
    """A box shipped with the package, by name (only `standard` exists)."""
    if name != "standard":
        raise BoxError(f"unknown box {name!r}; the only one is 'standard'")
    where = f"editions/{name}.toml"
    text = resources.files("cubegames.games.unstackable").joinpath(where).read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoxError(f"{where}: not valid TOML ({exc})") from None
    return parse_box(data, where)
