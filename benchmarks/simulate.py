"""Simulator speed: games per second with 1 and 2 processes, and the scaling between them.

    .venv/bin/python benchmarks/simulate.py [--random-games 20000] [--greedy-games 200]

CUBED, 2 players, 1 round, every seat the same bot (random, then greedy). Each rate is the
wall-clock time of `cubegames.sim.simulate` for the whole run, start-up of the worker
processes included, so it is what `cubegames simulate -n N --jobs J` costs (without the
writing of results, a small share). Beside it, the CPU time per game summed over every
process: if it stays the same from 1 to 2 jobs, the parallel run wastes nothing, and on two
idle cores the scaling is then close to 2×. The wall-clock figures need an otherwise idle
machine; the CPU figures do not. Prints the Markdown table for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time

from cubegames.sim import make_job, simulate


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children, user and system."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def measure(bot: str, games: int, jobs: int) -> tuple[float, float]:
    """(games per second, CPU milliseconds per game) for `games` games of `bot` against
    itself with `jobs` processes."""
    job = make_job("cubed", [bot], players=2, options={"rounds": 1}, seed=0)
    cpu = cpu_seconds()
    start = time.perf_counter()
    outcome = simulate(job, games, jobs=jobs)
    seconds = time.perf_counter() - start
    assert outcome.played == games
    return games / seconds, (cpu_seconds() - cpu) * 1000 / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=20000)
    parser.add_argument("--greedy-games", type=int, default=200)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = []
    for bot, games in (("random", args.random_games), ("greedy", args.greedy_games)):
        one, cpu_one = measure(bot, games, 1)
        two, cpu_two = measure(bot, games, 2)
        rows.append(
            f"| `{bot}` in both seats | {games:,} | {one:,.1f} games/s | {two:,.1f} games/s "
            f"| {two / one:.2f}× | {cpu_one:,.1f} ms | {cpu_two:,.1f} ms |"
        )
        print(rows[-1], flush=True)
    print(
        f"\nMeasured on {os.cpu_count()} CPUs (load average {load:.1f} at the start), "
        f"Python {platform.python_version()} ({platform.machine()}); CUBED, 2 players, "
        "1 round.\n\n"
        "| bots | games | 1 job | 2 jobs | scaling 1 → 2 | CPU per game, 1 job "
        "| CPU per game, 2 jobs |\n|---|---|---|---|---|---|---|\n" + "\n".join(rows)
    )


if __name__ == "__main__":
    main()
