"""The greedy bot: each game's one-ply heuristic, decided from the mover's view alone."""

from __future__ import annotations

import random
from typing import Any

from cubegames.bots.base import Bot
from cubegames.core.game import Move, State


class GreedyBot(Bot):
    """Plays the move its game's heuristic likes best (`Game.greedy_move`).

    For a game without one it looks one move ahead and keeps the move that leaves its own
    score furthest ahead of the best other seat's (ahead is below where the game's facts say
    a lower score is better). Ties are broken by its seeded generator.
    It sees only `state.view(seat)`: hidden parts are filled in by a random determinization,
    which a heuristic that uses only the mover's own information never depends on.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, **params: Any) -> None:
        super().__init__(seed, **params)
        self.rng = random.Random(seed)

    def choose(self, state: State[Any]) -> Move:
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: there is no move to choose")
        game = state.game
        seen = game.determinize(state.view(seat), seat, self.rng)
        move = game.greedy_move(seen, self.rng)
        if move is not None:
            chosen: Move = move
            return chosen
        return self._one_ply(seen, seat)

    def _one_ply(self, state: State[Any], seat: int) -> Move:
        best: list[Move] = []
        best_value = float("-inf")
        sign = -1.0 if state.game.info.score_better == "lower" else 1.0
        for move in state.legal_moves():
            after = state.clone()
            after._apply(move)
            scores = [sign * s for s in after.scores()]
            others = [s for i, s in enumerate(scores) if i != seat]
            value = scores[seat] - (max(others) if others else 0.0)
            if after.is_over and seat in after.winners():
                value += 1e6
            if value > best_value:
                best_value, best = value, [move]
            elif value == best_value:
                best.append(move)
        return best[self.rng.randrange(len(best))]
