"""Design metrics after Ludii's evaluation module (`Ludeme/Ludii`, `Evaluation/src/metrics`),
computed in floats, each a mean over games with its 95% interval where it is one.

Two halves:

- *Per game* (`game_metrics`), from a trace the simulator keeps while bots choose moves one
  by one (`Trace`: the number of legal moves before every move, and every seat's evaluation
  of the position by the game's own heuristic, `Evaluator`): decision moves, game-tree
  complexity, branching factor (mean, max, change), board coverage, lead changes,
  stability, decisiveness (threshold and moves), drama (mean and max). They become the row
  columns `m_<name>`; games played entirely by random bots go through the games' compiled
  paths, which keep no trace, so their rows have none.
- *Per setting* (`outcome_metrics`, `duration_metrics`, `ideal_duration`), from the rows:
  advantage per seat, balance, completion, drawishness, timeouts, outcome uniformity; length
  in moves and turns with its spread, and a score for an ideal range of turns.

`docs/lab.md` defines every metric, names where Ludii's Java truncates (integer division,
an int array, a minimum that starts at 0) and what is done instead here.

>>> g = game_metrics([3, 1, 2], [[0.5, 0.5], [0.7, 0.3], [0.2, 0.8]], winners=[1])
>>> g["decision"], g["branching_avg"], g["branching_max"], g["lead_changes"]
(0.6666666666666666, 2.0, 3.0, 0.6666666666666666)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cubegames.core.game import Game, State
from cubegames.kit import lab
from cubegames.kit.stats import mean_interval

if TYPE_CHECKING:
    import pandas as pd

    from cubegames.sim.analysis import Setting

#: the prefix of the per-game metric columns of a row
PREFIX = "m_"

# -- the game's own heuristic -----------------------------------------------------------------


class Evaluator:
    """Every seat's evaluation of a position, in (0, 1), by its game's heuristic.

    A seat's *standing* (higher is better) is its game's (`cubegames.kit.lab.standing`: the
    game's `lab` part, e.g. CUBED's minus what it would total if the round ended now; else
    its score). Its evaluation is the logistic of its lead over the best other seat, in units
    of the game's scale (`cubegames.kit.lab.scale`): 0.5 when level, about 0.73 one scale
    ahead. Solo games have no evaluation (nobody to lead).
    """

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.scale = lab.scale(game)

    def standing(self, state: State[Any]) -> list[float]:
        """Each seat's standing, higher is better."""
        return lab.standing(self.game, state)

    def evaluate(self, state: State[Any]) -> list[float]:
        """Each seat's evaluation in (0, 1)."""
        return evaluations(self.standing(state), self.scale)


def evaluations(standing: Sequence[float], scale: float) -> list[float]:
    """The logistic of each seat's lead over the best other seat, in units of `scale`.

    >>> [round(e, 3) for e in evaluations([10.0, 5.0, 0.0], 5.0)]
    [0.731, 0.269, 0.119]
    """
    out = []
    for s, mine in enumerate(standing):
        best = max((v for j, v in enumerate(standing) if j != s), default=mine)
        out.append(1.0 / (1.0 + math.exp(-(mine - best) / scale)))
    return out


# -- per game ---------------------------------------------------------------------------------


def coverage(game: Game[Any], state: State[Any]) -> float | None:
    """The share of the game's room used by the end, Ludii's board coverage adapted: the
    game's own measure (`cubegames.kit.lab.coverage`, e.g. CUBED's pieces on the table of
    those in the box), None for a game without one (CUBES has no board)."""
    return lab.coverage(game, state)


class Trace:
    """What one game's metrics need, kept while it is played: `observe(state)` before each
    move, `columns(state)` at the end."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.evaluator = Evaluator(game) if game.players > 1 else None
        self.branching: list[int] = []
        self.evals: list[list[float]] = []

    def observe(self, state: State[Any]) -> None:
        """Note the position about to be moved from."""
        self.branching.append(len(state.legal_moves()))
        if self.evaluator is not None:
            self.evals.append(self.evaluator.evaluate(state))

    def columns(self, state: State[Any]) -> dict[str, float]:
        """The game's metrics as row columns, `m_<name>`."""
        values = game_metrics(
            self.branching,
            self.evals,
            winners=state.winners(),
            board=coverage(self.game, state),
        )
        return {f"{PREFIX}{k}": v for k, v in values.items()}


def _slope(values: Sequence[float]) -> float:
    """The slope of the least-squares line through `values` against 0, 1, 2, ..."""
    n = len(values)
    if n < 2:
        return 0.0
    mean_x = (n - 1) / 2
    mean_y = math.fsum(values) / n
    num = math.fsum((i - mean_x) * (v - mean_y) for i, v in enumerate(values))
    den = math.fsum((i - mean_x) ** 2 for i in range(n))
    return num / den


