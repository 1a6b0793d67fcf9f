"""CUBED random playouts: the compiled kernel against plain and tuned C loops and the Python paths.

    .venv/bin/python benchmarks/kernel.py [--games 2000] [--rounds 3] [--cold]

Two players, one round, EN edition, uniformly random legal moves. Every figure is a rate
of whole games (deal included) and every ratio is taken against C loops measured in the
same run; each path is measured `--rounds` times, interleaved with the others, and its
best rate kept, so a busy machine hurts all paths alike.

- **plain C loop** (the yardstick of issue 14: "no frontier, full-board rescans"):
  `benchmarks/cubed_plain.c`, compiled here with `gcc -O2`: every move rescans every cell
  of the whole board array and tries every piece in hand in every rotation;
- **plain C loop, bounding box only**: the same file compiled with `-DBOX`, rescanning only
  the table's bounding box (how much of the plain loop's time the whole board takes);
- **tuned C loop**: `benchmarks/cubed_loop.c`, `gcc -O2`: still no incremental frontier,
  but only the table's bounding box rescanned, only distinct hand pieces tried, cells
  checked before pieces. The loops play the very same games (the benchmark checks that
  they count the same moves), so they differ only in how they find the placements;
- **raw kernel**: `kernel.random_games`, deals and plays inside the kernel, no Python;
- **simulate --jobs 1**: `cubegames.sim.simulate` of a `--bots random` job in this process,
  which is what `cubegames simulate cubed --bots random --players 2 --option rounds=1
  --jobs 1` runs (without its start-up and the writing of results): records, summaries and
  the symmetry digest of every game included; the games are dealt, played and described
  by the batch kernel (`games/cubed/batch_games.py`, `sim/batch.py`);
- **simulate, one game a call**: the same, each game through `play_match` (the kernel
  plays the moves, Python deals, scores, summarises and digests: the path before batching);
- **simulate, Python bots**: the same with the compiled paths switched off, the random bots
  choosing every move through `legal_moves()` (how it ran before the kernel);
- **lean Python playout**: `rollout.playout`, placements from the incremental frontier
  without move objects (the fastest pure-Python path).

Compile times (gcc; numba's first calls, which are cache loads once compiled; with
`--cold`, a compile from an empty numba cache in a fresh process) are printed apart and are
in no rate.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import cubegames
from cubegames.core import splitmix
from cubegames.games.cubed import Cubed, CubedState, kernel_bridge
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed.lean_playout import playout
from cubegames.games.cubed.pieces import canonical
from cubegames.sim import batch as sim_batch
from cubegames.sim import make_job, simulate

HERE = Path(__file__).parent


def build_c_loop(where: Path, name: str = "cubed_loop", *flags: str) -> tuple[Path, float]:
    """Compile `benchmarks/<name>.c` (with `flags`); the program's path and the seconds gcc
    took."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise SystemExit("gcc is needed to build the C loops")
    binary = where / (name + "".join(flags))
    start = time.perf_counter()
    source = str(HERE / f"{name}.c")
    subprocess.run([gcc, "-O2", *flags, "-o", str(binary), source], check=True)
    return binary, time.perf_counter() - start


def c_run(binary: Path, game: Cubed, games: int) -> tuple[float, int]:
    """Games per second of a C loop (timed by the C program itself), and its moves."""
    ed = game.edition
    args = [
        str(games),
        "1",
        str(game.players),
        str(ed.hand_size[game.players]),
        str(ed.black),
        str(-1 if ed.wild is None else ed.wild),
        str(ed.ordinary),
        # least rotations: then both loops list the placements in one order
        *(str(kernel_bridge.code(canonical(p))) for p in ed.pieces),
    ]
    out = subprocess.run([str(binary), *args], check=True, capture_output=True, text=True)
    played, moves, seconds = out.stdout.split()
    return int(played) / float(seconds), int(moves)


def c_rate(binary: Path, game: Any, games: int) -> float:
    """Games per second of a C loop (`benchmarks/search.py` compares with it)."""
    return c_run(binary, game, games)[0]


def kernel_setup(game: Cubed) -> Callable[[int], float]:
    ed_arrays = kernel_bridge.tables(game.edition)
    arrays = k.new_game(game.players)
    box = np.array([kernel_bridge.code(p) for p in game.edition.pieces], dtype=np.int64)
    deal_rng = np.array([splitmix.from_seed(1)], dtype=np.uint64)
    rngs = np.array([splitmix.from_seed(1000 + s) for s in range(game.players)], dtype=np.uint64)
    size = game.edition.hand_size[game.players]

    def run(games: int) -> float:
        start = time.perf_counter()
        k.random_games(arrays, ed_arrays, box, size, games, deal_rng, rngs)
        return games / (time.perf_counter() - start)

    return run


def simulate_rate(games: int, how: str = "batch") -> float:
    """`simulate` of `games` random 2-player one-round games, a second: `batch` (as it
    runs), `single` (each game by `play_match`, the kernel playing its moves) or `python`
    (no compiled path at all)."""
    return simulated(games, how)[0]


