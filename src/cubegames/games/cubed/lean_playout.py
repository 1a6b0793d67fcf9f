"""The lean rollout path: random playouts without move objects, sorting or re-validation.

Bots and the simulator call `playout` thousands of times. It draws uniformly among the same
legal moves `legal_moves()` lists, but takes placements straight from the incremental
generator as (rotation, cell) pairs and lays them without checking them again.

`plain=True` takes placements from the plain reference generator instead; with the same
`rng` both paths play exactly the same game, which the tests check and the benchmark uses
to compare their speed.
"""

from __future__ import annotations

import random

from cubegames.games.cubed.placement import plain_placements
from cubegames.games.cubed.state import CubedState


def playout(state: CubedState, rng: random.Random, *, plain: bool = False) -> CubedState:
    """Play uniformly random legal moves until the game ends; returns `state` itself."""
    while (seat := state.to_move) is not None:
        if state.drawn or state.give:
            moves = state.legal_moves()
            state._apply(moves[rng.randrange(len(moves))])
            continue
        if plain:
            found = plain_placements(
                state.table, state.hands[seat], strict=state.game.strict_colors, ed=state.ed
            )
        else:
            found = state.placements()
        found.sort()
        others = state.other_moves(can_place=bool(found))
        pick = rng.randrange(len(found) + len(others))
        if pick < len(found):
            state.apply_placement(*found[pick])
        else:
            state._apply(others[pick - len(found)])
    return state
