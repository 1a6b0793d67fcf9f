"""The alpha-beta bot: a game's endgame searched, and solved once it is small.

It plays every game with the `EndgameSolving` capability (`cubegames.core.capabilities`),
Unstackable among the built-in four. The search itself is the game's, reached through
that capability (`endgame_solver`, `endgame_size` and `endgame_choice`); Unstackable's is
negamax over single removals that
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
- Other games (without the capability): `AlphaBetaBot.can_play` says no, so the server and
  `cubegames.bot(..., game=)` refuse the seat ("bot 'alphabeta' plays unstackable only, not
  cubed"); `choose` raises the same ValueError.
"""

from __future__ import annotations

import random
import time
from typing import Any

from cubegames.bots import params
from cubegames.bots.base import Bot
from cubegames.bots.greedy import GreedyBot
from cubegames.core.capabilities import EndgameSolving
from cubegames.core.game import Move, State
from cubegames.core.phrase import Worded
from cubegames.core.registry import GAMES, game_class

#: plies searched when neither `depth` nor `seconds` is given (four whole turns)
DEFAULT_DEPTH = 8
#: cubes left at which the search goes to the end by default: the compiled search solves
#: 32 cubes in about a second, the Python one 24
DEFAULT_EXACT = 32
PYTHON_EXACT = 24

_TRUE = (True, 1, "true", "yes", "on")
_FALSE = (False, 0, "false", "no", "off")


class AlphaBetaBot(Bot):
    """Alpha-beta search for games with an endgame solver; see the module's docstring.

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

    @classmethod
    def can_play(cls, game: str) -> bool:
        """Whether `game`'s class has the `EndgameSolving` capability (an unknown game, or
        one that cannot be loaded, has not).

        >>> AlphaBetaBot.can_play("unstackable"), AlphaBetaBot.can_play("cubed")
        (True, False)
        """
        try:
            found = game_class(game)
        except ValueError:
            return False
        return issubclass(found, EndgameSolving)

    @classmethod
    def games(cls) -> tuple[str, ...]:
        """The registered games with an endgame solver."""
        return tuple(g for g in GAMES if cls.can_play(g))

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

    def solver(self, game: EndgameSolving) -> Any:
        """The bot's endgame solver for `game`'s rules (its table is kept between moves)."""
        key = (type(game), game.solver_key())
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
        if not isinstance(game, EndgameSolving):
            raise ValueError(f"alphabeta plays {', '.join(self.games())} only, not {game.id}")
        seen = game.determinize(state.view(seat), seat, self.rng)
        left = game.endgame_size(seen)
        if left is None:  # before the endgame: the greedy bot's move, from the same view
            move = game.greedy_move(seen, self.rng)
            if move is not None:
                chosen: Move = move
                return chosen
            greedy = GreedyBot(self.seed)
            greedy.rng = self.rng
            return greedy._one_ply(seen, seat)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        depth = None if left <= self.exact else self.depth
        choice = game.endgame_choice(self.solver(game), seen, depth, deadline)
        self.last_depth = choice.depth
        self.last_value = choice.value
        self.last_exact = choice.exact
        return choice.move
