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

Solo (one seat, no opponent): `mcts` and `greedy` each play the same deals alone (deal i is
seed i); each one's win rate with its Wilson interval, and the paired comparison: the deals
only `mcts` won against those only `greedy` won, with the exact two-sided sign test on them
(McNemar's test). `--only solo` runs these rows alone.

CUBES (2 to 10 seats) has no rows: every move is a roll, there is no decision to make, so no
bot can beat another and the target does not apply (its bots all rate alike in
benchmarks/strength.md's ratings).
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from scipy.stats import binomtest

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
    # the Japanese edition with two seats (its own box: other piece counts and colours)
    ("cubed", "ja, plain", {"players": 2, "rounds": 1, "edition": "ja", "variants": ()}),
    (
        "cubed",
        "ja, bridging",
        {"players": 2, "rounds": 1, "edition": "ja", "variants": ("bridging",)},
    ),
    ("cubed", "ja, void", {"players": 2, "rounds": 1, "edition": "ja", "variants": ("void",)}),
    (
        "cubed",
        "ja, draw3",
        {"players": 2, "rounds": 1, "edition": "ja", "variants": ("draw3",)},
    ),
    ("cubed", "ja, all three", {"players": 2, "rounds": 1, "edition": "ja", "variants": ALL}),
    # STAKD's rules play a match to 3 points at every seat count (shared/rules/stakd.md)
    ("stakd", "6 seats", {"players": 6}),
    ("stakd", "7 seats", {"players": 7}),
]

#: solo settings (game, label, options): `mcts` and `greedy` each play the same deals alone
SOLO: list[tuple[str, str, dict[str, object]]] = [
    ("cubed", "solo", {"players": 1}),
    ("cubed", "solo, ja", {"players": 1, "edition": "ja"}),
    ("stakd", "solo", {"players": 1}),
]


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(
    game: str, label: str, options: dict[str, object], games: int, jobs: int = 1, first: int = 0
) -> str:
    """One row: `games` games from seed `first` on, `mcts` in seat `seed % seats`, played by
    `jobs` processes (CPU a game counts theirs too)."""
    seats = int(str(options.get("players", 2)))
    matches = []
    for i in range(first, first + games):
        at = i % seats
        bots = tuple("mcts" if s == at else "greedy" for s in range(seats))
        matches.append(Match(game, bots, seed=i, options=dict(options)))
    score = 0.0
    load = os.getloadavg()[0]
    cpu = _cpu()
    wall = time.perf_counter()
    for record in run(matches, jobs=jobs):
        at = record["seed"] % seats
        won = record["winners"]
        if at in won:
            score += 1 / len(won)
    cpu = (_cpu() - cpu) / games
    wall = (time.perf_counter() - wall) / games
    low, high = wilson(score, games)
    rate = score / games
    share = f"{rate * seats:.2f}× fair share" if seats > 2 else ""
    return (
        f"| {game}, {label} ({seats} seats) | {rate:.1%} | {low:.1%} – {high:.1%} | {share} "
        f"| {games} | {cpu:.2f} s | {wall:.2f} s at load {load:.1f} |"
    )


def _solo_wins(game: str, bot: str, options: dict[str, object], games: int) -> list[bool]:
    """Whether `bot` won each of the solo deals 0 to games - 1 (deal i is seed i)."""
    matches = [Match(game, (bot,), seed=i, options=dict(options)) for i in range(games)]
    return [record["winners"] == [0] for record in run(matches, jobs=1)]


def measure_solo(game: str, label: str, options: dict[str, object], games: int) -> str:
    """`mcts` and `greedy` each alone on the same deals: each one's win rate (Wilson
    interval) and the paired comparison, the deals only one of them won and the exact
    two-sided sign test (McNemar's) on those."""
    load = os.getloadavg()[0]
    won: dict[str, list[bool]] = {}
    cpu: dict[str, float] = {}
    wall: dict[str, float] = {}
    for bot in ("mcts", "greedy"):
        started, clock = time.process_time(), time.perf_counter()
        won[bot] = _solo_wins(game, bot, options, games)
        cpu[bot] = (time.process_time() - started) / games
        wall[bot] = (time.perf_counter() - clock) / games
    cells = []
    for bot in ("mcts", "greedy"):
        wins = sum(won[bot])
        low, high = wilson(wins, games)
        cells.append(f"{wins / games:.1%} | {low:.1%} – {high:.1%}")
    only_mcts = sum(m and not g for m, g in zip(won["mcts"], won["greedy"], strict=True))
    only_greedy = sum(g and not m for m, g in zip(won["mcts"], won["greedy"], strict=True))
    split = only_mcts + only_greedy
    p = binomtest(only_mcts, split, 0.5).pvalue if split else 1.0
    return (
        f"| {game}, {label} | {cells[0]} | {cells[1]} | {only_mcts} / {only_greedy} | {p:.2g} "
        f"| {games} | {cpu['mcts']:.2f} s / {cpu['greedy']:.2f} s "
        f"| {wall['mcts']:.2f} s / {wall['greedy']:.2f} s at load {load:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--only", help="run only settings whose label contains this text")
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes playing the rows' games (not solo)"
    )
    parser.add_argument(
        "--first-seed", type=int, default=0, help="seed of a row's first game (then +1 a game)"
    )
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1 or args.first_seed < 0:
        parser.error("--games and --jobs must be at least 1, --first-seed at least 0")
    chosen = [s for s in SETTINGS if not args.only or args.only in f"{s[0]}, {s[1]}"]
    solo = [s for s in SOLO if not args.only or args.only in f"{s[0]}, {s[1]}"]
    if chosen:
        print(
            "| setting | `mcts`'s score | 95% interval | against fair share | games "
            "| CPU a game | wall a game |\n|---|---|---|---|---|---|---|"
        )
    for game, label, options in chosen:
        print(measure(game, label, options, args.games, args.jobs, args.first_seed), flush=True)
    if solo:
        if chosen:
            print()
        print(
            "| solo setting | `mcts` wins | 95% interval | `greedy` wins | 95% interval "
            "| deals only `mcts` / only `greedy` won | sign test p | deals "
            "| CPU a game (`mcts` / `greedy`) | wall a game |\n"
            "|---|---|---|---|---|---|---|---|---|---|"
        )
    for game, label, options in solo:
        print(measure_solo(game, label, options, args.games), flush=True)


if __name__ == "__main__":
    main()
