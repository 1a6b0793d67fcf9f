"""Pieces as tuples of three colour indexes, counter-clockwise.

A piece in hand may be written starting at any diamond; on the table its three diamonds
sit in the slots top, left, right (also counter-clockwise). Rotating a piece is a cyclic
shift; a mirror image reverses the cycle and is a different piece.
"""

from __future__ import annotations

from enum import Enum
from functools import cache

Piece = tuple[int, int, int]


class PieceKind(Enum):
    """The five kinds of piece, each with its own points when left in hand."""

    SINGLE = "single"
    DOUBLE = "double"
    TRIPLE = "triple"
    BLOCKING = "blocking"
    WILD = "wild"


def rotations(piece: Piece) -> tuple[Piece, ...]:
    """The distinct rotations of `piece`, starting with `piece` itself.

    >>> rotations((0, 1, 2))
    ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    >>> rotations((3, 3, 3))
    ((3, 3, 3),)
    """
    return _rotations(piece)


@cache
def _rotations(piece: Piece) -> tuple[Piece, ...]:
    a, b, c = piece
    out: list[Piece] = []
    for rot in ((a, b, c), (b, c, a), (c, a, b)):
        if rot not in out:
            out.append(rot)
    return tuple(out)


@cache
def canonical(piece: Piece) -> Piece:
    """The least rotation: one name for a piece however it is turned.

    >>> canonical((2, 0, 1))
    (0, 1, 2)
    """
    return min(_rotations(piece))


def mirror(piece: Piece) -> Piece:
    """The mirror image (not obtainable by rotation unless the piece is symmetric)."""
    a, b, c = piece
    return (a, c, b)


def classify(piece: Piece, ordinary: int, wild: int | None, black: int) -> PieceKind | None:
    """The kind of `piece`, or None if no piece of the game looks like it.

    `ordinary` is the number of ordinary colours (indexes below it); `wild` and `black`
    are the indexes of the wild and blocking colours.
    """
    if any(not 0 <= c <= max(black, wild if wild is not None else -1) for c in piece):
        return None
    blacks = piece.count(black)
    whites = piece.count(wild) if wild is not None else 0
    normal = [c for c in piece if c < ordinary]
    if blacks == 2 and len(normal) == 1:
        return PieceKind.BLOCKING
    if blacks:
        return None
    if whites == 1 and len(normal) == 2:
        return PieceKind.WILD
    if whites:
        return None
    distinct = len(set(piece))
    return {1: PieceKind.TRIPLE, 2: PieceKind.DOUBLE, 3: PieceKind.SINGLE}[distinct]
