"""The 8 symmetries of the square (D4), which Unstackable's footprint and STAKD's lattice
share (their `symmetry` parts act with them on positions and moves).

Each element is an integer matrix `(a, b, c, d)` acting as `(x, y) -> (a·x + b·y, c·x + d·y)`:
the turns by 0°, 90°, 180°, 270° counter-clockwise and the four mirrors (across x = 0,
y = 0 and the two diagonals).
"""

from __future__ import annotations

from typing import Any

from cubegames.core.game import Game
from cubegames.kit.symmetry import Symmetry

Matrix = tuple[int, int, int, int]

#: the group D4, identity first, the turns before the mirrors
ELEMENTS: tuple[tuple[str, Matrix], ...] = (
    ("identity", (1, 0, 0, 1)),
    ("rotate 90°", (0, -1, 1, 0)),
    ("rotate 180°", (-1, 0, 0, -1)),
    ("rotate 270°", (0, 1, -1, 0)),
    ("mirror x", (-1, 0, 0, 1)),
    ("mirror y", (1, 0, 0, -1)),
    ("transpose", (0, 1, 1, 0)),
    ("anti-transpose", (0, -1, -1, 0)),
)
NAMES = {m: name for name, m in ELEMENTS}


def multiply(left: Matrix, right: Matrix) -> Matrix:
    """The matrix product `left · right` (apply `right` first)."""
    a, b, c, d = left
    e, f, g, h = right
    return (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)


class SquareSymmetry(Symmetry):
    """One element of D4 acting on a game; subclasses say how it acts on positions."""

    def __init__(self, game: Game[Any], matrix: Matrix) -> None:
        self.game = game
        self.matrix = matrix
        self.name = NAMES[matrix]

    @property
    def key(self) -> tuple[Any, ...]:
        return self.matrix

    def point(self, x: int, y: int) -> tuple[int, int]:
        """The matrix applied to `(x, y)` (about the origin, before any translation)."""
        a, b, c, d = self.matrix
        return a * x + b * y, c * x + d * y

    def then(self, other: Symmetry) -> Symmetry:
        if not isinstance(other, SquareSymmetry) or type(other) is not type(self):
            raise TypeError(f"cannot compose {self!r} with {other!r}")
        return type(self)(self.game, multiply(other.matrix, self.matrix))

    def inverse(self) -> Symmetry:
        a, b, c, d = self.matrix
        return type(self)(self.game, (a, c, b, d))  # orthogonal: the inverse is the transpose
