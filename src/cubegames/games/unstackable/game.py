"""The Unstackable game: its option, setting up, and reading positions and moves."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from cubegames.core.capabilities import EndgameSolving
from cubegames.core.errors import plain
from cubegames.core.game import JSON, Game, Playouts, State
from cubegames.core.info import GameInfo
from cubegames.core.options import check_options, players_field
from cubegames.core.phrase import Worded
from cubegames.games.unstackable import bitboard as bb
from cubegames.games.unstackable import search
from cubegames.games.unstackable.box import LETTERS, Box, Colour, load_box
from cubegames.games.unstackable.notation import UnstackableMove, parse
from cubegames.games.unstackable.state import Stage, UnstackableState, cell_text
from cubegames.games.unstackable.summary import COLUMNS, UnstackableSummary


class UnstackableOptions(BaseModel):
    """Unstackable's options (the game is for exactly two, which the game checks)."""

    model_config = ConfigDict(extra="forbid")

    players: StrictInt = players_field(2, 2)
    bag_counts_as_exposed: StrictBool = Field(False, title="The face on the bag counts as exposed")
    exact_counts: StrictBool = Field(
        True,
        title="A turn places exactly its colour's count",
        description="off: 1 up to the count, then end the turn",
    )


INFO = GameInfo(
    id="unstackable",
    title="Unstackable",
    pitch="Two players build a 4×4×4 cube of coloured cubes, then take it apart for points.",
    min_players=2,
    max_players=2,
    options=UnstackableOptions,
    rules=(
        "Stage 1: pick a colour and stack black ×3, red ×2 or yellow ×1. A cube on the bag "
        "must touch another cube on the bag; a higher cube needs a cube right under it. "
        "The cube may grow any way while it stays at most 4 wide, deep and tall.",
        "When only black is left, the rest of the box fills with black.",
        "Stage 2: take two cubes a turn. A cube can go when nothing sits on it and at "
        "least 3 of its faces are free. Whoever stacked the last red cube goes second.",
        "Your first cube each turn goes to pile 1 (yellow 5, red 3), the second to pile 2 "
        "(black 1). Most points wins.",
    ),
    columns=COLUMNS,
    summary=UnstackableSummary,
    report="cubegames.games.unstackable.report:report",
    example_options=({}, {"bag_counts_as_exposed": True}, {"exact_counts": False}),
)


