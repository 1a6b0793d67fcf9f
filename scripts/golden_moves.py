"""The random players of the golden-game scripts (`cubed_format1_goldens.py`,
`cubed_chance2_goldens.py`): both run against an old tree's code, so this module imports
nothing of the project's and works on any state with `legal_moves`, `play`, `is_over`,
`round` and `to_dict`."""

from __future__ import annotations

import random
from typing import Any


def choose(state: Any, rng: random.Random) -> Any:
    """A move at random, a draw3 one time in three where one is legal (so that pieces go
    back into the bag often)."""
    moves = state.legal_moves()
    draw3 = [m for m in moves if str(m).startswith("draw3")]
    if draw3 and rng.random() < 1 / 3:
        return rng.choice(draw3)
    return rng.choice(moves)


def play(state: Any, rng: random.Random) -> tuple[list[str], list[tuple[int, int, Any]]]:
    """Play `state` to its end; the moves, and (ply, round, position) after every move."""
    moves: list[str] = []
    seen: list[tuple[int, int, Any]] = []
    while not state.is_over:
        move = choose(state, rng)
        state.play(move)
        moves.append(str(move))
        seen.append((len(moves), state.round, state.to_dict()))
    return moves, seen
