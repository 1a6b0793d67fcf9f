"""CUBED: hexagonal three-colour pieces matched like dominoes (rules in docs/rules/cubed.md).

>>> import cubegames
>>> state = cubegames.make("cubed", players=2, rounds=1).new_state(seed=7)
>>> state.to_move
0
>>> state.legal_moves()[-1]
Draw()
"""

from cubegames.games.cubed.edition import Edition, EditionError, load_edition
from cubegames.games.cubed.game import VARIANTS, Cubed
from cubegames.games.cubed.notation import (
    CubedMove,
    Draw,
    Draw3,
    Give,
    Keep,
    Pass,
    Place,
    Skip,
)
from cubegames.games.cubed.state import CubedState

GAME_CLASS = Cubed

__all__ = [
    "EXAMPLE_OPTIONS",
    "GAME_CLASS",
    "VARIANTS",
    "Cubed",
    "CubedMove",
    "CubedState",
    "Draw",
    "Draw3",
    "Edition",
    "EditionError",
    "Give",
    "Keep",
    "Pass",
    "Place",
    "Skip",
    "load_edition",
]

#: option sets worth exercising (the game's `info.example_options`)
EXAMPLE_OPTIONS: list[dict[str, object]] = [dict(o) for o in Cubed.info.example_options]
