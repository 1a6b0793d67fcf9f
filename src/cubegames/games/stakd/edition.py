"""Edition data files: the shape of each STAKD piece and how many each player gets.

The rulebook gave the shapes only as pictures, so they are data a person with the real box
can correct (`editions/standard.toml`), never code. A file is validated once when loaded;
a bad one fails with an `EditionError` that names the field.

>>> ed = load_edition("standard")
>>> ed.counts[2][PieceType.UNI], ed.new_layer_after
(12, 6)
>>> ed.turns[PieceType.TRIO]
(((0, 0), (1, 0), (2, 0)), ((0, 0), (0, 1), (0, 2)))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cubegames.core.data import need as read_field
from cubegames.core.data import read_data_file
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


def _shape(value: Any, where: str) -> tuple[Node, ...]:
    if not isinstance(value, list) or not value:
        raise EditionError(f"{where}: must be a non-empty list of [x, y] nodes")
    nodes: list[Node] = []
    for i, node in enumerate(value):
        if (
            not isinstance(node, list)
            or len(node) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in node)
        ):
            raise EditionError(f"{where}[{i}]: a node is two whole numbers [x, y]")
        if not all(-MAX_SPAN <= c <= MAX_SPAN for c in node):
            raise EditionError(f"{where}[{i}]: keep nodes within {MAX_SPAN} of 0,0")
        nodes.append((node[0], node[1]))
    if len(set(nodes)) != len(nodes):
        raise EditionError(f"{where}: a node is listed twice")
    if not connected(nodes):
        raise EditionError(f"{where}: the nodes must form one piece (touching side by side)")
    return tuple(nodes)


def parse_edition(data: dict[str, Any], where: str) -> Edition:
    """Validate a parsed edition file; `where` names it in error messages."""

    def need(table: dict[str, Any], key: str, kind: type, here: str) -> Any:
        return read_field(table, key, kind, here, EditionError)

    ident = need(data, "id", str, where)
    name = need(data, "name", str, where)
    after = need(data, "new_layer_after", int, where)
    if after < 1:
        raise EditionError(f"{where}: new_layer_after must be at least 1")
    known = {t.value for t in TYPES}

    shapes_data = need(data, "shapes", dict, where)
    for key in shapes_data:
        if key not in known:
            raise EditionError(f"{where}: shapes.{key}: unknown piece; pieces are {_names()}")
    shapes: dict[PieceType, tuple[Node, ...]] = {}
    for t in TYPES:
        raw = need(shapes_data, t.value, list, f"{where}: shapes")
        shapes[t] = _shape(raw, f"{where}: shapes.{t.value}")

    counts_data = need(data, "counts", dict, where)
    counts: dict[int, dict[PieceType, int]] = {}
    for key, table in counts_data.items():
        here = f"{where}: counts.{key}"
        if not key.isdigit() or not 1 <= int(key) <= MAX_PLAYERS:
            raise EditionError(f"{here}: keys are numbers of players, 1 to {MAX_PLAYERS}")
        if not isinstance(table, dict):
            raise EditionError(f"{here}: must be a table like {{ BASE = 1, UNI = 6, ... }}")
        for piece in table:
            if piece not in known:
                raise EditionError(f"{here}.{piece}: unknown piece; pieces are {_names()}")
        row: dict[PieceType, int] = {}
        for t in TYPES:
            n = need(table, t.value, int, here)
            if n < 0:
                raise EditionError(f"{here}.{t.value} must not be negative")
            row[t] = n
        if row[PieceType.BASE] < 1:
            raise EditionError(f"{here}.BASE: every player needs at least one base")
        counts[int(key)] = row
    if not counts:
        raise EditionError(f"{where}: counts must give at least one number of players")

    turns = {t: turnings(shape) for t, shape in shapes.items()}
    return Edition(
        id=ident,
        name=name,
        shapes=shapes,
        counts=counts,
        new_layer_after=after,
        turns=turns,
        offsets={t: tuple(offsets(form) for form in forms) for t, forms in turns.items()},
    )


def _names() -> str:
    return ", ".join(t.value for t in TYPES)


BUILT_IN = ("standard",)


@cache
def load_edition(name: str) -> Edition:
    """A built-in edition by id (`standard`), or an edition file by path (`*.toml`)."""
    data, where = read_data_file("cubegames.games.stakd", name, BUILT_IN, EditionError)
    return parse_edition(data, where)