class Unstackable(Game[UnstackableMove], EndgameSolving):
    """Unstackable for two players.

    `bag_counts_as_exposed` makes the bottom face of a cube on the bag count as exposed
    when judging whether it may be removed (off by default). `exact_counts` (on by default)
    makes a stacking turn place exactly its colour's count (black 3, red 2, yellow 1, fewer
    only when the supply runs short); off, a turn places 1 up to that many and `end` closes
    it early. Options are written to position files only when they differ from their
    defaults.

    >>> Unstackable().options
    {}
    >>> Unstackable(bag_counts_as_exposed=True, exact_counts=False).options
    {'bag_counts_as_exposed': True, 'exact_counts': False}
    >>> Unstackable(players=3)
    Traceback (most recent call last):
    ...
    cubegames.core.phrase.Worded: unstackable is a game for exactly 2 players, not 3
    """

    info: ClassVar[GameInfo] = INFO

    def __init__(
        self, players: int = 2, bag_counts_as_exposed: bool = False, exact_counts: bool = True
    ) -> None:
        check_options(
            INFO.id,
            UnstackableOptions,
            {
                "players": players,
                "bag_counts_as_exposed": bag_counts_as_exposed,
                "exact_counts": exact_counts,
            },
        )
        if players != 2:
            raise Worded(
                "error-players-exactly",
                f"unstackable is a game for exactly 2 players, not {plain(players)}",
                game="Unstackable",
                count=2,
                players=plain(players),
            )
        self.players = 2
        self.bag_counts_as_exposed = bag_counts_as_exposed
        self.exact_counts = exact_counts
        self.box: Box = load_box()

    @property
    def options(self) -> JSON:
        """The options that differ from their defaults (so the default game writes {})."""
        out: JSON = {}
        if self.bag_counts_as_exposed:
            out["bag_counts_as_exposed"] = True
        if not self.exact_counts:
            out["exact_counts"] = False
        return out

    def new_state(self, seed: int = 0) -> UnstackableState:
        """The bare bag with every cube in the supply; seat 0 starts.

        There is no chance in this game, so every seed gives the same start.
        """
        return UnstackableState(self)

    def parse_move(self, text: str) -> UnstackableMove:
        """Read `K@x,y,z` (stack), `end` or `x,y,z` (remove); see `notation`."""
        return parse(text)

    def state_from_dict(self, data: Mapping[str, Any]) -> UnstackableState:
        """Read a position file, checking that it is one the rules could reach: no floating
        cube, no more cubes than the box, supply and piles that add up, a turn, seat to
        move and last red that fit the stage, and in stage 2 cubes gone that legal removals
        could have taken. A `ValueError` names the first bad field.

        A stage-1 structure that is not in the corner of the grid (a file written before
        the size limit floated, when the first cube could go anywhere on the bag) is moved
        there: its smallest x and y become 0.

        >>> import cubegames
        >>> game = cubegames.make("unstackable")
        >>> old = game.new_state().to_dict() | {"grid": "." * 5 + "K" + "." * 58}
        >>> old["supply"] = {"Y": 3, "R": 16, "K": 44}
        >>> game.state_from_dict(old).grid()[:2]
        'K.'
        """
        return _Reader(self, data).state()

    def determinize(
        self, view: Mapping[str, Any], seat: int, rng: random.Random
    ) -> UnstackableState:
        """Nothing is hidden, so the view is the position itself (without its `seat`)."""
        return self.state_from_dict({k: v for k, v in view.items() if k != "seat"})

    # -- search hooks (see cubegames.games.unstackable.search) ---------------------------
    # (the `EndgameSolving` capability: the `alphabeta` bot's stage 2)

    def solver_key(self) -> tuple[bool, str]:
        """What a stage-2 solver depends on: whether the bag's face counts as exposed, and
        the box's points."""
        return (self.bag_counts_as_exposed, repr(self.box.points))

    def endgame_size(self, state: State[Any]) -> int | None:
        """The cubes left in a stage-2 `state`; None while stacking.

        >>> import cubegames
        >>> cubegames.make("unstackable").endgame_size(cubegames.make("unstackable").new_state())
        """
        assert isinstance(state, UnstackableState)
        return None if state.stage is Stage.STACK else state.occupied.bit_count()

    def endgame_solver(
        self, *, compiled: bool = True, symmetry: bool = False
    ) -> search.Solver | search.CompiledSolver:
        """A stage-2 solver for these rules, whose table lives as long as it does.

        `compiled` (the default) runs the search in the numba kernel (`solver_kernel.py`), with a
        bound on what each player can still score; `symmetry` keys the table on the least
        of a position's 8 images, which only the Python `search.Solver` does (so it implies
        the Python search). Pass the solver to `endgame_choice`.
        """
        bag = self.bag_counts_as_exposed
        if compiled and not symmetry:
            return search.CompiledSolver(self.box, bag_exposed=bag)
        return search.Solver(self.box, bag_exposed=bag, symmetry=symmetry)

    def endgame_choice(
        self,
        solver: search.Solver | search.CompiledSolver,
        state: State[UnstackableMove],
        depth: int | None = None,
        deadline: float | None = None,
    ) -> search.Choice:
        """The removal `solver` (from `endgame_solver`) picks in a stage-2 `state`: to the
        end of the game when `depth` is None, else `depth` plies by iterative deepening,
        stopping at `deadline` (a `time.perf_counter()` reading) with the deepest search
        that finished. The answer's `value` is the final point difference the mover can
        expect (the points so far included), exact when `exact`.

        >>> import cubegames
        >>> type(cubegames.make("unstackable").endgame_solver()).__name__
        'CompiledSolver'
        """
        assert isinstance(state, UnstackableState)
        return search.choose(solver, state, depth, deadline)

    def playouts(
        self, view: Mapping[str, Any], seat: int, rng: random.Random
    ) -> Playouts[UnstackableMove] | None:
        """Compiled playouts for the `mcts` bot's flat search (`search_bridge`): nothing is
        hidden, so they start from the position the view shows."""
        from cubegames.games.unstackable import search_bridge

        state = self.determinize(view, seat, rng)
        if state.to_move is None:
            return None
        return search_bridge.KernelPlayouts(state)

    def greedy_move(self, state: State[UnstackableMove], rng: random.Random) -> UnstackableMove:
        """The greedy heuristic: the best immediate pile value, handing over little.

        Stage 2: remove the cube worth most in the pile it goes to (pile 1: yellow 5, red
        3, black 0; pile 2: black 1, the others 0). Ties go to the removal that bares the
        fewest pile-1 points, that is the yellow and red cubes it makes removable for the
        next pile-1 pick (the opponent's, once this turn's second cube is out); remaining
        ties are broken by `rng`.

        Stage 1 has no points to take, so the heuristic buries value: it stacks the colour
        worth most in pile 1 that it may (yellow while there is any, then red; a turn's
        colour once the turn has one) on the lowest cell it may, among those the one with
        the most cubes beside it in its layer, since the top corners and edges are what
        stage 2 lays bare first (where the final cube's walls fall is open while the size
        limit floats). Remaining ties are broken by `rng`. With `exact_counts = false` it
        ends a turn early (`end`) rather than stack another cube worth points in pile 1
        (red) where only the top half of the cube is left for it (layer 2 or higher), which
        stage 2 lays bare first.

        >>> import cubegames, random
        >>> game = cubegames.make("unstackable")
        >>> str(game.greedy_move(game.new_state(), random.Random(1)))
        'Y@0,0,0'
        """
        assert isinstance(state, UnstackableState)
        return search.greedy_move(state, rng)


