"""The bots' strength ladder: head-to-head win rates with 95% confidence intervals.

    .venv/bin/python benchmarks/strength.py [--games 400] [--jobs 2] [--only greedy]

Each pairing plays `--games` games with the seats swapped every game, so neither bot keeps
the first move. A win scores 1, a shared win 1/2. Writes benchmarks/strength.md.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import time
from pathlib import Path

from cubegames.sim import Match, run
from cubegames.sim.stats import wilson

OUT = Path(__file__).parent / "strength.md"

#: (game, options, bot A, bot B): A's score against B is reported
LADDER: list[tuple[str, dict[str, object], str, str]] = [
    ("cubed", {"players": 2, "rounds": 1}, "greedy", "random"),
    # 400 iterations take about 1 s a move on the 2-core development machine; a fixed count
    # (not seconds) keeps the result independent of how busy the machine is
    ("cubed", {"players": 2, "rounds": 1}, "mcts:iterations=400", "greedy"),
]


def pairing(
    game: str, options: dict[str, object], a: str, b: str, games: int, jobs: int
) -> tuple[float, int, float, float, float]:
    matches = [
        Match(game, (a, b) if i % 2 == 0 else (b, a), seed=i, options=dict(options))
        for i in range(games)
    ]
    score = 0.0
    moves = 0
    start = time.perf_counter()
    for record in run(matches, jobs=jobs, progress=True, description=f"{a} v {b}"):
        seat_a = 0 if record["seed"] % 2 == 0 else 1
        won = record["winners"]
        if seat_a in won:
            score += 1 / len(won)
        moves += record["moves"]
    low, high = wilson(score, games)
    return score / games, games, low, high, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="run only pairings whose bots contain this text")
    args = parser.parse_args()
    rows = []
    for game, options, a, b in LADDER:
        if args.only and args.only not in a + b:
            continue
        rate, n, low, high, seconds = pairing(game, options, a, b, args.games, args.jobs)
        opts = ", ".join(f"{k}={v}" for k, v in options.items())
        rows.append(
            f"| {game} ({opts}) | `{a}` | `{b}` | {rate:.1%} | {low:.1%} – {high:.1%} | {n} "
            f"| {seconds / 60:.0f} min |"
        )
        print(rows[-1], flush=True)
        write(rows, args.games, args.jobs)  # after each pairing: a long run keeps its rows
    print(f"wrote {OUT}")


def write(rows: list[str], games: int, jobs: int) -> None:
    today = datetime.date.today().isoformat()
    OUT.write_text(
        "# Strength ladder\n\n"
        "Head-to-head results, seats swapped every game; a win scores 1, a shared win 1/2.\n"
        "The interval is the 95% Wilson score interval. Regenerate with\n\n"
        f"```\n.venv/bin/python benchmarks/strength.py --games {games} --jobs {jobs}\n```\n\n"
        f"Measured {today} on the 2-core development machine, Python "
        f"{platform.python_version()}, {jobs} processes.\n\n"
        "| game | bot A | bot B | A's score | 95% interval | games | time |\n"
        "|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )


if __name__ == "__main__":
    main()
