"""Results are written in batches; an interrupted run resumes without replaying a game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cubegames.cli import main
from cubegames.sim.job import make_job
from cubegames.sim.play import play_match
from cubegames.sim.simulate import JobMismatch, simulate
from cubegames.sim.store import Store, StoreError
from tests.sim.helpers import JOBS, frame_without_timing, without_timing

JOB = JOBS[1]  # CUBES, 4 players: quick games
N = 30
KEPT = [0, 1, 2, 7, 8, 20, 29, 13]  # finished before the interruption, in arrival order


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store(tmp_path_factory.mktemp("full") / "full.parquet")
    simulate(JOB, N, store, batch=7)
    return store


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_resumed_run_plays_only_the_missing_games_and_ends_as_an_uninterrupted_one(
    uninterrupted: Store, tmp_path: Path, suffix: str
) -> None:
    full = uninterrupted.read()
    by_seed = {int(r["seed"]): r for r in full.to_dict("records")}
    # what an interrupted run leaves: two batches of finished games, in no particular order
    partial = Store(tmp_path / f"partial{suffix}")
    seeds = [JOB.seed + i for i in KEPT]
    partial.append([by_seed[s] for s in seeds[:5]])
    partial.append([by_seed[s] for s in seeds[5:]])
    if suffix == ".csv":  # and a line cut short as it was being written
        with open(partial.path, "a", encoding="utf-8") as f:
            f.write("0123456789ab,cubes,")
    before = {int(r["seed"]): r["seconds"] for r in partial.read().to_dict("records")}
    assert sorted(before) == sorted(seeds)

    outcome = simulate(JOB, N, Store(partial.path), batch=4)

    assert outcome.before == len(KEPT)
    assert sorted(outcome.seeds) == [JOB.seed + i for i in range(N) if i not in KEPT]
    final = Store(partial.path).read()
    # the games played before were not played again: their timings are the ones stored
    kept = final[final["seed"].isin(seeds)]
    assert dict(zip(kept["seed"], kept["seconds"], strict=True)) == before
    assert frame_without_timing(final).equals(frame_without_timing(full))


def test_parquet_results_are_a_directory_of_parts_merged_at_the_end(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.parquet")
    store.append([])  # an empty batch writes nothing
    assert not store.exists()
    simulate(JOB, 10, store, batch=3)
    assert [p.name for p in store.path.iterdir()] == ["part-00004.parquet"]
    import pandas as pd

    assert len(pd.read_parquet(store.path)) == 10  # any Parquet reader takes the directory


def test_running_more_games_extends_a_finished_run(uninterrupted: Store, tmp_path: Path) -> None:
    store = Store(tmp_path / "grow.csv")
    simulate(JOB, 10, store)
    outcome = simulate(JOB, N, store)
    assert (outcome.before, outcome.played) == (10, N - 10)
    assert frame_without_timing(store.read()).equals(frame_without_timing(uninterrupted.read()))


def test_a_results_file_of_another_run_is_refused(uninterrupted: Store, tmp_path: Path) -> None:
    other = make_job("cubes", ["random"], players=4, options={"sets": 3}, seed=JOB.seed)
    with pytest.raises(JobMismatch, match="holds a different run"):
        simulate(other, 5, uninterrupted)
    # and on the command line: one line, exit 2, the file untouched
    path = tmp_path / "mine.csv"
    simulate(JOB, 3, Store(path))
    text = path.read_text()
    with pytest.raises(SystemExit) as done:
        main(["simulate", "cubes", "-p", "4", "--seed", "5", "-n", "3", "--out", str(path), "-q"])
    assert done.value.code == 2
    assert path.read_text() == text


def test_the_refusal_names_the_run_the_file_holds(
    uninterrupted: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "cubes", "-p", "3", "-n", "3", "--out", str(uninterrupted.path)])
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"cubegames: {uninterrupted.path} holds a different run (cubes ")
    assert "bots random,random,random,random, rotating seats, seed 5" in err
    assert "give another --out or remove it" in err


def test_a_file_that_is_not_results_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "notes.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(StoreError, match="not results written by cubegames simulate"):
        Store(bad).read()
    flat = tmp_path / "flat.parquet"
    flat.write_text("x")
    with pytest.raises(StoreError, match="is a file; results in Parquet are a directory"):
        Store(flat)


def _interruptible() -> None:
    """In the child, before it runs: Ctrl-C at its default, as a terminal starts a command.
    A process started by one that ignores SIGINT (a pytest-xdist worker may) ignores it too,
    and Python then never turns it into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_keeps_the_finished_games_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "big.parquet"
    command = [sys.executable, "-m", "cubegames", "simulate", "cubes", "-p", "4", "--seed", "5"]
    command += ["-o", "sets=2", "--out", str(out), "--batch", "50", "-j", "1"]
    run = subprocess.Popen(
        [*command, "-n", "1000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    deadline = time.monotonic() + 60
    while not list(out.glob("part-*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.05)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130
    saved = len(Store(out).read())
    assert saved >= 50
    assert err.splitlines()[-1] == (
        f"interrupted: {saved:,} of 1,000,000 games are in {out}; "
        "run the same command again to finish"
    )
    n = saved + 40
    done = subprocess.run([*command, "-n", str(n), "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"played 40 games ({saved:,} already there); results in {out}"
    )
    again = Store(tmp_path / "again.parquet")
    simulate(JOB, n, again)
    assert frame_without_timing(Store(out).read()).equals(frame_without_timing(again.read()))


@contextmanager
def two_workers_simulating(out: Path) -> Iterator[tuple[subprocess.Popen[str], list[int]]]:
    """`simulate` of a million CUBES games with two worker processes into `out`, once it
    has saved a first part: the run and its workers' process ids. A run still going on
    leaving is killed with its whole group (a worker left alive would hold its pipes open
    for ever, and the run would go on for hours)."""
    command = [sys.executable, "-m", "cubegames", "simulate", "cubes", "-p", "4", "--seed", "5"]
    command += ["-o", "sets=2", "--out", str(out), "--batch", "50", "-j", "2", "-n", "1000000"]
    run = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not list(out.glob("part-*.parquet")) and time.monotonic() < deadline:
            time.sleep(0.05)
        children = Path(f"/proc/{run.pid}/task/{run.pid}/children").read_text().split()
        workers = [
            int(pid)
            for pid in children
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
        ]
        assert len(workers) == 2
        yield run, workers
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate(timeout=60)


def assert_stopped_keeping_its_games(run: subprocess.Popen[str], err: str, out: Path) -> None:
    """The run ended with exit status 1, saying how many games it kept and how to go on."""
    assert run.returncode == 1
    saved = len(Store(out).read())
    assert err.splitlines()[-1] == (
        "a worker process stopped unexpectedly (killed, or out of memory?): "
        f"{saved:,} of 1,000,000 games are in {out}; run the same command again to finish"
    )


def test_a_worker_that_dies_stops_the_run_and_keeps_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "broken.parquet"
    with two_workers_simulating(out) as (run, workers):
        os.kill(workers[0], signal.SIGKILL)
        _, err = run.communicate(timeout=60)  # it stops: it does not wait for ever
    assert_stopped_keeping_its_games(run, err, out)
    # what was saved is whole and right: a sample of rows, each replayed on its own
    rows = frame_without_timing(Store(out).read()).to_dict("records")
    for row in rows[:: max(1, len(rows) // 5)]:
        alone = JOB.row(play_match(JOB.match(row["seed"] - JOB.seed)))
        assert without_timing([alone]) == [row]


def test_a_worker_killed_while_handing_back_its_games_stops_the_run(tmp_path: Path) -> None:
    """The CI hang: a worker killed in the middle of writing its results leaves half a
    message in the pipe; the pool's manager thread waits for the rest for ever and never
    notices the dead worker, so the run must watch its workers itself.

    The parent is stopped (SIGSTOP) so that nobody reads the pipe: the workers' results
    (a chunk of 128 CUBES games is about 60 kB) fill it and one worker blocks in the
    middle of its write; that one is killed, then the parent goes on."""
    out = tmp_path / "cut.parquet"
    with two_workers_simulating(out) as (run, workers):
        os.kill(run.pid, signal.SIGSTOP)
        writing = None
        deadline = time.monotonic() + 30
        while writing is None and time.monotonic() < deadline:
            for pid in workers:  # the kernel's name of where it sleeps: (anon_)pipe_write
                if Path(f"/proc/{pid}/wchan").read_text().endswith("pipe_write"):
                    writing = pid
            time.sleep(0.01)
        if writing is None:
            os.kill(run.pid, signal.SIGCONT)
            pytest.skip("no worker was seen blocked in a pipe write (/proc/PID/wchan)")
        os.kill(writing, signal.SIGKILL)
        time.sleep(0.2)  # it is gone before the parent reads what it wrote
        os.kill(run.pid, signal.SIGCONT)
        _, err = run.communicate(timeout=30)
    assert_stopped_keeping_its_games(run, err, out)