def _whole(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{where}: must be a whole number of at least {low}")
    if high is not None and value > high:
        raise ValueError(f"{where}: must be at most {high}")
    return value


def _seat(value: Any, where: str, *, nullable: bool) -> int | None:
    if value is None and nullable:
        return None
    # `type(...) is int`: 1.0 and True equal 1 but are no seat (a float seat passed the
    # check and then failed as a list index, a TypeError naming no field)
    if type(value) is not int or value not in (0, 1):
        return_kind = "0, 1 or null" if nullable else "0 or 1"
        raise ValueError(f"{where}: must be a seat, {return_kind}")
    seat: int = value
    return seat


def _remover(starter: int, removal: int) -> int:
    """The seat making removal number `removal` (from 0): turns of two, `starter` first."""
    return starter if (removal // 2) % 2 == 0 else 1 - starter


class _Reader:
    """Validates a position dict field by field; each error names the field."""

    FIELDS = ("game", "options", "stage", "to_move", "grid", "supply", "turn", "piles", "last_red")

    def __init__(self, game: Unstackable, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise ValueError("a position must be a JSON object")
        self.game = game
        self.box = game.box
        self.data = data

    def field(self, key: str) -> Any:
        if key not in self.data:
            raise ValueError(f'field "{key}" is missing')
        return self.data[key]

    def state(self) -> UnstackableState:
        game, data = self.game, self.data
        extra = sorted(set(data) - set(self.FIELDS))
        if extra:
            raise ValueError(f'field "{extra[0]}": not a field of an Unstackable position')
        state = UnstackableState(game)
        stage = self.field("stage")
        if stage not in ("stack", "unstack"):
            raise ValueError('field "stage": must be "stack" or "unstack"')
        state.stage = Stage(stage)
        self.grid(state)
        state.last_red = _seat(self.field("last_red"), 'field "last_red"', nullable=True)
        state.piles = self.piles()
        if state.stage is Stage.STACK:
            self.stacking(state)
        else:
            self.unstacking(state)
        return state

    def grid(self, state: UnstackableState) -> None:
        grid = self.field("grid")
        if not isinstance(grid, str) or len(grid) != 64:
            raise ValueError('field "grid": must be text of 64 letters, one per cell')
        for i, letter in enumerate(grid):
            if letter != "." and letter not in LETTERS:
                raise ValueError(
                    f'field "grid": {letter!r} on {cell_text(*bb.coords(i))} '
                    f"(index {i}) is not Y, R, K or ."
                )
        for i, letter in enumerate(grid):
            if letter != ".":
                state.boards[Colour(letter)] |= 1 << i
        if state.stage is Stage.STACK:  # an old file's structure goes to the corner
            occupied = 0
            for board in state.boards.values():
                occupied |= board
            moved = bb.to_corner(occupied, *state.boards.values())[1:]
            state.boards = dict(zip(state.boards, moved, strict=True))
        for colour in Colour:
            board = state.boards[colour]
            state.occupied |= board
            held = bb.count(board)
            if held > self.box.count[colour]:
                name = self.box.colour_names[colour]
                raise ValueError(
                    f'field "grid": {held} {name} cubes, but the box holds only '
                    f"{self.box.count[colour]}"
                )
        afloat = bb.floating(state.occupied)
        if afloat:
            cell = cell_text(*bb.coords(next(bb.cells(afloat))))
            raise ValueError(f'field "grid": the cube on {cell} floats, with no cube under it')

    def piles(self) -> list[list[str]]:
        piles = self.field("piles")
        shape = ValueError('field "piles": must be [[pile 1, pile 2], [pile 1, pile 2]]')
        if not isinstance(piles, list) or len(piles) != 2:
            raise shape
        out: list[list[str]] = []
        for seat, pair in enumerate(piles):
            if not isinstance(pair, list) or len(pair) != 2:
                raise shape
            for k, pile in enumerate(pair):
                if not isinstance(pile, str) or any(ch not in LETTERS for ch in pile):
                    raise ValueError(f"piles[{seat}][{k}]: must be text of Y, R and K letters")
            out.append(list(pair))
        return out

    def supply(self) -> dict[Colour, int]:
        supply = self.field("supply")
        if not isinstance(supply, dict) or set(supply) != set(LETTERS):
            raise ValueError('field "supply": must give the cubes left of Y, R and K')
        return {c: _whole(supply[c.value], f"supply.{c.value}") for c in Colour}

    def turn(self, keys: set[str]) -> dict[str, Any]:
        turn = self.field("turn")
        if not isinstance(turn, dict) or set(turn) != keys:
            fields = " and ".join(f'"{k}"' for k in sorted(keys))
            raise ValueError(f'field "turn": in this stage it has exactly the fields {fields}')
        return turn

    def stacking(self, state: UnstackableState) -> None:
        box, names = self.box, self.box.colour_names
        if any(state.piles[s][k] for s in (0, 1) for k in (0, 1)):
            raise ValueError('field "piles": nothing is removed while the cube is being built')
        state.supply = self.supply()
        for colour in Colour:
            on_grid = bb.count(state.boards[colour])
            if state.supply[colour] != box.count[colour] - on_grid:
                raise ValueError(
                    f"supply.{colour.value}: {state.supply[colour]} {names[colour]} cubes, but "
                    f"the box minus the grid leaves {box.count[colour] - on_grid}"
                )
        if state.supply[Colour.YELLOW] == 0 and state.supply[Colour.RED] == 0:
            raise ValueError(
                'field "supply": only black is left, so the cube should have been filled '
                'and stage "unstack" begun'
            )
        floor = state.occupied & bb.FLOOR
        if floor and bb.flood(floor & -floor, floor) != floor:
            raise ValueError('field "grid": the cubes on the bag are not all joined face to face')
        has_red = state.boards[Colour.RED] != 0
        if has_red and state.last_red is None:
            raise ValueError('field "last_red": red cubes are stacked, so someone stacked last')
        if not has_red and state.last_red is not None:
            raise ValueError('field "last_red": no red cube is stacked yet, so it must be null')
        to_move = _seat(self.field("to_move"), 'field "to_move"', nullable=False)
        state._to_move = to_move
        turn = self.turn({"colour", "placed"})
        colour = turn["colour"]
        if colour is not None and (not isinstance(colour, str) or colour not in tuple(LETTERS)):
            raise ValueError('turn.colour: must be "Y", "R", "K" or null')
        placed = _whole(turn["placed"], "turn.placed")
        if colour is None:
            if placed:
                raise ValueError("turn.placed: must be 0 while the turn has no colour yet")
            return
        chosen = Colour(colour)
        if placed == 0:
            raise ValueError("turn.colour: the colour is chosen by the turn's first cube")
        if placed >= box.per_turn[chosen] or state.supply[chosen] == 0:
            raise ValueError(f"turn.placed: a {names[chosen]} turn would have ended already")
        if placed > bb.count(state.boards[chosen]):
            raise ValueError(f"turn.placed: more {names[chosen]} cubes than the grid holds")
        if chosen is Colour.RED and state.last_red != to_move:
            raise ValueError('field "last_red": the seat to move has just stacked a red cube')
        state.colour = chosen
        state.placed = placed

    def reachable(self, state: UnstackableState) -> None:
        """Refuse cubes gone that no order of legal removals could have taken.

        Whether a cube may be removed depends only on the cubes left, and a removal never
        makes another cube harder to remove (faces only open up, nothing new sits on
        anything). So it is enough to remove, from the full cube, any missing cube that
        may go now, until none can: the position is reachable when every missing cube went.
        """
        bag = self.game.bag_counts_as_exposed
        missing = bb.FULL & ~state.occupied
        occupied = bb.FULL
        while missing:
            free = bb.removable(occupied, bag_exposed=bag) & missing
            if not free:
                cell = cell_text(*bb.coords(next(bb.cells(missing))))
                raise ValueError(
                    f'field "grid": no legal play reaches this position: the cube gone from {cell} '
                    "could not have been removed while the cubes still around it were there"
                )
            occupied &= ~free
            missing &= ~free

    def unstacking(self, state: UnstackableState) -> None:
        box, names = self.box, self.box.colour_names
        state.supply = self.supply()
        if any(state.supply.values()):
            raise ValueError('field "supply": every cube is stacked by now, so it must be empty')
        for colour in Colour:
            held = bb.count(state.boards[colour]) + sum(
                pile.count(colour.value) for pair in state.piles for pile in pair
            )
            if held != box.count[colour]:
                raise ValueError(
                    f'field "piles": with the grid they make {held} {names[colour]} cubes; '
                    f"the box holds {box.count[colour]}"
                )
        if state.last_red is None:
            raise ValueError('field "last_red": after stacking, someone stacked the last red')
        starter = 1 - state.last_red
        removals = 64 - bb.count(state.occupied)
        expected = [[0, 0], [0, 0]]
        for n in range(removals):
            expected[_remover(starter, n)][n % 2] += 1
        for seat in (0, 1):
            for k in (0, 1):
                if len(state.piles[seat][k]) != expected[seat][k]:
                    raise ValueError(
                        f"piles[{seat}][{k}]: after {removals} removals, with seat {starter} "
                        f"going first, it should hold {expected[seat][k]} cubes, "
                        f"not {len(state.piles[seat][k])}"
                    )
        self.reachable(state)
        mover = None if removals == 64 else _remover(starter, removals)
        to_move = _seat(self.field("to_move"), 'field "to_move"', nullable=True)
        if to_move != mover:
            said = "null (the game is over)" if mover is None else f"seat {mover}"
            raise ValueError(f'field "to_move": must be {said} after {removals} removals')
        state._to_move = to_move
        turn = self.turn({"removed"})
        removed = _whole(turn["removed"], "turn.removed", 0, 1)
        if removed != removals % 2:
            raise ValueError(f"turn.removed: after {removals} removals it must be {removals % 2}")
        state.removed = removed
