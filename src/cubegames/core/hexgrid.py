"""Hexagonal cells in axial coordinates, packed into small integers for speed.

Pointy-top hexagons, axial `(q, r)`. The six edge directions, counter-clockwise from east:

        2 NW (0,-1)   1 NE (+1,-1)
    3 W (-1,0)    [q,r]    0 E (+1,0)
        4 SW (-1,+1)  5 SE (0,+1)

Edge `d` of a cell touches edge `(d + 3) % 6` of its neighbour. A packed cell is
`(q + OFFSET) * SPAN + (r + OFFSET)`, so stepping in direction `d` is adding `STEP[d]`.
"""

from __future__ import annotations

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
NAMES = ("E", "NE", "NW", "W", "SW", "SE")

SPAN = 256
OFFSET = 128
#: the largest |q| or |r| a packed cell may have
LIMIT = OFFSET - 2

STEP: tuple[int, ...] = tuple(dq * SPAN + dr for dq, dr in DIRECTIONS)


def pack(q: int, r: int) -> int:
    """The packed id of cell `(q, r)`.

    >>> unpack(pack(3, -2))
    (3, -2)
    >>> pack(1, 0) - pack(0, 0) == STEP[0]
    True
    """
    return (q + OFFSET) * SPAN + (r + OFFSET)


def unpack(cell: int) -> tuple[int, int]:
    """The `(q, r)` of a packed cell."""
    return cell // SPAN - OFFSET, cell % SPAN - OFFSET


def in_range(q: int, r: int) -> bool:
    """Whether `(q, r)` can be packed (and its neighbours too)."""
    return -LIMIT <= q <= LIMIT and -LIMIT <= r <= LIMIT


def opposite(d: int) -> int:
    return (d + 3) % 6


ORIGIN = pack(0, 0)


def label(cell: int) -> str:
    """`q,r` as written in move notation."""
    q, r = unpack(cell)
    return f"{q},{r}"
