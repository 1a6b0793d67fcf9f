"""Every design metric on hand-made game records whose values are worked out by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import cubegames
from cubegames.games.cubed import Cubed
from cubegames.sim.metrics import (
    Evaluator,
    evaluations,
    game_metrics,
    ideal_duration,
    metrics_table_rows,
    outcome_metrics,
)

# a three-move game of two seats: 4, 1 and 2 legal moves; seat 1 wins in the end
BRANCHING = [4, 1, 2]
EVALS = [[0.5, 0.5], [0.8, 0.2], [0.4, 0.6]]


def test_complexity_metrics() -> None:
    m = game_metrics(BRANCHING, EVALS, winners=[1], board=0.25)
    assert m["decision"] == pytest.approx(2 / 3)  # two of three moves had a choice
    assert m["branching_avg"] == pytest.approx(7 / 3)
    assert m["branching_max"] == 4.0
    # least squares through (0, 4), (1, 1), (2, 2): slope -1
    assert m["branching_change"] == pytest.approx(-1.0)
    assert m["tree_log10"] == pytest.approx(math.log10(4 * 1 * 2))
    assert m["coverage"] == 0.25


def test_evaluation_metrics() -> None:
    m = game_metrics(BRANCHING, EVALS, winners=[1])
    # leaders {0, 1} -> {0} -> {1}: two changes in three moves
    assert m["lead_changes"] == pytest.approx(2 / 3)
    # seat 0: mean 17/30, variance ((0.5-m)^2 + (0.8-m)^2 + (0.4-m)^2) / 3, seat 1 alike
    mean0 = (0.5 + 0.8 + 0.4) / 3
    var0 = sum((v - mean0) ** 2 for v in (0.5, 0.8, 0.4)) / 3
    assert m["stability"] == pytest.approx(2 * var0)
    # the loser (seat 0) reached 0.8; the winner first went above it ... never
    assert m["decisiveness_threshold"] == pytest.approx(0.8)
    assert m["decisiveness"] == 1.0
    # the winner lay 0, 0.6 and 0 below the best
    assert m["drama_avg"] == pytest.approx(0.2)
    assert m["drama_max"] == pytest.approx(0.6)


def test_decisiveness_counts_moves_in_floats() -> None:
    # the winner passes the loser's best (0.6) at move 1 of 4: 0.25, where Ludii's integer
    # division would give 0
    evals = [[0.4, 0.6], [0.7, 0.3], [0.8, 0.2], [0.9, 0.1]]  # seat 0 trails, then leads
    m = game_metrics([2, 2, 2, 2], evals, winners=[0])
    assert m["decisiveness_threshold"] == pytest.approx(0.6)
    assert m["decisiveness"] == pytest.approx(0.25)


def test_metrics_that_need_what_they_lack_are_nan() -> None:
    solo = game_metrics([2, 3], [], winners=[0])
    assert math.isnan(solo["lead_changes"]) and math.isnan(solo["drama_avg"])
    nobody = game_metrics([2], [[0.5, 0.5]], winners=[])
    assert nobody["lead_changes"] == 0.0 and math.isnan(nobody["decisiveness"])


def test_outcome_metrics() -> None:
    # seat 0 wins twice, seat 1 once, one shared game: rates 0.625 and 0.375
    wins = [[1, 0], [1, 0], [0, 1], [0.5, 0.5]]
    m = outcome_metrics(wins)
    assert m["balance"] == pytest.approx(1 - 0.25)  # Ludii's int array: 1 - (2-1)/4
    assert m["drawishness"] == 0.25
    assert (m["completion"], m["timeouts"]) == (1.0, 0.0)
    # utilities 2w-1: seat 0 (1, 1, -1, 0), mean 0.25, variance (0.5625*2 + 1.5625 + 0.0625)/4
    var = (0.5625 * 2 + 1.5625 + 0.0625) / 4
    assert m["outcome_uniformity"] == pytest.approx(1 - var)  # seat 1 mirrors seat 0


def test_ideal_duration() -> None:
    # 5 turns: 0.5; 10 and 20: 1; 30: 0.5; 40 and more: 0
    assert ideal_duration([5, 10, 20, 30, 40, 50], 10, 20) == pytest.approx(3 / 6)


def test_evaluations_are_the_logistic_of_the_lead() -> None:
    assert evaluations([3.0, 3.0], 5.0) == [0.5, 0.5]
    ahead, behind = evaluations([10.0, 5.0], 5.0)
    assert ahead == pytest.approx(1 / (1 + math.exp(-1))) and ahead + behind == pytest.approx(1)


def test_the_game_heuristics_read_the_position() -> None:
    game = cubegames.make("cubed", rounds=1)
    assert isinstance(game, Cubed)
    state = game.new_state(seed=2)
    standing = Evaluator(game).standing(state)
    # nothing scored yet: minus the points in each hand of 25 pieces
    data = state.to_dict()
    ed = game.edition
    expect = [-sum(ed.piece_points(ed.read_piece(t, "h")) for t in h) for h in data["hands"]]
    assert standing == expect
    game = cubegames.make("unstackable")
    assert Evaluator(game).standing(game.new_state()) == [0.0, 0.0]


def test_the_table_has_every_metric_with_intervals() -> None:
    df = pd.DataFrame(
        {
            "win_0": [1.0, 0.0, 1.0, 0.5],
            "win_1": [0.0, 1.0, 0.0, 0.5],
            "moves": [10, 20, 30, 40],
            "turns": [10, 10, 20, 40],
            "m_decision": [0.5, 0.5, 1.0, 1.0],
        }
    )
    rows = dict(metrics_table_rows(df, 2, ideal=(10, 20)))
    assert rows["advantage of seat 0 (win rate)"].startswith("0.625 (")
    assert rows["balance"] == "0.750"
    assert rows["drawishness"] == "0.250"
    assert rows["duration in moves"].startswith("25.0 (")
    assert rows["ideal duration score (10 to 20 turns)"].startswith("0.750 (")  # 1, 1, 1, 0
    assert rows["decision moves (share)"].startswith("0.750 (")
