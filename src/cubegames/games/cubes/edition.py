"""Edition data files: the chips, dice, starting points and payments of one CUBES box.

Each edition is a TOML file in `editions/`; a designer may also pass the path of a file of
their own to `make("cubes", edition="my.toml")`. A file is validated once when it is
loaded, and a bad one fails with a message that names the field.

>>> ed = load_edition("standard")
>>> ed.box_points, ed.dice[0].faces
(100, ('C', '1', '6', '.', '.', '.'))
>>> ed.deal(7)  # points each, and what starts in the pot (before the antes)
(14, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from cubegames.core.data import need, read_data_file
from cubegames.games.cubes.dice import is_face

#: a roll is always six dice, each a cube
DICE = 6
FACES = 6


class EditionError(ValueError):
    """A CUBES edition file that cannot be used; the message names the field."""


@dataclass(frozen=True)
class Chip:
    """One colour of chip: its name, value in points, how many the box holds, screen colour."""

    name: str
    value: int
    count: int
    rgb: str


@dataclass(frozen=True)
class Die:
    """One die: its colour and its six faces (`C` the word, `.` blank, or a number)."""

    name: str
    rgb: str
    faces: tuple[str, ...]


@dataclass(frozen=True)
class Edition:
    """Everything about one edition that the rules need, validated."""

    id: str
    name: str
    chips: tuple[Chip, ...]
    dice: tuple[Die, ...]
    min_players: int
    max_players: int
    each: int
    share_from: int
    ante: int
    opponent_pays: int
    blank_pays: int
    multiplier: int

    @property
    def box_points(self) -> int:
        """All the points in the box."""
        return sum(c.value * c.count for c in self.chips)

    @property
    def faces(self) -> list[list[str]]:
        """The dice as position files write them: six lists of six faces."""
        return [list(d.faces) for d in self.dice]

    def deal(self, players: int) -> tuple[int, int]:
        """Points each player starts a set with, and what starts in the pot, before antes."""
        if players < self.share_from:
            return self.each, 0
        return divmod(self.box_points, players)

    def in_play(self, players: int) -> int:
        """Points on the table (chips plus pot) throughout a set with `players` players."""
        each, pot = self.deal(players)
        return each * players + pot


def _need(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    return need(data, key, kind, where, EditionError)


def _whole(data: dict[str, Any], key: str, where: str, low: int) -> int:
    value: int = _need(data, key, int, where)
    if value < low:
        raise EditionError(f"{where}: {key} must be at least {low}")
    return value


def _rgb(data: dict[str, Any], where: str) -> str:
    rgb: str = _need(data, "rgb", str, where)
    if len(rgb) != 7 or rgb[0] != "#" or any(ch not in "0123456789abcdefABCDEF" for ch in rgb[1:]):
        raise EditionError(f"{where}: rgb must look like #12ab3f")
    return rgb


def _tables(data: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    listed: list[Any] = _need(data, key, list, where)
    if not all(isinstance(entry, dict) for entry in listed):
        raise EditionError(f"{where}: {key} must be a list of tables ([[{key}]])")
    return [dict(entry) for entry in listed]


def _chips(data: dict[str, Any], where: str) -> tuple[Chip, ...]:
    out = []
    for i, entry in enumerate(_tables(data, "chips", where)):
        here = f"{where}: chips[{i}]"
        out.append(
            Chip(
                name=_need(entry, "name", str, here),
                value=_whole(entry, "value", here, 1),
                count=_whole(entry, "count", here, 0),
                rgb=_rgb(entry, here),
            )
        )
    if not out:
        raise EditionError(f"{where}: chips: the box needs at least one kind of chip")
    return tuple(out)


def _dice(data: dict[str, Any], where: str) -> tuple[Die, ...]:
    listed = _tables(data, "dice", where)
    if len(listed) != DICE:
        raise EditionError(f"{where}: dice: a roll uses {DICE} dice, not {len(listed)}")
    out = []
    for i, entry in enumerate(listed):
        here = f"{where}: dice[{i}]"
        faces = _need(entry, "faces", list, here)
        if len(faces) != FACES:
            raise EditionError(f"{here}.faces: a die has {FACES} faces, not {len(faces)}")
        texts = []
        for j, face in enumerate(faces):
            # a number written bare in TOML is read as the same face as its digits
            text = str(face) if isinstance(face, int) and not isinstance(face, bool) else face
            if not isinstance(text, str) or not is_face(text):
                raise EditionError(
                    f'{here}.faces[{j}]: {face!r} is no face; write "C", "." or a number'
                )
            texts.append(text)
        out.append(Die(_need(entry, "name", str, here), _rgb(entry, here), tuple(texts)))
    return tuple(out)


def parse_edition(data: dict[str, Any], where: str) -> Edition:
    """Validate a parsed edition file; `where` names it in error messages."""
    chips = _chips(data, where)
    dice = _dice(data, where)
    players = _need(data, "players", dict, where)
    here = f"{where}: players"
    low = _whole(players, "min", here, 2)
    high = _whole(players, "max", here, low)
    each = _whole(players, "each", here, 1)
    share_from = _whole(players, "share_from", here, low)
    payments = _need(data, "payments", dict, where)
    pay = f"{where}: payments"
    edition = Edition(
        id=_need(data, "id", str, where),
        name=_need(data, "name", str, where),
        chips=chips,
        dice=dice,
        min_players=low,
        max_players=high,
        each=each,
        share_from=share_from,
        ante=_whole(payments, "ante", pay, 0),
        opponent_pays=_whole(payments, "opponent", pay, 1),
        blank_pays=_whole(payments, "blank", pay, 1),
        multiplier=_whole(payments, "cubes_multiplier", pay, 1),
    )
    box = edition.box_points
    for n in range(low, high + 1):
        start, _ = edition.deal(n)
        if n < share_from and start * n > box:
            raise EditionError(
                f"{here}.each: {n} players of {start} points need more than the {box} "
                "points in the box"
            )
        if start < edition.ante:
            raise EditionError(
                f"{pay}.ante: with {n} players each starts with {start} points, "
                f"too few to ante {edition.ante}"
            )
    return edition


BUILT_IN = ("standard",)


@cache
def load_edition(name: str) -> Edition:
    """A built-in edition by id (`standard`), or an edition file by path (`*.toml`)."""
    data, where = read_data_file("cubegames.games.cubes", name, BUILT_IN, EditionError)
    return parse_edition(data, where)
