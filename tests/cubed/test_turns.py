"""Turns, the end of a round, scoring and matches (spec §5, §6, §11)."""

from __future__ import annotations

from typing import Any

import pytest

import cubegames
from cubegames.core import chance
from cubegames.games.cubed import CubedState
from tests.cubed.helpers import placements, position, refusal, workshop

# Only 1,0 is playable here; a blocking piece there closes the table. (The table repeats
# pieces, so it is laid from the workshop test box.)
CLOSING = [
    ((0, 0), "BBB"),
    ((0, 1), "BBB"),
    ((-1, 1), "BBB"),
    ((-1, 0), "KKB"),
    ((-1, 2), "BKK"),
]


def moves(state: CubedState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def test_a_turn_starts_with_place_or_draw() -> None:
    state = position([((0, 0), "GGG")], [["GGY", "PPP"], ["LLL"]], bag=["YYY", "BBB"])
    assert moves(state)[-1] == "draw"
    assert "pass" not in moves(state)
    assert refusal(state, "pass") == "you may pass only after drawing, or when the bag is empty"


def test_draw_then_place_or_pass_and_only_once() -> None:
    state = position([((0, 0), "GGG")], [["GGY"], ["LLL"]], bag=["YYY", "BBB"])
    assert "GGY@1,0" in placements(state)  # drawing is allowed even when a piece fits
    state.play("draw")
    assert state.to_dict()["hands"][0] == ["GGY", "YYY"]
    assert state.to_dict()["bag"] == ["BBB"]
    assert state.to_move == 0
    assert moves(state)[-1] == "pass"
    assert "draw" not in moves(state)
    assert refusal(state, "draw") == "you have already drawn this turn"
    state.play("pass")
    assert state.to_move == 1


def test_empty_bag_allows_pass_and_refuses_draw() -> None:
    state = position([((0, 0), "GGG")], [["PPP"], ["LLL"]], bag=[])
    assert moves(state) == ["pass"]
    assert refusal(state, "draw") == "the bag is empty"


def test_out_of_turn_and_after_the_end() -> None:
    state = position([], [["GGG"], ["PPP"]])
    with pytest.raises(cubegames.IllegalMove, match="it is seat 0's turn, not seat 1's"):
        state.play("GGG@0,0", seat=1)
    state.play("GGG@0,0", seat=0)  # the last piece: the round and the game end
    assert state.is_over
    with pytest.raises(cubegames.IllegalMove, match="the game is over"):
        state.play("pass")


def test_emptying_the_hand_wins_and_others_score_their_pieces() -> None:
    hand = ["GPL", "GGP", "GGG", "KKG", "GPW"]  # single, double, triple, blocking, wild
    state = position([], [["PPP"], hand])
    state.play("PPP@0,0")
    assert state.is_over
    assert state.to_dict()["end"] == "emptied"
    assert state.scores() == [0, 1 + 2 + 3 + 5 + 10]
    assert state.winners() == [0]
    assert state.to_dict()["past_rounds"] == [{"scores": [0, 21], "end": "emptied", "winner": 0}]


def test_closing_the_table_ends_the_round() -> None:
    state = workshop(CLOSING, [["KKB", "GGG"], ["PPP", "LNY"]], bag=["YYY"])
    assert placements(state) == ["KBK@1,0"]
    state.play("KBK@1,0")
    assert state.is_over
    assert state.to_dict()["end"] == "blocked"
    assert state.scores() == [3, 4]
    assert state.winners() == [0]


def test_a_full_round_of_stuck_turns_ends_the_round() -> None:
    # Nothing fits either hand and the bag cannot help: both turns are stuck (rule 3).
    state = position([((0, 0), "GGG")], [["PPP"], ["LLL", "KKG"]], bag=["YYY", "NNN"])
    state.play("draw")
    state.play("pass")
    assert not state.is_over
    assert state.to_dict()["stuck"] == 1
    assert state.to_dict()["idle"] == 1
    state.play("draw")
    state.play("pass")
    assert state.is_over
    assert state.to_dict()["end"] == "stalled"
    assert state.scores() == [6, 11]


def test_passing_with_an_empty_bag_and_nothing_that_fits_is_stuck() -> None:
    state = position([((0, 0), "GGG")], [["PPP"], ["LLL", "KKG"]], bag=[])
    state.play("pass")
    assert not state.is_over
    assert state.to_dict()["stuck"] == 1
    state.play("pass")
    assert state.is_over
    assert state.to_dict()["end"] == "stalled"
    assert state.scores() == [3, 8]


def test_a_chosen_pass_does_not_end_the_round() -> None:
    # The game: seed 7 (dealt in chance version 2, as it was then), one placement,
    # then both players draw and pass while holding dozens of placements. Choosing not to
    # play is no stuck turn.
    state = chance.new_state(cubegames.make("cubed", players=2, rounds=1), 7, 2)
    state.play("BBN@0,0")
    for _ in range(3):
        assert state.placements()
        state.play("draw")
        state.play("pass")
    assert not state.is_over
    assert "stuck" not in state.to_dict()
    assert state.to_dict()["idle"] == 2  # counted up to the number of players


def test_a_chosen_pass_breaks_a_run_of_stuck_turns() -> None:
    # Seat 0 is stuck; seat 1 draws a piece that fits and passes anyway; seat 0 is stuck
    # again: only one stuck turn in a row, so the round goes on.
    state = position([((0, 0), "GGG")], [["PPP"], ["LLL"]], bag=["YYY", "GGY", "NNN", "BBB"])
    state.play("draw")
    state.play("pass")
    assert state.to_dict()["stuck"] == 1
    state.play("draw")  # GGY fits next to the table
    assert state.placements()
    state.play("pass")
    assert "stuck" not in state.to_dict()
    state.play("draw")
    state.play("pass")
    assert not state.is_over
    assert state.to_dict()["stuck"] == 1


def test_an_empty_bag_and_a_full_circle_without_placing_ends_the_round() -> None:
    # Rule 4: seat 1 could play but passes; the bag is empty, so nothing can change
    # unless somebody chooses to play, and the round ends.
    state = position([((0, 0), "GGG")], [["PPP"], ["GGY", "LLL"]], bag=[])
    state.play("pass")  # stuck
    assert state.placements()
    state.play("pass")  # chosen
    assert state.is_over
    assert state.to_dict()["end"] == "standstill"
    assert state.scores() == [3, 5]


def test_rule_four_counts_turns_since_before_the_bag_ran_out() -> None:
    state = position([((0, 0), "GGG")], [["GGY"], ["PPP"]], bag=["LLL"])
    state.play("draw")  # the last piece
    state.play("pass")  # chosen: GGY fits
    assert not state.is_over
    state.play("pass")  # seat 1, stuck, with an empty bag
    assert state.is_over
    assert state.to_dict()["end"] == "standstill"


def test_a_placement_resets_the_count_of_idle_turns() -> None:
    state = position([((0, 0), "GGG")], [["PPP"], ["GGY", "LLL"]], bag=[])
    state.play("pass")
    state.play("GGY@1,0")
    assert "idle" not in state.to_dict()
    state.play("pass")
    assert not state.is_over


def test_round_winner_starts_the_next_round() -> None:
    state = position([], [["PPP"], ["GGG"]], to_move=1, rounds=3)
    state.play("GGG@0,0")
    assert not state.is_over
    data = state.to_dict()
    assert data["round"] == 2
    assert data["to_move"] == 1
    assert data["starter"] == 1
    assert data["totals"] == [3, 0]
    assert data["table"] == []
    assert [len(h) for h in data["hands"]] == [25, 25]
    assert len(data["bag"]) == 62 - 50


@pytest.mark.parametrize(
    ("hands", "starter", "expected"),
    [
        ([["GGG"], ["PPP", "LLL"], ["YYY", "NNN"]], 0, 0),  # the lowest scorer
        ([["PPP", "LLL"], ["GGG"], ["YYY"]], 1, 2),  # tie of 1 and 2: first after 1 is 2
        ([["GGG"], ["PPP", "LLL"], ["YYY"]], 2, 0),  # tie of 0 and 2: first after 2 is 0
        ([["GGG"], ["PPP"], ["YYY"]], 0, 1),  # three-way tie: first after 0 is 1
    ],
)
def test_without_a_winner_the_lowest_scorer_starts(
    hands: list[list[str]], starter: int, expected: int
) -> None:
    table = [((0, 0), "BBB")]
    fields = {"starter": starter, "idle": 2, "stuck": 2}
    state = position(table, hands, bag=[], to_move=(starter + 2) % 3, rounds=3, fields=fields)
    state.play("pass")
    assert state.to_dict()["past_rounds"][0]["end"] == "stalled"
    assert state.to_move == expected
    assert state.to_dict().get("starter", 0) == expected


def last_round(totals: list[int]) -> dict[str, Any]:
    """The fields of the third of three rounds, the first two adding up to `totals`."""
    past: list[dict[str, Any]] = [
        {"scores": totals, "end": "blocked", "winner": None},
        {"scores": [0] * len(totals), "end": "emptied", "winner": 0},
    ]
    return {"round": 3, "totals": totals, "past_rounds": past}


def test_lowest_total_after_the_last_round_wins_and_ties_share() -> None:
    fields = last_round([10, 7])
    state = position([], [["GGG", "GPW"], ["PPP"]], to_move=1, rounds=3, fields=fields)
    state.play("PPP@0,0")
    assert state.is_over
    assert state.scores() == [23, 7]
    assert state.winners() == [1]
    fields = last_round([10, 20])
    state = position([], [["GGG"], ["PPP", "BBG", "KKB"]], to_move=0, rounds=3, fields=fields)
    state.play("GGG@0,0")
    assert state.scores() == [10, 20 + 3 + 2 + 5]
    tie = last_round([10, 0])
    state = position([], [["GGG"], ["PPP", "LLL", "BBB", "GGP"]], rounds=3, fields=tie)
    state.play("GGG@0,0")
    assert state.scores() == [10, 11]
    tie = last_round([11, 0])
    state = position([], [["GGG"], ["PPP", "LLL", "BBB", "GGP"]], rounds=3, fields=tie)
    state.play("GGG@0,0")
    assert state.winners() == [0, 1]


def test_a_quick_game_is_one_round() -> None:
    state = position([], [["GGG"], ["PPP"]], rounds=1)
    state.play("GGG@0,0")
    assert state.is_over


def test_seat_zero_starts_and_hands_follow_the_player_count() -> None:
    for edition, sizes in {
        "en": {2: 25, 3: 18, 4: 13, 5: 11, 6: 9},
        "ja": {2: 25, 3: 20, 4: 18, 5: 15, 6: 13, 7: 11, 8: 10, 9: 8, 10: 8, 11: 7},
    }.items():
        for players, size in sizes.items():
            state = cubegames.make("cubed", players=players, edition=edition).new_state(seed=1)
            assert state.to_move == 0
            data = state.to_dict()
            assert [len(h) for h in data["hands"]] == [size] * players
            total = 62 if edition == "en" else 88
            assert len(data["bag"]) == total - size * players


def test_no_moves_after_the_round_ended_and_views_hide_hands() -> None:
    state = cubegames.make("cubed", players=3).new_state(seed=2)
    view = state.view(1)
    assert view["hands"][0] is None and view["hands"][2] is None
    assert view["hands"][1] == state.to_dict()["hands"][1]
    assert view["bag"] == len(state.to_dict()["bag"])
    assert view["hand_sizes"] == [18, 18, 18]
    with pytest.raises(ValueError, match="no seat 3"):
        state.view(3)
