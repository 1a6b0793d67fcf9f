"""The report's plots, drawn with matplotlib (Agg, no display needed) as PNG bytes, with the
helpers of `cubegames.kit.plots`. A game's own plots are drawn by its report section
(`GameInfo.report`), which lists them in `setting.extras["plots"]`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cubegames.core.registry import lower_is_better
from cubegames.kit.plots import COLOURS, WIDE, png
from cubegames.kit.plots import bins as _bins
from cubegames.kit.plots import errors as _errors
from cubegames.kit.plots import figure as _figure
from cubegames.kit.plots import percent as _percent
from cubegames.sim.analysis import Setting, fair

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def seats(setting: Setting) -> bytes:
    """Win rate of each seat with its 95% interval, against the fair share."""
    fig, (ax,) = _figure((max(4.0, 1.1 * setting.players + 2), 3.4))
    rates = setting.seats
    xs = range(len(rates))
    ax.bar(xs, [r.rate for r in rates], color=COLOURS[0], width=0.6)
    ax.errorbar(
        xs, [r.rate for r in rates], yerr=_errors(rates), fmt="none", ecolor="#212529", capsize=5
    )
    share = fair(setting.players)
    if share is not None:
        ax.axhline(
            share, color="#e03131", linestyle="--", linewidth=1, label=f"fair share {share:.0%}"
        )
        ax.legend(frameon=False, loc="upper right")
    ax.set_xticks(list(xs), [f"seat {s}" for s in xs])
    ax.set_ylabel("win rate")
    ax.set_ylim(0, min(1.0, max(r.interval[1] for r in rates) * 1.25 + 0.02))
    _percent(ax)
    ax.set_title("Win rate by seat (95% CI)")
    return png(fig)


def bot_seats(setting: Setting) -> bytes:
    """Each bot's win rate in each seat, with 95% intervals."""
    bots = setting.bots
    players = setting.players
    fig, (ax,) = _figure((max(5.0, 1.4 * players + 3), 3.6))
    width = 0.8 / len(bots)
    top = 0.0
    for b, rate in enumerate(bots):
        per_seat = setting.bot_seats[rate.label]
        xs = [s + (b - (len(bots) - 1) / 2) * width for s in range(players)]
        present = [(x, r) for x, r in zip(xs, per_seat, strict=True) if r.n]
        if not present:
            continue
        px, pr = zip(*present, strict=True)
        ax.bar(
            px,
            [r.rate for r in pr],
            width=width * 0.92,
            color=COLOURS[b % len(COLOURS)],
            label=rate.label,
        )
        ax.errorbar(
            px, [r.rate for r in pr], yerr=_errors(pr), fmt="none", ecolor="#212529", capsize=3
        )
        top = max(top, *(r.interval[1] for r in pr))
    share = fair(players)
    if share is not None:
        ax.axhline(share, color="#e03131", linestyle="--", linewidth=1)
    ax.set_xticks(range(players), [f"seat {s}" for s in range(players)])
    ax.set_ylim(0, min(1.0, top * 1.2 + 0.02))
    _percent(ax)
    ax.set_ylabel("win rate")
    ax.legend(
        frameon=False,
        fontsize="small",
        ncols=min(5, len(bots)),
        loc="upper center",
        bbox_to_anchor=(0.5, -0.1),
    )
    ax.set_title("Each bot's win rate by seat (95% CI; dashed: fair share)")
    return png(fig)


def distributions(setting: Setting) -> bytes:
    """Scores (per bot, or per seat when one bot fills every seat) and game length."""
    fig, (left, right) = _figure(WIDE, cols=2)
    frame = setting.seat_frame()
    key = "bot" if len(setting.bots) > 1 else "seat"
    groups = [
        (str(k) if key == "bot" else f"seat {k}", g["score"])
        for k, g in frame.groupby(key, sort=False)
    ]
    bins = _bins(frame["score"])
    for i, (label, values) in enumerate(groups):
        left.hist(
            values,
            bins=bins,
            histtype="step",
            linewidth=1.6,
            color=COLOURS[i % len(COLOURS)],
            label=label,
            density=True,
        )
    left.set_xlabel("score" + (" (lower is better)" if lower_is_better(setting.game) else ""))
    left.set_ylabel("share of games")
    left.legend(frameon=False, fontsize="small")
    left.set_title("Scores")
    turns = setting.df["turns"]
    right.hist(turns, bins=_bins(turns), color=COLOURS[2], alpha=0.85)
    assert setting.turns is not None
    right.axvline(
        setting.turns.mean,
        color="#212529",
        linestyle="--",
        linewidth=1,
        label=f"mean {setting.turns.mean:.1f}",
    )
    right.set_xlabel("turns")
    right.set_ylabel("games")
    right.legend(frameon=False, fontsize="small")
    right.set_title("Game length")
    return png(fig)


