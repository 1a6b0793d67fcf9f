"""The skill trace of a game (after Ludii's `SkillTrace`): does more thinking keep winning?

`mcts` at budget 2k iterations plays `mcts` at k, for k = 2, 4, 8, ... (`steps` steps),
`games` games a step on the same seeds, each seed twice with the seats swapped
(`Job.mirrored`: a seat's luck on a seed falls to both bots, not to the one sitting first
on it). Each step gives the stronger bot's win rate with its 95% Wilson interval. A game
whose stronger side keeps winning as both think more rewards skill; one where the rate
falls to a fair share soon is decided by luck or by a little thinking.

The score is Ludii's: y, the least-squares prediction of the win rate at the step after the
last (clipped to 0–1), plus (1 − y) times the *mean* of the squared win rates. Ludii adds
the squares without dividing by the number of steps, so its score can pass 1, and predicts
at step n + 1 of steps 0 to n − 1, one step further than the next.

>>> score([0.9, 0.8, 0.7, 0.6])  # next step predicted at 0.5; mean square 0.575
0.7875
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cubegames.sim.analysis import Rate


@dataclass(frozen=True)
class Step:
    """One step: the stronger bot's budget and its results against half of it."""

    budget: int
    rate: Rate


def score(rates: Sequence[float]) -> float:
    """Ludii's skill-trace score from each step's win rate of the stronger bot, with the
    area term a mean (see the module's docstring)."""
    n = len(rates)
    if n == 0:
        return math.nan
    if n == 1:
        predicted = rates[0]
    else:
        mean_x = (n - 1) / 2
        mean_y = math.fsum(rates) / n
        num = math.fsum((i - mean_x) * (r - mean_y) for i, r in enumerate(rates))
        den = math.fsum((i - mean_x) ** 2 for i in range(n))
        slope = num / den
        predicted = mean_y + slope * (n - mean_x)
    y = min(1.0, max(0.0, predicted))
    area = math.fsum(max(r, 0.0) ** 2 for r in rates) / n
    return y + (1 - y) * area


def skill_trace(
    game: str,
    *,
    options: Mapping[str, Any] | None = None,
    steps: int = 4,
    games: int = 20,
    start: int = 2,
    seed: int = 0,
    runner: Any = None,
    progress: bool = False,
) -> list[Step]:
    """Play the steps (see the module's docstring); two-player games for games that take a
    number of players."""
    from cubegames.core.registry import game_class
    from cubegames.sim.job import make_job
    from cubegames.sim.runner import Runner
    from cubegames.sim.simulate import play_rows

    players = 2 if "players" in game_class(game).option_names else None
    jobs = []
    for i in range(steps):
        k = start * 2**i
        strong, weak = f"mcts:iterations={2 * k}", f"mcts:iterations={k}"
        jobs.append(make_job(game, [strong, weak], players=players, options=options, seed=seed))
    own = runner is None
    runner = runner or Runner()
    try:
        rows = play_rows(
            [(job, job.mirrored(i)) for job in jobs for i in range(games)],
            None,
            runner,
            progress=progress,
            description=f"{game}: skill trace",
        )
    finally:
        if own:
            runner.close()
    out = []
    for job in jobs:
        strong = job.lineup[0]
        mine = [r for r in rows if r["job"] == job.id]
        wins = math.fsum(
            float(r[f"win_{s}"])
            for r in mine
            for s in range(job.players)
            if r[f"bot_{s}"] == strong
        )
        out.append(Step(int(strong.split("=")[1]), Rate(strong, wins, len(mine))))
    return out
