"""CUBED solo: random games played by the kernel against the random bot through the rules.

    .venv/bin/python benchmarks/solo_random.py [--games 2000] [--rounds 3] [--edition en]

`cubegames simulate cubed --bots random --players 1 --jobs 1` without its start-up and the
writing of results, run two ways in this process: as it runs (Python deals, the compiled
kernel plays the moves, `kernel_bridge.random_playout`, then Python reads back, summarises
and digests the game) and with the compiled path switched off (the random bot choosing
every move through `legal_moves()`, as solo games ran before). The games are the same
(the seeds are), and the script checks that both ways made the same records. Each way runs
`--rounds` times, interleaved, and its best rate is kept, so a busy machine hurts both alike.
"""

from __future__ import annotations

import argparse
from typing import Any

from kernel import simulated


def rate(games: int, edition: str, compiled: bool) -> tuple[float, list[Any]]:
    """Games a second of a solo `simulate` of random games, the kernel playing the moves
    (`compiled`) or the random bot through the rules, and its records' outcomes."""
    found, rows = simulated(
        games, "single" if compiled else "python", players=1, options={"edition": edition}
    )
    return found, [(r["winners"], r["moves"], r["final"]) for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games a measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements a way")
    parser.add_argument("--edition", choices=("en", "ja"), default="en")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    rate(10, args.edition, True)  # numba's cache loaded outside the timings
    best = {True: 0.0, False: 0.0}
    outcomes: dict[bool, list[Any]] = {}
    for _ in range(args.rounds):
        for compiled in (True, False):
            found, outcomes[compiled] = rate(args.games, args.edition, compiled)
            best[compiled] = max(best[compiled], found)
    assert outcomes[True] == outcomes[False], "the two ways played different games"
    print(f"solo CUBED ({args.edition}), {args.games} random games, best of {args.rounds}:")
    print(f"  kernel plays the moves: {best[True]:8.0f} games/s")
    print(f"  Python random bot     : {best[False]:8.0f} games/s")
    print(f"  ratio                 : {best[True] / best[False]:8.2f}x")


if __name__ == "__main__":
    main()
