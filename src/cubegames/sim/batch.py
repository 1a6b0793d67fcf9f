"""Matches of random bots played many at a time in a game's compiled kernel.

`play_match` plays one game at a time; for a match whose every seat is the random bot it
already lets the game's kernel play the moves (`Game.random_playout`), but the deal, the
reading back of the final position, its summary columns and the digest of its symmetric
image then cost Python several times the game itself. Where a game's `lab` part has a
batch player (`cubegames.kit.lab.Batches`; CUBED's, `cubegames.games.cubed.batch_records`),
`play_items` hands it a whole run of such matches at once and it returns their records:
the very records `play_match` gives (`tests/sim/test_fast.py` checks it), except the timing
(`seconds`, `think`), which is the batch's time shared among its games by their moves.

Every other match goes to `play_match`, one by one, in the order given.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

import cubegames
from cubegames.bots.random import RandomBot
from cubegames.kit import lab
from cubegames.sim.play import Match, play_match

Indexed = tuple[int, dict[str, Any]]

#: games handed to the kernel in one call
BATCH = 256

_BATCHERS: dict[tuple[str, str, tuple[str, ...]], lab.Batcher | None] = {}


def batcher(match: Match) -> lab.Batcher | None:
    """The batch player for matches like `match` (same game, options and bots), or None
    when they have to be played one by one."""
    key = (match.game, json.dumps(match.options, sort_keys=True), match.bots)
    if key not in _BATCHERS:
        _BATCHERS[key] = _make_batcher(match)
    return _BATCHERS[key]


def _make_batcher(match: Match) -> lab.Batcher | None:
    game = cubegames.make(match.game, **match.options)
    if len(match.bots) != game.players:
        return None
    if not all(type(cubegames.bot(b, seed=0, game=match.game)) is RandomBot for b in match.bots):
        return None
    return lab.batcher(game)


def play_items(items: Iterable[tuple[int, Match]], size: int = BATCH) -> Iterator[Indexed]:
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


def _flush(run: list[tuple[int, Match]], runner: lab.Batcher) -> Iterator[Indexed]:
    first = run[0][1]
    records = runner.records([m.seed for _, m in run])
    for (i, match), record in zip(run, records, strict=True):
        yield (
            i,
            {
                "game": first.game,
                "options": dict(first.options),
                "seed": match.seed,
                "bots": list(first.bots),
                **{k: v for k, v in record.items() if k != "seed"},
            },
        )
