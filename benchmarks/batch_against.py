"""`simulate --jobs 1` of random CUBED games: this tree against another tree of the project.

    git archive 81da904 | tar -x -C /tmp/old        # the tree to compare with
    .venv/bin/python benchmarks/batch_against.py /tmp/old [--games 4000] [--rounds 5]

Two players, one round, EN edition, every seat `random`: the batch kernel's path
(`games/cubed/batch_games.py`, `sim/batch.py`), records, summaries and `final` digests
included. Each tree runs in a fresh process of this virtual environment (the other tree's
`src` first on `PYTHONPATH`), warmed by a small run first (numba loads its cache, or
compiles once for a tree it has not seen), then `--games` games are timed; the two trees
alternate `--rounds` times and the best of each is kept. Besides the wall-clock rate it
prints games per CPU second of the process, which a shared machine's load disturbs less.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

RUN = """
import sys, time
from cubegames.sim import make_job, simulate
n = int(sys.argv[1])
job = make_job("cubed", ["random"], players=2, options={"rounds": 1}, seed=0)
simulate(job, 50, jobs=1)
start, cpu = time.perf_counter(), time.process_time()
assert simulate(job, n, jobs=1).played == n
print(n / (time.perf_counter() - start), n / (time.process_time() - cpu))
"""


def rates(src: Path, games: int) -> tuple[float, float]:
    """(games per second, games per CPU second) of the tree whose `src` is given."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", RUN, str(games)], env=env, check=True, capture_output=True
    )
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other tree (holding src/cubegames)")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    trees = {"this tree": HERE.parent / "src", "other tree": args.other / "src"}
    best = {name: (0.0, 0.0) for name in trees}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for name, src in trees.items():
            wall, cpu = rates(src, args.games)
            best[name] = (max(best[name][0], wall), max(best[name][1], cpu))
    print(f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    print("| tree | games/s | games per CPU second |\n|---|---|---|")
    for name, (wall, cpu) in best.items():
        print(f"| {name} | {wall:,.0f} | {cpu:,.0f} |")
    (mine_wall, mine_cpu), (other_wall, other_cpu) = best.values()
    print(f"\nthis ÷ other: {mine_wall / other_wall:.2f}× wall, {mine_cpu / other_cpu:.2f}× CPU")


if __name__ == "__main__":
    main()
