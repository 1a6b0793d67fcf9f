"""What a game's own sections of a simulation report are written with: win rates and
spreads with their 95% intervals, tables, and `Section`, the setting (one job's games) as a
game's report function sees it. The simulator (`cubegames.sim.analysis`) makes the settings
and calls the function a game's facts name (`GameInfo.report`, see `cubegames.sim.extras`).

>>> Rate("seat 0", 52, 100).text()
'52.0% (42.3%–61.5%)'
"""

# pandas ships no type information; a data frame is typed as Any here.

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from cubegames.kit.stats import mean_interval, wilson

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Rate:
    """A win rate: `wins` (shares of wins) out of `n` games, with its 95% interval."""

    label: str
    wins: float
    n: int

    @property
    def rate(self) -> float:
        """The observed rate (0 when there are no games)."""
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval."""
        return wilson(self.wins, self.n)

    def text(self) -> str:
        """`52.1% (49.0–55.2%)`."""
        low, high = self.interval
        return f"{self.rate:.1%} ({low:.1%}–{high:.1%})"


@dataclass(frozen=True)
class Spread:
    """A sample of numbers: mean with its 95% interval, median and 10th–90th percentiles."""

    mean: float
    low: float
    high: float
    median: float
    p10: float
    p90: float
    n: int

    @classmethod
    def of(cls, values: pd.Series[Any]) -> Spread:
        """The spread of a column."""
        data = [float(v) for v in values.dropna()]
        mean, low, high = mean_interval(data)
        q = values.dropna().astype(float).quantile([0.1, 0.5, 0.9]) if data else None
        if q is None:
            return cls(mean, low, high, float("nan"), float("nan"), float("nan"), 0)
        return cls(mean, low, high, float(q[0.5]), float(q[0.1]), float(q[0.9]), len(data))

    def text(self, digits: int = 1) -> str:
        """`41.2 (40.6–41.8)`."""
        mean, low, high = (_number(v, digits) for v in (self.mean, self.low, self.high))
        return f"{mean} ({low}–{high})"


def _number(value: float, digits: int) -> str:
    """`value` to `digits` places, never written as -0.0."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


@dataclass
class Table:
    """A table of formatted cells, drawn the same in HTML and in the terminal."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""
    #: the part of a setting's report it belongs to: "wins", "length" or "game"
    topic: str = "game"


def fair(players: int) -> float | None:
    """A seat's fair share of the wins (None in solo play, where there is nobody to share
    with)."""
    return 1 / players if players > 1 else None


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


class Section(Protocol):
    """One setting (a job's games) as a game's report function reads and fills it."""

    #: the game id and the options its games were played with
    game: str
    options: dict[str, Any]
    players: int
    #: one row per game (a pandas DataFrame): the common columns and the game's summary's
    df: pd.DataFrame
    #: the tables of the report: a game's function appends its own
    tables: list[Table]
    #: raw numbers for the game's plots (`leftovers`, `odds`, `set_lengths`, ...), and under
    #: `"plots"` the plots themselves: `(caption, draw)` pairs, `draw(setting)` giving PNG
    #: bytes (drawn with `cubegames.kit.plots`)
    extras: dict[str, Any]

    def seat_frame(self) -> pd.DataFrame:
        """One row per seat per game: seat, bot, win share, score, and every column with a
        `_s<seat>` suffix under its bare name."""
        ...
