"""One simulated game: a match description in, a flat record out."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import cubegames
from cubegames.sim.summaries import summary_for


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
        """The seed of the bot in `seat`."""
        return self.seed * 1000 + seat


def play_match(match: Match) -> dict[str, Any]:
    """Play `match` to the end and describe how it went.

    The record holds `game`, `options`, `seed`, `bots` (one per seat), `winners`, `scores`,
    `moves` (every move played), `turns` (runs of consecutive moves by one seat: a draw and
    the placement after it are one turn; a round opened by the seat that ended the last one
    continues its run, and in solo play the whole game is one run), `extras` (the game's own
    columns, see `cubegames.sim.summaries`) and `seconds` (time spent playing). Everything
    but `seconds` depends only on the match.

    >>> record = play_match(Match("cubes", ("random", "random"), seed=3))
    >>> record["moves"] == record["extras"]["rolls"], record["turns"] <= record["moves"]
    (True, True)
    """
    game = cubegames.make(match.game, **match.options)
    if len(match.bots) != game.players:
        raise ValueError(f"{len(match.bots)} bots for {game.players} seats")
    bots = [
        cubegames.bot(spec, seed=match.bot_seed(s), game=match.game)
        for s, spec in enumerate(match.bots)
    ]
    summary = summary_for(game)
    watch = summary.observe if summary.per_move else None
    state = game.new_state(seed=match.seed)
    moves = turns = 0
    last = None
    start = time.perf_counter()
    while (seat := state.to_move) is not None:
        state.play(bots[seat].choose(state))
        moves += 1
        if seat != last:
            turns += 1
            last = seat
        if watch is not None:
            watch(state)
    seconds = time.perf_counter() - start
    return {
        "game": match.game,
        "options": dict(match.options),
        "seed": match.seed,
        "bots": list(match.bots),
        "winners": state.winners(),
        "scores": state.scores(),
        "moves": moves,
        "turns": turns,
        "extras": summary.finish(state),
        "seconds": seconds,
    }
