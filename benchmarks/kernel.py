"""CUBED random playouts: the compiled kernel against a plain C loop and the Python paths.

    .venv/bin/python benchmarks/kernel.py [--games 2000] [--rounds 3]

Two players, one round, EN edition, uniformly random legal moves. Every figure is a rate
of whole games (deal included) and every ratio is taken against the plain C loop measured
in the same run; each path is measured `--rounds` times, interleaved with the others, and
its best rate kept, so a busy machine hurts all paths alike.

- **plain C loop**: `benchmarks/cubed_loop.c`, compiled here with `gcc -O2`: no incremental
  frontier, every empty cell of the table's bounding box rescanned each move;
- **raw kernel**: `kernel.random_games`, deals and plays inside the kernel, no Python;
- **simulate --jobs 1**: `cubegames.sim.simulate` of a `--bots random` job in this process,
  which is what `cubegames simulate cubed --bots random --players 2 --option rounds=1
  --jobs 1` runs (without its start-up and the writing of results): records, summaries and
  the symmetry digest of every game included; the games are played by the kernel;
- **simulate, Python bots**: the same with the compiled path switched off, the random bots
  choosing every move through `legal_moves()` (how it ran before the kernel);
- **lean Python playout**: `rollout.playout`, placements from the incremental frontier
  without move objects (the fastest pure-Python path).

Compile times (gcc; numba's first call, which is a cache load once compiled) are printed
apart and are in no rate.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import cubegames
from cubegames.games.cubed import Cubed, CubedState, fast
from cubegames.games.cubed import kernel as k
from cubegames.games.cubed.rollout import playout
from cubegames.sim import make_job, simulate

HERE = Path(__file__).parent


def build_c_loop(where: Path) -> tuple[Path, float]:
    """Compile the C loop; its path and the seconds gcc took."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise SystemExit("gcc is needed to build the plain C loop")
    binary = where / "cubed_loop"
    start = time.perf_counter()
    subprocess.run([gcc, "-O2", "-o", str(binary), str(HERE / "cubed_loop.c")], check=True)
    return binary, time.perf_counter() - start


def c_rate(binary: Path, game: Cubed, games: int) -> float:
    """Games per second of the C loop, timed by the C program itself."""
    ed = game.edition
    args = [
        str(games),
        "1",
        str(game.players),
        str(ed.hand_size[game.players]),
        str(ed.black),
        str(-1 if ed.wild is None else ed.wild),
        str(ed.ordinary),
        *(str(fast.code(p)) for p in ed.pieces),
    ]
    out = subprocess.run([str(binary), *args], check=True, capture_output=True, text=True)
    played, _moves, seconds = out.stdout.split()
    return int(played) / float(seconds)


def kernel_setup(game: Cubed) -> Callable[[int], float]:
    ed_arrays = fast.tables(game.edition)
    arrays = k.new_game(game.players)
    box = np.array([fast.code(p) for p in game.edition.pieces], dtype=np.int64)
    state = random.Random(1).getstate()[1]
    mt = np.array([state[:624]] * game.players, dtype=np.int64)
    pos = np.full(game.players, state[624], dtype=np.int64)
    size = game.edition.hand_size[game.players]

    def run(games: int) -> float:
        start = time.perf_counter()
        k.random_games(arrays, ed_arrays, box, size, games, mt, pos)
        return games / (time.perf_counter() - start)

    return run


def simulate_rate(games: int, compiled: bool = True) -> float:
    job = make_job("cubed", ["random"], players=2, options={"rounds": 1}, seed=0)
    saved = Cubed.random_playout
    if not compiled:

        def python_bots(self: Cubed, state: Any, rngs: Any) -> None:
            return None

        Cubed.random_playout = python_bots  # type: ignore[method-assign]
    try:
        start = time.perf_counter()
        outcome = simulate(job, games, jobs=1)
        seconds = time.perf_counter() - start
    finally:
        Cubed.random_playout = saved  # type: ignore[method-assign]
    assert outcome.played == games
    return games / seconds


def lean_rate(game: Cubed, games: int) -> float:
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        playout(state, random.Random(seed))
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per C and simulate run")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved runs of each path")
    args = parser.parse_args()
    game = cubegames.make("cubed", players=2, rounds=1)
    assert isinstance(game, Cubed)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        binary, gcc_seconds = build_c_loop(Path(tmp))
        start = time.perf_counter()
        kernel = kernel_setup(game)
        kernel(1)
        simulate_rate(1)
        first_call = time.perf_counter() - start
        n = args.games
        best: dict[str, float] = {}
        paths: dict[str, Callable[[], float]] = {
            "plain C loop": lambda: c_rate(binary, game, n),
            "raw kernel": lambda: kernel(5 * n),
            "simulate --jobs 1": lambda: simulate_rate(n),
            "simulate, Python bots": lambda: simulate_rate(max(n // 10, 20), compiled=False),
            "lean Python playout": lambda: lean_rate(game, max(n // 10, 20)),
        }
        for _ in range(args.rounds):
            for name, measure in paths.items():
                best[name] = max(best.get(name, 0.0), measure())
    c = best["plain C loop"]
    print(
        f"Measured on {os.cpu_count()} CPUs (load average {load:.1f} at the start), "
        f"Python {platform.python_version()} ({platform.machine()}); CUBED, 2 players, "
        f"1 round; best of {args.rounds} interleaved runs.\n"
    )
    print("| path | games/s | ÷ plain C loop |\n|---|---|---|")
    for name, rate in best.items():
        print(f"| {name} | {rate:,.0f} | {rate / c:.2f}× |")
    print(
        f"\nCompile times, in no figure above: gcc {gcc_seconds:.2f} s; the kernel's first "
        f"calls {first_call:.2f} s (numba compiles once per machine, then loads its cache)."
    )


if __name__ == "__main__":
    main()
