"""Edition data files: the shape of each STAKD piece and how many each player gets.

The rulebook gave the shapes only as pictures, so they are data a person with the real box
can correct (`editions/standard.toml`), never code. A file is validated once when loaded,
by one pydantic model (`EditionFile`); a bad one fails with an `EditionError` that names
the field.

>>> ed = load_edition("standard")
>>> ed.counts[2][PieceType.UNI], ed.new_layer_after
(12, 6)
>>> ed.turns[PieceType.TRIO]
(((0, 0), (1, 0), (2, 0)), ((0, 0), (0, 1), (0, 2)))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, Strict

from cubegames.core.data import Positive, Text, Whole, read_data_file, validated
from cubegames.core.errors import shown
from cubegames.games.stakd.pieces import TYPES, Node, PieceType, connected, offsets, turnings

#: the drawing has a colour for each of 8 seats, and the rules were written for up to 8
MAX_PLAYERS = 8
#: how far a shape's nodes may lie from 0,0 in an edition file
MAX_SPAN = 16


class EditionError(ValueError):
    """A STAKD edition file that cannot be used; the message names the field."""


@dataclass(frozen=True)
class Edition:
    """One validated edition: shapes, their turns, and the pieces per player count."""

    id: str
    name: str
    shapes: dict[PieceType, tuple[Node, ...]]
    counts: dict[int, dict[PieceType, int]]
    new_layer_after: int
    #: every distinct turn by 90° of each shape, in normal form (see `pieces.normal_form`)
    turns: dict[PieceType, tuple[tuple[Node, ...], ...]] = field(repr=False)
    #: the same turns as packed offsets from their least node, for the move generator
    offsets: dict[PieceType, tuple[tuple[int, ...], ...]] = field(repr=False)

    def players(self) -> list[int]:
        """The player counts this edition deals for (1 is solo)."""
        return sorted(self.counts)

    def describe(self, piece: PieceType) -> str:
        """A shape in words, for refusals: its nodes as notation."""
        return "+".join(f"{x},{y}" for x, y in self.turns[piece][0])


def _names() -> str:
    return ", ".join(t.value for t in TYPES)


def _pieces_only(value: Any) -> Any:
    """A table keyed by piece names: an unknown name is named."""
    if isinstance(value, dict):
        for key in value:
            if key not in {t.value for t in TYPES}:
                raise ValueError(f"unknown piece {shown(key)}; pieces are {_names()}")
    return value


def _node(value: Any) -> Any:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in value)
    ):
        raise ValueError("a node is two whole numbers [x, y]")
    if not all(-MAX_SPAN <= c <= MAX_SPAN for c in value):
        raise ValueError(f"keep nodes within {MAX_SPAN} of 0,0")
    return tuple(value)


def _piece(nodes: list[Node]) -> tuple[Node, ...]:
    if not nodes:
        raise ValueError("must be a non-empty list of [x, y] nodes")
    if len(set(nodes)) != len(nodes):
        raise ValueError("a node is listed twice")
    if not connected(nodes):
        raise ValueError("the nodes must form one piece (touching side by side)")
    return tuple(nodes)


Shape = Annotated[list[Annotated[Node, BeforeValidator(_node)]], AfterValidator(_piece)]


class ShapesFile(BaseModel):
    """`[shapes]`: the nodes of each piece."""

    BASE: Shape
    UNI: Shape
    DUO: Shape
    TRIO: Shape
    QUAD: Shape
    BOMBER: Shape


class CountsFile(BaseModel):
    """One row of `[counts]`: how many of each piece a player gets."""

    BASE: Annotated[int, Strict(), AfterValidator(_a_base)]
    UNI: Whole
    DUO: Whole
    TRIO: Whole
    QUAD: Whole
    BOMBER: Whole


def _a_base(count: int) -> int:
    if count < 1:
        raise ValueError("every player needs at least one base")
    return count


def _players(key: str) -> int:
    if not key.isdigit() or not 1 <= int(key) <= MAX_PLAYERS:
        raise ValueError(f"keys are numbers of players, 1 to {MAX_PLAYERS}")
    return int(key)


def _some(value: dict[int, Any]) -> dict[int, Any]:
    if not value:
        raise ValueError("must give at least one number of players")
    return value


class EditionFile(BaseModel):
    """A STAKD edition file (`editions/standard.toml`): the model that checks it."""

    id: Text
    name: Text
    new_layer_after: Positive
    shapes: Annotated[ShapesFile, BeforeValidator(_pieces_only)]
    counts: Annotated[
        dict[
            Annotated[int, BeforeValidator(_players)],
            Annotated[CountsFile, BeforeValidator(_pieces_only)],
        ],
        AfterValidator(_some),
    ]


def parse_edition(data: dict[str, Any], where: str) -> Edition:
    """Validate a parsed edition file with `EditionFile`; `where` names it in error
    messages, which name the field.

    >>> parse_edition({"id": "x", "name": "x", "new_layer_after": 0}, "x.toml")
    Traceback (most recent call last):
    ...
    cubegames.games.stakd.edition.EditionError: x.toml: new_layer_after: must be at least 1
    """
    read = validated(EditionFile, data, where, EditionError)
    shapes = {t: getattr(read.shapes, t.value) for t in TYPES}
    counts = {n: {t: getattr(row, t.value) for t in TYPES} for n, row in read.counts.items()}
    turns = {t: turnings(shape) for t, shape in shapes.items()}
    return Edition(
        id=read.id,
        name=read.name,
        shapes=shapes,
        counts=counts,
        new_layer_after=read.new_layer_after,
        turns=turns,
        offsets={t: tuple(offsets(form) for form in forms) for t, forms in turns.items()},
    )


BUILT_IN = ("standard",)


@cache
def load_edition(name: str) -> Edition:
    """A built-in edition by id (`standard`), or an edition file by path (`*.toml`)."""
    data, where = read_data_file("cubegames.games.stakd", name, BUILT_IN, EditionError)
    return parse_edition(data, where)
