"""What search needs from Unstackable: the stage-2 solver and the greedy heuristic.

Pure rules code: no I/O, no global state, and the clock is read only when a deadline is
given. `Solver` is the readable reference search in Python; `CompiledSolver` runs the same
search in the numba kernel of `solver_kernel.py` (tested against it), with a bound on what each
player can still score. The `alphabeta` bot in `cubegames.bots` reaches them only through
`Unstackable.endgame_solver`, and `Unstackable.greedy_move` calls `greedy_move` here.

A stage-2 position is three bitboards, one per colour (`Position`). Whose removal it is and
which pile it goes to follow from the number of cubes left: removal `n` (from 0; `n = 64 -
cubes left`) goes to pile 1 when `n` is even and to pile 2 when it is odd, and the seat
changes after every odd removal. So the *future* of a position (what the two players can
still score from it) depends on the cubes left alone, not on the piles or the seats: that is
what the transposition table is keyed on, and a value solved once holds in every game that
reaches the same cubes.

Values are *future point differences* for the player making the next removal: the points
that player will still score minus the points the other will still score, with best play
by both. A ply is one removal. The side to move changes only after the second removal of a
turn, so the negamax negates only there:

    after a pile-1 removal (the same player removes again):  value = gain + value(child)
    after a pile-2 removal (the other player's turn begins):  value = gain - value(child)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from cubegames.games.unstackable import bitboard as bb
from cubegames.games.unstackable.bitboard import CELL_FROM, CELL_TO, least_image
from cubegames.games.unstackable.box import Box, Colour
from cubegames.games.unstackable.notation import End, Stack, Unstack, UnstackableMove
from cubegames.games.unstackable.state import Stage, UnstackableState

#: beyond any reachable point difference (64 cubes score at most 5 each)
INFINITY = 1000

# -- positions and moves ------------------------------------------------------------------


class Position(NamedTuple):
    """The cubes left in stage 2, one bitboard per colour.

    >>> p = Position(yellow=0, red=1 << 16, black=1)
    >>> p.left, p.pile, p.colour_at(16), p.without(16).left
    (2, 0, Colour.RED, 1)
    """

    yellow: int
    red: int
    black: int

    @classmethod
    def of(cls, state: UnstackableState) -> Position:
        """The cubes left in `state`."""
        boards = state.boards
        return cls(boards[Colour.YELLOW], boards[Colour.RED], boards[Colour.BLACK])

    @property
    def occupied(self) -> int:
        """Every cube left."""
        return self.yellow | self.red | self.black

    @property
    def left(self) -> int:
        """How many cubes are left."""
        return self.occupied.bit_count()

    @property
    def pile(self) -> int:
        """The pile the next removal goes to: 0 for pile 1, 1 for pile 2."""
        return (64 - self.left) & 1

    def colour_at(self, cell: int) -> Colour | None:
        """The colour of the cube on `cell`, or None when it is empty."""
        bit = 1 << cell
        if self.yellow & bit:
            return Colour.YELLOW
        if self.red & bit:
            return Colour.RED
        return Colour.BLACK if self.black & bit else None

    def without(self, cell: int) -> Position:
        """The position once the cube on `cell` is taken out (the search's make; positions
        are immutable integers, so unmake is keeping the old one)."""
        keep = ~(1 << cell)
        return Position(self.yellow & keep, self.red & keep, self.black & keep)


def removable(occupied: int, *, bag_exposed: bool = False) -> int:
    """The cubes of `occupied` that may be removed: nothing on top, at least 3 of 6 faces
    exposed. The same set as `bitboard.removable`, in fewer operations.

    A cube with nothing on top has its top face exposed, and in any position the rules can
    reach no cube above the bag has an empty cell under it. What is left to count are the
    four side faces: at least 2 of them, or for a cube on the bag whose bottom face counts
    as exposed (`bag_exposed`), at least 1.

    >>> [bb.coords(i) for i in bb.cells(removable(bb.FULL))]
    [(0, 0, 3), (3, 0, 3), (0, 3, 3), (3, 3, 3)]
    """
    occ = occupied
    east = bb.X_HIGH | ~(occ >> 1)
    west = bb.X_LOW | ~(occ << 1)
    north = bb.Y_HIGH | ~(occ >> 4)
    south = bb.Y_LOW | ~(occ << 4)
    two = (east & west) | (north & south) | ((east | west) & (north | south))
    if bag_exposed:
        two |= bb.FLOOR & (east | west | north | south)
    return occ & ~(occ >> 16) & two


def gains(box: Box) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Points of a yellow, red and black cube removed to pile 1, and to pile 2.

    >>> from cubegames.games.unstackable.box import load_box
    >>> gains(load_box())
    ((5, 3, 0), (0, 0, 1))
    """
    first, second = box.points
    return (
        (first[Colour.YELLOW], first[Colour.RED], first[Colour.BLACK]),
        (second[Colour.YELLOW], second[Colour.RED], second[Colour.BLACK]),
    )


