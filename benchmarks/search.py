"""The search bot's study speed: `mcts` against `greedy` through the simulator, as a ratio
of the plain C loop's random games per second measured in the same run.

    .venv/bin/python benchmarks/search.py [--games 400] [--c-games 2000] [--jobs 2]

CUBED, 2 players, 1 round. The C loop (`benchmarks/cubed_loop.c`, built by
`benchmarks/kernel.py`'s `build_c_loop`) plays random games before and after the study; its
best rate is the yardstick. The study is `cubegames simulate cubed --bots mcts,greedy`
(seats rotated every game) with `--jobs` processes, timed by the wall clock with worker
start-up included, plus the CPU time per game summed over every process, which does not
depend on what else the machine is doing. Target of the issue: 1/300 of the C loop's
games/s. Prints the Markdown table for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from kernel import build_c_loop, c_rate
from simulate import cpu_seconds

import cubegames
from cubegames.sim import make_job, simulate


def study(games: int, jobs: int) -> tuple[float, float]:
    """(games per second, CPU seconds per game) of `mcts` against `greedy`."""
    job = make_job("cubed", ["mcts", "greedy"], players=2, options={"rounds": 1}, seed=0)
    cpu = cpu_seconds()
    start = time.perf_counter()
    outcome = simulate(job, games, jobs=jobs)
    seconds = time.perf_counter() - start
    assert outcome.played == games
    return games / seconds, (cpu_seconds() - cpu) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games of mcts v greedy")
    parser.add_argument("--c-games", type=int, default=2000, help="games per C loop run")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    game = cubegames.make("cubed", players=2, rounds=1)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        binary, _ = build_c_loop(Path(tmp))
        before = c_rate(binary, game, args.c_games)
        rate, cpu = study(args.games, args.jobs)
        after = c_rate(binary, game, args.c_games)
    c_loop = max(before, after)
    target = c_loop / 300
    print(
        f"Measured on {os.cpu_count()} CPUs (load average {load:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end), Python {platform.python_version()}; "
        f"C loop {before:,.0f} then {after:,.0f} games/s.\n\n"
        "| path | games/s | ÷ plain C loop | CPU per game | 10,000 games |\n"
        "|---|---|---|---|---|\n"
        f"| plain C loop (random games) | {c_loop:,.0f} | 1 | — | — |\n"
        f"| target: 1/300 of the C loop | {target:,.1f} | 1/300 | — "
        f"| {10_000 / target / 60:,.0f} min |\n"
        f"| `simulate --bots mcts,greedy --jobs {args.jobs}`, {args.games:,} games "
        f"| {rate:,.2f} | 1/{c_loop / rate:,.0f} | {cpu * 1000:,.0f} ms "
        f"| {10_000 / rate / 60:,.0f} min |"
    )


if __name__ == "__main__":
    main()
