"""Bitboards for the 4×4×4 box: a set of cells is one 64-bit integer.

Cell `(x, y, z)`, each 0..3, is bit `i = x + 4*y + 16*z`; `z = 0` lies on the bag. Each layer
is 16 bits and each row 4, so a layer drawn from above reads:

    z = 0 (on the bag)         z = 1                    z = 3 (top)
    y=3 | 12 13 14 15 |        | 28 29 30 31 |          | 60 61 62 63 |
    y=2 |  8  9 10 11 |        | 24 25 26 27 |    ...   | 56 57 58 59 |
    y=1 |  4  5  6  7 |        | 20 21 22 23 |          | 52 53 54 55 |
    y=0 |  0  1  2  3 |        | 16 17 18 19 |          | 48 49 50 51 |
         x=0      x=3

A step of +x is a shift left by 1, +y by 4, +z by 16. Before shifting, `step` drops the
cells on the face the step would leave through, so nothing wraps onto the next row or layer.
Everything here works on whole boards at once: no function loops over the 64 cells (only
the cell tables of the footprint's symmetries are built cell by cell, once, at import).

The 8 symmetries of the 4×4 footprint (x, y mirrored and turned, z kept) are defined here
and nowhere else: the solver's transposition table (`search.Solver(symmetry=True)`) and the
symmetry API (`cubegames.games.unstackable.symmetry`) both use `image`, `images` and `CELL_TO`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import Enum

FULL = (1 << 64) - 1
#: the cells with x = 0, x = 3, y = 0, y = 3
X_LOW = 0x1111_1111_1111_1111
X_HIGH = 0x8888_8888_8888_8888
Y_LOW = 0x000F_000F_000F_000F
Y_HIGH = 0xF000_F000_F000_F000
#: the layers z = 0 (the floor, on the bag) .. z = 3 (the top)
LAYERS = tuple(0xFFFF << (16 * z) for z in range(4))
FLOOR = LAYERS[0]
TOP = LAYERS[3]


class Direction(Enum):
    """The six face directions, each with its shift and the cells a step cannot leave."""

    EAST = (1, X_HIGH)  # +x
    WEST = (-1, X_LOW)  # -x
    NORTH = (4, Y_HIGH)  # +y
    SOUTH = (-4, Y_LOW)  # -y
    UP = (16, TOP)  # +z
    DOWN = (-16, FLOOR)  # -z

    @property
    def opposite(self) -> Direction:
        """The direction back.

        >>> Direction.UP.opposite
        <Direction.DOWN: (-16, 65535)>
        """
        return _OPPOSITE[self]


_OPPOSITE = {
    Direction.EAST: Direction.WEST,
    Direction.WEST: Direction.EAST,
    Direction.NORTH: Direction.SOUTH,
    Direction.SOUTH: Direction.NORTH,
    Direction.UP: Direction.DOWN,
    Direction.DOWN: Direction.UP,
}
SIDES = (Direction.EAST, Direction.WEST, Direction.NORTH, Direction.SOUTH)
#: all six, in the enum's order (a tuple: iterating an Enum class is slow, and this is hot)
DIRECTIONS = tuple(Direction)


def index(x: int, y: int, z: int) -> int:
    """The bit of cell `(x, y, z)`.

    >>> index(1, 2, 3)
    57
    """
    return x + 4 * y + 16 * z


def coords(i: int) -> tuple[int, int, int]:
    """The cell `(x, y, z)` of bit `i`.

    >>> coords(57)
    (1, 2, 3)
    """
    return i & 3, (i >> 2) & 3, i >> 4


def in_box(x: int, y: int, z: int) -> bool:
    """True for a cell inside the 4×4×4 box."""
    return 0 <= x < 4 and 0 <= y < 4 and 0 <= z < 4


def step(board: int, direction: Direction) -> int:
    """The cells reached by moving every cell of `board` one step; steps out of the box vanish.

    >>> step(1 << index(3, 0, 0), Direction.EAST)  # off the east face: gone
    0
    >>> coords(step(1 << index(3, 0, 0), Direction.NORTH).bit_length() - 1)
    (3, 1, 0)
    """
    shift, edge = direction.value
    kept = board & ~edge
    return (kept << shift) & FULL if shift > 0 else kept >> -shift


def side_neighbours(board: int) -> int:
    """Cells face-adjacent to `board` in the same layer (±x, ±y).

    >>> side_neighbours(1 << index(0, 0, 0)) == (1 << index(1, 0, 0)) | (1 << index(0, 1, 0))
    True
    """
    out = 0
    for direction in SIDES:
        out |= step(board, direction)
    return out


def covered(occupied: int, direction: Direction) -> int:
    """Cells whose neighbour in `direction` is occupied (that face touches another cube)."""
    return step(occupied, direction.opposite)


def exposed_faces(occupied: int, *, bag_exposed: bool) -> tuple[int, ...]:
    """For each direction, the cubes whose face that way is exposed.

    A face is exposed when the cell beyond it is empty or outside the box, except the bottom
    face of a cube on the bag, which counts only when `bag_exposed` is true.
    """
    out = []
    for direction in DIRECTIONS:
        faces = occupied & ~covered(occupied, direction)
        if direction is Direction.DOWN and not bag_exposed:
            faces &= ~FLOOR
        out.append(faces)
    return tuple(out)


def tally(boards: Sequence[int]) -> list[int]:
    """Count, per cell, how many of `boards` hold it: the counts' binary digits, lowest first.

    A bit-sliced adder: each board is added to the running count with a ripple carry.

    >>> tally([0b11, 0b10, 0b10])  # cell 0 is in 1 board, cell 1 in 3
    [3, 2]
    """
    digits: list[int] = []
    for board in boards:
        carry = board
        for k, digit in enumerate(digits):
            digits[k] = digit ^ carry
            carry &= digit
            if not carry:
                break
        if carry:
            digits.append(carry)
    return digits


def at_least(digits: Sequence[int], k: int) -> int:
    """Cells whose count (binary `digits` from `tally`) is at least `k`.

    Compares each cell's count with `k` from the highest digit down, as a comparator circuit.

    >>> at_least(tally([0b111, 0b110, 0b100]), 2)
    6
    """
    if k <= 0:
        return FULL
    if k >= 1 << len(digits):
        return 0
    greater, equal = 0, FULL
    for j in reversed(range(len(digits))):
        if (k >> j) & 1:
            equal &= digits[j]
        else:
            greater |= equal & digits[j]
            equal &= ~digits[j]
    return (greater | equal) & FULL


def holding_up(occupied: int) -> int:
    """Cubes with another cube directly on top of them."""
    return occupied & covered(occupied, Direction.UP)


def removable(occupied: int, *, bag_exposed: bool) -> int:
    """Cubes that may be taken out: at least 3 of 6 faces exposed and nothing on top.

    >>> [coords(i) for i in cells(removable(FULL, bag_exposed=False))]  # the full cube
    [(0, 0, 3), (3, 0, 3), (0, 3, 3), (3, 3, 3)]
    """
    enough = at_least(tally(exposed_faces(occupied, bag_exposed=bag_exposed)), 3)
    return enough & ~holding_up(occupied)


def floating(occupied: int) -> int:
    """Cubes above the floor with no cube directly under them."""
    return occupied & ~FLOOR & ~step(occupied, Direction.UP)


def placements(occupied: int) -> int:
    """Empty cells where a cube may be placed while stacking.

    On the bag, a cell next to a cube on the bag (for the very first cube, `0,0,0`);
    above it, a cell directly on top of a cube. These are the cells of the grid; the
    placements that shift the structure (`x = -1`, `y = -1`) are `edge_placements`.

    >>> placements(0)
    1
    >>> [coords(i) for i in cells(placements(1 << index(0, 0, 0)))]
    [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    """
    if not occupied:
        return 1  # the first cube goes on 0,0,0: the structure is kept in the corner
    on_bag = side_neighbours(occupied & FLOOR) & FLOOR
    return (on_bag | step(occupied, Direction.UP)) & ~occupied & FULL


def columns(board: int) -> int:
    """The x values `board` uses, as 4 bits (bit `x` set when some cell has that x).

    >>> columns(1 << index(2, 3, 1) | 1 << index(0, 0, 0))
    5
    """
    out = 0
    for x in range(4):
        if board & (X_LOW << x):
            out |= 1 << x
    return out


def rows(board: int) -> int:
    """The y values `board` uses, as 4 bits (bit `y` set when some cell has that y).

    >>> rows(1 << index(2, 3, 1))
    8
    """
    out = 0
    for y in range(4):
        if board & (Y_LOW << (4 * y)):
            out |= 1 << y
    return out


def extent(board: int) -> tuple[int, int]:
    """How wide (x) and deep (y) `board` is, from its smallest to its largest x and y.

    >>> extent(1 << index(1, 0, 0) | 1 << index(2, 3, 0))
    (2, 4)
    >>> extent(0)
    (0, 0)
    """
    xs, ys = columns(board), rows(board)
    width = xs.bit_length() - (xs & -xs).bit_length() + 1 if xs else 0
    depth = ys.bit_length() - (ys & -ys).bit_length() + 1 if ys else 0
    return width, depth


def to_corner(board: int, *others: int) -> tuple[int, ...]:
    """`board` and `others` moved together so that `board`'s smallest x and y are 0.

    >>> to_corner(1 << index(2, 3, 1)) == (1 << index(0, 0, 1),)
    True
    """
    if not board:
        return (board, *others)
    dx = (columns(board) & -columns(board)).bit_length() - 1
    dy = (rows(board) & -rows(board)).bit_length() - 1
    shift = dx + 4 * dy
    # each row keeps its cells: the board has no cell below x = dx or y = dy
    return tuple(b >> shift for b in (board, *others))


def edge_placements(occupied: int) -> tuple[int, int]:
    """The placements just before the structure, which shift it by one: the rows `y` (as 4
    bits) where a cube may go on `-1,y,0`, and the columns `x` where one may go on `x,-1,0`.

    A cube may go there when the structure is in the corner (`to_corner`), the cell next to
    it on the bag holds a cube, and the structure is narrower than 4 that way.

    >>> edge_placements(1 << index(0, 0, 0) | 1 << index(0, 1, 0))
    (3, 1)
    >>> edge_placements(X_LOW & FLOOR)  # a whole row along y: 4 deep already
    (15, 0)
    """
    if not occupied:
        return 0, 0
    floor = occupied & FLOOR
    west = 0 if occupied & X_HIGH else rows(floor & X_LOW)
    south = 0 if occupied & Y_HIGH else columns(floor & Y_LOW)
    return west, south


def flood(seed: int, within: int) -> int:
    """The cells of `within` joined to `seed` face to face in the same layer.

    Grows the seed one step in each side direction until it stops growing.

    >>> row = 0b1011  # x = 0, 1 and 3 on the floor
    >>> flood(1, row) == 0b11
    True
    """
    grown = seed & within
    while True:
        bigger = (grown | side_neighbours(grown)) & within
        if bigger == grown:
            return grown
        grown = bigger


def cells(board: int) -> Iterator[int]:
    """The bits set in `board`, lowest first (visits only the set bits).

    >>> list(cells(0b1010))
    [1, 3]
    """
    while board:
        low = board & -board
        yield low.bit_length() - 1
        board ^= low


def count(board: int) -> int:
    """How many cells `board` holds."""
    return board.bit_count()


# -- the symmetries of the 4×4 footprint -----------------------------------------------------
#
# Symmetry `k` (0..7) mirrors x if bit 0 of `k` is set, then mirrors y if bit 1 is, then
# swaps x and y if bit 2 is: identity, flip x, flip y, both flips (a half turn), transpose,
# then flip x, flip y and both flips each followed by the transpose (a quarter turn
# clockwise, a quarter turn counter-clockwise, the anti-transpose). Each works on a *key* of
# up to three boards side by side (board `j` in bits `64j` to `64j + 63`), moving every
# layer of every board at once with delta swaps.

#: the number of symmetries of the footprint
SYMMETRIES = 8
#: a 16-bit layer mask times this repeats it over the 12 layers of a key (3 boards × 4)
_REPEAT = sum(1 << (16 * layer) for layer in range(12))
_FLIP_X1 = 0x5555 * _REPEAT  # swap x = 0 ↔ 1 and 2 ↔ 3
_FLIP_X2 = 0x3333 * _REPEAT  # swap the pairs (0, 1) ↔ (2, 3)
_FLIP_Y1 = 0x0F0F * _REPEAT  # swap rows y = 0 ↔ 1 and 2 ↔ 3
_FLIP_Y2 = 0x00FF * _REPEAT  # swap the row pairs
_TRANS1 = 0x0A0A * _REPEAT  # transpose each 2×2 block: cells 1, 3, 9, 11 ↔ 3 further on
_TRANS2 = 0x00CC * _REPEAT  # swap the off-diagonal 2×2 blocks: cells 2, 3, 6, 7 ↔ 6 further


def flip_x(key: int) -> int:
    """Mirror every layer of `key` in x (x → 3 - x).

    >>> flip_x(1 << index(0, 1, 2)) == 1 << index(3, 1, 2)
    True
    """
    key = ((key >> 1) & _FLIP_X1) | ((key & _FLIP_X1) << 1)
    return ((key >> 2) & _FLIP_X2) | ((key & _FLIP_X2) << 2)


def flip_y(key: int) -> int:
    """Mirror every layer of `key` in y (y → 3 - y).

    >>> flip_y(1 << index(0, 1, 2)) == 1 << index(0, 2, 2)
    True
    """
    key = ((key >> 4) & _FLIP_Y1) | ((key & _FLIP_Y1) << 4)
    return ((key >> 8) & _FLIP_Y2) | ((key & _FLIP_Y2) << 8)


def transpose(key: int) -> int:
    """Swap x and y in every layer of `key` (two delta swaps).

    >>> transpose(1 << index(1, 3, 0)) == 1 << index(3, 1, 0)
    True
    """
    t = (key ^ (key >> 3)) & _TRANS1
    key ^= t ^ (t << 3)
    t = (key ^ (key >> 6)) & _TRANS2
    return key ^ t ^ (t << 6)


def image(key: int, k: int) -> int:
    """The image of `key` under symmetry `k` of the footprint (`images(key)[k]`).

    >>> coords(image(1 << index(0, 1, 2), 6).bit_length() - 1)  # flip y, then transpose
    (2, 0, 2)
    """
    if k & 1:
        key = flip_x(key)
    if k & 2:
        key = flip_y(key)
    if k & 4:
        key = transpose(key)
    return key


def images(key: int) -> tuple[int, ...]:
    """The 8 images of `key` under the symmetries of the footprint (z is kept), symmetry
    `k` at index `k`.

    The box, gravity and the rules of both stages look the same after any of them, so
    symmetric positions have equal values.

    >>> len(set(images(1 << index(0, 1, 0))))
    8
    """
    fx = flip_x(key)
    fy = flip_y(key)
    fxy = flip_y(fx)
    return (key, fx, fy, fxy, transpose(key), transpose(fx), transpose(fy), transpose(fxy))


def least_image(key: int) -> tuple[int, int]:
    """The least of the 8 images of `key`, and the first symmetry `k` that gives it.

    >>> least_image(1 << index(0, 0, 3))[0] == least_image(1 << index(3, 3, 3))[0]
    True
    """
    best, which = key, 0
    for k, found in enumerate(images(key)):
        if found < best:
            best, which = found, k
    return best, which


def _cell_maps() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    forward = [
        tuple(image(1 << i, k).bit_length() - 1 for i in range(64)) for k in range(SYMMETRIES)
    ]
    backward = []
    for cells_to in forward:
        inverse = [0] * 64
        for i, j in enumerate(cells_to):
            inverse[j] = i
        backward.append(tuple(inverse))
    return tuple(forward), tuple(backward)


#: `CELL_TO[k][i]`: the cell that symmetry `k` takes cell `i` to; `CELL_FROM[k]` takes it
#: back (`CELL_FROM[k][CELL_TO[k][i]] == i`)
CELL_TO, CELL_FROM = _cell_maps()
