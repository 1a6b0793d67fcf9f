"""Unstackable positions from seeded games, and a deliberately plain minimax to check the
alpha-beta bot against."""

from __future__ import annotations

import random

import cubegames
from cubegames.games.unstackable import Stage, UnstackableState


def seeded(seed: int, left: int, **options: object) -> UnstackableState:
    """The position of a seeded random game once `left` cubes are left in stage 2 (for
    `left` = 64, the full cube). Both stages are played by uniformly random moves."""
    rng = random.Random(seed)
    state = cubegames.make("unstackable", **options).new_state()
    assert isinstance(state, UnstackableState)
    while state.stage is Stage.STACK or state.occupied.bit_count() > left:
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    return state


def stacking(seed: int, moves: int) -> UnstackableState:
    """A stage-1 position after `moves` seeded random placements (or the fill, if sooner)."""
    rng = random.Random(seed)
    state = cubegames.make("unstackable").new_state()
    assert isinstance(state, UnstackableState)
    for _ in range(moves):
        if state.stage is not Stage.STACK:
            break
        legal = state.legal_moves()
        state.play(legal[rng.randrange(len(legal))])
    return state


def margin(state: UnstackableState, seat: int) -> float:
    """`seat`'s points minus the other seat's."""
    scores = state.scores()
    return scores[seat] - scores[1 - seat]


def minimax(state: UnstackableState, seat: int) -> float:
    """The final margin of `seat` with best play by both: every legal move tried on a
    clone, the seat to move maximising or minimising, no tricks at all."""
    if state.is_over:
        return margin(state, seat)
    values = []
    for move in state.legal_moves():
        after = state.clone()
        after.play(move)
        values.append(minimax(after, seat))
    return max(values) if state.to_move == seat else min(values)
