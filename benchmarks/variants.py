"""`mcts` against `greedy` in every CUBED variant and at several seat counts, and in
Unstackable and STAKD (2 to 8 seats), with the CPU a game costs: the rows of
benchmarks/strength.md's "Variants and seat counts" tables.

    .venv/bin/python benchmarks/variants.py [--games 40] [--only void] [--only stakd]

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
#: (game, label, options); `--only` matches "game, label"
SETTINGS: list[tuple[str, str, dict[str, object]]] = [
    ("cubed", "plain", {"players": 2, "rounds": 1, "variants": ()}),
    ("cubed", "bridging", {"players": 2, "rounds": 1, "variants": ("bridging",)}),
    ("cubed", "void", {"players": 2, "rounds": 1, "variants": ("void",)}),
    ("cubed", "draw3", {"players": 2, "rounds": 1, "variants": ("draw3",)}),
    ("cubed", "all three", {"players": 2, "rounds": 1, "variants": ALL}),
    ("cubed", "3-round match, all three", {"players": 2, "rounds": 3, "variants": ALL}),
    ("cubed", "4 seats, all three", {"players": 4, "rounds": 1, "variants": ALL}),
    ("cubed", "6 seats, draw3", {"players": 6, "rounds": 1, "variants": ("draw3",)}),
    # every seat count the editions allow (English 2 to 6, Japanese 2 to 11), plain and with
    # all three variants
    ("cubed", "3 seats, plain", {"players": 3, "rounds": 1, "variants": ()}),
    ("cubed", "3 seats, all three", {"players": 3, "rounds": 1, "variants": ALL}),
    ("cubed", "4 seats, plain", {"players": 4, "rounds": 1, "variants": ()}),
    ("cubed", "5 seats, plain", {"players": 5, "rounds": 1, "variants": ()}),
    ("cubed", "5 seats, all three", {"players": 5, "rounds": 1, "variants": ALL}),
    ("cubed", "6 seats, plain", {"players": 6, "rounds": 1, "variants": ()}),
    ("cubed", "6 seats, all three", {"players": 6, "rounds": 1, "variants": ALL}),
    ("cubed", "7 seats, ja, plain", {"players": 7, "rounds": 1, "edition": "ja", "variants": ()}),
    (
        "cubed",
        "7 seats, ja, all three",
        {"players": 7, "rounds": 1, "edition": "ja", "variants": ALL},
    ),
    ("cubed", "8 seats, ja, plain", {"players": 8, "rounds": 1, "edition": "ja", "variants": ()}),
    (
        "cubed",
        "8 seats, ja, all three",
        {"players": 8, "rounds": 1, "edition": "ja", "variants": ALL},
    ),
    ("cubed", "9 seats, ja, plain", {"players": 9, "rounds": 1, "edition": "ja", "variants": ()}),
    (
        "cubed",
        "9 seats, ja, all three",
        {"players": 9, "rounds": 1, "edition": "ja", "variants": ALL},
    ),
    (
        "cubed",
        "10 seats, ja, plain",
        {"players": 10, "rounds": 1, "edition": "ja", "variants": ()},
    ),
    (
        "cubed",
        "10 seats, ja, all three",
        {"players": 10, "rounds": 1, "edition": "ja", "variants": ALL},
    ),
    (
        "cubed",
        "11 seats, ja, plain",
        {"players": 11, "rounds": 1, "edition": "ja", "variants": ()},
    ),
    (
        "cubed",
        "11 seats, ja, all three",
        {"players": 11, "rounds": 1, "edition": "ja", "variants": ALL},
    ),
    ("unstackable", "plain", {}),
    ("unstackable", "loose counts", {"exact_counts": False}),
    ("stakd", "match to 3", {"players": 2}),
    ("stakd", "3 seats", {"players": 3}),
    ("stakd", "4 seats", {"players": 4}),
    ("stakd", "5 seats", {"players": 5}),
    ("stakd", "8 seats, match to 2", {"players": 8, "points_to_win": 2}),
]


def measure(game: str, label: str, options: dict[str, object], games: int) -> str:
    seats = int(str(options.get("players", 2)))
    matches = []
    for i in range(games):
        at = i % seats
        bots = tuple("mcts" if s == at else "greedy" for s in range(seats))
        matches.append(Match(game, bots, seed=i, options=dict(options)))
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
        f"| {game}, {label} ({seats} seats) | {rate:.1%} | {low:.1%} – {high:.1%} | {share} "
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
    for game, label, options in SETTINGS:
        if args.only and args.only not in f"{game}, {label}":
            continue
        print(measure(game, label, options, args.games), flush=True)


if __name__ == "__main__":
    main()
