"""Which opponents the compiled vector environments play inside their kernels, by bot name:
the kernels themselves are the games' (`games/cubed/opponents.py`: CUBED's `greedy` and
`mcts`; `games/unstackable/opponents.py`: Unstackable's `greedy`), the algorithms of
`cubegames.bot("greedy")` and of the flat search of `cubegames.bot("mcts")` in numba, so that
a learner trains against them at the speed of the random opponent's environment rather than
through the Python rules (`SessionVectorEnv`). They are the bots' algorithms, not their
exact draws: ties and deals come from the environment's generators, so a game against
`greedy` there is one the Python greedy bot could have played, not the one it would have
played with a given seed.

`spec(game_id, opponent)` says whether an opponent by name runs in a game's kernel.
"""

from __future__ import annotations

from typing import Any

from cubegames.bots.greedy import GreedyBot
from cubegames.bots.mcts import FLAT_ITERATIONS, MctsBot
from cubegames.kit.parts import part
from cubegames.kit.vector import GREEDY, MCTS, RANDOM, SELF, Opponent

__all__ = ["GREEDY", "MCTS", "RANDOM", "SELF", "kinds", "spec"]


def kinds(game_id: str) -> tuple[int, ...]:
    """The kinds of opponent `game_id`'s compiled environment plays in its kernel (its
    `vector` part's `KINDS`; none for a game without one)."""
    found = part(game_id, "vector")
    return tuple(getattr(found, "KINDS", ()))


def spec(game_id: str, opponent: Any) -> Opponent | None:
    """`(kind, iterations)` of an opponent by name that `game_id`'s kernel plays ("self",
    "random", "greedy", "mcts", "mcts:iterations=N"), or None when it does not (another
    bot, other parameters such as `seconds` or `tree=true`, a callable): those run over
    the Python rules. A malformed bot name raises ValueError, as `cubegames.bot` does."""
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
        kind, iterations = GREEDY, 0
    elif isinstance(made, MctsBot) and not made.tree and made.seconds is None:
        kind, iterations = MCTS, made.budget(FLAT_ITERATIONS) or FLAT_ITERATIONS
    else:
        return None
    return (kind, iterations) if kind in played else None
