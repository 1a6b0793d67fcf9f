"""STAKD piece types, nodes on the square lattice, and turning shapes by 90°.

A node `(x, y)` is packed into one int so that sets and dict lookups on a layer stay cheap in
the hot move generator:

    node = x * STRIDE + y            x, y in [-LIMIT, LIMIT]

       y+1 ->  n + 1
       y-1 ->  n - 1          (LIMIT < STRIDE / 2, so packing is one-to-one and
       x+1 ->  n + STRIDE      sorting packed nodes sorts them by (x, y))
       x-1 ->  n - STRIDE

Packing is linear, so `pack(a) + pack(b) == pack(a + b)` while the sum stays in range; a
shape's offsets are simply added to an anchor node.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

Node = tuple[int, int]

STRIDE = 4096
LIMIT = 1000
#: the four orthogonal steps, packed
STEPS = (1, -1, STRIDE, -STRIDE)


class PieceType(StrEnum):
    """The six kinds of piece, in the order hands and moves are listed."""

    BASE = "BASE"
    UNI = "UNI"
    DUO = "DUO"
    TRIO = "TRIO"
    QUAD = "QUAD"
    BOMBER = "BOMBER"

    @property
    def bit(self) -> int:
        """This type's bit in a mask of types (what a piece carries)."""
        return _BITS[self]

    @property
    def order(self) -> int:
        """Position in `TYPES`, for sorting."""
        return _ORDER[self]


TYPES: tuple[PieceType, ...] = tuple(PieceType)
_ORDER = {t: i for i, t in enumerate(TYPES)}
_BITS = {t: 1 << i for i, t in enumerate(TYPES)}
#: the types laid above the bases
STACKING: tuple[PieceType, ...] = tuple(t for t in TYPES if t is not PieceType.BASE)


def pack(x: int, y: int) -> int:
    """One int for node `(x, y)`.

    >>> pack(0, 0), pack(1, -1), unpack(pack(-3, 7))
    (0, 4095, (-3, 7))
    """
    return x * STRIDE + y


def unpack(node: int) -> Node:
    """The `(x, y)` of a packed node."""
    x = (node + STRIDE // 2) // STRIDE
    return x, node - x * STRIDE


def label(node: int) -> str:
    """A packed node as notation, e.g. `-1,2`."""
    x, y = unpack(node)
    return f"{x},{y}"


def normal_form(nodes: Iterable[Node]) -> tuple[Node, ...]:
    """A shape moved so its least x and least y are 0, nodes sorted: equal shapes compare equal.

    >>> normal_form([(5, 3), (4, 3)])
    ((0, 0), (1, 0))
    """
    listed = list(nodes)
    if not listed:
        return ()
    x0 = min(x for x, _ in listed)
    y0 = min(y for _, y in listed)
    return tuple(sorted((x - x0, y - y0) for x, y in listed))


def turnings(shape: Iterable[Node]) -> tuple[tuple[Node, ...], ...]:
    """The distinct turns of a shape by 90°, each in normal form, the shape's own turn first.

    >>> turnings([(0, 0), (1, 0)])
    (((0, 0), (1, 0)), ((0, 0), (0, 1)))
    >>> len(turnings([(0, 0), (1, 0), (0, 1), (1, 1)]))
    1
    """
    out: list[tuple[Node, ...]] = []
    current = list(shape)
    for _ in range(4):
        form = normal_form(current)
        if form not in out:
            out.append(form)
        current = [(-y, x) for x, y in current]
    return tuple(out)


def offsets(form: tuple[Node, ...]) -> tuple[int, ...]:
    """A shape as packed offsets from its first (least) node, so the first offset is 0.

    >>> offsets(((0, 0), (0, 1), (1, 0)))
    (0, 1, 4096)
    >>> offsets(((0, 1), (1, 0), (1, 1)))
    (0, 4095, 4096)
    """
    x0, y0 = form[0]
    return tuple(pack(x - x0, y - y0) for x, y in form)


def connected(nodes: Iterable[Node]) -> bool:
    """True when the nodes form one orthogonally connected group."""
    todo = set(nodes)
    if not todo:
        return False
    stack = [todo.pop()]
    while stack:
        x, y = stack.pop()
        for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if near in todo:
                todo.remove(near)
                stack.append(near)
    return not todo
