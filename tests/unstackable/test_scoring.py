"""Scoring: pile 1 pays for yellow and red, pile 2 for black; most points wins."""

from __future__ import annotations

import random
import tomllib
from importlib import resources
from typing import Any

import cubegames
from cubegames.games.unstackable import Unstackable, UnstackableState, parse_box
from tests.unstackable.helpers import BOX, full_cube


def finished(piles: list[list[str]], game: Unstackable | None = None) -> UnstackableState:
    data: dict[str, Any] = {
        "game": "unstackable",
        "options": {},
        "stage": "unstack",
        "to_move": None,
        "grid": "." * 64,
        "supply": {"Y": 0, "R": 0, "K": 0},
        "turn": {"removed": 0},
        "piles": piles,
        "last_red": 0,
    }
    state = (game or Unstackable()).state_from_dict(data)
    assert isinstance(state, UnstackableState)
    return state


def test_the_table_of_points() -> None:
    assert BOX.pile_points(0, "Y") == 5
    assert BOX.pile_points(0, "R") == 3
    assert BOX.pile_points(0, "K") == 0
    assert BOX.pile_points(1, "Y") == 0
    assert BOX.pile_points(1, "R") == 0
    assert BOX.pile_points(1, "K") == 1


def test_most_points_wins() -> None:
    state = finished(
        [
            ["YYR" + "K" * 13, "RR" + "K" * 14],  # 13 + 14
            ["Y" + "R" * 10 + "K" * 5, "RRR" + "K" * 13],  # 35 + 13
        ]
    )
    assert state.is_over
    assert state.scores() == [27.0, 48.0]
    assert state.winners() == [1]


def test_scores_grow_during_the_game_and_nobody_wins_before_the_end() -> None:
    state = full_cube()
    assert state.scores() == [0.0, 0.0]
    state.play("3,3,3")  # black to pile 1: nothing
    state.play("3,3,2")  # black to pile 2: 1 point
    assert state.scores() == [0.0, 1.0]
    assert state.winners() == []


def tie_box_game() -> Unstackable:
    """A game whose box pays 2 for black in pile 2: with it, equal scores can happen."""
    text = resources.files("cubegames.games.unstackable").joinpath("editions/standard.toml")
    data = tomllib.loads(text.read_text("utf-8"))
    data["points"]["pile2"]["K"] = 2
    game = Unstackable()
    game.box = parse_box(data, "tie.toml")
    return game


def test_equal_points_is_a_draw_and_both_seats_are_listed() -> None:
    state = finished(
        [
            ["YY" + "R" * 4 + "K" * 10, "R" * 4 + "K" * 12],  # 22 + 24
            ["Y" + "R" * 5 + "K" * 10, "R" * 3 + "K" * 13],  # 20 + 26
        ],
        tie_box_game(),
    )
    assert state.scores() == [46.0, 46.0]
    assert state.winners() == [0, 1]


def test_with_the_standard_box_a_whole_game_never_ties() -> None:
    # Pile 2 holds 32 cubes, so its blacks are 32 minus its yellows and reds; the total of
    # both players is then 13 + 6 * (yellows in pile 1) + 4 * (reds in pile 1): always odd.
    rng = random.Random(5)
    for _ in range(20):
        state = cubegames.make("unstackable").new_state()
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        total = sum(state.scores())
        assert total % 2 == 1
        assert len(state.winners()) == 1
