"""Edition data files: the chips, dice, starting points and payments of one CUBES box.

Each edition is a TOML file in `editions/`; a designer may also pass the path of a file of
their own to `make("cubes", edition="my.toml")`. A file is validated once when it is
loaded, by one pydantic model (`EditionFile`), and a bad one fails with a message that
names the field.

>>> ed = load_edition("standard")
>>> ed.box_points, ed.dice[0].faces
(100, ('C', '1', '6', '.', '.', '.'))
>>> ed.deal(7)  # points each, and what starts in the pot (before the antes)
(14, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, model_validator

from cubegames.core.data import AtLeastTwo, Positive, Rgb, Text, Whole, read_data_file, validated
from cubegames.core.errors import shown
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


def _face(value: Any) -> str:
    # a number written bare in TOML is read as the same face as its digits
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(text, str) or not is_face(text):
        raise ValueError(f'{shown(value)} is no face; write "C", "." or a number')
    return text


def _six_faces(faces: list[str]) -> list[str]:
    if len(faces) != FACES:
        raise ValueError(f"a die has {FACES} faces, not {len(faces)}")
    return faces


def _six_dice(dice: list[Any]) -> list[Any]:
    if len(dice) != DICE:
        raise ValueError(f"a roll uses {DICE} dice, not {len(dice)}")
    return dice


def _some_chips(chips: list[Any]) -> list[Any]:
    if not chips:
        raise ValueError("the box needs at least one kind of chip")
    return chips


class ChipFile(BaseModel):
    """One `[[chips]]` table: a colour of chip."""

    name: Text
    value: Positive
    count: Whole
    rgb: Rgb


class DieFile(BaseModel):
    """One `[[dice]]` table: a die's colour and faces."""

    name: Text
    rgb: Rgb
    faces: Annotated[list[Annotated[str, BeforeValidator(_face)]], AfterValidator(_six_faces)]


class PlayersFile(BaseModel):
    """`[players]`: the seats and the points each starts with."""

    min: AtLeastTwo
    max: AtLeastTwo
    each: Positive
    share_from: AtLeastTwo

    @model_validator(mode="after")
    def _in_order(self) -> PlayersFile:
        if self.max < self.min:
            raise ValueError(f"max must be at least min ({self.min})")
        if self.share_from < self.min:
            raise ValueError(f"share_from must be at least min ({self.min})")
        return self


class PaymentsFile(BaseModel):
    """`[payments]`: what each kind of roll pays."""

    ante: Whole
    opponent: Positive
    blank: Positive
    cubes_multiplier: Positive


class EditionFile(BaseModel):
    """A CUBES edition file (`editions/standard.toml`): the model that checks it."""

    id: Text
    name: Text
    chips: Annotated[list[ChipFile], AfterValidator(_some_chips)]
    dice: Annotated[list[DieFile], AfterValidator(_six_dice)]
    players: PlayersFile
    payments: PaymentsFile


def parse_edition(data: dict[str, Any], where: str) -> Edition:
    """Validate a parsed edition file with `EditionFile`; `where` names it in error
    messages, which name the field. Only the checks across tables are written here."""
    read = validated(EditionFile, data, where, EditionError)
    players, payments = read.players, read.payments
    edition = Edition(
        id=read.id,
        name=read.name,
        chips=tuple(Chip(c.name, c.value, c.count, c.rgb) for c in read.chips),
        dice=tuple(Die(d.name, d.rgb, tuple(d.faces)) for d in read.dice),
        min_players=players.min,
        max_players=players.max,
        each=players.each,
        share_from=players.share_from,
        ante=payments.ante,
        opponent_pays=payments.opponent,
        blank_pays=payments.blank,
        multiplier=payments.cubes_multiplier,
    )
    box = edition.box_points
    for n in range(players.min, players.max + 1):
        start, _ = edition.deal(n)
        if n < players.share_from and start * n > box:
            raise EditionError(
                f"{where}: players.each: {n} players of {start} points need more than the "
                f"{box} points in the box"
            )
        if start < edition.ante:
            raise EditionError(
                f"{where}: payments.ante: with {n} players each starts with {start} points, "
                f"too few to ante {edition.ante}"
            )
    return edition


BUILT_IN = ("standard",)


@cache
def load_edition(name: str) -> Edition:
    """A built-in edition by id (`standard`), or an edition file by path (`*.toml`)."""
    data, where = read_data_file("cubegames.games.cubes", name, BUILT_IN, EditionError)
    return parse_edition(data, where)
