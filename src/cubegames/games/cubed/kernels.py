"""What `cubegames compile` plays to compile CUBED's kernels ahead of their first use
(`cubegames.kernels`): the greedy bot's and the flat search's (two seats and solo), the
batched random games of one round, of three and solo, and the compiled vector
environment."""

from __future__ import annotations

from typing import Any

from cubegames.core.game import State
from cubegames.games.cubed.game import Cubed


def bot_positions() -> list[tuple[State[Any], tuple[str, ...]]]:
    """A dealt two-seat game and a solo one, for the greedy bot and the flat search."""
    bots = ("greedy", "mcts:iterations=20")
    return [
        (Cubed(players=2, rounds=1).new_state(seed=1), bots),
        (Cubed(players=1).new_state(seed=1), bots),
    ]


def random_games() -> list[dict[str, Any]]:
    """Random-bot games of one round, of three and solo (the batch kernel's paths)."""
    return [{"players": 2, "rounds": 1}, {"players": 2, "rounds": 3}, {"players": 1}]


def vector_envs() -> list[dict[str, Any]]:
    """The compiled vector environment, two seats, one round."""
    return [{"players": 2, "rounds": 1}]