def comparison(items: Sequence[Setting]) -> bytes:
    """Several settings side by side: seat 0's win rate (and the first bot's), and length."""
    from matplotlib.ticker import PercentFormatter

    labels = [textwrap.fill(s.label, 34) for s in items]
    lines = sum(label.count("\n") + 1 for label in labels)
    height = max(3.0, 0.3 * lines + 0.25 * len(items) + 1.4)
    fig, (left, right) = _figure((9.0, height), cols=2, sharey=True)
    ys = list(range(len(items)))[::-1]
    both = all(len(s.bots) > 1 for s in items)
    series = [("seat 0", [s.seats[0] for s in items], "o", 0.0)]
    if both:
        series.append(("first bot of the lineup", [s.bots[0] for s in items], "s", -0.2))
    for i, (label, rates, marker, shift) in enumerate(series):
        left.errorbar(
            [r.rate for r in rates],
            [y + shift for y in ys],
            xerr=_errors(rates),
            fmt=marker,
            color=COLOURS[i],
            capsize=4,
            label=label,
        )
    # each row's own fair share, drawn across its row only (settings may differ in players)
    for y, s in zip(ys, items, strict=True):
        share = fair(s.players)
        if share is not None:
            left.plot([share, share], [y - 0.4, y + 0.4], color="#e03131", linestyle="--", lw=1)
    left.set_yticks(ys, labels, fontsize="small")
    left.xaxis.set_major_formatter(PercentFormatter(1.0))
    left.set_xlabel("win rate (95% CI; dashed: fair share)")
    if both:
        left.legend(frameon=False, fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.2))
    left.set_title("Seat 0 wins" if not both else "Who wins")
    right.boxplot(
        [s.df["turns"] for s in items],
        positions=ys,
        orientation="horizontal",
        widths=0.5,
        showfliers=False,
        manage_ticks=False,
        showmeans=True,
        meanprops={"marker": "D", "markerfacecolor": "#212529", "markeredgecolor": "#212529"},
    )
    right.tick_params(labelleft=False)
    right.set_xlabel("turns per game (◆ mean, | median)")
    right.set_title("Game length")
    for ax in (left, right):
        ax.grid(axis="x", color="#dee2e6", linewidth=0.6)
        ax.set_ylim(-0.7, len(items) - 0.3)
    return png(fig)


#: how far a row's seats spread up and down from it, in rows, and the height in inches a
#: seat's numbered marker needs (x-small text in a circle) to stay clear of its neighbour's
SPREAD = 0.38
MARKER_INCHES = 0.17


def seat_balance(items: Sequence[Setting]) -> bytes:
    """Every seat's win rate in every setting, one row per setting: each seat a numbered
    marker with its 95% interval, the row's own fair share dashed across that row only."""
    return png(seat_balance_figure(items))


def seat_balance_figure(items: Sequence[Setting]) -> Figure:
    """The figure of `seat_balance`. Each row is tall enough for its seats' markers to
    stand apart: ten seats with close rates (most CUBES seats win a few percent) were
    drawn on top of one another in a row sized for its label."""
    from matplotlib.ticker import PercentFormatter

    labels = [textwrap.fill(s.label, 34) for s in items]
    lines = sum(label.count("\n") + 1 for label in labels)
    seats = max(len(s.seats) for s in items)
    row = MARKER_INCHES * (seats - 1) / (2 * SPREAD) + MARKER_INCHES
    height = max(2.6, 0.35 * lines + 0.45 * len(items) + 1.2, row * len(items) + 1.2)
    fig, (ax,) = _figure((9.0, height))
    ys = list(range(len(items)))[::-1]
    top = 0.0
    for y, s in zip(ys, items, strict=True):
        share = fair(s.players)
        if share is not None:
            reach = SPREAD + 0.05
            ax.plot([share, share], [y - reach, y + reach], color="#e03131", linestyle="--", lw=1)
        n = len(s.seats)
        for seat, rate in enumerate(s.seats):
            # seats spread a little up and down their row so that close rates stay apart
            dy = SPREAD * (0.5 - seat / (n - 1)) * 2 if n > 1 else 0.0
            colour = COLOURS[seat % len(COLOURS)]
            low, high = rate.interval
            ax.plot([low, high], [y + dy, y + dy], color=colour, lw=1.2)
            ax.text(
                rate.rate,
                y + dy,
                str(seat),
                ha="center",
                va="center",
                fontsize="x-small",
                color="white",
                bbox={"boxstyle": "circle,pad=0.2", "fc": colour, "ec": "none"},
            )
            top = max(top, high)
    right = min(1.0, top * 1.1 + 0.02)
    # a little room left of 0%, so that a seat that never won shows its whole marker
    ax.set_xlim(-0.03 * right, right)
    ax.set_ylim(-0.7, len(items) - 0.3)
    ax.set_yticks(ys, labels, fontsize="small")
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(axis="x", color="#dee2e6", linewidth=0.6)
    ax.set_xlabel("win rate of each seat (numbered; line: 95% CI; dashed: the row's fair share)")
    ax.set_title("Seat balance: every seat of every setting")
    return fig
