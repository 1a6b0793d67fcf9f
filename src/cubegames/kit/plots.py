"""What the report's plots are drawn with (matplotlib, Agg: no display needed), the game
sections' plots included: figures, error bars, percentage axes, bins, PNG bytes.

Figures are built with `matplotlib.figure.Figure` directly rather than through `pyplot`, so
nothing global is touched and no window is ever opened.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cubegames.kit.report import Rate

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: a calm palette that stays readable in grey
COLOURS = ["#1c7ed6", "#f08c00", "#2f9e44", "#c2255c", "#7048e8", "#0c8599", "#5c940d"]
WIDE = (8.0, 3.6)


def figure(
    size: tuple[float, float] = WIDE,
    cols: int = 1,
    *,
    sharey: bool = False,
    ratios: tuple[float, ...] | None = None,
) -> tuple[Figure, list[Axes]]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, layout="constrained")
    grid = {"width_ratios": list(ratios)} if ratios is not None else None
    axes = fig.subplots(1, cols, squeeze=False, sharey=sharey, gridspec_kw=grid)[0]
    for ax in axes:
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", color="#dee2e6", linewidth=0.6)
        ax.set_axisbelow(True)
    return fig, list(axes)


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes."""
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=100)
    return out.getvalue()


def errors(rates: Sequence[Rate]) -> list[list[float]]:
    # clipped at 0: at a rate of 0 or 1 the interval's end may differ by a rounding error
    lows = [max(0.0, r.rate - r.interval[0]) for r in rates]
    highs = [max(0.0, r.interval[1] - r.rate) for r in rates]
    return [lows, highs]


def percent(ax: Axes) -> None:
    from matplotlib.ticker import PercentFormatter

    ax.yaxis.set_major_formatter(PercentFormatter(1.0))


def bins(values: Any) -> Any:
    """Histogram bins: one per whole number over a short whole range, else 30."""
    import numpy as np

    low, high = float(np.min(values)), float(np.max(values))
    if float(high).is_integer() and float(low).is_integer() and high - low <= 60:
        return np.arange(low - 0.5, high + 1.5, 1.0)
    return np.linspace(low, high if high > low else low + 1, 31)
