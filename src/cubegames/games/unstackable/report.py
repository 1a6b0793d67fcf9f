"""Unstackable's own section of a simulation report (`GameInfo.report`), from the columns of
its summary (`cubegames.games.unstackable.summary`)."""

# pandas ships no type information; its values are typed as Any here.

from __future__ import annotations

from cubegames.kit.report import Section, Table


def report(setting: Section) -> None:
    """Unstackable's section: the colours in the piles, of winners and the others."""
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
