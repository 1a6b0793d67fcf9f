"""What `cubegames compile` plays to compile STAKD's kernels ahead of their first use
(`cubegames.kernels`): the greedy bot's and the flat search's, past the bases."""

from __future__ import annotations

from typing import Any

from cubegames.core.game import State
from cubegames.games.stakd.game import Stakd


def bot_positions() -> list[tuple[State[Any], tuple[str, ...]]]:
    """A two-seat game with its bases laid (the kernels play the pieces after them)."""
    state = Stakd(players=2, points_to_win=1).new_state(seed=1)
    while state.to_move is not None and state.base_phase:
        state.play(state.legal_moves()[0])
    return [(state, ("greedy", "mcts:iterations=20"))]
