"""Exact solving of Unstackable's second stage, printed as Markdown tables for
benchmarks/README.md.

Positions come from seeded games (seeds 0..N-1) played by uniformly random moves in both
stages until the given number of cubes is left. The first table solves each to the end
with the compiled kernel (`CompiledSolver`, a fresh table each time) and, up to 28 cubes,
with the Python `Solver` on the same positions (the values must agree); the kernel's
compile time is measured apart, in a process with an empty numba cache. The second table
is the Python solver alone, with plain and with symmetric table keys. A third times the
alphabeta bot itself, with its default parameters, through whole games against greedy.

    .venv/bin/python benchmarks/alphabeta.py [--positions N] [--kernel-sizes 24,28,32,36]
        [--sizes 16,20,24,28] [--games G]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time

import cubegames
from cubegames.bots.alphabeta import AlphaBetaBot
from cubegames.games.unstackable import Stage, UnstackableState
from cubegames.games.unstackable.search import CompiledSolver, Position, Solver

#: the kernel's first call in a fresh process with an empty numba cache: its compile time
_COMPILE = """
import time
start = time.perf_counter()
from cubegames.games.unstackable.search import CompiledSolver, Position
from cubegames.games.unstackable.box import load_box
CompiledSolver(load_box(), table_bits=8).solve(Position(0, 2, 1))
print(time.perf_counter() - start)
"""


def seeded(seed: int, left: int) -> UnstackableState:
    """A random game, seeded, up to `left` cubes left in stage 2."""
    rng = random.Random(seed)
    state = cubegames.make("unstackable").new_state()
    assert isinstance(state, UnstackableState)
    while state.stage is Stage.STACK or state.occupied.bit_count() > left:
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    return state


def compile_seconds() -> float:
    """Seconds for the kernel's first call with an empty numba cache (a fresh process)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-c", _COMPILE], env=env, capture_output=True, text=True, check=True
        )
    return float(out.stdout.strip())


def kernel_table(sizes: list[int], positions: int) -> str:
    """Exact solves by the compiled kernel, and by the Python solver up to 28 cubes."""
    box = cubegames.make("unstackable").box
    CompiledSolver(box, table_bits=8).solve(Position(0, 2, 1))  # load the cached code
    rows = [
        "| cubes left | positions | kernel mean | kernel max | nodes per solve | nodes/s "
        "| Python mean | kernel ÷ Python time |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for left in sizes:
        times: list[float] = []
        slow: list[float] = []
        nodes = 0
        for seed in range(positions):
            position = Position.of(seeded(seed, left))
            solver = CompiledSolver(box, table_bits=22)
            start = time.perf_counter()
            value = solver.solve(position)
            times.append(time.perf_counter() - start)
            nodes += solver.stats.nodes
            if left <= 28:
                start = time.perf_counter()
                assert Solver(box).solve(position) == value, f"values differ, seed {seed}"
                slow.append(time.perf_counter() - start)
        python = f"{statistics.mean(slow):.3f} s" if slow else "—"
        ratio = f"{statistics.mean(times) / statistics.mean(slow):.3f}" if slow else "—"
        rows.append(
            f"| {left} | {positions} | {statistics.mean(times):.3f} s | {max(times):.3f} s "
            f"| {nodes / positions:,.0f} | {nodes / sum(times):,.0f} | {python} | {ratio} |"
        )
    return "\n".join(rows)


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
    parser.add_argument(
        "--kernel-sizes", default="24,28,32,36", help="cubes left for the kernel table"
    )
    parser.add_argument("--sizes", default="16,20,24,28", help="cubes left, comma-separated")
    parser.add_argument("--games", type=int, default=10, help="games for the bot table")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    kernel_sizes = [int(s) for s in args.kernel_sizes.split(",")]
    print(f"Python {platform.python_version()} on {platform.machine()}\n")
    print(f"kernel compile time (empty numba cache, first call): {compile_seconds():.1f} s\n")
    print("### Unstackable stage 2: exact solves by the compiled kernel\n")
    print(kernel_table(kernel_sizes, args.positions))
    print("\n### The Python solver: plain and symmetric table keys\n")
    print(solve_table(sizes, args.positions))
    print("\n### alphabeta (default: depth 8, exact from 32 cubes) against greedy\n")
    print(bot_table(args.games))


if __name__ == "__main__":
    main()
