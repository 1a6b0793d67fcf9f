"""The simulate, report and sweep commands: one command to a report; one line for a mistake."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cubegames.cli import main
from cubegames.sim.store import Store


def run(*args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "cubegames", *args], capture_output=True, text=True, timeout=120
    )
    return done.returncode, done.stdout, done.stderr


def test_one_command_gives_results_and_a_report_with_plots(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    out = tmp_path / "results.csv"
    code, stdout, stderr = run(
        "simulate",
        "cubed",
        "--bots",
        "greedy,random",
        "-n",
        "8",
        "-o",
        "rounds=1",
        "--jobs",
        "2",
        "--seed",
        "1",
        "--out",
        str(out),
        "--html",
        str(page),
    )
    assert code == 0, stderr
    assert "greedy wins most:" in stdout and "Win rate by seat" in stdout
    assert stderr.splitlines()[-2:] == [f"played 8 games; results in {out}", f"wrote {page}"]
    rows = Store(out).read()
    assert list(rows["seed"]) == list(range(1, 9))
    assert set(rows["bot_0"]) == {"greedy", "random"}
    html = page.read_text()
    assert html.count("data:image/png;base64,") == 4
    assert "Pieces left in hand against the points chart" in html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "chess"), "unknown game 'chess'; choose from cubed"),
        (("simulate", "cubed", "--bots", "greedy,wizard"), "unknown bot 'wizard'"),
        (("simulate", "cubed", "--bots", "mcts:depth=3"), "bot 'mcts' takes no parameter 'depth'"),
        (("simulate", "cubed", "-b", "alphabeta"), "bot 'alphabeta' plays unstackable only"),
        (("simulate", "cubed", "-o", "flavour=mint"), "cubed has no option 'flavour'"),
        (("simulate", "cubed", "-o", "rounds"), "write it as key=value"),
        (("simulate", "cubed", "-o", "variants=teleport"), "unknown variant 'teleport'"),
        # a second value would silently replace the first
        (
            ("simulate", "cubed", "-o", "variants=bridging", "-o", "variants=void"),
            "--option variants is given twice; give it once",
        ),
        (
            ("simulate", "cubed", "-p", "3", "-o", "players=2"),
            "--players 3 and --option players=2 disagree: give one of them",
        ),
        (("simulate", "cubed", "-n", "0"), "0 is not in the range 1<=x<=1000000000"),
        (("simulate", "cubed", "-n", "many"), "'many' is not a valid integer"),
        # past 2**63 the list of games to play overflowed (a traceback)
        (("simulate", "cubed", "-n", "9" * 20), "is not in the range 1<=x<=1000000000"),
        # the seed is the run's (--seed): a TypeError once inside the bot
        (("simulate", "cubed", "-b", "random:seed=1"), "bot 'random' takes no parameter 'seed'"),
        (("simulate", "cubed", "-p", "9"), "the en edition plays 1 to 6 players, not 9"),
        (("simulate", "unstackable", "-b", "random,random,greedy"), "exactly 2 players, not 3"),
        (
            (
                "simulate",
                "cubed",
                "-p",
                "2",
                "-b",
                "random,greedy,random",
            ),
            "3 bots for 2 seats",
        ),
        (("simulate", "cubed", "--out", "results.txt"), "give a name ending in .parquet or .csv"),
        (("simulate", "cubed", "--address", "auto"), "--address is for --backend ray"),
        (("simulate", "cubed", "--backend", "spark"), "'spark' is not one of 'processes', 'ray'"),
        (("report", "/no/such.parquet"), "/no/such.parquet: no such file"),
        (("sweep",), "give a GAME, or a --config file that names one"),
        (("sweep", "cubed", "-g", "rounds"), "--grid 'rounds': write it as key=value1,value2"),
        (("sweep", "cubed", "-g", "colour=red,blue"), "cubed has no option 'colour'"),
        (("sweep", "cubed", "-g", "rounds=1", "-g", "rounds=3"), "--grid rounds is given twice"),
        (
            ("sweep", "cubed", "-o", "rounds=1", "-g", "rounds=1,3"),
            "rounds is both swept (--grid) and fixed (--option): give one of them",
        ),
        (
            ("sweep", "cubed", "-p", "3", "-g", "players=2,3"),
            "players is both swept (--grid) and fixed (--players): give one of them",
        ),
        (("sweep", "cubed", "--out", "s.csv"), "a sweep writes Parquet"),
        (("sweep", "cubed", "--precision", "0"), "0 is not in the range 0<x<=0.5"),
        (("sweep", "--config", "/no/such.toml"), "cannot read /no/such.toml"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("cubegames: ")
    assert message in captured.err


def test_bad_arguments_from_a_real_process() -> None:
    code, stdout, stderr = run("simulate", "cubed", "--bots", "wizard", "-n", "5")
    assert (code, stdout) == (2, "")
    assert stderr.startswith("cubegames: unknown bot 'wizard'; choose from random, greedy")
    assert stderr.count("\n") == 1 and stderr.endswith("\n")


@pytest.mark.parametrize("command", ["simulate", "report", "sweep"])
def test_every_command_explains_itself_with_examples(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "Examples:" in text
    assert f"cubegames {command} " in text


def test_a_bot_may_take_several_parameters_in_a_lineup(tmp_path: Path) -> None:
    out = tmp_path / "mcts.csv"
    lineup = "mcts:iterations=5,c=1.4,random"
    with pytest.raises(SystemExit) as done:
        main(["simulate", "cubes", "--bots", lineup, "-n", "2", "-j", "1", "-q", "--out", str(out)])
    assert done.value.code == 0
    rows = Store(out).read()
    assert list(rows["bot_0"]) == ["mcts:iterations=5,c=1.4", "random"]
    assert set(rows["lineup"]) == {lineup}


@pytest.mark.parametrize(
    "given",
    [
        ["-b", "mcts:iterations=5,c=1.4", "-b", "random"],
        ["-b", "mcts:iterations=5,c=1.4,random"],
        ["--bots", "mcts:iterations=5,c=1.4", "-b", "random"],
    ],
)
def test_bots_given_one_flag_each_are_a_lineup_in_seat_order(
    given: list[str], tmp_path: Path
) -> None:
    """`-b A -b B` is `-b A,B` (as in `cubegames play`), not the last flag alone."""
    out = tmp_path / "lineup.csv"
    with pytest.raises(SystemExit) as done:
        main(["simulate", "cubes", *given, "-n", "2", "-j", "1", "-q", "--out", str(out)])
    assert done.value.code == 0
    rows = Store(out).read()
    assert list(rows["bot_0"]) == ["mcts:iterations=5,c=1.4", "random"]
    assert list(rows["bot_1"]) == ["random", "mcts:iterations=5,c=1.4"]


# -- what a designer trips on: refused at once, in one line, before any game is played --------


def _no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make playing any game fail the test: the refusal must come first."""
    import importlib

    # the package exports functions of the same names: take the modules themselves
    simulate_module = importlib.import_module("cubegames.sim.simulate")
    sweep_module = importlib.import_module("cubegames.sim.sweep")

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("games were played before the arguments were checked")

    monkeypatch.setattr(simulate_module, "simulate", played)
    monkeypatch.setattr(sweep_module, "sweep", played)


