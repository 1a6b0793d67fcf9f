"""CUBED solo: random games played by the kernel against the random bot through the rules.

    .venv/bin/python benchmarks/solo_random.py [--games 2000] [--rounds 3] [--edition en]

`cubegames simulate cubed --bots random --players 1 --jobs 1` without its start-up and the
writing of results, run three ways in this process: as it runs (the batch kernel deals,
plays, describes and digests 256 games a call, `batch_games.play_games`), one game at a
time in the kernel (Python deals, the kernel plays the moves, `kernel_bridge.random_playout`,
then Python reads back, summarises and digests the game), and with the compiled paths
switched off (the random bot choosing every move through `legal_moves()`). The games are
the same (the seeds are), and the script checks that the three ways made the same records.
Each way runs `--rounds` times, interleaved, and its best rate is kept, so a busy machine
hurts them alike.
"""

from __future__ import annotations

import argparse
from typing import Any

from kernel import simulated

#: the ways, as `kernel.simulated` names them, and how the report names them
WAYS = {
    "batch": "batch kernel, 256 games a call",
    "single": "kernel plays one game's moves",
    "python": "Python random bot",
}


def rate(games: int, edition: str, how: str) -> tuple[float, list[Any]]:
    """Games a second of a solo `simulate` of random games played `how` (`WAYS`), and its
    records' outcomes."""
    found, rows = simulated(games, how, players=1, options={"edition": edition})
    timing = ("seconds", "think_0")
    return found, [{k: v for k, v in r.items() if k not in timing} for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games a measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements a way")
    parser.add_argument("--edition", choices=("en", "ja"), default="en")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    for how in ("batch", "single"):
        rate(10, args.edition, how)  # numba's cache loaded outside the timings
    best = dict.fromkeys(WAYS, 0.0)
    outcomes: dict[str, list[Any]] = {}
    for _ in range(args.rounds):
        for how in WAYS:
            found, outcomes[how] = rate(args.games, args.edition, how)
            best[how] = max(best[how], found)
    assert outcomes["batch"] == outcomes["single"] == outcomes["python"], (
        "the ways played different games"
    )
    print(f"solo CUBED ({args.edition}), {args.games} random games, best of {args.rounds}:")
    for how, name in WAYS.items():
        print(f"  {name:30}: {best[how]:8.0f} games/s")
    plain = best["python"]
    print(f"  ratio, batch / Python         : {best['batch'] / plain:8.2f}x")
    print(f"  ratio, one game / Python      : {best['single'] / plain:8.2f}x")
    print(f"  ratio, batch / one game       : {best['batch'] / best['single']:8.2f}x")


if __name__ == "__main__":
    main()
