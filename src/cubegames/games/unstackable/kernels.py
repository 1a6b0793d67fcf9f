"""What `cubegames compile` plays to compile Unstackable's kernels ahead of their first use
(`cubegames.kernels`): the flat search's playouts, the stage-2 solver behind `alphabeta`,
and the compiled vector environment with its own greedy opponent."""

from __future__ import annotations

import random
from typing import Any

from cubegames.core.game import State
from cubegames.games.unstackable.game import Unstackable
from cubegames.games.unstackable.state import Stage


def bot_positions() -> list[tuple[State[Any], tuple[str, ...]]]:
    """The opening, for the flat search; a position of stage 2 (reached by random moves),
    for the solver."""
    out: list[tuple[State[Any], tuple[str, ...]]] = [
        (Unstackable().new_state(seed=1), ("mcts:iterations=20",))
    ]
    position = Unstackable().new_state(seed=1)
    rng = random.Random(1)
    while position.stage is Stage.STACK and not position.is_over:
        moves = position.legal_moves()
        position.play(moves[rng.randrange(len(moves))])
    if not position.is_over:
        out.append((position, ("alphabeta:depth=2",)))
    return out


def vector_envs() -> list[dict[str, Any]]:
    """The compiled vector environment, against the random bot and against its own greedy
    step (`games/unstackable/opponents.py`)."""
    return [{}, {"opponent": "greedy"}]
