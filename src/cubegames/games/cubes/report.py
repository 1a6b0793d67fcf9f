"""CUBES' own sections of a simulation report (`GameInfo.report`), from the columns of its
summary (`cubegames.games.cubes.summary`), and the short names its plot gives the rows."""

# pandas ships no type information; its values are typed as Any here.

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cubegames.core.registry import make
from cubegames.games.cubes.game import Cubes
from cubegames.games.cubes.odds import odds
from cubegames.kit.plots import COLOURS, bins, errors, figure, percent, png
from cubegames.kit.report import Rate, Section, Spread, Table, decisive_digits, fair

if TYPE_CHECKING:
    import pandas as pd

#: short names for the rows of the table, to fit under a bar of the report's plot
ROW_LABELS = {
    "numbers": "numbers\nonly",
    "cubes-few": "CUBES +\n1–2 numbers",
    "cubes-many": "CUBES +\n3+ numbers",
    "cubes-only": "only\nCUBES",
    "blank": "all\nblank",
}


def _percent(value: float, digits: int) -> str:
    return f"{value:.{digits}%}"


def report(setting: Section) -> None:
    """CUBES' section: the exact odds of each row of the rules' table (counted by the engine
    over all 6^6 rolls) beside the share of the simulated rolls that fell in it; set
    lengths; which position after the set's opener wins and goes bust."""
    game = make("cubes", **setting.options)
    assert isinstance(game, Cubes)
    df = setting.df
    total = int(df["rolls"].sum())
    rows = []
    raw = []
    for row in odds(game.edition):
        column = "rolls_" + row.row.value.replace("-", "_")
        seen = int(df[column].sum()) if column in df.columns else 0
        observed = Rate(row.row.value, seen, total)
        low, high = observed.interval
        exact = float(row.probability)
        raw.append(
            {
                "key": row.row.value,
                "label": ROW_LABELS.get(row.row.value, row.row.value),
                "exact": exact,
                "observed": observed,
            }
        )
        digits = decisive_digits(exact, low, high)
        rows.append(
            [
                row.row.title,
                str(row.probability),
                _percent(exact, digits),
                f"{seen:,}",
                f"{_percent(observed.rate, digits)} "
                f"({_percent(low, digits)}–{_percent(high, digits)})",
                "yes" if low <= exact <= high else "NO",
            ]
        )
    setting.extras["odds"] = raw
    setting.extras.setdefault("plots", []).append(
        ("exact and simulated odds, set length", odds_plot)
    )
    setting.tables.append(
        Table(
            f"CUBES: exact odds beside the simulated rolls ({total:,} rolls)",
            [
                "roll",
                "exact probability",
                "≈",
                "rolls seen",
                "share seen (95% CI)",
                "exact inside CI",
            ],
            rows,
            "Exact odds: the engine counts all 6^6 rolls of the edition's dice. About 1 row "
            "in 20 may fall outside its 95% interval by chance alone.",
        )
    )
    sets = int(setting.options.get("sets", 1))
    lengths = [c for c in (f"set{k}_rolls" for k in range(1, sets + 1)) if c in df.columns]
    if lengths:
        import pandas as pd

        pooled: pd.Series[Any] = pd.concat([df[c] for c in lengths], ignore_index=True)
        setting.extras["set_lengths"] = pooled
        rows = [["all sets", Spread.of(pooled).text(), f"{pooled.median():g}"]]
        rows += [
            [f"set {c[3:-6]}", Spread.of(df[c]).text(), f"{df[c].median():g}"] for c in lengths
        ]
        setting.tables.append(
            Table("CUBES: set length in rolls", ["set", "mean (95% CI)", "median"], rows)
        )
    players = setting.players
    share = fair(players)
    n_sets = len(df) * sets
    position = []
    rows = []
    for j in range(players):
        if f"setwin_rel{j}" not in df.columns:
            return
        wins = Rate(f"opener + {j}", float(df[f"setwin_rel{j}"].sum()), n_sets)
        busts = Rate(f"opener + {j}", float(df[f"bust_rel{j}"].sum()), n_sets)
        position.append(wins)
        name = "the opener" if j == 0 else f"{j} after the opener"
        rows.append([name, wins.text(), busts.text(), f"{share:.1%}" if share else "—"])
    setting.extras["set_positions"] = position
    setting.tables.append(
        Table(
            "CUBES: seat advantage within a set (by position after the set's opener)",
            ["position", "set wins (95% CI)", "went bust (95% CI)", "fair share"],
            rows,
            "Every set counts once; a tie for the best score shares the set.",
        )
    )


def odds_plot(setting: Section) -> bytes:
    """CUBES: exact odds of each row beside the simulated share, and set lengths."""
    raw = setting.extras["odds"]
    # the rows' two-line names need room: the left panel takes three fifths of a wider figure
    fig, (left, right) = figure((10.0, 3.8), cols=2, ratios=(3, 2))
    xs = range(len(raw))
    width = 0.38
    left.bar(
        [x - width / 2 for x in xs],
        [r["exact"] for r in raw],
        width=width,
        color="#495057",
        label="exact",
    )
    seen = [r["observed"] for r in raw]
    left.bar(
        [x + width / 2 for x in xs],
        [r.rate for r in seen],
        width=width,
        color=COLOURS[0],
        label="simulated",
    )
    left.errorbar(
        [x + width / 2 for x in xs],
        [r.rate for r in seen],
        yerr=errors(seen),
        fmt="none",
        ecolor="#212529",
        capsize=3,
    )
    left.set_xticks(list(xs), [r.get("label", r["key"]) for r in raw], fontsize="small")
    percent(left)
    left.legend(frameon=False, fontsize="small")
    left.set_title("Rows of the table: exact and simulated")
    lengths = setting.extras.get("set_lengths")
    if lengths is not None and len(lengths):
        right.hist(lengths, bins=bins(lengths), color=COLOURS[2], alpha=0.85)
        right.set_xlabel("rolls in a set")
        right.set_ylabel("sets")
        right.set_title("Set length")
    return png(fig)
