"""The report's lab additions: the most unbalanced seat named, every seat of every setting
in one table and plot, the odds digits that decide, tables that fit a desktop screen."""

from __future__ import annotations

import pandas as pd

from cubegames.kit.report import decisive_digits
from cubegames.sim.analysis import settings
from cubegames.sim.job import make_job
from cubegames.sim.lab import seat_balance_table
from cubegames.sim.report import html_report
from cubegames.sim.simulate import simulate


def _rows(players: int, n: int = 40) -> pd.DataFrame:
    job = make_job("cubes", ["random"], players=players, options={"sets": 1}, seed=1)
    return pd.DataFrame(simulate(job, n).rows)


def test_the_headline_names_the_most_unbalanced_seat_not_only_seat_0() -> None:
    df = _rows(4)
    for s in range(4):  # plant it: seat 3 wins every game
        df[f"win_{s}"] = 1.0 if s == 3 else 0.0
    (setting,) = settings(df)
    line = next(x for x in setting.headline if "unbalanced" in x)
    assert line.startswith("The most unbalanced seat is seat 3: it wins 100.0%")
    assert "75.0 percentage points above its fair share of 25.0%" in line


def test_every_seat_of_every_setting_is_in_one_table_and_plot() -> None:
    df = pd.concat([_rows(2), _rows(5)], ignore_index=True)
    items = settings(df)
    table = seat_balance_table(items)
    assert table.columns[2:7] == [f"seat {k}" for k in range(5)]
    assert [row[1] for row in table.rows] == ["2", "5"]
    assert table.rows[0][4] == "—"  # a 2-player setting has no seat 2
    page = html_report(items, ["test"])
    assert "Seat balance: every seat of every setting" in page
    assert 'alt="seat balance of every setting"' in page
    # wide tables scroll in their own box rather than being cut off at the page's edge
    assert "<div class='wide'><table>" in page


def test_odds_show_the_digits_that_decide() -> None:
    def shown(value: float, digits: int) -> float:
        return round(value * 100, digits)

    cases = [
        (0.015625, 0.0157, 0.0159),  # just outside: NO must be visible in the digits
        (0.015625, 0.01563, 0.0157),
        (0.015625, 0.01550, 0.01562),
        (0.015625, 0.0150, 0.0160),  # inside
        (0.3193, 0.2985, 0.3282),
    ]
    for exact, low, high in cases:
        d = decisive_digits(exact, low, high)
        a, b, e = shown(low, d), shown(high, d), shown(exact, d)
        assert a < b
        assert (a <= e <= b) == (low <= exact <= high), (exact, low, high, d)


def test_the_seat_balance_plot_keeps_every_seat_marker_apart() -> None:
    # ten CUBES seats: most win a few percent, so their markers sit at nearly the same
    # rate and only the row's height keeps them apart (they were drawn on each other)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cubegames.sim.plots import seat_balance_figure

    items = settings(pd.concat([_rows(2), _rows(6), _rows(10)], ignore_index=True))
    fig = seat_balance_figure(items)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    (ax,) = fig.axes
    boxes = [t.get_bbox_patch().get_window_extent(renderer) for t in ax.texts]
    assert len(boxes) == 2 + 6 + 10
    overlapping = [
        (i, j) for i, a in enumerate(boxes) for j, b in enumerate(boxes) if i < j and a.overlaps(b)
    ]
    assert overlapping == []


def test_a_seat_that_never_won_shows_its_whole_marker_and_lineups_read_short() -> None:
    """A seat at 0% sat on the plot's left edge, its numbered marker cut in half; and a
    lineup of one bot in every seat is labelled with its count, not the name ten times."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cubegames.sim.plots import seat_balance_figure

    df = _rows(10)
    df["win_9"] = 0.0  # plant it: seat 9 never wins
    (setting,) = settings(df)
    assert setting.label == "cubes: random ×10"
    fig = seat_balance_figure([setting])
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    (ax,) = fig.axes
    marker = ax.texts[9].get_bbox_patch().get_window_extent(canvas.get_renderer())
    assert marker.x0 >= ax.get_window_extent().x0
