"""The benchmarks of `make bench` still run against today's code: each at a tiny size
(their figures are not looked at here; speed lives in benchmarks/). `server_parts.py` once
failed for sessions unnoticed, after the batch write it calls took new parameters."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def bench(script: str, *args: str) -> str:
    """Run a benchmark script from the project's root; its output, once it exited 0."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=BENCHMARKS.parent,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize(
    "command",
    [
        ["run.py", "--games", "3", "--rounds", "1"],
        ["server_parts.py", "--games", "3", "--moves", "5", "--rounds", "1"],
        ["vector_dispatch.py", "--calls", "3"],
    ],
    ids=lambda command: command[0],
)
def test_a_benchmark_runs_at_a_tiny_size(command: list[str]) -> None:
    assert "|" in bench(*command)  # its Markdown table


def test_rl_times_one_game_batched_alone_per_cpu_second() -> None:
    """The figure benchmarks/README compares with the code before #22: `rl.py`'s batched
    CUBED rows alone, per CPU second."""
    options = ["--vector-only", "--vector-game", "cubed", "--cpu", "--vector-steps", "64"]
    out = bench("rl.py", *options, "--repeats", "1")
    assert "steps per CPU second" in out
    assert "| cubed | players=2, rounds=1 | 64 | self |" in out
    assert "unstackable" not in out and "AEC" not in out


@pytest.mark.parametrize("edition", ["en", "ja"])
def test_solo_random_games_are_the_same_three_ways(edition: str) -> None:
    """`solo_random.py` checks that the batch kernel, the one-game kernel and the Python
    random bot make the same records of solo games (it fails if they do not)."""
    out = bench("solo_random.py", "--games", "40", "--rounds", "1", "--edition", edition)
    assert "ratio, batch / Python" in out