def game_metrics(
    branching: Sequence[int],
    evals: Sequence[Sequence[float]],
    *,
    winners: Sequence[int],
    board: float | None = None,
) -> dict[str, float]:
    """One game's metrics from its trace: `branching[i]` legal moves and `evals[i]` every
    seat's evaluation before move `i`; `winners` at the end; `board` its coverage. Metrics
    without what they need (no evaluation in solo play, no winner) are NaN.

    - `decision`: the share of moves with more than one legal move;
    - `branching_avg`, `branching_max`: the mean and the largest number of legal moves;
      `branching_change`: the slope of the least-squares line through them, per move;
    - `tree_log10`: game-tree complexity, log10 of the product of the branching factors
      (Ludii: moves x log10 of the mean, an upper bound; here the exact sum of logs);
    - `coverage`: the board coverage at the end;
    - `lead_changes`: how often the set of leading seats (highest evaluation) differs from
      the set at the position before, over the positions moved from (the final one is not
      evaluated, as in Ludii), divided by the number of moves;
    - `stability`: the variance of each seat's evaluation over the game, summed over seats;
    - `decisiveness_threshold`: the highest evaluation any non-winner reached;
      `decisiveness`: the share of the moves played before a winner's evaluation first
      exceeded that threshold (1 if it never did);
    - `drama_avg`, `drama_max`: how far the winners' mean evaluation lay below the best
      seat's, averaged over the moves and at most.
    """
    nan = float("nan")
    moves = len(branching)
    out: dict[str, float] = {}
    out["decision"] = sum(1 for b in branching if b > 1) / moves if moves else nan
    out["branching_avg"] = math.fsum(branching) / moves if moves else nan
    out["branching_max"] = float(max(branching)) if moves else nan
    out["branching_change"] = _slope([float(b) for b in branching]) if moves else nan
    out["tree_log10"] = math.fsum(math.log10(b) for b in branching if b > 0)
    out["coverage"] = nan if board is None else float(board)
    keys = (
        "lead_changes",
        "stability",
        "decisiveness_threshold",
        "decisiveness",
        "drama_avg",
        "drama_max",
    )
    if not evals:
        out.update(dict.fromkeys(keys, nan))
        return out
    n = len(evals)
    leaders = [frozenset(s for s, e in enumerate(row) if e == max(row)) for row in evals]
    changes = sum(1 for a, b in itertools.pairwise(leaders) if a != b)
    out["lead_changes"] = changes / n
    seats = len(evals[0])
    variance = 0.0
    for s in range(seats):
        column = [row[s] for row in evals]
        mean = math.fsum(column) / n
        variance += math.fsum((v - mean) ** 2 for v in column) / n
    out["stability"] = variance
    won = [s for s in winners if 0 <= s < seats]
    if not won:
        for key in keys[2:]:
            out[key] = nan
        return out
    losers = [s for s in range(seats) if s not in won]
    threshold = max((row[s] for row in evals for s in losers), default=0.0)
    out["decisiveness_threshold"] = threshold
    first = next((i for i, row in enumerate(evals) if any(row[s] > threshold for s in won)), n)
    out["decisiveness"] = first / n
    drama = [max(row) - math.fsum(row[s] for s in won) / len(won) for row in evals]
    out["drama_avg"] = math.fsum(drama) / n
    out["drama_max"] = max(drama)
    return out


# -- per setting ------------------------------------------------------------------------------


def outcome_metrics(wins: Sequence[Sequence[float]]) -> dict[str, float]:
    """Outcome metrics of a setting from each game's win shares per seat (`wins[g][s]`: 1
    for a sole win, 1/k for a k-way shared win, else 0).

    - `balance`: 1 minus the largest difference between two seats' win rates (Ludii counts
      wins in an int array, so a shared win counts for nobody; here it counts 1/k each);
    - `completion`: the share of games that ended (all of them here: every game has an
      end, the simulator has no move limit), `timeouts` its complement;
    - `drawishness`: the share of games won by more than one seat, or by nobody in a game
      of two or more;
    - `outcome_uniformity`: 1 minus the mean over seats of the variance of the seat's
      outcome, with the outcome of a game 2 x its win share - 1 (in [-1, 1], as Ludii's
      utilities).

    >>> m = outcome_metrics([[1, 0], [1, 0], [0.5, 0.5], [0, 1]])
    >>> m["balance"], m["drawishness"]
    (0.75, 0.25)
    """
    games = len(wins)
    seats = len(wins[0]) if games else 0
    nan = float("nan")
    if not games:
        return dict.fromkeys(("balance", "completion", "timeouts", "drawishness"), nan) | {
            "outcome_uniformity": nan
        }
    rates = [math.fsum(g[s] for g in wins) / games for s in range(seats)]
    balance = 1.0 - (max(rates) - min(rates)) if seats > 1 else nan
    shared = sum(1 for g in wins if sum(1 for w in g if w > 0) != 1) if seats > 1 else 0
    variance = 0.0
    for s in range(seats):
        utility = [2.0 * g[s] - 1.0 for g in wins]
        mean = math.fsum(utility) / games
        variance += math.fsum((u - mean) ** 2 for u in utility) / games
    return {
        "balance": balance,
        "completion": 1.0,
        "timeouts": 0.0,
        "drawishness": shared / games if seats > 1 else nan,
        "outcome_uniformity": 1.0 - variance / seats,
    }


