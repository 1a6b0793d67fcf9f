"""Simulator speed: games per second with 1 and 2 processes, and the scaling between them.

    .venv/bin/python benchmarks/simulate.py [--random-games 2000] [--greedy-games 200]

CUBED, 2 players, 1 round, every seat the same bot (random, then greedy). Each figure is the
wall-clock time of `cubegames.sim.simulate` for the whole run, start-up of the worker
processes included, so it is what `cubegames simulate -n N --jobs J` costs (without the
writing of results, which is a small share). Prints the Markdown table for
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from cubegames.sim import make_job, simulate


def rate(bot: str, games: int, jobs: int) -> float:
    """Games per second for `games` games of `bot` against itself with `jobs` processes."""
    job = make_job("cubed", [bot], players=2, options={"rounds": 1}, seed=0)
    start = time.perf_counter()
    outcome = simulate(job, games, jobs=jobs)
    seconds = time.perf_counter() - start
    assert outcome.played == games
    return games / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=2000)
    parser.add_argument("--greedy-games", type=int, default=200)
    args = parser.parse_args()
    rows = []
    for bot, games in (("random", args.random_games), ("greedy", args.greedy_games)):
        one = rate(bot, games, 1)
        two = rate(bot, games, 2)
        rows.append(
            f"| `{bot}` in both seats | {games:,} | {one:,.1f} games/s | {two:,.1f} games/s "
            f"| {two / one:.2f}× |"
        )
        print(rows[-1], flush=True)
    print(
        f"\nMeasured on {os.cpu_count()} CPUs, Python {platform.python_version()} "
        f"({platform.machine()}); CUBED, 2 players, 1 round.\n\n"
        "| bots | games | 1 job | 2 jobs | scaling 1 → 2 |\n|---|---|---|---|---|\n"
        + "\n".join(rows)
    )


if __name__ == "__main__":
    main()
