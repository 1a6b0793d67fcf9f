"""The designer's lab sections of a report, added to every setting after its own tables:
the moves played by kind (with warnings about variants left unused, `sim.moves`), the
design metrics (`sim.metrics`) and a headline line naming the most unbalanced seat; and,
for several settings, seat balance for every seat in one table (`seat_balance_table`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cubegames.sim.analysis import Rate, Setting, Table


def add_lab(setting: Setting) -> None:
    """Add the lab's tables and headline lines to `setting`."""
    from cubegames.sim.metrics import add_metrics
    from cubegames.sim.moves import add_move_kinds

    line = unbalanced_line(setting)
    if line is not None:
        setting.headline.append(line)
    add_move_kinds(setting)
    add_metrics(setting)


def unbalanced_line(setting: Setting) -> str | None:
    """With three or more seats, the seat furthest from its fair share, in words (with
    two, seat 0's line already says it: seat 1 is its mirror)."""
    from cubegames.sim.analysis import fair

    share = fair(setting.players)
    if share is None or setting.players < 3 or not setting.seats:
        return None
    worst = max(range(setting.players), key=lambda s: abs(setting.seats[s].rate - share))
    rate = setting.seats[worst]
    low, high = rate.interval
    gap = (rate.rate - share) * 100
    side = "above" if gap > 0 else "below"
    clear = low > share or high < share
    best = max(range(setting.players), key=lambda s: setting.seats[s].rate)
    least = min(range(setting.players), key=lambda s: setting.seats[s].rate)
    spread = (
        f"seat {best} wins most ({setting.seats[best].rate:.1%}), "
        f"seat {least} least ({setting.seats[least].rate:.1%})"
    )
    if not clear:
        return (
            f"No seat is clearly off its fair share of {share:.1%} at this sample size; "
            f"the furthest is seat {worst}, {rate.text()}; {spread}."
        )
    return (
        f"The most unbalanced seat is seat {worst}: it wins {rate.text()}, {abs(gap):.1f} "
        f"percentage points {side} its fair share of {share:.1%}; {spread}."
    )


def seat_balance_table(items: Sequence[Setting]) -> Table:
    """Every seat's win rate in every setting, one row per setting, with a chi-square test
    of equal shares."""
    from cubegames.sim.analysis import Table
    from cubegames.sim.compare import p_text, seat_balance

    widest = max(s.players for s in items)
    rows = []
    for s in items:
        test = seat_balance([r.wins for r in s.seats], s.games)
        cells = [_short(s.seats[k]) if k < s.players else "—" for k in range(widest)]
        chi = "—" if math.isnan(test.chi2) else f"{test.chi2:.1f}"
        rows.append([s.label, str(s.players), *cells, chi, p_text(test.p)])
    return Table(
        "Seat balance: every seat of every setting",
        ["setting", "players", *(f"seat {k}" for k in range(widest)), "chi-square", "p-value"],
        rows,
        "Win rate of each seat (95% CI, in percent); chi-square test of the seats' win "
        "totals against equal shares: a small p-value means the seats are not balanced.",
    )


def _short(rate: Rate) -> str:
    """`24.2 (18.8–30.6)`: a rate in percent with its interval, short enough for a table
    of ten seats."""
    low, high = rate.interval
    return f"{rate.rate:.1%} ({low * 100:.1f}–{high * 100:.1f})"
