"""CUBED's random-bot games played many at a time (`batch_games`) and described as the
simulator's records: the very records one game at a time gives (`tests/sim/test_fast.py`
checks it), but the timing, which is the batch's time shared among its games by their moves.
The simulator finds it through CUBED's `lab` part (`cubegames.kit.lab.Batches`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from cubegames.games.cubed import batch_games
from cubegames.games.cubed.game import Cubed
from cubegames.games.cubed.kernel_bridge import ENDINGS
from cubegames.games.cubed.pieces import PieceKind
from cubegames.games.cubed.state import (
    BAG_EMPTY,
    BLOCKED,
    EMPTIED,
    STALLED,
    STANDSTILL,
    STUCK,
)


class Batcher:
    """Random-bot games of one set of options played in the batch kernel, described as
    the simulator's records."""

    def __init__(self, game: Cubed) -> None:
        self.batch = batch = batch_games
        self.kernel = batch.Batch(game)
        self.players = players = game.players
        #: the largest match seed covered: the bots' seeds, seed * 1000 + seat
        #: (`Match.bot_seed`), are int64 in the kernel
        self.max_seed = (batch.MAX_SEED - players) // 1000
        self.kind_columns = [
            [f"left_{kind.value}_s{seat}" for kind in PieceKind] for seat in range(players)
        ]
        reasons = (EMPTIED, BLOCKED, STALLED, STANDSTILL, STUCK, BAG_EMPTY)
        self.end_columns = [f"end_{reason}" for reason in reasons]
        self.end_index = {code: reasons.index(name) for code, name in ENDINGS.items()}
        #: the game's own columns (`summaries.CubedSummary`), in its order
        self.extra_columns = [
            *(column for seat in self.kind_columns for column in seat),
            "rounds",
            *self.end_columns,
            "placed",
            "bag",
        ]

    def records(self, seeds: Sequence[int]) -> list[dict[str, Any]]:
        """The record of each game, from its match seed (its seats' bots seeded
        `seed * 1000 + seat`), but its game, options and bots, which the simulator adds."""
        batch = self.batch
        players = self.players
        seeds_in = np.array(list(seeds), dtype=np.int64)
        bot_seeds = seeds_in[:, None] * 1000 + np.arange(players, dtype=np.int64)
        start = time.perf_counter()
        res, finals, past_end = self.kernel.play(seeds_in, bot_seeds)
        spent = time.perf_counter() - start
        rows = res.tolist()
        ends = past_end.tolist()
        total_moves = max(1, int(res[:, batch.R_MOVES].sum()))
        first, width = batch.R_SEATS, batch.SEAT_FIELDS
        kinds = [
            (first + s * width + batch.S_KINDS, first + (s + 1) * width) for s in range(players)
        ]
        point_at = [first + s * width + batch.S_POINTS for s in range(players)]
        choice_at = [first + s * width + batch.S_CHOICES for s in range(players)]
        extra_columns = self.extra_columns
        end_index = self.end_index
        no_ends = [0] * len(self.end_columns)
        r_moves, r_turns, r_winner = batch.R_MOVES, batch.R_TURNS, batch.R_WINNER
        r_placed, r_bag = batch.R_PLACED, batch.R_BAG
        out = []
        for g, (seed, row, ended) in enumerate(zip(seeds, rows, ends, strict=True)):
            moves = row[r_moves]
            points = [row[i] for i in point_at]
            choices = [row[i] for i in choice_at]
            if players == 1:  # solo: won by emptying the hand, scored by what is left
                winners = [0] if row[r_winner] == 0 else []
            else:
                low = min(points)
                winners = [s for s, p in enumerate(points) if p == low]
            values = [count for a, b in kinds for count in row[a:b]]
            values.append(len(ended))
            counts = list(no_ends)
            for code in ended:
                counts[end_index[code]] += 1
            values += counts
            values.append(row[r_placed])
            values.append(row[r_bag])
            seconds = spent * moves / total_moves
            share = seconds / moves if moves else 0.0
            out.append(
                {
                    "seed": seed,
                    "winners": winners,
                    "scores": [float(p) for p in points],
                    "moves": moves,
                    "turns": row[r_turns],
                    "extras": dict(zip(extra_columns, values, strict=True)),
                    "final": finals[g],
                    "seconds": seconds,
                    "think": [share * c for c in choices],
                    "choices": choices,
                }
            )
        return out