def ideal_duration(turns: Sequence[float], low: float, high: float) -> float:
    """Ludii's ideal-duration score, averaged over games: 1 for a game of `low` to `high`
    turns, rising from 0 at 0 turns to 1 at `low`, falling from 1 at `high` to 0 at twice
    `high`.

    >>> ideal_duration([5, 10, 20, 30, 40], 10, 20)
    0.6
    """
    if not turns:
        return float("nan")
    total = 0.0
    for t in turns:
        if t < low:
            total += t / low
        elif t > high:
            total += 1.0 - min(1.0, (t - high) / high)
        else:
            total += 1.0
    return total / len(turns)


def _interval(values: Sequence[float]) -> str:
    clean = [v for v in values if not math.isnan(v)]
    if not clean:
        return "—"
    mean, low, high = mean_interval(clean)
    digits = 3 if abs(mean) < 10 else 1
    if len(clean) < 2:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ({low:.{digits}f} to {high:.{digits}f})"


#: the per-game metrics in the order shown, with a name for a reader
GAME_METRICS = {
    "decision": "decision moves (share)",
    "tree_log10": "game-tree complexity (log10)",
    "branching_avg": "branching factor, mean",
    "branching_max": "branching factor, max",
    "branching_change": "branching factor, change per move",
    "coverage": "board coverage",
    "lead_changes": "lead changes (per move)",
    "stability": "stability (variance of evaluations)",
    "decisiveness_threshold": "decisiveness threshold",
    "decisiveness": "decisiveness (share of moves)",
    "drama_avg": "drama, mean",
    "drama_max": "drama, max",
}


def metrics_table_rows(
    df: pd.DataFrame, players: int, ideal: tuple[float, float] | None = None
) -> list[list[str]]:
    """The rows of a setting's metrics table: name, value (95% CI where a mean over games)."""
    import pandas as pd

    seats = [[float(r[f"win_{s}"]) for s in range(players)] for _, r in df.iterrows()]
    outcome = outcome_metrics(seats)
    rows: list[list[str]] = []
    for s in range(players):
        rows.append([f"advantage of seat {s} (win rate)", _interval(df[f"win_{s}"].tolist())])
    for key, name in (
        ("balance", "balance"),
        ("completion", "completion"),
        ("timeouts", "timeouts"),
        ("drawishness", "drawishness"),
        ("outcome_uniformity", "outcome uniformity"),
    ):
        value = outcome[key]
        rows.append([name, "—" if math.isnan(value) else f"{value:.3f}"])
    for column, name in (("moves", "duration in moves"), ("turns", "duration in turns")):
        values = df[column].astype(float).tolist()
        spread = float(df[column].astype(float).std(ddof=1)) if len(values) > 1 else 0.0
        rows.append([name, _interval(values)])
        rows.append([f"{name}, standard deviation", f"{spread:.2f}"])
    if ideal is not None:
        low, high = ideal
        scores = [ideal_duration([t], low, high) for t in df["turns"].astype(float).tolist()]
        rows.append([f"ideal duration score ({low:g} to {high:g} turns)", _interval(scores)])
    for key, name in GAME_METRICS.items():
        column = PREFIX + key
        if column in df.columns:
            # a CSV gives an empty text for a metric a game lacked (NaN when written)
            values = pd.to_numeric(df[column], errors="coerce").astype(float).tolist()
            if any(not math.isnan(v) for v in values):
                rows.append([name, _interval(values)])
    return rows


def add_metrics(setting: Setting, ideal: tuple[float, float] | None = None) -> None:
    """Add the design metrics table to `setting` (replacing one added before)."""
    from cubegames.sim.analysis import Table

    setting.tables[:] = [t for t in setting.tables if t.topic != "metrics"]
    traced = any(c.startswith(PREFIX) for c in setting.df.columns)
    setting.tables.append(
        Table(
            "Design metrics (after Ludii's)",
            ["metric", "value (95% CI)"],
            metrics_table_rows(setting.df, setting.players, ideal),
            "Means over games carry 95% intervals; balance, drawishness and outcome "
            "uniformity are figures of the whole setting. "
            + (
                "Evaluations are the game's own heuristic (docs/lab.md)."
                if traced
                else "The per-move metrics need bots that choose moves one by one (not "
                "random bots only)."
            ),
            topic="metrics",
        )
    )
