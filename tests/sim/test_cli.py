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
        (("simulate", "cubed", "-n", "0"), "0 is not in the range x>=1"),
        (("simulate", "cubed", "-n", "many"), "'many' is not a valid integer"),
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
