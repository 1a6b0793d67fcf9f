"""Unstackable's symmetries: the 8 symmetries of the square (D4, `cubegames.kit.square`) on
its 4×4 footprint.

Unstackable turns the matrix about the centre of the structure's footprint and keeps z:
every rule (a cube on the bag next to a cube on the bag, a cube on a cube, the size limit,
faces exposed, holding up) is about face neighbours and extents, which D4 keeps. While
stacking, the structure is kept in the grid's corner and may be narrower than 4, so the
footprint turned is its bounding rectangle (`w` × `h`, from `0,0`): the image is again in
the corner, and a move on `x = -1` maps to one on `x = w` or `y = -1` (or back) as the
rectangle turns. In stage 2 the footprint is the whole 4×4 of the built cube. Nothing is
chance, so images play out alike. The stage-2 maps of cells and bitboards are not computed
here: they are the game's own (`cubegames.games.unstackable.bitboard`: `image`, `images`,
`CELL_TO`), the ones its solver keys the `alphabeta` transposition table with. `FOOTPRINT`
names each matrix's number there, so a key from the solver and an image from this module
are the same integers.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from cubegames.core.game import JSON, Game, Move
from cubegames.games.unstackable import Stack, Unstack, Unstackable
from cubegames.games.unstackable import bitboard as bb
from cubegames.kit.square import ELEMENTS, Matrix, SquareSymmetry, multiply
from cubegames.kit.symmetry import Position


def _footprint_matrix(k: int) -> Matrix:
    """The matrix of the game's footprint symmetry `k`: flip x if bit 0 of `k` is set, then
    flip y if bit 1 is, then swap x and y if bit 2 is (see `bitboard.image`)."""
    matrix: Matrix = (1, 0, 0, 1)
    for bit, step in ((1, (-1, 0, 0, 1)), (2, (1, 0, 0, -1)), (4, (0, 1, 1, 0))):
        if k & bit:
            matrix = multiply(step, matrix)
    return matrix


#: `FOOTPRINT[m]`: the number `k` of element `m` among Unstackable's own footprint maps
#: (`bitboard.image(board, k)`, `bitboard.CELL_TO[k]`, the solver's `which`)
FOOTPRINT: dict[Matrix, int] = {_footprint_matrix(k): k for k in range(bb.SYMMETRIES)}


def cell_map(matrix: Matrix) -> tuple[int, ...]:
    """`cell_map(m)[i]`: the image of bit `i` (cell `x + 4y + 16z`) under `m`, about the
    footprint's centre: `bitboard.CELL_TO` of the matching footprint symmetry.

    >>> bb.coords(cell_map((0, -1, 1, 0))[bb.index(0, 0, 2)])  # rotate 90°
    (3, 0, 2)
    """
    return bb.CELL_TO[FOOTPRINT[matrix]]


class UnstackableSymmetry(SquareSymmetry):
    """D4 on the footprint of the Unstackable structure, z unchanged: the whole 4×4 in
    stage 2 (`cell`, `apply_bitboard`), the structure's bounding rectangle while stacking.

    `footprint` is this symmetry's number `k` among the game's own maps (`bitboard.image`),
    the number the solver's transposition table reports for a key.
    """

    game: Unstackable

    def __init__(self, game: Game[Any], matrix: Matrix) -> None:
        super().__init__(game, matrix)
        self.footprint = FOOTPRINT[matrix]

    def cell(self, x: int, y: int, z: int) -> tuple[int, int, int]:
        """The image of cell `(x, y, z)`.

        >>> import cubegames
        >>> UnstackableSymmetry(cubegames.make("unstackable"), (0, -1, 1, 0)).cell(0, 0, 2)
        (3, 0, 2)
        """
        return bb.coords(bb.CELL_TO[self.footprint][bb.index(x, y, z)])

    def apply_bitboard(self, board: int) -> int:
        """The image of a bitboard (a set of cells as a 64-bit int): `bitboard.image`, a few
        delta swaps on the whole board.

        >>> import cubegames
        >>> turn = UnstackableSymmetry(cubegames.make("unstackable"), (0, -1, 1, 0))
        >>> turn.apply_bitboard(1 << bb.index(0, 0, 2)) == 1 << bb.index(3, 0, 2)
        True
        """
        return bb.image(board, self.footprint)

    def frame(self, position: Position) -> tuple[int, int]:
        """The footprint this symmetry turns in `position`: 4 × 4 in stage 2, the bounding
        rectangle of the structure while stacking (1 × 1 before the first cube)."""
        if position["stage"] != "stack":
            return 4, 4
        occupied = 0
        for i, letter in enumerate(position["grid"]):
            if letter != ".":
                occupied |= 1 << i
        width, depth = bb.extent(occupied)
        return max(width, 1), max(depth, 1)

    def _mover(self, position: Position) -> tuple[int, int]:
        """The translation that puts the image of the frame back in the corner."""
        width, depth = self.frame(position)
        corners = [self.point(x, y) for x in (0, width - 1) for y in (0, depth - 1)]
        return -min(x for x, _ in corners), -min(y for _, y in corners)

    def stack_cell(self, x: int, y: int, z: int, position: Position) -> tuple[int, int, int]:
        """The image of cell `(x, y, z)` (`x` or `y` may be -1) of a stacking position.

        >>> import cubegames
        >>> game = cubegames.make("unstackable")
        >>> state = game.new_state(); state.play("K@0,0,0"); state.play("K@1,0,0")
        >>> UnstackableSymmetry(game, (-1, 0, 0, 1)).stack_cell(-1, 0, 0, state.to_dict())
        (2, 0, 0)
        """
        dx, dy = self._mover(position)
        px, py = self.point(x, y)
        return px + dx, py + dy, z

    def apply_position(self, position: Position) -> JSON:
        out: JSON = copy.deepcopy(dict(position))
        if position["stage"] != "stack":
            image = bb.CELL_TO[self.footprint]
            grid = ["."] * 64
            for i, letter in enumerate(position["grid"]):
                grid[image[i]] = letter
        else:
            dx, dy = self._mover(position)
            grid = ["."] * 64
            for i, letter in enumerate(position["grid"]):
                if letter != ".":
                    x, y, z = bb.coords(i)
                    px, py = self.point(x, y)
                    grid[bb.index(px + dx, py + dy, z)] = letter
        out["grid"] = "".join(grid)
        return out

    def apply_move(self, move: Move, position: Position | None = None) -> Move:
        if isinstance(move, Stack):
            if position is None:
                raise ValueError(
                    "a stacking move's image depends on its position: pass the position"
                )
            return Stack(move.colour, *self.stack_cell(move.x, move.y, move.z, position))
        if isinstance(move, Unstack) and bb.in_box(move.x, move.y, move.z):
            return Unstack(*self.cell(move.x, move.y, move.z))
        return move


def canonical_boards(
    game: Unstackable, boards: Sequence[int]
) -> tuple[tuple[int, ...], UnstackableSymmetry]:
    """The least image (as a tuple) of a list of bitboards under the 8 symmetries, and the
    symmetry that gives it; for a bitboard search's transposition table.

    Tuples compare board by board, so for the boards `[yellow, red, black]` the least image
    packed as `black | red << 64 | yellow << 128` is Unstackable's solver's symmetric key
    (`search.Solver.key`).

    >>> import cubegames
    >>> game = cubegames.make("unstackable")
    >>> canonical_boards(game, [1 << 3])[0] == canonical_boards(game, [1 << 0])[0]
    True
    """
    best: tuple[tuple[int, ...], UnstackableSymmetry] | None = None
    for _, matrix in ELEMENTS:
        sym = UnstackableSymmetry(game, matrix)
        image = tuple(sym.apply_bitboard(b) for b in boards)
        if best is None or image < best[0]:
            best = (image, sym)
    assert best is not None
    return best


def symmetries(game: Game[Any]) -> list[UnstackableSymmetry]:
    """The 8 symmetries of an Unstackable game, identity first."""
    assert isinstance(game, Unstackable)
    return [UnstackableSymmetry(game, m) for _, m in ELEMENTS]