def _refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cubegames: "), err
    return err


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("mcts:seconds=nan", "seconds must be a finite number above 0"),
        ("mcts:seconds=inf", "seconds must be a finite number above 0"),
        ("greedy,mcts:c=nan", "c must be a finite number of at least 0"),
        # one -b a bot: the first is not dropped for the last
        (("mcts:seconds=nan", "greedy"), "seconds must be a finite number above 0"),
    ],
)
def test_a_bot_setting_out_of_bounds_is_refused_not_hung(
    bots: str | tuple[str, ...],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _no_games(monkeypatch)
    flags = [f for bot in ((bots,) if isinstance(bots, str) else bots) for f in ("-b", bot)]
    assert message in _refused(["simulate", "cubed", *flags, "-n", "1", "-q"], capsys)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "cubed", "-n", "10", "-q", "--jobs", "100000"],
        ["sweep", "cubed", "-g", "rounds=1,3", "-q", "--jobs", "100000"],
        ["compare", "cubed", "-s", "rounds=1", "-s", "rounds=3", "-q", "--jobs", "100000"],
        ["bots", "--ratings", "cubed", "-q", "--jobs", "100000"],
    ],
)
def test_far_more_processes_than_cpus_are_refused_before_any_start(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each process starts Python and the kernels: a slip of the finger must not start a
    hundred thousand of them."""
    _no_games(monkeypatch)
    import cubegames.sim.runner as runner

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("processes were started before --jobs was checked")

    monkeypatch.setattr(runner, "ProcessPoolExecutor", started)
    assert "--jobs 100000: this machine has" in _refused(args, capsys)


def test_output_paths_are_checked_before_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_games(monkeypatch)
    unrelated = tmp_path / "notes.csv"
    unrelated.write_text("name,phone\nAda,123\n")
    folder = tmp_path / "mine.parquet"
    folder.mkdir()
    (folder / "thesis.tex").write_text("x")
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    cases = [
        (["--out", str(unrelated)], "not results written by cubegames simulate"),
        (["--out", str(folder)], "a directory holding other files (thesis.tex"),
        (["--out", str(blocker / "r.csv")], "is a file, not a directory"),
        (["--html", str(tmp_path / "no" / "r.html")], "there is no directory"),
        (["--html", str(tmp_path)], "is a directory; give a file name"),
    ]
    for extra, message in cases:
        assert message in _refused(["simulate", "cubes", "-n", "2", "-q", *extra], capsys)
    assert message in _refused(["sweep", "cubes", "-q", "--html", str(tmp_path)], capsys)
    assert unrelated.read_text() == "name,phone\nAda,123\n"  # left as it was


def test_a_sweep_file_that_cannot_be_read_gives_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _no_games(monkeypatch)
    cases: dict[str, tuple[str | bytes, str]] = {
        "deep.json": ("[" * 100_000 + "]" * 100_000, "its brackets nest too deep to read"),
        "deep.toml": ("a = " + "[" * 100_000 + "]" * 100_000, "its brackets nest too deep"),
        "long.json": ('{"seed": ' + "9" * 5000 + "}", "Exceeds the limit (4300 digits)"),
        "binary.toml": (b"\x80\xff", "not a text file"),
    }
    for name, (content, message) in cases.items():
        file = tmp_path / name
        if isinstance(content, bytes):
            file.write_bytes(content)
        else:
            file.write_text(content)
        err = _refused(["sweep", "--config", str(file), "-q"], capsys)
        assert f"{file}: {message}" in err, err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_results_that_cannot_be_written_after_all_give_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # /proc passes the checks made before the games (root may write anywhere) but takes
    # no new file: the failed write is one line, not pandas' traceback
    err = _refused(["simulate", "cubed", "-n", "1", "-q", "--out", "/proc/results.csv"], capsys)
    assert "/proc/results.csv: the results could not be written" in err


def test_a_ray_cluster_that_refuses_gives_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    with socket.socket() as sock:  # a port on this machine that nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    err = _refused(
        [
            "simulate",
            "cubes",
            "-n",
            "2",
            "-q",
            "--backend",
            "ray",
            "--address",
            f"127.0.0.1:{port}",
        ],
        capsys,
    )
    assert f"cannot reach a Ray cluster at 127.0.0.1:{port}" in err


def test_a_ray_started_by_the_lab_listens_on_loopback_unless_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ray = pytest.importorskip("ray")
    from cubegames.sim.ray_backend import RaySession

    seen: list[dict[str, object]] = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kwargs: seen.append(kwargs))
    RaySession(cpus=2)
    RaySession(cpus=2, host="10.1.2.3")
    assert [s["_node_ip_address"] for s in seen] == ["127.0.0.1", "10.1.2.3"]
    assert all(s["address"] is None and s["num_cpus"] == 2 for s in seen)


def test_an_address_that_answers_but_is_no_ray_cluster_gives_one_line_in_time(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    # something listens at the address (probe passes) but ray.init never gets anywhere:
    # Ray retries for minutes, writing warnings to file descriptor 2, and never returns
    import os
    import socket
    import threading
    import time

    ray = pytest.importorskip("ray")
    from cubegames.sim import ray_backend

    release = threading.Event()
    calls: list[dict[str, object]] = []

    def stuck(**kwargs: object) -> None:
        calls.append(kwargs)
        os.write(2, b"[ray core] W Failed to connect to GCS within 5 seconds.\n")
        release.wait(30)

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", stuck)
    monkeypatch.setattr(ray_backend, "CONNECT_SECONDS", 0.5)
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        argv = ["simulate", "cubes", "-n", "2", "-q", "--backend", "ray"]
        begun = time.monotonic()
        try:
            err = _refused([*argv, "--address", f"127.0.0.1:{port}"], capfd)
        finally:
            release.set()
    assert time.monotonic() - begun < 10
    assert calls and calls[0]["address"] == f"127.0.0.1:{port}"
    assert err == (
        f"cubegames: cannot use the Ray cluster at 127.0.0.1:{port}: something answers "
        "there, but no Ray cluster was joined within 0.5 seconds\n"
    )


def test_joining_a_ray_cluster_in_time_keeps_what_ray_said(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    import os

    ray = pytest.importorskip("ray")
    from cubegames.sim.ray_backend import RaySession, RayUnavailable

    def joins(**kwargs: object) -> None:
        os.write(2, b"ray: connected\n")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", joins)
    monkeypatch.setattr("cubegames.sim.ray_backend.probe", lambda address: None)
    assert RaySession(address="head:6379").started
    assert capfd.readouterr().err == "ray: connected\n"

    def refuses(**kwargs: object) -> None:
        raise ConnectionError("Could not find any running Ray instance.\nmore")

    monkeypatch.setattr(ray, "init", refuses)
    with pytest.raises(RayUnavailable) as refused:
        RaySession(address="head:6379")
    assert str(refused.value) == (
        "cannot use the Ray cluster at head:6379: Could not find any running Ray instance."
    )
