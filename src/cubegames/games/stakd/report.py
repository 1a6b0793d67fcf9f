"""STAKD's own section of a simulation report (`GameInfo.report`), from the columns of its
summary (`cubegames.games.stakd.summary`)."""

# pandas ships no type information; its values are typed as Any here.

from __future__ import annotations

from cubegames.kit.report import Section, Table


def report(setting: Section) -> None:
    """STAKD's section: pieces left in hand and laid in the last round, by type."""
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
