"""Unstackable actions and observations.

Cells are the bitboard's: cell `(x, y, z)` is `i = x + 4·y + 16·z` (0..63, `z = 0` on the
bag). One move is one cube, so a stacking turn of black is three actions by the same seat.
While stacking, the structure is kept in the grid's corner and may grow before it: a
*stacking cell* `k` is a grid cell (`k = i < 64`), or `-1,y,0` (`k = 64 + y`), or `x,-1,0`
(`k = 68 + x`); a cube placed on one of the last 8 shifts the structure by one.

Actions (281, for every option set):

    c·72 + k       stack a cube of colour c (0 yellow, 1 red, 2 black) on stacking cell k
                                                                                  [0, 216)
    216 + i        remove the cube on cell i                                      [216, 280)
    280            end the stacking turn early (option exact_counts = false only)

Observation
-----------
Planes, float32, shape `(5, 4, 4, 4)`, indexed `[channel, z, y, x]`:

    0, 1, 2    a yellow, red, black cube on the cell
    3          stage 1: a cube may be placed on the cell now (any colour the turn allows)
    4          stage 2: the cube on the cell may be removed now

Vector, float32, 36 values (seats relative to the viewer: 0 is the viewer):

    [0, 3)     supply of yellow, red, black ÷ the box's count
    3          stage 2 (unstacking) has begun
    [4, 7)     the colour this stacking turn is committed to (one-hot; all 0 at a turn's start)
    7, 8       cubes placed this turn ÷ 3, cubes removed this turn (0 or 1)
    [9, 12)    seat to move (relative one-hot), then "the game is over"
    [12, 14)   who stacked the last red cube (relative one-hot; that seat removes second)
    [14, 26)   per seat: pile 1's yellow, red, black, then pile 2's, ÷ the box's counts
    [26, 28)   per seat: points ÷ the most the box can score
    [28, 32)   stage 1: a cube may be placed on -1,y,0 now, for y = 0..3
    [32, 36)   stage 1: a cube may be placed on x,-1,0 now, for x = 0..3
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cubegames.core.game import Game, Move
from cubegames.games.unstackable import Colour, End, Stack, Unstack, Unstackable
from cubegames.games.unstackable import bitboard as bb
from cubegames.kit.encoding import ActionCodec, ActionEncodingError, View
from cubegames.kit.observation import Array, relative
from cubegames.kit.observation import Observer as BaseObserver

COLOURS: tuple[Colour, ...] = tuple(Colour)
#: stacking cells: the 64 of the grid, then -1,y,0 for y = 0..3, then x,-1,0 for x = 0..3
STACK_CELLS = 72
STACKS = STACK_CELLS * len(COLOURS)
REMOVALS = STACKS
END = STACKS + 64
SIZE = END + 1


def stack_cell(x: int, y: int, z: int) -> int | None:
    """The stacking cell `k` of `(x, y, z)`, or None when no stacking move names it.

    >>> stack_cell(1, 2, 3), stack_cell(-1, 2, 0), stack_cell(3, -1, 0), stack_cell(-1, 0, 1)
    (57, 66, 71, None)
    """
    if bb.in_box(x, y, z):
        return bb.index(x, y, z)
    if z == 0 and x == -1 and 0 <= y < 4:
        return 64 + y
    if z == 0 and y == -1 and 0 <= x < 4:
        return 68 + x
    return None


def stack_coords(k: int) -> tuple[int, int, int]:
    """The cell of stacking cell `k` (the inverse of `stack_cell`).

    >>> stack_coords(66), stack_coords(71)
    ((-1, 2, 0), (3, -1, 0))
    """
    if k < 64:
        return bb.coords(k)
    if k < 68:
        return -1, k - 64, 0
    return k - 68, -1, 0


def _game(game: Game[Any]) -> Unstackable:
    if not isinstance(game, Unstackable):
        raise TypeError(f"an Unstackable codec needs an Unstackable game, not {game.id}")
    return game


class Codec(ActionCodec):
    """Unstackable actions: 216 stacking actions (colour × stacking cell), 64 removals and
    `end` (layout in the module's docstring).

    >>> import cubegames
    >>> codec = Codec(cubegames.make("unstackable"))
    >>> codec.size, codec.encode(Stack(Colour.RED, -1, 0, 0)), str(codec.decode(280))
    (281, 136, 'end')
    """

    game: Unstackable

    def __init__(self, game: Game[Any]) -> None:
        self.game = _game(game)
        self.size = SIZE

    def encode(self, move: Move, view: View | None = None) -> int:
        if isinstance(move, Stack):
            k = stack_cell(move.x, move.y, move.z)
            if k is not None:
                return COLOURS.index(move.colour) * STACK_CELLS + k
        if isinstance(move, Unstack) and bb.in_box(move.x, move.y, move.z):
            return REMOVALS + bb.index(move.x, move.y, move.z)
        if isinstance(move, End):
            return END
        raise ActionEncodingError(f"{move} has no Unstackable action")

    def decode(self, index: int, view: View | None = None) -> Move:
        i = self.check_index(index)
        if i < STACKS:
            colour, k = divmod(i, STACK_CELLS)
            return Stack(COLOURS[colour], *stack_coords(k))
        if i < END:
            return Unstack(*bb.coords(i - REMOVALS))
        return End()


def boards(grid: str) -> dict[Colour, int]:
    """The bitboard of each colour from a position's 64-letter grid.

    >>> boards("RK" + "." * 62)[Colour.BLACK]
    2
    """
    out = dict.fromkeys(COLOURS, 0)
    for i, letter in enumerate(grid):
        if letter != ".":
            out[Colour(letter)] |= 1 << i
    return out


def _bits(board: int) -> Array:
    """A bitboard as a (4, 4, 4) float32 array indexed [z, y, x]."""
    raw = np.frombuffer(board.to_bytes(8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").astype(np.float32).reshape(4, 4, 4)


class Observer(BaseObserver):
    """Unstackable planes `(5, 4, 4, 4)` and a 28-value vector (layout in the docstring)."""

    game: Unstackable

    def __init__(self, game: Game[Any]) -> None:
        self.game = _game(game)
        box = self.game.box
        self.plane_shape = (5, 4, 4, 4)
        self.vector_size = 36
        self.counts = np.array([box.count[c] for c in COLOURS], dtype=np.float32)
        self.most = float(
            sum(max(box.points[0][c], box.points[1][c]) * box.count[c] for c in COLOURS)
        )

    def fill_planes(self, view: View, out: Array) -> None:
        found = boards(view["grid"])
        occupied = 0
        for k, colour in enumerate(COLOURS):
            out[k] = _bits(found[colour])
            occupied |= found[colour]
        if view["to_move"] is not None:
            if view["stage"] == "stack":
                out[3] = _bits(bb.placements(occupied))
            else:
                bag = self.game.bag_counts_as_exposed
                out[4] = _bits(bb.removable(occupied, bag_exposed=bag))

    def vector(self, view: View) -> Array:
        out = np.zeros(self.vector_size, dtype=np.float32)
        order = relative(view["seat"], 2)
        supply = view["supply"]
        out[0:3] = np.array([supply[c.value] for c in COLOURS], dtype=np.float32) / self.counts
        turn = view["turn"]
        if view["stage"] == "unstack":
            out[3] = 1.0
            out[8] = turn["removed"]
        else:
            if turn["colour"] is not None:
                out[4 + COLOURS.index(Colour(turn["colour"]))] = 1.0
            out[7] = turn["placed"] / 3.0
        to_move = view["to_move"]
        out[9 + (2 if to_move is None else order.index(to_move))] = 1.0
        if view["last_red"] is not None:
            out[12 + order.index(view["last_red"])] = 1.0
        box = self.game.box
        for k, seat in enumerate(order):
            first, second = view["piles"][seat]
            for pile, cubes in enumerate((first, second)):
                for j, colour in enumerate(COLOURS):
                    out[14 + 6 * k + 3 * pile + j] = cubes.count(colour.value) / self.counts[j]
            points = box.pile_points(0, first) + box.pile_points(1, second)
            out[26 + k] = points / self.most
        if view["stage"] == "stack" and view["to_move"] is not None:
            occupied = 0
            for board in boards(view["grid"]).values():
                occupied |= board
            west, south = bb.edge_placements(occupied)
            for j in range(4):
                out[28 + j] = west >> j & 1
                out[32 + j] = south >> j & 1
        return out
