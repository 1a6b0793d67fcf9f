"""A row depends only on its job and seed: not on the number of processes, nor the backend."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cubegames.sim.job import make_job
from cubegames.sim.play import play_match
from cubegames.sim.runner import run
from cubegames.sim.simulate import simulate
from cubegames.sim.store import Store
from tests.sim.helpers import JOBS, frame_without_timing, without_timing

GAMES = 6


def rows(backend: str = "processes", jobs: int = 1) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for job in JOBS:
        out += simulate(job, GAMES, jobs=jobs, backend=backend).rows
    return without_timing(out)


@pytest.fixture(scope="module")
def one_process() -> list[dict[str, Any]]:
    return rows(jobs=1)


def test_one_and_two_processes_give_the_same_rows(one_process: list[dict[str, Any]]) -> None:
    assert len(one_process) == GAMES * len(JOBS)
    assert rows(jobs=2) == one_process


def test_a_row_depends_only_on_its_job_and_seed(one_process: list[dict[str, Any]]) -> None:
    # each game replayed on its own, out of order, gives the row the whole run gave
    for job in JOBS:
        for i in (4, 1):
            alone = without_timing([job.row(play_match(job.match(i)))])[0]
            assert alone in one_process


def test_seats_rotate_and_bots_repeat_to_fill_them(one_process: list[dict[str, Any]]) -> None:
    cubed = [r for r in one_process if r["game"] == "cubed"]
    assert [r["bot_0"] for r in cubed] == ["greedy", "random", "random"] * 2
    assert [r["bot_1"] for r in cubed] == ["random", "random", "greedy"] * 2
    cubes = make_job("cubes", ["greedy", "random"], players=3)
    assert cubes.lineup == ("greedy", "random", "greedy")
    fixed = make_job("cubes", ["greedy", "random"], rotate=False)
    assert {fixed.match(i).bots for i in range(4)} == {("greedy", "random")}


def test_the_strength_ladder_interface_still_works() -> None:
    # benchmarks/strength.py: run(matches, jobs=, progress=, description=) yields records
    # with seed, winners and moves
    matches = [JOBS[3].match(i) for i in range(4)]
    records = list(run(matches, jobs=1, progress=False, description="x"))
    assert sorted(r["seed"] for r in records) == [11, 12, 13, 14]
    assert all({"winners", "moves", "scores", "bots"} <= set(r) for r in records)


@pytest.mark.ray
def test_ray_gives_the_same_rows_as_local_processes(
    ray_cluster: Any, one_process: list[dict[str, Any]], tmp_path: Path
) -> None:
    assert rows(backend="ray") == one_process
    # and from the command line of another process, which joins the same cluster by address
    out = tmp_path / "ray.parquet"
    address = ray_cluster.get_runtime_context().gcs_address
    command = ["simulate", "unstackable", "--bots", "greedy,random", "--seed", "11"]
    command += ["-n", str(GAMES), "--backend", "ray", "--address", address, "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "cubegames", *command, "-q"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    on_ray = frame_without_timing(Store(out).read())
    local = [r for r in one_process if r["game"] == "unstackable"]
    assert on_ray.to_dict("records") == local
