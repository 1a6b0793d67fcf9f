"""The search bot's study speed: `mcts` against `greedy` through the simulator, as ratios
of the C loops' random games per second measured in the same run.

    .venv/bin/python benchmarks/search.py [--games 400] [--c-games 2000] [--jobs 2] [--bot mcts]
        [--variants bridging,void,draw3] [--rounds 1] [--game cubed|unstackable|stakd]

CUBED, 2 players, 1 round unless `--rounds` says more, with the `--variants` given. The C
loops of `benchmarks/kernel.py` (built by its `build_c_loop`: the plain whole-board loop
`cubed_plain.c`, issue 14's yardstick, and the tuned loop `cubed_loop.c`) play plain random
games before and after the study, the same yardstick whatever the study plays; each one's
best rate is its figure. The study is `cubegames simulate cubed --bots mcts,greedy` (seats
rotated every game) with `--jobs` processes, timed by the wall clock with worker start-up
included, plus the CPU time per game summed over every process, which does not depend on
what else the machine is doing. Target of the issue: 1/300 of the C loop's games/s, "about
3 games/s" on this kind of machine (see benchmarks/README.md on which loop that is).
Prints the Markdown table for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from kernel import build_c_loop, c_run
from simulate import cpu_seconds

import cubegames
from cubegames.sim import make_job, simulate


def study(
    bot: str, games: int, jobs: int, options: dict[str, object], game: str = "cubed"
) -> tuple[float, float]:
    """(games per second, CPU seconds per game) of `bot` against `greedy` in `game`."""
    job = make_job(game, [bot, "greedy"], players=2, options=options, seed=0)
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
    parser.add_argument("--bot", default="mcts", help="the search bot, e.g. mcts:iterations=200")
    parser.add_argument("--variants", default="", help="CUBED variants, e.g. bridging,draw3")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--game",
        default="cubed",
        choices=("cubed", "unstackable", "stakd"),
        help="the study's game (2 players; the C loops stay CUBED's, the yardstick)",
    )
    args = parser.parse_args()
    variants = tuple(v for v in args.variants.split(",") if v)
    options: dict[str, object] = {"rounds": args.rounds, "variants": variants}
    if args.game != "cubed":
        if variants or args.rounds != 1:
            parser.error("--variants and --rounds are CUBED's")
        options = {}
    cubegames.make(args.game, players=2, **options)  # bad options: refused before the run
    game = cubegames.make("cubed", players=2, rounds=1)
    load = os.getloadavg()[0]
    loops = {
        "plain C loop (`cubed_plain.c`)": "cubed_plain",
        "tuned C loop (`cubed_loop.c`)": "cubed_loop",
    }
    rates: dict[str, list[float]] = {name: [] for name in loops}
    with tempfile.TemporaryDirectory() as tmp:
        binaries = {name: build_c_loop(Path(tmp), source)[0] for name, source in loops.items()}

        def c_loops() -> None:
            for name, binary in binaries.items():
                # the whole-board loop is some 50 times slower: a tenth of the games
                games = args.c_games // 10 if "plain" in name else args.c_games
                rates[name].append(c_run(binary, game, max(games, 10))[0])

        c_loops()
        rate, cpu = study(args.bot, args.games, args.jobs, options, args.game)
        c_loops()
    best = {name: max(found) for name, found in rates.items()}
    rows = [f"| {name} (random games) | {value:,.0f} | 1 | — | — |" for name, value in best.items()]
    ratios = " ".join(f"1/{value / rate:,.0f}" for value in best.values())
    print(
        f"Measured on {os.cpu_count()} CPUs (load average {load:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end), Python {platform.python_version()}; "
        + "; ".join(f"{n}: {' then '.join(f'{r:,.0f}' for r in rates[n])}" for n in rates)
        + " games/s.\n\n"
        "| path | games/s | ÷ C loop (plain, tuned) | CPU per game | 10,000 games |\n"
        "|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
        f"| `simulate {args.game} --bots {args.bot},greedy --jobs {args.jobs}`"
        f"{f' -o variants={args.variants}' if variants else ''}"
        f"{f' -o rounds={args.rounds}' if args.rounds != 1 else ''}, {args.games:,} games "
        f"| {rate:,.2f} | {ratios} | {cpu * 1000:,.0f} ms "
        f"| {10_000 / rate / 60:,.0f} min |"
    )


if __name__ == "__main__":
    main()
