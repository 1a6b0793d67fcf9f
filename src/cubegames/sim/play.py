"""One simulated game: a match description in, a flat record out."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import cubegames


@dataclass(frozen=True)
class Match:
    """A game to play: which game, its options, the bot in each seat, and the seed.

    Seat `s`'s bot is seeded with `seed * 1000 + s`, so a match is reproducible on its own.
    """

    game: str
    bots: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    def bot_seed(self, seat: int) -> int:
        return self.seed * 1000 + seat


def play_match(match: Match) -> dict[str, Any]:
    """Play `match` to the end and describe how it went."""
    game = cubegames.make(match.game, **match.options)
    if len(match.bots) != game.players:
        raise ValueError(f"{len(match.bots)} bots for {game.players} seats")
    bots = [cubegames.bot(spec, seed=match.bot_seed(s)) for s, spec in enumerate(match.bots)]
    state = game.new_state(seed=match.seed)
    moves = 0
    start = time.perf_counter()
    while (seat := state.to_move) is not None:
        state.play(bots[seat].choose(state))
        moves += 1
    return {
        "game": match.game,
        "options": dict(match.options),
        "seed": match.seed,
        "bots": list(match.bots),
        "winners": state.winners(),
        "scores": state.scores(),
        "moves": moves,
        "seconds": time.perf_counter() - start,
    }