def simulated(
    games: int, how: str = "batch", players: int = 2, options: dict[str, Any] | None = None
) -> tuple[float, list[dict[str, Any]]]:
    """`simulate` of `games` random games of CUBED with `players` seats and `options`
    (default: one round), played `how` (see `simulate_rate`): games a second, and the
    rows."""
    options = {"rounds": 1} if options is None else options
    job = make_job("cubed", ["random"], players=players, options=options, seed=0)
    saved = Cubed.random_playout, sim_batch.batcher
    if how != "batch":
        sim_batch.batcher = lambda match: None
    if how == "python":

        def python_bots(self: Cubed, state: Any, rngs: Any) -> None:
            return None

        Cubed.random_playout = python_bots  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        outcome = simulate(job, games, jobs=1)
        seconds = time.perf_counter() - start
    finally:
        Cubed.random_playout, sim_batch.batcher = saved  # type: ignore[method-assign]
    assert outcome.played == games
    return games / seconds, outcome.rows


def lean_rate(game: Cubed, games: int) -> float:
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        playout(state, random.Random(seed))
    return games / (time.perf_counter() - start)


COLD = """
import time
start = time.perf_counter()
from cubegames.sim import make_job, simulate
simulate(make_job("cubed", ["random"], players=2, options={"rounds": 1}), 2)
print(time.perf_counter() - start)
"""


def cold_compile() -> float:
    """Seconds a fresh process takes to compile the batch kernel with an empty numba cache
    (import and two games included)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run(
            [sys.executable, "-c", COLD], env=env, check=True, capture_output=True, text=True
        )
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per kernel run")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved runs of each path")
    parser.add_argument(
        "--cold", action="store_true", help="also time a compile with an empty numba cache"
    )
    args = parser.parse_args()
    game = cubegames.make("cubed", players=2, rounds=1)
    assert isinstance(game, Cubed)
    load = os.getloadavg()
    n = args.games
    with tempfile.TemporaryDirectory() as tmp:
        plain, gcc_plain = build_c_loop(Path(tmp), "cubed_plain")
        box, _ = build_c_loop(Path(tmp), "cubed_plain", "-DBOX")
        tuned, gcc_tuned = build_c_loop(Path(tmp), "cubed_loop")
        # the loops play the very same games: only their search for placements differs
        check = max(n // 40, 10)
        moves = {c_run(loop, game, check)[1] for loop in (plain, box, tuned)}
        assert len(moves) == 1, moves
        start = time.perf_counter()
        kernel = kernel_setup(game)
        kernel(1)
        simulate_rate(2)
        simulate_rate(1, "single")
        first_call = time.perf_counter() - start
        best: dict[str, float] = {}
        paths: dict[str, Callable[[], float]] = {
            "plain C loop": lambda: c_run(plain, game, max(n // 10, 10))[0],
            "plain C loop, bounding box only (`-DBOX`)": lambda: c_run(box, game, n)[0],
            "tuned C loop": lambda: c_run(tuned, game, n)[0],
            "raw kernel": lambda: kernel(5 * n),
            "simulate --jobs 1": lambda: simulate_rate(n),
            "simulate, one game a call": lambda: simulate_rate(max(n // 4, 20), "single"),
            "simulate, Python bots": lambda: simulate_rate(max(n // 20, 20), "python"),
            "lean Python playout": lambda: lean_rate(game, max(n // 10, 20)),
        }
        for _ in range(args.rounds):
            for name, measure in paths.items():
                best[name] = max(best.get(name, 0.0), measure())
    end_load = os.getloadavg()
    plain_rate, tuned_rate = best["plain C loop"], best["tuned C loop"]
    print(
        f"Measured on {os.cpu_count()} CPUs (load average {load[0]:.1f} at the start, "
        f"{end_load[0]:.1f} at the end), Python {platform.python_version()} "
        f"({platform.machine()}); CUBED, 2 players, 1 round; best of {args.rounds} "
        "interleaved runs.\n"
    )
    print("| path | games/s | ÷ plain C loop | ÷ tuned C loop |\n|---|---|---|---|")
    for name, rate in best.items():
        print(f"| {name} | {rate:,.0f} | {rate / plain_rate:.2f}× | {rate / tuned_rate:.2f}× |")
    lean = best["lean Python playout"] / plain_rate
    bots = best["simulate, Python bots"] / plain_rate
    print(
        f"\nCalibration against issue 14 (lean Python 0.42× its plain loop, simulate with "
        f"Python bots 0.17×): here {lean:.2f}× and {bots:.2f}× the plain loop, "
        f"{best['lean Python playout'] / tuned_rate:.2f}× and "
        f"{best['simulate, Python bots'] / tuned_rate:.2f}× the tuned one."
    )
    print(
        f"\nCompile times, in no figure above: gcc {gcc_plain:.2f} s (plain) and "
        f"{gcc_tuned:.2f} s (tuned); the kernels' first calls {first_call:.2f} s (numba "
        "compiles once per machine, then loads its cache)."
    )
    if args.cold:
        print(
            f"A fresh process with an empty numba cache took {cold_compile():.1f} s to "
            "compile the batch kernel and play its first two games."
        )


if __name__ == "__main__":
    main()
