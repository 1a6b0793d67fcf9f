"""Matches of random bots played many at a time in a game's compiled kernel.

`play_match` plays one game at a time; for a match whose every seat is the random bot it
already lets the game's kernel play the moves (`Game.random_playout`), but the deal, the
reading back of the final position, its summary columns and the digest of its symmetric
image then cost Python several times the game itself. Where a game has a batch kernel
(CUBED: `cubegames.games.cubed.batch_games`), `play_items` hands it a whole run of
such matches at once and builds their records from the numbers and digests it returns: the
very records `play_match` gives (`tests/sim/test_fast.py` checks it), except the timing
(`seconds`, `think`), which is the batch's time shared among its games by their moves.

Every other match goes to `play_match`, one by one, in the order given.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

import cubegames
from cubegames.bots.random import RandomBot
from cubegames.sim.play import Match, play_match

Indexed = tuple[int, dict[str, Any]]

#: games handed to the kernel in one call
BATCH = 256

_BATCHERS: dict[tuple[str, str, tuple[str, ...]], Any] = {}


def batcher(match: Match) -> Any:
    """The batch player for matches like `match` (same game, options and bots), or None
    when they have to be played one by one."""
    key = (match.game, json.dumps(match.options, sort_keys=True), match.bots)
    if key not in _BATCHERS:
        _BATCHERS[key] = _make_batcher(match)
    return _BATCHERS[key]


def _make_batcher(match: Match) -> Any:
    if match.game != "cubed":
        return None
    game = cubegames.make(match.game, **match.options)
    if len(match.bots) != game.players:
        return None
    if not all(type(cubegames.bot(b, seed=0, game=match.game)) is RandomBot for b in match.bots):
        return None
    from cubegames.games.cubed import batch_games

    if not batch_games.supported(game):
        return None
    return _CubedBatcher(game, batch_games)


class _CubedBatcher:
    def __init__(self, game: Any, batch: Any) -> None:
        from cubegames.games.cubed.pieces import PieceKind
        from cubegames.games.cubed.state import (
            BAG_EMPTY,
            BLOCKED,
            EMPTIED,
            STALLED,
            STANDSTILL,
            STUCK,
        )

        self.batch = batch
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
        self.end_index = {code: reasons.index(name) for code, name in _endings().items()}
        #: the game's own columns (`summaries.CubedSummary`), in its order
        self.extra_columns = [
            *(column for seat in self.kind_columns for column in seat),
            "rounds",
            *self.end_columns,
            "placed",
            "bag",
        ]

    def records(self, matches: Sequence[Match]) -> list[dict[str, Any]]:
        import numpy as np

        batch = self.batch
        players = self.players
        seeds = np.array([m.seed for m in matches], dtype=np.int64)
        bot_seeds = seeds[:, None] * 1000 + np.arange(players, dtype=np.int64)
        start = time.perf_counter()
        res, finals, past_end = self.kernel.play(seeds, bot_seeds)
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
        game, bots, options = matches[0].game, list(matches[0].bots), matches[0].options
        r_moves, r_turns = batch.R_MOVES, batch.R_TURNS
        r_placed, r_bag = batch.R_PLACED, batch.R_BAG
        out = []
        for g, (match, row, ended) in enumerate(zip(matches, rows, ends, strict=True)):
            moves = row[r_moves]
            points = [row[i] for i in point_at]
            choices = [row[i] for i in choice_at]
            low = min(points)
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
                    "game": game,
                    "options": dict(options),
                    "seed": match.seed,
                    "bots": list(bots),
                    "winners": [s for s, p in enumerate(points) if p == low],
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


def _endings() -> dict[int, str]:
    from cubegames.games.cubed.kernel_bridge import ENDINGS

    return ENDINGS


def play_items(items: Sequence[tuple[int, Match]], size: int = BATCH) -> Iterator[Indexed]:
    """Play numbered matches, `(i, match)` in, `(i, record)` out, in the order given: runs
    of matches a batch kernel covers (up to `size` at a time) in one call each, the others
    by `play_match`."""
    run: list[tuple[int, Match]] = []
    runner: Any = None
    like: tuple[str, tuple[str, ...], dict[str, Any]] | None = None
    found: Any = None
    for i, match in items:
        if like != (match.game, match.bots, match.options):
            like = (match.game, match.bots, match.options)
            found = batcher(match)
        if found is not None and not 0 <= match.seed <= found.max_seed:
            found = None
            like = None
        if run and (found is not runner or len(run) >= size):
            yield from _flush(run, runner)
            run = []
        if found is None:
            yield i, play_match(match)
            continue
        runner = found
        run.append((i, match))
    if run:
        yield from _flush(run, runner)


def _flush(run: list[tuple[int, Match]], runner: Any) -> Iterator[Indexed]:
    records = runner.records([m for _, m in run])
    for (i, _), record in zip(run, records, strict=True):
        yield i, record
