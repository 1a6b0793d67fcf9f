"""Exact solving of Unstackable's second stage, printed as Markdown tables for
benchmarks/README.md.

Positions come from seeded games (seeds 0..N-1) played by uniformly random moves in both
stages until the given number of cubes is left; each is solved to the end by a fresh
`Solver` (an empty table), once with plain table keys and once keyed on the least of the
8 symmetric images at every node. A second table times the alphabeta bot itself, with its
default parameters, through whole games against greedy.

    .venv/bin/python benchmarks/alphabeta.py [--positions N] [--sizes 16,20,24,28] [--games G]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import cubegames
from cubegames.bots.alphabeta import AlphaBetaBot
from cubegames.games.unstackable import Stage, UnstackableState
from cubegames.games.unstackable.search import Position, Solver


def seeded(seed: int, left: int) -> UnstackableState:
    """A random game, seeded, up to `left` cubes left in stage 2."""
    rng = random.Random(seed)
    state = cubegames.make("unstackable").new_state()
    assert isinstance(state, UnstackableState)
    while state.stage is Stage.STACK or state.occupied.bit_count() > left:
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    return state


def solve_row(left: int, positions: int, symmetry: bool) -> tuple[str, list[int]]:
    times: list[float] = []
    nodes = probes = hits = 0
    values: list[int] = []
    for seed in range(positions):
        state = seeded(seed, left)
        position = Position.of(state)
        solver = Solver(state.box, symmetry=symmetry, symmetry_from=0)
        start = time.perf_counter()
        values.append(solver.solve(position))
        times.append(time.perf_counter() - start)
        nodes += solver.stats.nodes
        probes += solver.stats.probes
        hits += solver.stats.hits
    total = sum(times)
    keys = "8 symmetries" if symmetry else "plain"
    row = (
        f"| {left} | {positions} | {keys} | {statistics.mean(times):.3f} s | {max(times):.3f} s "
        f"| {nodes / positions:,.0f} | {nodes / total:,.0f} | {hits / probes:.1%} |"
    )
    return row, values


def solve_table(sizes: list[int], positions: int) -> str:
    rows = [
        "| cubes left | positions | table keys | mean solve | max solve | nodes per solve "
        "| nodes/s | TT hit rate |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for left in sizes:
        plain, values = solve_row(left, positions, symmetry=False)
        mirrored, again = solve_row(left, positions, symmetry=True)
        # the two ways of keying the table must agree, or the comparison means nothing
        assert values == again, f"symmetric keys changed a value at {left} cubes"
        rows += [plain, mirrored]
    return "\n".join(rows)


def bot_table(games: int) -> str:
    """Per-move thinking time of the default alphabeta bot in stage 2, seats swapped."""
    game = cubegames.make("unstackable")
    stage2: list[float] = []
    exact_moves = 0
    margins: list[float] = []
    for i in range(games):
        me = i % 2
        bots = [cubegames.bot("greedy", seed=i), cubegames.bot("greedy", seed=i)]
        mine = cubegames.bot("alphabeta", seed=i)
        assert isinstance(mine, AlphaBetaBot)
        bots[me] = mine
        state = game.new_state()
        assert isinstance(state, UnstackableState)
        while (seat := state.to_move) is not None:
            start = time.perf_counter()
            move = bots[seat].choose(state)
            spent = time.perf_counter() - start
            if seat == me and state.stage is Stage.UNSTACK:
                stage2.append(spent)
                exact_moves += mine.last_exact
            state.play(move)
        scores = state.scores()
        margins.append(scores[me] - scores[1 - me])
    wins = sum(m > 0 for m in margins)
    draws = sum(m == 0 for m in margins)
    return "\n".join(
        [
            "| games | stage-2 moves | exact | mean move | max move | W/D/L vs greedy "
            "| mean margin |",
            "|---|---|---|---|---|---|---|",
            f"| {games} | {len(stage2)} | {exact_moves} | {statistics.mean(stage2):.3f} s "
            f"| {max(stage2):.3f} s | {wins}/{draws}/{games - wins - draws} "
            f"| {statistics.mean(margins):+.1f} |",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="positions per size")
    parser.add_argument("--sizes", default="16,20,24,28", help="cubes left, comma-separated")
    parser.add_argument("--games", type=int, default=10, help="games for the bot table")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"Python {platform.python_version()} on {platform.machine()}\n")
    print("### Unstackable stage 2: exact solves from seeded random games\n")
    print(solve_table(sizes, args.positions))
    print("\n### alphabeta (default: depth 8, exact from 24 cubes) against greedy\n")
    print(bot_table(args.games))


if __name__ == "__main__":
    main()
