"""Speed figures for `make bench`, printed as the Markdown tables in benchmarks/README.md.

Every figure is measured in the same run as the figure it is compared with, so the ratios
hold on any machine even when the absolute numbers do not.

    .venv/bin/python benchmarks/run.py [--games N]
"""

from __future__ import annotations

import argparse
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


def cubed_row(players: int, games: int) -> str:
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
    api = rate(games, public)
    quick = rate(games, lean)
    slow = rate(max(games // 20, 3), lambda seed: lean(seed, plain=True))
    return (
        f"| {players} | {api:,.0f} games/s | {quick:,.0f} games/s | {slow:,.1f} games/s "
        f"| {quick / slow:,.0f}× | {quick / api:,.1f}× |"
    )


def cubed_table(games: int) -> str:
    rows = [
        "| players | public API (`legal_moves` + `play`) | lean fast path | plain reference "
        "| fast ÷ plain | fast ÷ API |",
        "|---|---|---|---|---|---|",
    ]
    rows += [cubed_row(players, games) for players in (2, 4)]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per fast figure")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.games} games\n")
    print("### CUBED random playouts (1 round, EN edition)\n")
    print(cubed_table(args.games))


if __name__ == "__main__":
    main()
