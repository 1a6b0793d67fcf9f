"""The sweep: a grid of settings, each cell stopped once its answer is precise enough."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cubegames.cli import main
from cubegames.sim.store import Store
from cubegames.sim.sweep import Cell, grid_values, make_cells, read_config, sweep

PRECISION, BATCH, CAP = 0.05, 40, 200


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[Cell]]:
    store = Store(tmp_path_factory.mktemp("sweep") / "sweep.parquet")
    cells = make_cells("unstackable", [["greedy", "random"], ["random"]], {}, seed=3)
    done = sweep(cells, store, precision=PRECISION, max_games=CAP, batch=BATCH)
    return store, list(done)


def test_an_obvious_result_stops_early_and_a_close_one_at_the_cap(
    swept: tuple[Store, list[Cell]],
) -> None:
    store, (lopsided, even) = swept
    # greedy beats random at Unstackable every time: 40 wins in 40 games, ±0.045, is precise
    # enough at the first check
    assert (lopsided.metric, lopsided.stopped, lopsided.checked) == ("bot", "precise", BATCH)
    assert lopsided.measure(BATCH) == (BATCH, BATCH)
    assert lopsided.half_width(BATCH) <= PRECISION
    # random against itself is near a coin flip for seat 0: it never gets there by 200
    assert (even.metric, even.stopped, even.checked) == ("seat", "cap", CAP)
    assert even.half_width(CAP) > PRECISION
    df = store.read()
    assert df.groupby("job").size().to_dict() == {lopsided.job.id: BATCH, even.job.id: CAP}
    assert sorted(df.loc[df["job"] == even.job.id, "seed"]) == list(range(3, 3 + CAP))


def test_a_resumed_sweep_replays_nothing_and_stops_at_the_same_points(
    swept: tuple[Store, list[Cell]],
) -> None:
    store, first = swept
    stored = store.read()
    cells = make_cells("unstackable", [["greedy", "random"], ["random"]], {}, seed=3)
    again = sweep(cells, store, precision=PRECISION, max_games=CAP, batch=BATCH)
    assert [(c.stopped, c.checked) for c in again] == [(c.stopped, c.checked) for c in first]
    assert store.read()["seconds"].equals(stored["seconds"])


def test_grid_values_read_like_options() -> None:
    assert grid_values("variants", ",bridging,draw3") == [[], ["bridging"], ["draw3"]]
    assert grid_values("rounds", "1,3") == [1, 3]
    cells = make_cells("cubed", [["random"]], {"variants": [[], ["void"]], "rounds": [1, 3]})
    assert [(c.options["variants"], c.options["rounds"]) for c in cells] == [
        ([], 1),
        ([], 3),
        (["void"], 1),
        (["void"], 3),
    ]
    with pytest.raises(ValueError, match="the same setting twice"):
        make_cells("cubed", [["random"]], {"rounds": [1, 1]})


def test_a_sweep_file_and_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "sweep.toml"
    config.write_text(
        'game = "cubes"\nbots = ["random"]\nmax_games = 30\nbatch = 15\nprecision = 0.01\n'
        "[options]\nsets = 1\n[grid]\nplayers = [2, 3]\n"
    )
    assert read_config(str(config))["grid"] == {"players": [2, 3]}
    page = tmp_path / "sweep.html"
    out = tmp_path / "sweep.parquet"
    with pytest.raises(SystemExit) as done:
        main(["sweep", "--config", str(config), "--html", str(page), "--out", str(out), "-q"])
    assert done.value.code == 0
    assert Store(out).read().groupby("job").size().tolist() == [30, 30]
    text = page.read_text()
    assert "Sweep: where each cell stopped" in text and "cap of 30" in text
    assert "<h2 id='comparison'>Comparison</h2>" in text
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "cubes", "colour": 1}))
    with pytest.raises(SystemExit) as done:
        main(["sweep", "--config", str(bad)])
    assert done.value.code == 2
    assert "unknown field 'colour'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("precision = nan", "precision must be a number above 0 and at most 0.5"),
        ("precision = inf", "precision must be a number above 0 and at most 0.5"),
        ("precision = 0.9", "precision must be a number above 0 and at most 0.5"),
        ("precision = true", "precision must be a number above 0 and at most 0.5"),
        ("max_games = 1e99", "max_games must be a whole number of at least 1"),
        ("max_games = 0", "max_games must be a whole number of at least 1"),
        ("batch = 2.5", "batch must be a whole number of at least 1"),
        ('seed = "x"', "seed must be a whole number"),
        ('rotate = "no"', "rotate must be true or false"),
        ("metric = 3", 'metric must be a text such as "auto"'),
    ],
)
def test_a_sweep_file_is_held_to_the_bounds_of_the_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    # each of these was read: nan precision played every cell to its cap, 2.5 was cut to 2,
    # "no" was true
    config = tmp_path / "sweep.toml"
    config.write_text(f'game = "cubes"\n{line}\n')
    with pytest.raises(ValueError, match=f"^{config}: {message}$"):
        read_config(str(config))
    assert _refused(config, capsys) == f"cubegames: {config}: {message}\n"
    with pytest.raises(ValueError, match="precision, max_games and batch must be positive"):
        sweep(make_cells("cubes", [["random"]], {}), precision=float("nan"))


def test_a_sweep_file_too_large_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # it was read whole: `--config /dev/zero` filled the memory until the system killed it
    config = tmp_path / "sweep.toml"
    config.write_text('game = "cubes"\n' + "#" * 1_000_000 + "\n")
    message = "too large to read (more than 1,000,000 bytes)"
    with pytest.raises(ValueError, match=f"^{config}: {re.escape(message)}$"):
        read_config(str(config))
    assert _refused(config, capsys) == f"cubegames: {config}: {message}\n"


def test_a_grid_value_the_game_refuses_names_its_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `variants = ["", "bridging"]` (the command line's way, in a file) was refused as
    # "variants must be a list", naming neither the grid nor the value
    config = tmp_path / "sweep.toml"
    config.write_text('game = "cubed"\nbots = ["random"]\n[grid]\nvariants = ["", "bridging"]\n')
    said = _refused(config, capsys)
    assert said == "cubegames: the grid's setting variants = '': variants must be a list\n"
    # a cell without a grid keeps the game's own words
    with pytest.raises(ValueError, match=r"^unknown bot 'nobot'"):
        make_cells("cubes", [["nobot"]], {})


def _refused(config: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What `cubegames sweep --config CONFIG` says on stderr as it exits with status 2."""
    with pytest.raises(SystemExit) as done:
        main(["sweep", "--config", str(config), "-q"])
    assert done.value.code == 2
    return capsys.readouterr().err
