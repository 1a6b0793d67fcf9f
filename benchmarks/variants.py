"""`mcts` against `greedy` in every CUBED variant and at several seat counts, with the CPU a
game costs: the rows of benchmarks/strength.md's "Variants and seat counts" table.

    .venv/bin/python benchmarks/variants.py [--games 40] [--only void]

Two players: the seats swap every game, a win scores 1 and a shared win 1/2; the interval is
the 95% Wilson interval. More seats: one `mcts` among `greedy` bots, its seat rotating game
by game; its score is set beside its fair share (1 / seats), and the ratio is what the
target (more than 1.6 times the fair share) reads. Games are played in this process, one
after another, so `time.process_time` gives the CPU seconds a game costs (both bots and the
rules); the wall clock depends on the machine's load, which is printed beside it.
"""

from __future__ import annotations

import argparse
import os
import time

from cubegames.kit.stats import wilson
from cubegames.sim import Match, run

ALL = ("bridging", "void", "draw3")
#: (label, seats, rounds, variants)
SETTINGS: list[tuple[str, int, int, tuple[str, ...]]] = [
    ("plain", 2, 1, ()),
    ("bridging", 2, 1, ("bridging",)),
    ("void", 2, 1, ("void",)),
    ("draw3", 2, 1, ("draw3",)),
    ("all three", 2, 1, ALL),
    ("3-round match, all three", 2, 3, ALL),
    ("4 seats, all three", 4, 1, ALL),
    ("6 seats, draw3", 6, 1, ("draw3",)),
]


def measure(label: str, seats: int, rounds: int, variants: tuple[str, ...], games: int) -> str:
    options = {"players": seats, "rounds": rounds, "variants": variants}
    matches = []
    for i in range(games):
        at = i % seats
        bots = tuple("mcts" if s == at else "greedy" for s in range(seats))
        matches.append(Match("cubed", bots, seed=i, options=dict(options)))
    score = 0.0
    load = os.getloadavg()[0]
    cpu = time.process_time()
    wall = time.perf_counter()
    for record in run(matches, jobs=1):
        at = record["seed"] % seats
        won = record["winners"]
        if at in won:
            score += 1 / len(won)
    cpu = (time.process_time() - cpu) / games
    wall = (time.perf_counter() - wall) / games
    low, high = wilson(score, games)
    rate = score / games
    share = f"{rate * seats:.2f}× fair share" if seats > 2 else ""
    return (
        f"| cubed, {label} ({seats} seats) | {rate:.1%} | {low:.1%} – {high:.1%} | {share} "
        f"| {games} | {cpu:.2f} s | {wall:.2f} s at load {load:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--only", help="run only settings whose label contains this text")
    args = parser.parse_args()
    print(
        "| setting | `mcts`'s score | 95% interval | against fair share | games "
        "| CPU a game | wall a game |\n|---|---|---|---|---|---|---|"
    )
    for label, seats, rounds, variants in SETTINGS:
        if args.only and args.only not in label:
            continue
        print(measure(label, seats, rounds, variants, args.games), flush=True)


if __name__ == "__main__":
    main()
