"""Compare settings on shared seeds: does this variant change who wins?

Every setting (a job: game options and a lineup) plays the same seeds, so game `i` of two
settings deals the same pieces where the options allow, and the difference between them is
measured game by game (*paired*): far fewer games are needed than for two separate runs.
For each measure and each setting after the first: the mean paired difference against the
first setting, its 95% interval (Student's t) and a two-sided p-value (paired t-test), and
one plain sentence. Per setting, a chi-square test of seat balance (win shares by seat
against equal shares). With a precision, games are added a batch at a time until every
difference is known to within it (`compare`); the interval is then the usual one, not
corrected for looking after every batch, so ask for a little more precision than needed.

>>> d = paired([0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0])
>>> round(d.mean, 2), d.n
(0.5, 4)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cubegames.sim.job import Job

#: measures by name: what a game of a setting contributes (see `values`)
SEAT_PREFIX = "seat"
BOT_PREFIX = "bot:"


@dataclass(frozen=True)
class Paired:
    """The mean of paired differences (second minus first) with its 95% interval."""

    mean: float
    low: float
    high: float
    p: float
    n: int

    @property
    def half_width(self) -> float:
        """Half the width of the interval (infinite with fewer than two pairs)."""
        return (self.high - self.low) / 2


def paired(first: Sequence[float], second: Sequence[float]) -> Paired:
    """Paired comparison of `second` against `first` (same length, pair i is game i):
    mean difference, 95% t interval and two-sided paired t-test p-value. With no spread
    at all the interval is the mean itself and p is 1 for a zero difference, else 0."""
    from scipy import stats

    diffs = [b - a for a, b in zip(first, second, strict=True)]
    n = len(diffs)
    if n == 0:
        return Paired(math.nan, -math.inf, math.inf, math.nan, 0)
    mean = math.fsum(diffs) / n
    if n < 2:
        return Paired(mean, -math.inf, math.inf, math.nan, n)
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1))
    if sd == 0:
        return Paired(mean, mean, mean, 1.0 if mean == 0 else 0.0, n)
    half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    t = mean / (sd / math.sqrt(n))
    p = float(2 * stats.t.sf(abs(t), n - 1))
    return Paired(mean, mean - half, mean + half, p, n)


@dataclass(frozen=True)
class Balance:
    """A chi-square test of equal win shares across seats."""

    shares: list[float]
    games: int
    chi2: float
    p: float


def seat_balance(wins: Sequence[float], games: int) -> Balance:
    """Chi-square goodness of fit of the seats' win totals (`wins[s]`, shares of wins)
    against equal shares; p is NaN with one seat or no wins.

    >>> b = seat_balance([60.0, 40.0], 100)
    >>> round(b.chi2, 2), round(b.p, 4)
    (4.0, 0.0455)
    """
    from scipy import stats

    total = math.fsum(wins)
    shares = [w / games if games else math.nan for w in wins]
    if len(wins) < 2 or total <= 0:
        return Balance(shares, games, math.nan, math.nan)
    expected = [total / len(wins)] * len(wins)
    chi2, p = stats.chisquare(list(wins), expected)
    return Balance(shares, games, float(chi2), float(p))


def values(rows: Mapping[int, Mapping[str, Any]], job: Job, measure: str) -> dict[int, float]:
    """Each game's value of `measure`, by the key of `rows`: `seat<k>` seat k's win share;
    `bot:<spec>` the win share of that bot (its mean over the seats it filled); `turns`, `moves`;
    `score<k>`; or any number column of the rows (a game metric such as `m_drama_avg`)."""
    out: dict[int, float] = {}
    for key, row in rows.items():
        if measure.startswith(BOT_PREFIX):
            bot = measure[len(BOT_PREFIX) :]
            mine = [float(row[f"win_{s}"]) for s in range(job.players) if row[f"bot_{s}"] == bot]
            if mine:
                out[key] = math.fsum(mine) / len(mine)
            continue
        if measure.startswith(SEAT_PREFIX) and measure[len(SEAT_PREFIX) :].isdigit():
            column = f"win_{measure[len(SEAT_PREFIX) :]}"
        elif measure.startswith("score") and measure[5:].isdigit():
            column = f"score_{measure[5:]}"
        else:
            column = measure
        value = row.get(column)
        if value is not None and not (isinstance(value, float) and math.isnan(value)):
            out[key] = float(value)
    return out


def check_measure(measure: str, jobs: Sequence[Job]) -> None:
    """ValueError naming a measure that some setting cannot give."""
    for job in jobs:
        if measure.startswith(SEAT_PREFIX) and measure[len(SEAT_PREFIX) :].isdigit():
            seat = int(measure[len(SEAT_PREFIX) :])
            if seat >= job.players:
                raise ValueError(f"measure {measure}: a setting has only {job.players} seats")
        elif measure.startswith(BOT_PREFIX) and measure[len(BOT_PREFIX) :] not in job.lineup:
            raise ValueError(f"measure {measure}: a setting's lineup has no such bot")


def describe(measure: str) -> tuple[str, bool]:
    """A measure in words, and whether it is a rate (differences in points)."""
    if measure.startswith(SEAT_PREFIX) and measure[len(SEAT_PREFIX) :].isdigit():
        return f"seat {measure[len(SEAT_PREFIX) :]}'s win rate", True
    if measure.startswith(BOT_PREFIX):
        return f"{measure[len(BOT_PREFIX) :]}'s win rate", True
    if measure in ("turns", "moves"):
        return f"the game's length in {measure}", False
    if measure.startswith("score") and measure[5:].isdigit():
        return f"seat {measure[5:]}'s score", False
    return measure.removeprefix("m_").replace("_", " "), False


def p_text(p: float) -> str:
    if math.isnan(p):
        return "p not known"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def sentence(measure: str, label: str, base: str, d: Paired) -> str:
    """The comparison in one plain sentence.

    >>> d = Paired(-0.077, -0.091, -0.063, 1e-5, 2000)
    >>> print(sentence("seat0", "bridging", "plain", d))  # doctest: +NORMALIZE_WHITESPACE
    bridging lowers seat 0's win rate by 7.7 points (95% CI 6.3 to 9.1, p < 0.001, 2,000
    paired games) against plain.
    """
    what, rate = describe(measure)
    scale, unit = (100.0, " points") if rate else (1.0, "")
    mean, low, high = d.mean * scale, d.low * scale, d.high * scale
    stats = f"95% CI {{}} to {{}}, {p_text(d.p)}, {d.n:,} paired games"
    clear = low > 0 or high < 0
    if clear:
        verb = "raises" if mean > 0 else "lowers"
        a, b = (low, high) if mean > 0 else (-high, -low)
        return (
            f"{label} {verb} {what} by {abs(mean):.1f}{unit} ("
            + stats.format(f"{a:.1f}", f"{b:.1f}")
            + f") against {base}."
        )
    return (
        f"{label} shows no clear change in {what} against {base}: {mean:+.1f}{unit} ("
        + stats.format(f"{low:.1f}", f"{high:.1f}")
        + ")."
    )


@dataclass
class Comparison:
    """What `compare` found: per setting its rows by game number (game i of every setting
    is paired: the same seed when the settings share their first seed), per measure and
    later setting the paired difference against the first, per setting the seat balance."""

    jobs: list[Job]
    labels: list[str]
    measures: list[str]
    rows: list[dict[int, dict[str, Any]]] = field(default_factory=list)
    differences: dict[tuple[str, int], Paired] = field(default_factory=dict)
    balance: list[Balance] = field(default_factory=list)
    games: int = 0
    stopped: str = ""

    def update(self) -> None:
        """Work the differences and balances out from the rows played so far."""
        shared = set(self.rows[0])
        for rows in self.rows[1:]:
            shared &= set(rows)
        seeds = sorted(shared)
        self.games = len(seeds)
        for measure in self.measures:
            base = values(self.rows[0], self.jobs[0], measure)
            for k in range(1, len(self.jobs)):
                other = values(self.rows[k], self.jobs[k], measure)
                both = [s for s in seeds if s in base and s in other]
                self.differences[measure, k] = paired(
                    [base[s] for s in both], [other[s] for s in both]
                )
        self.balance = []
        for job, rows in zip(self.jobs, self.rows, strict=True):
            wins = [
                math.fsum(float(rows[s][f"win_{p}"]) for s in seeds) for p in range(job.players)
            ]
            self.balance.append(seat_balance(wins, len(seeds)))

    def sentences(self) -> list[str]:
        """One sentence per measure and later setting."""
        return [
            sentence(m, self.labels[k], self.labels[0], self.differences[m, k])
            for m in self.measures
            for k in range(1, len(self.jobs))
        ]

    def precise(self, precision: float) -> bool:
        """Whether every difference's interval is within ±`precision`, in the measures' own
        units (a rate's 0.01 is one point)."""
        return all(d.half_width <= precision for d in self.differences.values())


def _check_values(result: Comparison) -> None:
    """ValueError naming a measure that no game of some setting gave a value for: a column
    the rows lack (a misspelt name; a per-move metric `m_...` of games played by random
    bots alone, which keep no trace) or one that is empty (CUBES has no board coverage).
    Compared as they were, such a measure read "+nan (95% CI -inf to inf, 0 paired games)"."""
    for measure in result.measures:
        for k, (job, rows) in enumerate(zip(result.jobs, result.rows, strict=True)):
            if rows and not values(rows, job, measure):
                raise ValueError(
                    f"measure {measure}: no game of {result.labels[k]} gives it (a column "
                    "of the results; the per-move metrics m_... need bots other than random)"
                )


def _keep(result: Comparison, k: int, row: dict[str, Any]) -> None:
    """File a row of setting `k` under its game's number (seed minus the run's seed)."""
    result.rows[k][int(row["seed"]) - result.jobs[k].seed] = row


def compare(
    jobs: Sequence[Job],
    labels: Sequence[str],
    measures: Sequence[str],
    *,
    games: int = 1000,
    precision: float | None = None,
    max_games: int = 20000,
    batch: int = 200,
    runner: Any = None,
    progress: bool = False,
) -> Comparison:
    """Play every setting on the same seeds and compare them: `games` games each, or with
    a `precision`, batches of `batch` until every paired difference is within ±precision
    (or `max_games`). `runner` is a `sim.runner.Runner` (default: this process)."""
    from cubegames.sim.runner import Runner
    from cubegames.sim.simulate import play_rows

    if len(jobs) < 2:
        raise ValueError("give two or more settings to compare")
    ids = [job.id for job in jobs]
    for k, job_id in enumerate(ids):
        if job_id in ids[:k]:
            raise ValueError(f"settings {ids.index(job_id) + 1} and {k + 1} are the same setting")
    if precision is not None and not (math.isfinite(precision) and precision > 0):
        raise ValueError(f"precision {precision:g}: give a finite number above 0")
    for measure in measures:
        check_measure(measure, jobs)
    result = Comparison(list(jobs), list(labels), list(measures))
    result.rows = [{} for _ in jobs]
    own = runner is None
    runner = runner or Runner()
    try:
        target = games if precision is None else min(batch, max_games)
        done = 0
        owner = {job.id: k for k, job in enumerate(jobs)}
        while True:
            todo = [(job, job.match(i)) for job in jobs for i in range(done, target)]
            play_rows(
                todo,
                None,
                runner,
                progress=progress,
                description=f"compare: games {done + 1:,} to {target:,}",
                on_row=lambda row: _keep(result, owner[row["job"]], row),
            )
            first, done = done == 0, target
            result.update()
            if first:
                _check_values(result)
            if precision is None:
                result.stopped = f"{done:,} games"
                break
            if result.precise(precision):
                result.stopped = f"precise to ±{precision:g} after {done:,} games"
                break
            if done >= max_games:
                result.stopped = f"cap of {max_games:,} games (not yet precise to ±{precision:g})"
                break
            target = min(done + batch, max_games)
    finally:
        if own:
            runner.close()
    return result
