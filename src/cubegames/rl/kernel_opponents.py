"""Which opponents the compiled vector environments play inside their kernels, by bot name:
the kernels themselves are the games' (`games/cubed/opponents.py`: CUBED's `greedy` and
`mcts`; `games/unstackable/opponents.py`: Unstackable's `greedy`), the algorithms of
`cubegames.bot("greedy")` and of the flat search of `cubegames.bot("mcts")` in numba, so that
a learner trains against them at the speed of the random opponent's environment rather than
through the Python rules (`SessionVectorEnv`). They are the bots' algorithms, not their
exact draws: ties and deals come from the environment's generators, so a game against
`greedy` there is one the Python greedy bot could have played, not the one it would have
played with a given seed.

`spec(game_id, opponent, options)` says whether an opponent by name runs in a game's kernel,
and with how many playouts a move `mcts` searches there: without `iterations`, the bot's
default for the game's options (`MctsBot.flat_playouts` of `Game.flat_budget`: in CUBED 300,
150 a seat with 3 or more seats, 1000 with two Japanese seats), as the bot would play them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cubegames.bots.greedy import GreedyBot
from cubegames.bots.mcts import MctsBot
from cubegames.core.registry import game_class, make
from cubegames.kit.parts import part
from cubegames.kit.vector import GREEDY, MCTS, RANDOM, SELF, Opponent

__all__ = ["GREEDY", "MCTS", "RANDOM", "SELF", "kinds", "spec"]


def kinds(game_id: str) -> tuple[int, ...]:
    """The kinds of opponent `game_id`'s compiled environment plays in its kernel (its
    `vector` part's `KINDS`; none for a game without one)."""
    found = part(game_id, "vector")
    return tuple(getattr(found, "KINDS", ()))


def spec(game_id: str, opponent: Any, options: Mapping[str, Any] | None = None) -> Opponent | None:
    """`(kind, iterations)` of an opponent by name that `game_id`'s kernel plays ("self",
    "random", "greedy", "mcts", "mcts:iterations=N"), or None when it does not (another
    bot, other parameters such as `seconds` or `tree=true`, a callable): those run over
    the Python rules. `mcts` without `iterations` runs the bot's default for the game made
    with `options` (the environment's; those that are not the game's own are left out).
    A malformed bot name, or a bad option of the game, raises ValueError, as
    `cubegames.bot` and `cubegames.make` do."""
    if not isinstance(opponent, str):
        return None
    if opponent == "self":
        return SELF, 0
    played = kinds(game_id)
    if opponent == "random":
        return (RANDOM, 0) if RANDOM in played else None
    from cubegames.bots import bot

    made = bot(opponent)
    if isinstance(made, GreedyBot) and opponent.strip() == "greedy":
        return (GREEDY, 0) if GREEDY in played else None
    if not isinstance(made, MctsBot) or made.tree or made.seconds is not None:
        return None
    if MCTS not in played:
        return None
    iterations = made.iterations
    if iterations is None:
        names = game_class(game_id).option_names
        game = make(game_id, **{k: v for k, v in (options or {}).items() if k in names})
        iterations = made.flat_playouts(game.flat_budget())
        assert iterations is not None  # a bot without `seconds` runs for a number
    return MCTS, iterations
