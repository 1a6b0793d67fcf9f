"""The random bot: a uniform choice among the legal moves, from its own seeded generator."""

from __future__ import annotations

from typing import Any

from cubegames.bots.base import Bot
from cubegames.core import splitmix
from cubegames.core.game import Move, State


class RandomBot(Bot):
    """Plays any legal move, each equally likely.

    The legal moves depend only on what the mover sees (its own hand, the table, the bag's
    size), so taking them from the state reveals nothing hidden. Its generator is
    SplitMix64 started by its seed (`splitmix.from_seed`, as a CUBED deal starts), each move
    `rng.randrange(len(legal_moves))`: the same seed plays the same moves, and a compiled
    path (`Game.random_playout`) draws the same numbers with a few lines of SplitMix64.
    """

    name = "random"

    def __init__(self, seed: int = 0, **params: Any) -> None:
        super().__init__(seed, **params)
        self.rng = splitmix.Draws(splitmix.from_seed(seed))

    def choose(self, state: State[Any]) -> Move:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        move: Move = moves[self.rng.randrange(len(moves))]
        return move
