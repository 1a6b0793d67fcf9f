"""STAKD: stack your pieces layer on layer; the last to lay a piece wins the round.

Rules in docs/rules/stakd.md; the piece shapes and counts are edition data
(`editions/standard.toml`).

>>> import cubegames
>>> state = cubegames.make("stakd", players=2).new_state()
>>> state.play("BASE@0:0,0+1,0+2,0+0,1+1,1+2,1")
>>> state.to_move, len(state.legal_moves())
(1, 16)
"""

from cubegames.games.stakd.board import Board, Laid
from cubegames.games.stakd.edition import Edition, EditionError, load_edition
from cubegames.games.stakd.game import Stakd
from cubegames.games.stakd.notation import Place
from cubegames.games.stakd.pieces import PieceType
from cubegames.games.stakd.state import StakdState

GAME_CLASS = Stakd

__all__ = [
    "EXAMPLE_OPTIONS",
    "GAME_CLASS",
    "Board",
    "Edition",
    "EditionError",
    "Laid",
    "PieceType",
    "Place",
    "Stakd",
    "StakdState",
    "load_edition",
]

#: option sets worth exercising (the game's `info.example_options`)
EXAMPLE_OPTIONS: list[dict[str, object]] = [dict(o) for o in Stakd.info.example_options]
