"""Speed figures for `make bench`, printed as the Markdown tables in benchmarks/README.md.

Every figure is measured in the same run as the figure it is compared with, so the ratios
hold on any machine even when the absolute numbers do not.

    .venv/bin/python benchmarks/run.py [--games N] [--rounds R]

The three paths are timed in turn, `R` rounds of them, and each keeps its best round: on a
shared machine a burst of someone else's work then lowers one round, not one path.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable

import cubegames
from cubegames.games.cubed import CubedState
from cubegames.games.cubed.lean_playout import playout


def rate(games: int, one: Callable[[int], object]) -> float:
    """Games per second over `games` seeded games (seeds 0..games-1)."""
    start = time.perf_counter()
    for seed in range(games):
        one(seed)
    return games / (time.perf_counter() - start)


def cubed_row(players: int, games: int, rounds: int) -> str:
    game = cubegames.make("cubed", players=players, rounds=1)

    def public(seed: int) -> None:
        state = game.new_state(seed=seed)
        bot = cubegames.bot("random", seed=seed)
        while not state.is_over:
            state.play(bot.choose(state))

    def lean(seed: int, plain: bool = False) -> CubedState:
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        return playout(state, random.Random(seed), plain=plain)

    # the two paths must play the very same games, or the comparison means nothing
    for seed in range(3):
        assert lean(seed).to_dict() == lean(seed, plain=True).to_dict()
    api = quick = slow = 0.0
    for _ in range(rounds):
        api = max(api, rate(games, public))
        quick = max(quick, rate(games, lean))
        slow = max(slow, rate(max(games // 20, 3), lambda seed: lean(seed, plain=True)))
    return (
        f"| {players} | {api:,.0f} games/s | {quick:,.0f} games/s | {slow:,.1f} games/s "
        f"| {quick / slow:,.0f}× | {quick / api:,.1f}× |"
    )


def cubed_table(games: int, rounds: int) -> str:
    rows = [
        "| players | public API (`legal_moves` + `play`) | lean fast path | plain reference "
        "| fast ÷ plain | fast ÷ API |",
        "|---|---|---|---|---|---|",
    ]
    rows += [cubed_row(players, games, rounds) for players in (2, 4)]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per fast figure")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds, best kept")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.games} games, "
        f"best of {args.rounds} interleaved rounds\n"
    )
    print("### CUBED random playouts (1 round, EN edition)\n")
    print(cubed_table(args.games, args.rounds))
    print(f"\nLoad average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end.")


if __name__ == "__main__":
    main()
