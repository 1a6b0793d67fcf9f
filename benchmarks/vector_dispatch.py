"""What one call into numba costs CUBED's batched environment, before any work, as a table.

    .venv/bin/python benchmarks/vector_dispatch.py [--calls N]

A jitted function with an empty body is called with the arguments of a step of the compiled
CUBED environment (64 games; its named tuples `k.Game`, `k.Tables`, `Lookup` and the plain
tuples around them, 62 arrays in all) four ways: through numba's dispatcher, which types
every argument at each call to pick the compiled version; the same with explicit
signatures; the same arrays as plain tuples (as the kernel took them before issue #22); and
the compiled version called directly, as the environment now calls its step
(`cubegames.games.cubed.vector.compiled`). Each figure is the best of five runs of N calls.
"""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from cubegames.games.cubed.vector import VectorEnv, compiled


def _nothing(batch: Any, ed: Any, tb: Any, deal: Any, io: Any, result: Any, work: Any) -> int:
    """An empty body with `step_all`'s parameters."""
    return 0


def per_call(call: Callable[[], Any], calls: int) -> float:
    """Microseconds a call, the best of five runs of `calls` calls."""
    call()
    return min(timeit.repeat(call, number=calls, repeat=5)) / calls * 1e6


def plain(value: Any) -> Any:
    """`value` with every named tuple in it made a plain tuple."""
    return tuple(plain(v) for v in value) if isinstance(value, tuple) else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000, help="calls a run")
    args = parser.parse_args()
    if args.calls < 1:
        parser.error(f"--calls must be at least 1, not {args.calls}")
    envs = VectorEnv(64, seed=0, players=2, rounds=1)
    envs.reset()
    step = envs._step_args
    empty = numba.njit(_nothing)
    signed = numba.njit([tuple(empty.typeof_pyval(a) for a in step)])(_nothing)
    direct = compiled(empty, step)
    unnamed = plain(step)
    rows = [
        ("dispatcher, named tuples (since #22)", lambda: empty(*step)),
        ("dispatcher with explicit signatures, named tuples", lambda: signed(*step)),
        ("dispatcher, plain tuples (before #22)", lambda: empty(*unnamed)),
        ("the compiled version called directly (now)", lambda: direct(*step)),
    ]
    print(f"numba {numba.__version__}, numpy {np.__version__}, best of 5 runs of {args.calls}\n")
    print("| a call of an empty jitted function with a step's arguments | µs a call |")
    print("|---|---|")
    for name, call in rows:
        print(f"| {name} | {per_call(call, args.calls):.2f} |")


if __name__ == "__main__":
    main()
