"""The alpha-beta bot: Unstackable's second stage searched, and solved once it is small.

The search itself is Unstackable's, reached through the game's search hooks
(`Unstackable.endgame_solver` and `endgame_choice`): negamax over single removals that
negates only where a turn ends (a turn is two removals by the same player), a
transposition table keyed on the cubes left, a bound on what each player can still score,
move ordering, iterative deepening under a time budget, compiled with numba (the Python
search with `compiled=false`). This module only reads the position from the mover's view,
picks the budget and plays the answer.

- Stage 2 (unstacking): iterative deepening to `depth` plies, stopping early when `seconds`
  run out; at `exact` or fewer cubes left (default 32 compiled, 24 in Python) the search
  goes to the end of the game whatever the depth (still within `seconds`), so the endgame
  is played perfectly. The bot keeps its
  table between moves and games, so an endgame solved once costs nothing afterwards.
- Stage 1 (stacking): the game's greedy heuristic (`Unstackable.greedy_move`: bury yellow,
  then red, low and in the middle). No search looks far enough to see what a stacking move
  does to the unstacking, which starts at least a dozen turns later.
- Other games: `choose` raises ValueError ("alphabeta plays unstackable only").
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

from cubegames.bots import params
from cubegames.bots.base import Bot
from cubegames.core.game import Move, State
from cubegames.core.phrase import Worded
from cubegames.games.unstackable import Stage, Unstackable

#: plies searched when neither `depth` nor `seconds` is given (four whole turns)
DEFAULT_DEPTH = 8
#: cubes left at which the search goes to the end by default: the compiled search solves
#: 32 cubes in about a second, the Python one 24
DEFAULT_EXACT = 32
PYTHON_EXACT = 24

_TRUE = (True, 1, "true", "yes", "on")
_FALSE = (False, 0, "false", "no", "off")


class AlphaBetaBot(Bot):
    """Alpha-beta search for Unstackable; see the module's docstring.

    Parameters (`alphabeta:depth=6,seconds=2`): `depth` plies (a whole number of at least
    1), `seconds` of thinking per move (positive), `exact` cubes left from which to solve
    to the end (0 to 64; default 32, or 24 with the Python search), `symmetry` (true or
    false, default false) to share table entries between mirrored positions (Python search
    only), `compiled` (true or false, default true) for the numba search. With neither
    `depth` nor `seconds` the depth is 8; with `seconds` alone the depth has no cap. After
    each stage-2 choice `last_value` holds the final point difference (mover minus
    opponent) the search expects, exact when `last_exact`.

    >>> AlphaBetaBot(depth=0)
    Traceback (most recent call last):
    ...
    cubegames.core.phrase.Worded: bot 'alphabeta': depth must be a whole number from 1 to 64
    """

    name = "alphabeta"
    #: the games it plays, for a caller to check before seating it (others raise in `choose`)
    games: ClassVar[tuple[str, ...] | None] = ("unstackable",)

    def __init__(
        self,
        seed: int = 0,
        depth: int | None = None,
        seconds: float | None = None,
        exact: int | None = None,
        symmetry: bool | int | str = False,
        compiled: bool | int | str = True,
        **extra: Any,
    ) -> None:
        super().__init__(seed, **extra)
        if depth is not None:
            depth = params.whole("alphabeta", "depth", depth, 1, params.MAX_DEPTH)
        if seconds is not None:
            seconds = params.seconds("alphabeta", seconds)
        flags = {}
        for name, value in (("symmetry", symmetry), ("compiled", compiled)):
            flag = value.lower() if isinstance(value, str) else value
            if flag not in _TRUE and flag not in _FALSE:
                raise Worded(
                    "error-bot-flag",
                    f"bot 'alphabeta': {name} must be true or false",
                    bot="alphabeta",
                    key=name,
                )
            flags[name] = flag in _TRUE
        self.symmetry = flags["symmetry"]
        self.compiled = flags["compiled"] and not self.symmetry
        if exact is None:
            exact = DEFAULT_EXACT if self.compiled else PYTHON_EXACT
        exact = params.whole("alphabeta", "exact", exact, 0, 64)
        if depth is None and seconds is None:
            depth = DEFAULT_DEPTH
        self.depth = depth
        self.seconds = None if seconds is None else float(seconds)
        self.exact = exact
        self.rng = random.Random(seed)
        self._solvers: dict[tuple[Any, ...], Any] = {}
        #: the last stage-2 choice: the search's plies, the final point difference it
        #: expects for the mover, and whether that is exact (for benchmarks, tests, the curious)
        self.last_depth: int | None = None
        self.last_value: int | None = None
        self.last_exact = False

    def solver(self, game: Unstackable) -> Any:
        """The bot's stage-2 solver for `game`'s rules (its table is kept between moves)."""
        key = (game.bag_counts_as_exposed, repr(game.box.points))
        found = self._solvers.get(key)
        if found is None:
            found = self._solvers[key] = game.endgame_solver(
                compiled=self.compiled, symmetry=self.symmetry
            )
        return found

    def choose(self, state: State[Any]) -> Move:
        """The move for the seat to move, worked out from that seat's view of `state`."""
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: there is no move to choose")
        game = state.game
        if not isinstance(game, Unstackable):
            raise ValueError(f"alphabeta plays {', '.join(self.games or ())} only, not {game.id}")
        seen = game.determinize(state.view(seat), seat, self.rng)
        if seen.stage is Stage.STACK:
            return game.greedy_move(seen, self.rng)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        depth = None if seen.occupied.bit_count() <= self.exact else self.depth
        choice = game.endgame_choice(self.solver(game), seen, depth, deadline)
        self.last_depth = choice.depth
        self.last_value = choice.value
        self.last_exact = choice.exact
        return choice.move
