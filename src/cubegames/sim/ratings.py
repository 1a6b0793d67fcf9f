"""Bot ratings on one scale per game: a round robin of two-player games between every pair
of bots, rated with OpenSkill's Plackett-Luce model (multiplayer-aware; a two-player game is
its simplest case).

Every pair of bots plays `games` games, all pairs on the same seeds, each seed twice with
the seats swapped (games 2k and 2k + 1 both deal seed `seed + k`, each bot sitting first in
one; an odd `games` plays its last seed once). A seat's luck on a seed (the deal, the dice)
is then had by both bots alike: were each seed played once, seats rotating, the same seeds
would favour the bot listed first in every pair the same way and the ratings would follow
the list (in CUBES, where no bot decides anything, by 40% to 60% win rates over 50 games a
pair). The games are then rated one after another in a fixed order (by seed, then pair,
then seating), a win ranking the winner first and a shared win ranking both equal. A bot's
rating is its mean skill `mu` with the model's uncertainty `sigma`; the 95% interval is
mu ± 1.96 sigma. Ratings from few games are wide: read the intervals.

>>> rated = rate([("a", "b", [0]), ("a", "b", [0]), ("b", "a", [1])])
>>> [r.bot for r in rated], [r.games for r in rated]
(['a', 'b'], [3, 3])
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: the built-in bots at their defaults, and mcts at a few budgets, per game
DEFAULT_BOTS = ["random", "greedy", "mcts", "mcts:iterations=30", "mcts:iterations=100"]
Z95 = 1.959963984540054


def default_bots(game: str) -> list[str]:
    """The bots rated for `game` when none are named: every bot that plays it at its
    defaults (the game's own ones too: alphabeta, the learned policies), and mcts at 30 and
    100 iterations."""
    from cubegames.bots import bot_classes

    extra = [
        spec
        for cls in bot_classes().values()
        for spec, games in cls.presets()
        if games is not None and game in games
    ]
    return DEFAULT_BOTS + extra


@dataclass(frozen=True)
class Rated:
    """One bot's rating."""

    bot: str
    mu: float
    sigma: float
    games: int
    wins: float

    @property
    def low(self) -> float:
        """The lower end of the 95% interval."""
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        """The upper end of the 95% interval."""
        return self.mu + Z95 * self.sigma


def rate(results: Sequence[tuple[str, str, Sequence[int]]]) -> list[Rated]:
    """Ratings from `(bot in seat 0, bot in seat 1, winning seats)` in the order given,
    best first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    for first, second, winners in results:
        for bot in (first, second):
            if bot not in ratings:
                ratings[bot] = model.rating(name=bot)
                games[bot], wins[bot] = 0, 0.0
        ranks = [0.0 if s in winners else 1.0 for s in (0, 1)]
        if not winners:
            ranks = [0.0, 0.0]
        [[a], [b]] = model.rate([[ratings[first]], [ratings[second]]], ranks=ranks)
        ratings[first], ratings[second] = a, b
        for seat, bot in enumerate((first, second)):
            games[bot] += 1
            if seat in winners:
                wins[bot] += 1 / len(winners)
    out = [
        Rated(bot, float(r.mu), float(r.sigma), games[bot], wins[bot]) for bot, r in ratings.items()
    ]
    return sorted(out, key=lambda r: -r.mu)


def round_robin(
    game: str,
    bots: Sequence[str],
    *,
    games: int = 20,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    runner: Any = None,
    progress: bool = False,
) -> list[Rated]:
    """Play `games` two-player games between every pair of `bots` (the same seeds for every
    pair, each seed with both seatings) and rate them (`rate`)."""
    from cubegames.core.registry import game_class
    from cubegames.sim.job import make_job
    from cubegames.sim.runner import Runner
    from cubegames.sim.simulate import play_rows

    if len(set(bots)) < 2:
        raise ValueError("give two or more different bots to rate")
    players = 2 if "players" in game_class(game).option_names else None
    pairs = list(itertools.combinations(dict.fromkeys(bots), 2))
    jobs = [
        make_job(game, list(pair), players=players, options=options, seed=seed) for pair in pairs
    ]
    own = runner is None
    runner = runner or Runner()
    rows: list[dict[str, Any]] = []
    try:
        rows = play_rows(
            [(job, job.mirrored(i)) for job in jobs for i in range(games)],
            None,
            runner,
            progress=progress,
            description=f"{game}: {len(pairs)} pairs",
        )
    finally:
        if own:
            runner.close()
    order = {job.id: k for k, job in enumerate(jobs)}
    first = {job.id: job.lineup[0] for job in jobs}
    rows.sort(key=lambda r: (int(r["seed"]), order[r["job"]], r["bot_0"] != first[r["job"]]))
    results = [
        (str(r["bot_0"]), str(r["bot_1"]), [int(w) for w in str(r["winners"]).split()])
        for r in rows
    ]
    return rate(results)
