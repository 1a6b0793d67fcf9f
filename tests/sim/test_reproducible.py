"""A row depends only on its job and seed: not on the number of processes, nor the backend."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cubegames.sim.job import make_job
from cubegames.sim.play import play_match
from cubegames.sim.runner import Lazy, run
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


def test_a_run_makes_each_match_only_when_it_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """`simulate` hands the runner a lazy list: a match is made when its game is about to
    be played (a million-game run starts at once), and the lazy list reads like a list."""
    made: list[int] = []

    def make(i: int) -> int:
        made.append(i)
        return i * i

    lazy = Lazy(5, make)
    assert made == [] and len(lazy) == 5
    assert lazy[2] == 4 and lazy[-1] == 16 and made == [2, 4]
    assert lazy[1:3] == [1, 4] and lazy[3:99] == [9, 16] and list(lazy) == [0, 1, 4, 9, 16]
    for bad in (5, -6):
        with pytest.raises(IndexError):
            lazy[bad]

    from cubegames.sim.job import Job

    module = importlib.import_module("cubegames.sim.simulate")  # the module, not the function

    asked: list[int] = []
    real_match = Job.match

    def match(self: Job, i: int) -> Any:
        asked.append(i)
        return real_match(self, i)

    monkeypatch.setattr(Job, "match", match)
    handed: list[Any] = []

    class Handed(Exception):
        pass

    def play_rows(matches: Any, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        handed.append(matches)
        raise Handed

    monkeypatch.setattr(module, "play_rows", play_rows)
    job = make_job("cubes", ["random"], seed=1)
    with pytest.raises(Handed):
        simulate(job, 10**6)
    (matches,) = handed
    assert len(matches) == 10**6 and asked == []  # nothing made before the first game
    assert matches[0] == (job, real_match(job, 0)) and matches[999_999][1].seed == 1_000_000
    assert asked == [0, 999_999]


def test_a_runner_starts_no_more_processes_than_it_has_chunks_of_games() -> None:
    """Each worker process starts Python, numba and the kernels: `--jobs 64` for three
    games starts three, and a later, bigger call on the same runner gets more."""
    from cubegames.sim.play import Match
    from cubegames.sim.runner import Runner

    def matches(n: int) -> list[Match]:
        return [Match("cubes", ("random", "random"), seed=i) for i in range(n)]

    with Runner(jobs=64) as runner:
        assert len(list(runner.play(matches(3)))) == 3
        assert runner.processes == 3
        assert len(list(runner.play(matches(5)))) == 5
        assert runner.processes == 5
        assert len(list(runner.play(matches(2)))) == 2
        assert runner.processes == 5  # a smaller call keeps the pool it has
