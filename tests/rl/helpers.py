"""Shared helpers for the learning-environment tests: option sets and seeded positions."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any

import cubegames
from cubegames.core.game import State


def cases() -> list[tuple[str, dict[str, Any]]]:
    """Every game with each of its example option sets (as the conformance test plays)."""
    out = []
    for game_id in cubegames.GAMES:
        module = importlib.import_module(f"cubegames.games.{game_id}")
        out.extend((game_id, dict(options)) for options in module.EXAMPLE_OPTIONS)
    return out


CASES = cases()
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CASES]


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
