"""STAKD moves and their notation.

Every move lays one piece: `TYPE@z:x,y+x,y+...`, the piece type, its layer and its nodes,
e.g. `DUO@1:0,0+1,0`. Nodes are a set: they may be written in any order and are kept sorted
by (x, y), so `DUO@1:1,0+0,0` reads as the same move. Coordinates may be negative.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cubegames.core.errors import IllegalMove, Refusal, typed, typed_number
from cubegames.core.game import Move
from cubegames.games.stakd.pieces import LIMIT, TYPES, Node, PieceType


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Lay a `piece` on layer `z` covering `nodes` (kept sorted, so equal sets are equal).

    >>> move = Place(PieceType.DUO, 1, ((1, 0), (0, 0)))
    >>> str(move)
    'DUO@1:0,0+1,0'
    >>> move == parse("duo@1:1,0+0,0")
    True
    """

    piece: PieceType
    z: int
    nodes: tuple[Node, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "nodes", tuple(sorted(self.nodes)))

    def __str__(self) -> str:
        return f"{self.piece.value}@{self.z}:" + "+".join(f"{x},{y}" for x, y in self.nodes)

    def __repr__(self) -> str:
        return f"Place(PieceType.{self.piece.value}, {self.z}, {self.nodes!r})"


_MOVE = re.compile(r"([A-Za-z]+)@(\d+):(.+)")
_NODE = re.compile(r"(-?\d+),(-?\d+)")
FORM = "TYPE@z:x,y+x,y+..., e.g. DUO@1:0,0+1,0"


def parse(text: str) -> Place:
    """Read a move's notation (any case, spaces ignored).

    >>> parse("TRIO@2:0,-1+0,0+0,1")
    Place(PieceType.TRIO, 2, ((0, -1), (0, 0), (0, 1)))
    >>> parse("HEX@1:0,0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cubegames.core.errors.IllegalMove: unknown piece 'HEX'; pieces are BASE, UNI, DUO, ...
    """
    if not isinstance(text, str):
        raise IllegalMove(f"a move is text like {FORM}")
    compact = "".join(text.split())
    m = _MOVE.fullmatch(compact)
    if m is None:
        raise IllegalMove(f"cannot read {typed(text)}: a move looks like {FORM}")
    name = m[1].upper()
    if name not in PieceType.__members__:
        pieces = ", ".join(t.value for t in TYPES)
        raise IllegalMove(f"unknown piece {typed(m[1])}; pieces are {pieces}")
    z = typed_number(m[2])
    if z > LIMIT:
        raise IllegalMove(
            Refusal("reach", f"layer {z} is out of reach (layers go up to {LIMIT})", limit=LIMIT)
        )
    nodes: list[Node] = []
    for part in m[3].split("+"):
        found = _NODE.fullmatch(part)
        if found is None:
            raise IllegalMove(f"cannot read node {typed(part)} in {typed(text)}: a node is x,y")
        x, y = typed_number(found[1]), typed_number(found[2])
        if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT):
            raise IllegalMove(
                Refusal(
                    "reach",
                    f"node {x},{y} is out of reach (coordinates go to ±{LIMIT})",
                    limit=LIMIT,
                )
            )
        if (x, y) in nodes:
            raise IllegalMove(f"node {x},{y} is listed twice in {typed(text)}")
        nodes.append((x, y))
    return Place(PieceType(name), z, tuple(nodes))
