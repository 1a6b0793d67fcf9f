"""Game-specific sections of a report, from the columns of `cubegames.sim.summaries`.

A game names its section's function in its facts (`GameInfo.report`); the built-in four
name the functions below.

- CUBED: the pieces left in hand by kind, against the points chart of the edition, and how
  often a player holding a kind at the end still won.
- CUBES: the exact odds of each row of the rules' table (counted by the engine over all
  6^6 rolls) beside the share of the simulated rolls that fell in it; set lengths; which
  position after the set's opener wins and goes bust.
- STAKD: pieces left in hand and laid in the last round, by type.
- Unstackable: the colours in the piles.
"""

# pandas and pyarrow ship no type information; they are typed as Any here.

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import cubegames
from cubegames.core.registry import info
from cubegames.sim.analysis import Rate, Setting, Spread, Table, fair

if TYPE_CHECKING:
    import pandas as pd


def add_extras(setting: Setting) -> None:
    """Add the game's own tables (and raw numbers for its plots) to `setting`, by the
    function its facts name (`GameInfo.report`, "module:function"); nothing for a game
    that names none or is no longer registered."""
    try:
        where = info(setting.game).report
    except ValueError:
        return
    if not where:
        return
    module, _, name = where.partition(":")
    extra: Callable[[Setting], None] = getattr(importlib.import_module(module), name)
    extra(setting)


def cubed(setting: Setting) -> None:
    from cubegames.games.cubed import Cubed

    game = cubegames.make("cubed", **setting.options)
    assert isinstance(game, Cubed)
    edition = game.edition
    seats = setting.seat_frame()
    kinds = [k for k in edition.points if f"left_{k.value}" in seats.columns]
    if not kinds:
        return
    rows = []
    raw = []
    total_points = sum(seats[f"left_{k.value}"].mean() * edition.points[k] for k in kinds)
    for kind in kinds:
        left = seats[f"left_{kind.value}"]
        points = edition.points[kind]
        holding = seats[left > 0]
        free = seats[left == 0]
        held = Rate("holding", float(holding["win"].sum()), len(holding))
        clear = Rate("not holding", float(free["win"].sum()), len(free))
        mean_points = float(left.mean()) * points
        raw.append(
            {
                "kind": kind.value,
                "points": points,
                "box": edition.kind_counts.get(kind, 0),
                "left": float(left.mean()),
                "points_left": mean_points,
                "held": held,
                "clear": clear,
            }
        )
        rows.append(
            [
                kind.value,
                str(points),
                str(edition.kind_counts.get(kind, 0)),
                f"{left.mean():.2f}",
                f"{mean_points:.2f}",
                f"{mean_points / total_points:.0%}" if total_points else "—",
                f"{(left > 0).mean():.1%}",
                held.text() if held.n else "—",
                clear.text() if clear.n else "—",
            ]
        )
    setting.extras["leftovers"] = raw
    setting.tables.append(
        Table(
            f"Pieces left in hand against the points chart ({edition.name})",
            [
                "kind",
                "points",
                "in box",
                "left per player",
                "points per player",
                "share of points",
                "held by",
                "wins when held",
                "wins when not",
            ],
            rows,
            "Counted at the end of the game (in a match of several rounds, its last round); "
            "'held by': the share of players holding at least one. A kind whose holders "
            "still win about as often as the others costs less than its points suggest.",
        )
    )
    ends = [c for c in setting.df.columns if c.startswith("end_")]
    rounds = float(setting.df["rounds"].sum()) if "rounds" in setting.df.columns else 0.0
    if ends and rounds:
        setting.tables.append(
            Table(
                "How rounds ended",
                ["ending", "rounds", "share"],
                [
                    [
                        c[4:].replace("_", " "),
                        f"{int(setting.df[c].sum()):,}",
                        f"{setting.df[c].sum() / rounds:.1%}",
                    ]
                    for c in ends
                    if setting.df[c].sum()
                ],
            )
        )


def _percent(value: float, digits: int) -> str:
    return f"{value:.{digits}%}"


def decisive_digits(exact: float, low: float, high: float) -> int:
    """Decimals of a percentage that show what decides "exact inside the interval": the
    fewest (at least 2) at which the interval's ends differ and the exact value, written
    the same way, falls inside the written interval exactly when it falls inside the true
    one (so 1.56% is never shown beside an interval printed as 1.6%–1.6%).

    >>> decisive_digits(0.015625, 0.01563, 0.0157)
    3
    >>> decisive_digits(0.5, 0.4, 0.6)
    2
    """
    inside = low <= exact <= high
    for digits in range(2, 8):
        scale = 10 ** (digits + 2)
        a, b, e = (round(v * scale) for v in (low, high, exact))
        if a < b and (a <= e <= b) == inside and (inside or e not in (a, b)):
            return digits
    return 8


def cubes(setting: Setting) -> None:
    from cubegames.games.cubes import Cubes
    from cubegames.games.cubes.odds import odds

    game = cubegames.make("cubes", **setting.options)
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
        raw.append({"key": row.row.value, "exact": exact, "observed": observed})
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


def stakd(setting: Setting) -> None:
    seats = setting.seat_frame()
    # in the order the position file lists them (the edition's)
    types = [c[5:-3] for c in setting.df.columns if c.startswith("left_") and c.endswith("_s0")]
    if not types:
        return
    rows = []
    for t in types:
        laid = setting.df.get(f"laid_{t}")
        rows.append(
            [
                t,
                f"{seats[f'left_{t}'].mean():.2f}",
                "—" if laid is None else f"{laid.mean():.2f}",
            ]
        )
    setting.tables.append(
        Table(
            "STAKD: pieces by type",
            ["type", "left in hand per player at the end", "in the last round's stack per game"],
            rows,
        )
    )


def unstackable(setting: Setting) -> None:
    seats = setting.seat_frame()
    names = [c for c in seats.columns if c.startswith("pile")]
    if not names:
        return
    winners = seats[seats["win"] > 0]
    losers = seats[seats["win"] == 0]
    rows = [
        [
            name.replace("_", " "),
            f"{seats[name].mean():.2f}",
            f"{winners[name].mean():.2f}" if len(winners) else "—",
            f"{losers[name].mean():.2f}" if len(losers) else "—",
        ]
        for name in names
    ]
    setting.tables.append(
        Table(
            "Unstackable: cubes in the piles per player",
            ["pile and colour", "all players", "winners", "others"],
            rows,
        )
    )
