"""An Unstackable position and its rules: stacking turns, the fill, unstacking, scoring.

The turn is kept in two small fields, written to position files as `turn`:

- stage 1 (`"stack"`): `{"colour": null | "Y" | "R" | "K", "placed": n}`. The colour is
  null at the start of a turn and is fixed by the turn's first cube; `placed` counts the
  cubes placed so far this turn. A turn ends by itself once it has placed its colour's
  number of cubes (or the supply of that colour is empty); with the option
  `exact_counts = false` the move `end` may also end it after at least one cube.
- stage 2 (`"unstack"`): `{"removed": 0 | 1}`, the cubes already removed this turn. The
  next removal goes to pile 1 when it is 0, to pile 2 when it is 1.

The size limit floats: the structure may grow in any direction while it stays at most 4
wide, deep and tall. It is kept in the corner of the 4×4×4 grid (smallest x and y are 0), so
a placement on `x = -1` or `y = -1` shifts every cube by one; the grid of 64 cells holds
every position.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from cubegames.core.capabilities import LegalTexts
from cubegames.core.errors import Refusal, cut
from cubegames.core.game import JSON, State, seat_of
from cubegames.games.unstackable import bitboard as bb
from cubegames.games.unstackable.box import COLOURS, Box, Colour
from cubegames.games.unstackable.notation import End, Stack, Unstack, UnstackableMove

if TYPE_CHECKING:
    from cubegames.games.unstackable.game import Unstackable


class Stage(StrEnum):
    """The two stages of the game."""

    STACK = "stack"
    UNSTACK = "unstack"


#: how a face count reads in a refusal
_COUNT_WORDS = ("none", "only 1", "only 2")


def cell_text(x: int, y: int, z: int) -> str:
    """A cell as written in notation.

    >>> cell_text(0, 3, 1)
    '0,3,1'
    """
    return f"{x},{y},{z}"


#: the text of each cell of the grid, by its bit (`Unstack`'s notation)
_CELL_TEXTS = tuple(cell_text(*bb.coords(i)) for i in range(64))


class UnstackableState(State[UnstackableMove], LegalTexts):
    """An Unstackable position. Build one with `Unstackable.new_state` or `state_from_dict`.

    >>> import cubegames
    >>> state = cubegames.make("unstackable").new_state()
    >>> state.play("R@0,0,0"); state.play("R@0,1,0")
    >>> state.to_move, state.supply[Colour.RED]
    (1, 14)
    """

    views_alike = True  # every seat sees the whole position

    game: Unstackable

    def __init__(self, game: Unstackable) -> None:
        self.game = game
        self.box: Box = game.box
        #: one bitboard per colour; their union is `occupied`
        self.boards: dict[Colour, int] = dict.fromkeys(Colour, 0)
        self.occupied = 0
        self.stage = Stage.STACK
        self._to_move: int | None = 0
        self.supply: dict[Colour, int] = dict(self.box.count)
        self.colour: Colour | None = None
        self.placed = 0
        self.removed = 0
        #: per seat, pile 1 and pile 2 as colour letters in removal order
        self.piles: list[list[str]] = [["", ""], ["", ""]]
        self.last_red: int | None = None

    # -- the public surface ------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat to move (the same seat for every cube of its turn); None once over."""
        return self._to_move

    def colour_at(self, i: int) -> Colour | None:
        """The colour of the cube on cell `i`, or None for an empty cell."""
        for colour, board in self.boards.items():
            if board >> i & 1:
                return colour
        return None

    def grid(self) -> str:
        """The 64-letter grid of position files (`.` for an empty cell)."""
        letters = ["."] * 64
        for colour, board in self.boards.items():
            letter = colour.value  # once a colour, not once a cube (an enum look-up)
            for i in bb.cells(board):
                letters[i] = letter
        return "".join(letters)

    def targets(self) -> int:
        """Stage 1: the empty cells of the grid a cube may go to now, as a bitboard (the
        placements at `x = -1` or `y = -1` are in `target_cells`)."""
        return bb.placements(self.occupied)

    def target_cells(self) -> list[tuple[int, int, int]]:
        """Stage 1: every cell a cube may go to now, `x = -1` and `y = -1` included, in
        reading order (by z, then y, then x).

        >>> import cubegames
        >>> state = cubegames.make("unstackable").new_state()
        >>> state.target_cells()
        [(0, 0, 0)]
        >>> state.play("K@0,0,0")
        >>> state.target_cells()
        [(0, -1, 0), (-1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
        """
        cells = [bb.coords(i) for i in bb.cells(self.targets())]
        west, south = bb.edge_placements(self.occupied)
        cells += [(-1, y, 0) for y in range(4) if west >> y & 1]
        cells += [(x, -1, 0) for x in range(4) if south >> x & 1]
        return sorted(cells, key=lambda c: (c[2], c[1], c[0]))

    def may_end_turn(self) -> bool:
        """Stage 1: True when `end` is legal now (option `exact_counts = false`, and the
        turn has placed a cube)."""
        return (
            self.stage is Stage.STACK
            and not self.game.exact_counts
            and self.colour is not None
            and self._to_move is not None
        )

    def removable(self) -> int:
        """Stage 2: the cubes that may be removed now, as a bitboard."""
        return bb.removable(self.occupied, bag_exposed=self.game.bag_counts_as_exposed)

    def stackable_colours(self) -> list[Colour]:
        """Stage 1: the colours the mover may place now."""
        if self.colour is not None:
            return [self.colour]
        return [c for c in COLOURS if self.supply[c] > 0]

    def legal_moves(self) -> list[UnstackableMove]:
        """Every legal move: stacking by colour (Y, R, K) then cell (`target_cells`), then
        `end` when it is legal; unstacking by cell.

        >>> import cubegames
        >>> moves = cubegames.make("unstackable").new_state().legal_moves()
        >>> [str(m) for m in moves]
        ['Y@0,0,0', 'R@0,0,0', 'K@0,0,0']
        """
        if self._to_move is None:
            return []
        if self.stage is Stage.STACK:
            targets = self.target_cells()
            out: list[UnstackableMove] = [
                Stack(c, *xyz) for c in self.stackable_colours() for xyz in targets
            ]
            if self.may_end_turn():
                out.append(End())
            return out
        return [Unstack(*bb.coords(i)) for i in bb.cells(self.removable())]

    def legal_texts(self) -> list[str]:
        """`[str(m) for m in self.legal_moves()]`, written without making the moves (the
        web server sends the seat to move its legal moves as text after every move).

        >>> import cubegames
        >>> cubegames.make("unstackable").new_state().legal_texts()
        ['Y@0,0,0', 'R@0,0,0', 'K@0,0,0']
        """
        if self._to_move is None:
            return []
        if self.stage is Stage.STACK:
            cells = ["@" + cell_text(*xyz) for xyz in self.target_cells()]
            out = [c.value + cell for c in self.stackable_colours() for cell in cells]
            if self.may_end_turn():
                out.append("end")
            return out
        return [_CELL_TEXTS[i] for i in bb.cells(self.removable())]

    def refusal(self, move: UnstackableMove) -> Refusal | None:
        """Why `move` cannot be played now, or None.

        A turn's cube count is enforced by the turn itself: it ends on its own after the
        colour's count, and until then a cube of another colour is refused with how many
        cubes of the turn's colour are still due.
        """
        if isinstance(move, Stack):
            return self._stack_refusal(move)
        if isinstance(move, Unstack):
            return self._unstack_refusal(move)
        if isinstance(move, End):
            return self._end_refusal()
        named = cut(move)
        return Refusal("not-a-move", f"{named} is not an Unstackable move", move=named)

    def _end_refusal(self) -> Refusal | None:
        if self.stage is not Stage.STACK:
            return Refusal("built", "the cube is built; now remove cubes, written x,y,z")
        if self.colour is None:
            return Refusal(
                "end-empty", "the turn has placed no cube yet: place at least one before ending it"
            )
        if self.game.exact_counts:
            name = self.box.colour_names[self.colour]
            count = self.box.per_turn[self.colour]
            return Refusal(
                "exact-count",
                f"a {name} turn places exactly {count} cubes "
                "(the option exact_counts = false allows fewer)",
                colour=name,
                count=count,
            )
        return None

    def _stack_refusal(self, move: Stack) -> Refusal | None:
        if self.stage is not Stage.STACK:
            return Refusal("built", "the cube is built; now remove cubes, written x,y,z")
        x, y, z = move.x, move.y, move.z
        where = cell_text(x, y, z)
        names = self.box.colour_names
        if self.colour is not None and move.colour is not self.colour:
            left = min(self.box.per_turn[self.colour], self.supply[self.colour] + self.placed)
            left -= self.placed
            more = "or end the turn" if self.game.exact_counts is False else "before the turn ends"
            return Refusal(
                "turn-colour",
                f"this turn is {names[self.colour]}: place {left} more {names[self.colour]} "
                f"cube{'s' if left > 1 else ''} {more}, not {names[move.colour]}",
                colour=names[self.colour],
                left=left,
                given=names[move.colour],
            )
        if self.supply[move.colour] == 0:
            return Refusal(
                "none-left",
                f"there are no {names[move.colour]} cubes left in the supply",
                colour=names[move.colour],
            )
        if not self.occupied:
            if (x, y, z) != (0, 0, 0):
                return Refusal(
                    "first-in-corner",
                    "the first cube goes on 0,0,0 (the structure is kept in the corner)",
                )
            return None
        if z < 0:
            return Refusal("under-bag", f"{where} is under the bag", cell=[x, y, z])
        width, depth = bb.extent(self.occupied)
        height = 4
        for what, low, size, limit in (("wide", x, width, "x"), ("deep", y, depth, "y")):
            grown = max(size - 1, low) - min(0, low) + 1
            if grown > 4:
                return Refusal(
                    "too-big",
                    f"a cube on {where} would make the structure {grown} {what} "
                    f"(along {limit}); it is never more than 4 wide, deep or tall",
                    cell=[x, y, z],
                    size=grown,
                    along=limit,
                )
        if z >= height:
            return Refusal(
                "too-big",
                f"a cube on {where} would make the structure {z + 1} tall; "
                "it is never more than 4 wide, deep or tall",
                cell=[x, y, z],
                size=z + 1,
                along="z",
            )
        inside = bb.in_box(x, y, z)
        i = bb.index(x, y, z) if inside else -1
        here = self.colour_at(i) if inside else None
        if here is not None:
            return Refusal(
                "occupied",
                f"{where} is already taken by a {names[here]} cube",
                cell=[x, y, z],
                colour=names[here],
            )
        if z > 0 and not (inside and self.occupied >> (i - 16) & 1):
            return Refusal(
                "float",
                f"a cube on {where} would float: there is no cube under it on {x},{y},{z - 1}",
                cell=[x, y, z],
            )
        if z == 0:
            touching = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            floor = self.occupied & bb.FLOOR
            if not any(bb.in_box(a, b, 0) and floor >> bb.index(a, b, 0) & 1 for a, b in touching):
                return Refusal(
                    "not-next", f"{where} is not next to the cubes on the bag", cell=[x, y, z]
                )
        return None

    def _unstack_refusal(self, move: Unstack) -> Refusal | None:
        if self.stage is not Stage.UNSTACK:
            return Refusal(
                "building", "the cube is still being built; place cubes, written K@x,y,z"
            )
        x, y, z = move.x, move.y, move.z
        where = cell_text(x, y, z)
        if not bb.in_box(x, y, z):
            return Refusal(
                "outside",
                f"{where} is outside the 4×4×4 box (each coordinate is 0 to 3)",
                cell=[x, y, z],
            )
        i = bb.index(x, y, z)
        if not self.occupied >> i & 1:
            return Refusal("empty", f"there is no cube on {where}", cell=[x, y, z])
        if bb.holding_up(self.occupied) >> i & 1:
            return Refusal(
                "holds-up",
                f"the cube on {where} holds up the cube on {x},{y},{z + 1}; "
                "it cannot be pulled out from under it",
                cell=[x, y, z],
            )
        faces = bb.exposed_faces(self.occupied, bag_exposed=self.game.bag_counts_as_exposed)
        exposed = sum(board >> i & 1 for board in faces)
        if exposed < 3:
            return Refusal(
                "buried",
                f"the cube on {where} has {_COUNT_WORDS[exposed]} of its 6 faces exposed; "
                "it needs at least 3",
                cell=[x, y, z],
                exposed=exposed,
            )
        return None

    def scores(self) -> list[float]:
        """Points so far, from the cubes in each seat's two piles."""
        return [
            float(self.box.pile_points(0, first) + self.box.pile_points(1, second))
            for first, second in self.piles
        ]

    def winners(self) -> list[int]:
        """The seats with the most points once the game is over (both on a draw)."""
        if self._to_move is not None:
            return []
        scores = self.scores()
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def clone(self) -> UnstackableState:
        """An independent copy (the boards are integers, so copying is cheap)."""
        other = UnstackableState.__new__(UnstackableState)
        other.game = self.game
        other.box = self.box
        other.boards = dict(self.boards)
        other.occupied = self.occupied
        other.stage = self.stage
        other._to_move = self._to_move
        other.supply = dict(self.supply)
        other.colour = self.colour
        other.placed = self.placed
        other.removed = self.removed
        other.piles = [list(p) for p in self.piles]
        other.last_red = self.last_red
        return other

    def to_dict(self) -> JSON:
        """The whole position, in the format of `docs/api.md`.

        >>> import cubegames
        >>> state = cubegames.make("unstackable").new_state()
        >>> state.play("R@0,0,0")
        >>> data = state.to_dict()
        >>> data["grid"][:2], data["turn"], data["last_red"]
        ('R.', {'colour': 'R', 'placed': 1}, 0)
        """
        turn: JSON
        if self.stage is Stage.STACK:
            colour = None if self.colour is None else self.colour.value
            turn = {"colour": colour, "placed": self.placed}
        else:
            turn = {"removed": self.removed}
        return {
            "game": self.game.id,
            "options": self.game.options,
            "stage": self.stage.value,
            "to_move": self._to_move,
            "grid": self.grid(),
            "supply": {c.value: self.supply[c] for c in COLOURS},
            "turn": turn,
            "piles": [list(p) for p in self.piles],
            "last_red": self.last_red,
        }

    def view(self, seat: int) -> JSON:
        """Everything is open in this game: the whole position, plus the viewer's seat."""
        seat = seat_of(seat, self.game.players)
        out = self.to_dict()
        out["seat"] = seat
        return out

    # -- applying moves ----------------------------------------------------------------

    def _apply(self, move: UnstackableMove) -> None:
        if isinstance(move, Stack):
            self._stack(move)
        elif isinstance(move, Unstack):
            self._unstack(move)
        elif isinstance(move, End):
            self._end_turn()

    def _stack(self, move: Stack) -> None:
        seat = self._to_move
        assert seat is not None
        colour = move.colour
        x, y = move.x, move.y
        if x < 0 or y < 0:  # the structure shifts by one, to stay in the corner
            shift = 1 if x < 0 else 4
            self.boards = {c: board << shift for c, board in self.boards.items()}
            self.occupied <<= shift
            x, y = max(x, 0), max(y, 0)
        bit = 1 << bb.index(x, y, move.z)
        self.boards[colour] |= bit
        self.occupied |= bit
        self.supply[colour] -= 1
        self.colour = colour
        self.placed += 1
        if colour is Colour.RED:
            self.last_red = seat
        if self.placed < self.box.per_turn[colour] and self.supply[colour] > 0:
            return
        self._end_turn()

    def _end_turn(self) -> None:
        seat = self._to_move
        assert seat is not None
        self.colour = None
        self.placed = 0
        if self.supply[Colour.YELLOW] == 0 and self.supply[Colour.RED] == 0:
            self._fill()
        else:
            self._to_move = 1 - seat

    def _fill(self) -> None:
        """Only black is left: fill every empty cell with black and start unstacking."""
        empty = bb.FULL & ~self.occupied
        assert bb.count(empty) == self.supply[Colour.BLACK]
        self.boards[Colour.BLACK] |= empty
        self.occupied = bb.FULL
        self.supply[Colour.BLACK] = 0
        self.stage = Stage.UNSTACK
        self.removed = 0
        # Whoever stacked the last red cube goes second.
        assert self.last_red is not None
        self._to_move = 1 - self.last_red

    def _unstack(self, move: Unstack) -> None:
        seat = self._to_move
        assert seat is not None
        i = bb.index(move.x, move.y, move.z)
        colour = self.colour_at(i)
        assert colour is not None
        self.boards[colour] &= ~(1 << i)
        self.occupied &= ~(1 << i)
        self.piles[seat][self.removed] += colour.value
        if self.removed == 0:
            self.removed = 1
            return
        self.removed = 0
        self._to_move = None if not self.occupied else 1 - seat
