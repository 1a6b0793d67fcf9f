"""The report: the answer first, the figures behind it, the same numbers in HTML and terminal."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

import cubegames
from cubegames.cli import main
from cubegames.games.cubed import Cubed
from cubegames.games.cubed.pieces import PieceKind
from cubegames.games.cubes import Cubes
from cubegames.games.cubes.odds import odds
from cubegames.games.cubes.report import ROW_LABELS
from cubegames.kit.report import decisive_digits
from cubegames.kit.stats import wilson
from cubegames.sim.analysis import settings
from cubegames.sim.job import Job, make_job
from cubegames.sim.report import html_report, print_report
from cubegames.sim.simulate import simulate
from cubegames.sim.store import Store


def frame(*jobs_and_games: tuple[Job, int]) -> pd.DataFrame:
    rows = []
    for job, n in jobs_and_games:
        rows += simulate(job, n).rows
    return pd.DataFrame(rows)


def interval(wins: float, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins / n:.1%} ({low:.1%}–{high:.1%})"


def cells(page: str) -> list[list[str]]:
    """Every table row of the page as its cells' text."""
    rows = [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", page)]
    return [[html.unescape(c) for c in row] for row in rows if row]


def terminal(df: pd.DataFrame) -> str:
    console = Console(record=True, width=250)
    print_report(settings(df), console)
    return console.export_text()


@pytest.fixture(scope="module")
def duel() -> pd.DataFrame:
    return frame((make_job("unstackable", ["greedy", "random"], seed=1), 24))


def test_the_page_answers_who_wins_and_by_how_much(duel: pd.DataFrame) -> None:
    page = html_report(settings(duel), ["duel.parquet"])
    greedy = sum(
        r[f"win_{s}"] for r in duel.to_dict("records") for s in (0, 1) if r[f"bot_{s}"] == "greedy"
    )
    headline = page[page.index("<div class='headline'>") : page.index("</div>")]
    assert f"greedy wins most: {interval(greedy, 24)} of the games it sat in" in headline
    assert "percentage points" in headline
    for section in ("Who wins", "Scores and game length", "Unstackable in detail"):
        assert f"<h3>{section}</h3>" in page
    for title in ("Win rate by seat", "Win rate by bot", "Mean score (95% CI)", "Game length"):
        assert f"<h4>{title}</h4>" in page
    seat0 = duel["win_0"].sum()
    assert [
        "0",
        "24",
        f"{seat0:.1f}",
        interval(seat0, 24),
        "50.0%",
        f"{seat0 / 24 - 0.5:+.1%}",
    ] in cells(page)
    # self-contained: plots are embedded, nothing is fetched
    assert page.count('src="data:image/png;base64,') == 3
    assert "http://" not in page and "https://" not in page


def test_the_terminal_shows_the_same_numbers(duel: pd.DataFrame) -> None:
    page = html_report(settings(duel), ["duel.parquet"])
    text = terminal(duel)
    for row in cells(page):
        for cell in row:
            assert cell in text


def test_several_settings_are_compared_side_by_side() -> None:
    plain = make_job("cubed", ["random"], options={"rounds": 1}, seed=2)
    bridging = make_job(
        "cubed", ["random"], options={"rounds": 1, "variants": ["bridging"]}, seed=2
    )
    df = frame((plain, 30), (bridging, 30))
    items = settings(df)
    assert [s.label for s in items] == ["variants=none", "variants=bridging"]
    page = html_report(items, ["a", "b"])
    assert "<h2 id='comparison'>Comparison</h2>" in page
    table = cells(page[page.index("Settings side by side") :])
    for label, job in (("variants=none", plain), ("variants=bridging", bridging)):
        rows = df[df["job"] == job.id]
        line = next(r for r in table if r[0] == label)
        assert line[1] == "30"
        assert line[2] == interval(rows["win_0"].sum(), 30)
    assert "Settings share their seeds" in page


def test_cubed_leftovers_stand_against_the_points_chart() -> None:
    df = frame((make_job("cubed", ["random"], options={"rounds": 1}, seed=4), 40))
    page = html_report(settings(df), ["x"])
    game = cubegames.make("cubed")
    assert isinstance(game, Cubed)
    edition = game.edition
    chart = {kind.value: points for kind, points in edition.points.items()}
    assert chart == {"single": 1, "double": 2, "triple": 3, "blocking": 5, "wild": 10}
    table = cells(page[page.index("Pieces left in hand against the points chart") :])
    for kind, points in chart.items():
        line = next(r for r in table if r[0] == kind)
        left = (df[f"left_{kind}_s0"].sum() + df[f"left_{kind}_s1"].sum()) / 80
        assert line[1:4] == [str(points), str(edition.kind_counts[PieceKind(kind)]), f"{left:.2f}"]
    # the plot its report section lists, drawn in the game's part of the page
    assert '<img alt="pieces left in hand by kind" src="data:image/png;base64,' in page


def test_cubes_exact_odds_stand_beside_the_simulated_rolls() -> None:
    df = frame((make_job("cubes", ["random"], players=3, seed=9), 60))
    page = html_report(settings(df), ["x"])
    table = cells(page[page.index("CUBES: exact odds beside the simulated rolls") :])
    game = cubegames.make("cubes")
    assert isinstance(game, Cubes)
    exact = odds(game.edition)
    total = int(df["moves"].sum())  # every move of CUBES is a roll
    assert f"({total:,} rolls)" in page
    counted = 0
    for row in exact:
        seen = int(df["rolls_" + row.row.value.replace("-", "_")].sum())
        counted += seen
        line = next(r for r in table if r[0] == row.row.title)
        # as many decimals as it takes to see whether the exact odds are inside
        low, high = wilson(seen, total)
        d = decisive_digits(float(row.probability), low, high)
        assert line[:5] == [
            row.row.title,
            str(row.probability),
            f"{float(row.probability):.{d}%}",
            f"{seen:,}",
            f"{seen / total:.{d}%} ({low:.{d}%}–{high:.{d}%})",
        ]
    assert counted == total
    # the game's own section, in its package, names the rows for its plot
    (setting,) = settings(df)
    assert [r["label"] for r in setting.extras["odds"]] == [ROW_LABELS[r.row.value] for r in exact]
    assert ROW_LABELS["cubes-few"] == "CUBES +\n1–2 numbers"
    assert [c for c, _ in setting.extras["plots"]] == ["exact and simulated odds, set length"]
    assert '<img alt="exact and simulated odds, set length" src="data:image/png' in page
    assert "CUBES: set length in rolls" in page
    assert "seat advantage within a set" in page


def test_report_command_writes_the_page_and_prints_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = Store(tmp_path / "a.parquet")
    second = Store(tmp_path / "b.csv")
    solo = Store(tmp_path / "solo.csv")
    simulate(make_job("cubes", ["random"], seed=1), 20, first)
    simulate(make_job("cubes", ["random"], players=3, seed=1), 20, second)
    simulate(make_job("cubed", ["random"], players=1, seed=1), 10, solo)
    page = tmp_path / "r.html"
    files = [str(store.path) for store in (first, second, solo)]
    with pytest.raises(SystemExit) as done:
        main(["report", *files, "--html", str(page)])
    assert done.value.code == 0
    out, err = capsys.readouterr()
    assert "Settings side by side" in out and "Win rate by seat" in out
    assert err.strip() == f"wrote {page}"
    text = page.read_text()
    assert "<h2 id='comparison'>Comparison</h2>" in text
    assert "The solo player won" in text
    assert "cubed · edition=en · players=1" in text  # what differs between the settings


def test_a_first_seat_advantage_is_named_with_its_size() -> None:
    # two players, three sets: seat 0 opens sets 1 and 3, and the opener wins sets more often
    df = frame((make_job("cubes", ["random"], seed=0), 600))
    (cubes,) = settings(df)
    first = cubes.seats[0]
    assert first.interval[0] > 0.5
    assert cubes.headline[-1] == (
        f"Seat 0 wins {first.text()} against a fair share of 50.0%: a first-seat advantage "
        f"of {(first.rate - 0.5) * 100:.1f} percentage points."
    )
    opener = next(t for t in cubes.tables if t.title.startswith("CUBES: seat advantage"))
    assert opener.rows[0][0] == "the opener"


def test_each_bots_thinking_time_is_recorded_and_reported(duel: pd.DataFrame) -> None:
    for row in duel.to_dict("records"):
        assert row["think_0"] >= 0 and row["think_1"] >= 0
        assert row["think_0"] + row["think_1"] <= row["seconds"]
    (setting,) = settings(duel)
    (table,) = [t for t in setting.tables if t.title == "Thinking time by bot"]
    assert [r[0] for r in table.rows] == ["greedy", "random"]
    greedy = pd.concat([duel.loc[duel[f"bot_{s}"] == "greedy", f"think_{s}"] for s in (0, 1)])
    assert table.rows[0][1].startswith(f"{greedy.mean():.3f} (")
    assert "Thinking time by bot" in terminal(duel)
    assert "Thinking time" in html_report(settings(duel), ["duel.parquet"])
