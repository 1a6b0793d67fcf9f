"""Seeded positions of random games, shared by the symmetry tests and the learning tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import cubegames
from cubegames.core.game import State


def positions(
    game_id: str, options: dict[str, Any], seeds: range, every: int = 1
) -> Iterator[State[Any]]:
    """Every `every`-th position (game not over) of seeded random games, the state itself:
    copy it before changing it."""
    game = cubegames.make(game_id, **options)
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_over:
            if step % every == 0:
                yield state
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
            step += 1