# -- the solver ---------------------------------------------------------------------------


@dataclass
class Stats:
    """Counters of the searches of a solver (reset with `Solver.clear`)."""

    nodes: int = 0
    probes: int = 0
    hits: int = 0

    @property
    def hit_rate(self) -> float:
        """The share of table probes that found an entry for their position."""
        return self.hits / self.probes if self.probes else 0.0


class Result(NamedTuple):
    """What a search found at its root."""

    cell: int  #: the cube to remove, as its bit index
    value: int  #: future point difference for the player removing it (exact if `exact`)
    depth: int  #: plies searched
    exact: bool  #: True when searched to the end of the game


class Timeout(Exception):
    """A search ran past its deadline."""


#: how often (in nodes) a search with a deadline reads the clock
_CLOCK_EVERY = 1024


class Solver:
    """Negamax alpha-beta over single removals, with a transposition table that lives as
    long as the solver, so an endgame solved for one move is not solved again for the next.

    Table entries are `(lower bound, upper bound, plies searched, best cell)`; an entry
    searched as many plies as there are cubes left is exact for good. Moves are tried in
    the order: the table's best cell, then by immediate pile value (yellow, red, black for
    pile 1; black first for pile 2), then by cell. Beyond a search's horizon a position is
    worth 0, so a depth-limited value is the point difference over the plies searched.

    `symmetry` keys the table on the least of a position's 8 images under the footprint's
    symmetries (mirrored and rotated positions share an entry; see `key`) for positions
    with at least `symmetry_from` cubes left. The symmetries are `bitboard.images`, the
    same maps `cubegames.symmetry` offers for Unstackable. It is off by default: on
    positions from real games the colours almost never repeat under a symmetry, and the
    images cost more than the nodes they save (see benchmarks/alphabeta.py). `max_entries`
    bounds the table: past it, only the exact entries are kept, and if even they are too
    many the table is cleared.

    >>> import cubegames
    >>> solver = Solver(cubegames.make("unstackable").box)
    >>> tower = Position(yellow=0, red=1 << bb.index(0, 0, 1), black=1 << bb.index(0, 0, 0))
    >>> solver.solve(tower)  # the red to pile 1 (3 points), then the black to pile 2 (1)
    4
    >>> bb.coords(solver.search(tower).cell)
    (0, 0, 1)
    """

    def __init__(
        self,
        box: Box,
        *,
        bag_exposed: bool = False,
        symmetry: bool = False,
        symmetry_from: int = 20,
        max_entries: int = 2_000_000,
    ) -> None:
        self.bag_exposed = bag_exposed
        self.symmetry = symmetry
        self.symmetry_from = symmetry_from
        self.max_entries = max_entries
        self.gain = gains(box)
        # per pile: -1 (the table's move), then colours by falling gain (0 Y, 1 R, 2 K;
        # sorting is stable, so ties keep that order)
        self._order = tuple(
            (-1, *sorted(range(3), key=points.__getitem__, reverse=True)) for points in self.gain
        )
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.stats = Stats()
        self._deadline: float | None = None

    def clear(self) -> None:
        """Forget every table entry and reset the counters."""
        self.table.clear()
        self.stats = Stats()

    def solve(self, position: Position, deadline: float | None = None) -> int:
        """The exact future point difference for the player making the next removal.

        Raises `Timeout` if `deadline` (a `time.perf_counter()` reading) passes first.
        """
        if position.left == 0:
            return 0
        return self._root(position, position.left, deadline).value

    def search(
        self, position: Position, depth: int | None = None, deadline: float | None = None
    ) -> Result:
        """The best removal and its value, by iterative deepening.

        `depth` caps the plies (None: to the end of the game, an exact solve). The depths
        tried end turns (1 then 3, 5, ... when the next removal is a turn's second; else 2,
        4, ...) up to half the cubes left, then the cap itself: past half, a depth-limited
        search costs about as much as the exact one. When `deadline` passes, the last
        search that finished is returned; the first always finishes, so there is a move.
        """
        steps = depths(position, depth)
        known = self._exact_entry(position)
        if known is not None:
            return known
        return deepen(position, steps, deadline, self._root)

    # -- inside -------------------------------------------------------------------------

    def key(self, position: Position) -> tuple[int, int]:
        """The table key of `position`, and the footprint symmetry `k` (of `bitboard.images`)
        that takes the position to the one the key stands for.

        The key packs the boards as `black | red << 64 | yellow << 128`. With `symmetry` (and
        at least `symmetry_from` cubes left) it is the least of the 8 images of that number,
        `bitboard.least_image`, so mirrored and turned positions share one key; otherwise
        `k` is 0 and the key is the position's own.

        >>> import cubegames
        >>> solver = Solver(cubegames.make("unstackable").box, symmetry=True, symmetry_from=0)
        >>> corner = Position(yellow=0, red=0, black=1 << bb.index(3, 3, 0))
        >>> solver.key(corner) == (1, 3)  # both flips take (3, 3) to (0, 0)
        True
        """
        y, r, k = position
        return self._key(y, r, k, position.left)

    def _key(self, y: int, r: int, k: int, left: int) -> tuple[int, int]:
        key = k | r << 64 | y << 128
        if self.symmetry and left >= self.symmetry_from:
            return least_image(key)
        return key, 0

    def _exact_entry(self, position: Position) -> Result | None:
        y, r, k = position
        left = position.left
        key, which = self._key(y, r, k, left)
        entry = self.table.get(key)
        if entry is None or entry[2] < left or entry[0] != entry[1] or entry[3] < 0:
            return None
        return Result(CELL_FROM[which][entry[3]], entry[0], left, True)

    def _root(self, position: Position, depth: int, deadline: float | None) -> Result:
        y, r, k = position
        left = position.left
        depth = min(depth, left)
        key, which = self._key(y, r, k, left)
        entry = self.table.get(key)
        if entry is not None and (entry[2] != depth or entry[0] != entry[1]):
            del self.table[key]  # so that this search stores its root and its best cell
        self._deadline = deadline
        try:
            value = self._search(y, r, k, left, depth, -INFINITY, INFINITY)
        finally:
            self._deadline = None
        entry = self.table[key]
        if len(self.table) > self.max_entries:
            self._trim()
        return Result(CELL_FROM[which][entry[3]], value, depth, depth >= left)

    def _trim(self) -> None:
        """Keep only the exact entries (a key's bit count is its cubes left)."""
        self.table = {
            key: entry
            for key, entry in self.table.items()
            if entry[0] == entry[1] and entry[2] >= key.bit_count()
        }
        if len(self.table) > self.max_entries // 2:
            self.table = {}

    def _search(self, y: int, r: int, k: int, left: int, depth: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta; `depth` is at most `left` (equal in an exact solve)."""
        stats = self.stats
        stats.nodes += 1
        deadline = self._deadline
        if (
            deadline is not None
            and stats.nodes % _CLOCK_EVERY == 0
            and time.perf_counter() > deadline
        ):
            raise Timeout
        key = k | r << 64 | y << 128
        which = 0
        if self.symmetry and left >= self.symmetry_from:
            key, which = least_image(key)
        table = self.table
        stats.probes += 1
        entry = table.get(key)
        tt_cell = -1
        if entry is not None:
            stats.hits += 1
            low, high, done, tt_cell = entry
            if done >= depth:
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
            if which:
                tt_cell = CELL_FROM[which][tt_cell]

        pile = (64 - left) & 1
        gain = self.gain[pile]
        free = removable(y | r | k, bag_exposed=self.bag_exposed)
        boards = (y & free, r & free, k & free)
        child_depth = depth - 1
        child_left = left - 1
        alpha0 = alpha
        best = -INFINITY
        best_cell = -1
        for colour in self._order[pile]:
            if colour < 0:  # the table's move first
                if tt_cell < 0:
                    continue
                bit = 1 << tt_cell
                board = bit
                colour = 0 if y & bit else 1 if r & bit else 2
                points = gain[colour]
            else:
                board = boards[colour]
                if tt_cell >= 0:
                    board &= ~(1 << tt_cell)
                points = gain[colour]
            while board:
                bit = board & -board
                board ^= bit
                if child_depth == 0:
                    value = points
                elif pile == 0:  # the same player removes again
                    value = points + self._search(
                        y & ~bit,
                        r & ~bit,
                        k & ~bit,
                        child_left,
                        child_depth,
                        alpha - points,
                        beta - points,
                    )
                else:  # the other player's turn begins
                    value = points - self._search(
                        y & ~bit,
                        r & ~bit,
                        k & ~bit,
                        child_left,
                        child_depth,
                        points - beta,
                        points - alpha,
                    )
                if value > best:
                    best, best_cell = value, bit.bit_length() - 1
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            if alpha >= beta:
                break

        if best <= alpha0:
            low, high = -INFINITY, best
        elif best >= beta:
            low, high = best, INFINITY
        else:
            low = high = best
        if entry is not None:
            if entry[2] > depth:
                return best  # the table already knows more of this position
            if entry[2] == depth and max(low, entry[0]) <= min(high, entry[1]):
                # the same depth searched before with another window: keep both bounds
                low, high = max(low, entry[0]), min(high, entry[1])
        table[key] = (low, high, depth, CELL_TO[which][best_cell] if which else best_cell)
        return best


class Choice(NamedTuple):
    """A solver's answer for a stage-2 state: the move, the final point difference it
    expects for the mover (points so far included), and whether that is exact."""

    move: Unstack
    value: int
    exact: bool
    depth: int


def choose(
    solver: Solver | CompiledSolver,
    state: UnstackableState,
    depth: int | None = None,
    deadline: float | None = None,
) -> Choice:
    """The solver's removal for the seat to move in a stage-2 `state` (see `search`)."""
    seat = state.to_move
    if seat is None or state.stage is not Stage.UNSTACK:
        raise ValueError("the endgame solver chooses removals in stage 2 only")
    result = solver.search(Position.of(state), depth, deadline)
    scores = state.scores()
    final = result.value + int(scores[seat] - scores[1 - seat])
    return Choice(Unstack(*bb.coords(result.cell)), final, result.exact, result.depth)


class CompiledSolver:
    """`Solver`'s search in the compiled kernel (`kernel.search_root`): the same values
    and the same kind of answer, many times faster, with a bound on what each player can
    still score (`bounds`: 0 off, 1 close a node when the bounds meet, 2 also cut on them;
    see `solver_kernel`) and a fixed-size transposition table of `2**table_bits` rows (32 bytes
    each; the default 20 is 32 MB, enough for the bot's solves from 32 cubes) kept between
    searches. No symmetric keys.

    >>> import cubegames
    >>> solver = CompiledSolver(cubegames.make("unstackable").box, table_bits=10)
    >>> tower = Position(yellow=0, red=1 << bb.index(0, 0, 1), black=1 << bb.index(0, 0, 0))
    >>> solver.solve(tower)
    4
    """

    def __init__(
        self, box: Box, *, bag_exposed: bool = False, table_bits: int = 20, bounds: int = 1
    ) -> None:
        import numpy as np

        from cubegames.games.unstackable import solver_kernel

        self._np = np
        self._kernel = solver_kernel
        self.bag_exposed = bag_exposed
        self.use_bounds = bounds
        points = gains(box)
        self.gains = np.array(points, dtype=np.int64)
        self.order = np.array(
            [sorted(range(3), key=lambda c: -row[c]) for row in points], dtype=np.int64
        )
        self.table = solver_kernel.new_table(table_bits)
        self._stats = np.zeros(5, dtype=np.int64)
        self._clock = np.zeros(1, dtype=np.float64)
        self.stats = Stats()

    def clear(self) -> None:
        """Forget every table entry and reset the counters."""
        self.table[:] = 0
        self.stats = Stats()

    def _run(self, position: Position, depth: int, deadline: float | None) -> tuple[int, int]:
        np = self._np
        stats = self._stats
        stats[:] = 0
        self._clock[0] = 0.0 if deadline is None else deadline
        value = self._kernel.search_root(
            self.table,
            np.uint64(position.yellow),
            np.uint64(position.red),
            np.uint64(position.black),
            depth,
            -INFINITY,
            INFINITY,
            self.gains,
            self.order,
            self.bag_exposed,
            self.use_bounds,
            stats,
            self._clock,
        )
        self.stats.nodes += int(stats[0])
        self.stats.probes += int(stats[1])
        self.stats.hits += int(stats[2])
        if stats[3]:
            raise Timeout
        return int(value), int(stats[4])

    def solve(self, position: Position, deadline: float | None = None) -> int:
        """The exact future point difference for the player making the next removal.

        Raises `Timeout` if `deadline` (a `time.perf_counter()` reading) passes first.
        """
        if position.left == 0:
            return 0
        return self._run(position, position.left, deadline)[0]

    def search(
        self, position: Position, depth: int | None = None, deadline: float | None = None
    ) -> Result:
        """The best removal and its value by iterative deepening, as `Solver.search`."""

        def root(position: Position, d: int, deadline: float | None) -> Result:
            value, cell = self._run(position, d, deadline)
            return Result(cell, value, d, d >= position.left)

        return deepen(position, depths(position, depth), deadline, root)


def depths(position: Position, depth: int | None) -> list[int]:
    """The depths iterative deepening tries for `position` (see `Solver.search`)."""
    left = position.left
    if left == 0:
        raise ValueError("no cube is left to remove")
    limit = left if depth is None else min(depth, left)
    if limit < 1:
        raise ValueError("depth must be at least 1")
    steps = []
    d = 2 - position.pile
    while d < limit and d <= left // 2:
        steps.append(d)
        d += 2
    steps.append(limit)
    return steps


def deepen(
    position: Position,
    steps: list[int],
    deadline: float | None,
    root: Callable[[Position, int, float | None], Result],
) -> Result:
    """The result of the deepest of `steps` that `root` finished before `deadline` (the
    first step always runs to its end, so there is a move)."""
    found: Result | None = None
    for d in steps:
        try:
            found = root(position, d, deadline if found is not None else None)
        except Timeout:
            break
    assert found is not None
    return found


# -- the greedy heuristic -----------------------------------------------------------------


def greedy_move(state: UnstackableState, rng: random.Random) -> UnstackableMove:
    """The greedy player's move (see `Unstackable.greedy_move` for the heuristic)."""
    if state.to_move is None:
        raise ValueError("the game is over: there is no move to choose")
    if state.stage is Stage.UNSTACK:
        return _greedy_unstack(state, rng)
    return _greedy_stack(state, rng)


def _greedy_unstack(state: UnstackableState, rng: random.Random) -> Unstack:
    position = Position.of(state)
    occupied = position.occupied
    bag = state.game.bag_counts_as_exposed
    gain = gains(state.box)
    pile = state.removed
    free = removable(occupied, bag_exposed=bag)
    best: list[int] = []
    best_key: tuple[int, int] | None = None
    for cell in bb.cells(free):
        colour = position.colour_at(cell)
        assert colour is not None
        points = gain[pile][(Colour.YELLOW, Colour.RED, Colour.BLACK).index(colour)]
        bared = removable(occupied & ~(1 << cell), bag_exposed=bag) & ~free
        handed = gain[0][0] * bb.count(bared & position.yellow)
        handed += gain[0][1] * bb.count(bared & position.red)
        handed += gain[0][2] * bb.count(bared & position.black)
        key = (points, -handed)
        if best_key is None or key > best_key:
            best_key, best = key, [cell]
        elif key == best_key:
            best.append(cell)
    return Unstack(*bb.coords(best[rng.randrange(len(best))]))


#: the layers a cube worth points in pile 1 is kept out of when the turn may end instead
#: (`exact_counts = false`): stage 2 bares the top half of the cube first
EXPOSED_FROM = 2


def _greedy_stack(state: UnstackableState, rng: random.Random) -> Stack | End:
    colours = state.stackable_colours()
    pile1 = state.box.points[0]
    colour = max(colours, key=lambda c: (pile1[c], -list(Colour).index(c)))
    cells = state.target_cells()
    occupied = state.occupied

    def rank(cell: tuple[int, int, int]) -> tuple[int, int]:
        x, y, z = cell
        sides = ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
        held = sum(bb.in_box(a, b, z) and occupied >> bb.index(a, b, z) & 1 for a, b in sides)
        return z, -held

    low = min(rank(c) for c in cells)
    if state.may_end_turn() and pile1[colour] > 0 and low[0] >= EXPOSED_FROM:
        return End()  # the next valuable cube could only stand where stage 2 bares it early
    best = [c for c in cells if rank(c) == low]
    return Stack(colour, *best[rng.randrange(len(best))])
