"""Steps 4-5: elimination, the round's winner, the match, and solo play."""

from __future__ import annotations

import pytest

import cubegames
from tests.stakd.helpers import TWO_BASES, position

EMPTY: dict[str, int] = {}


#: layer 1 where no second QUAD fits: no free 2x2 block on it, and a QUAD on layer 2 could
#: only repeat the QUAD below
BLOCKED_QUAD = [*TWO_BASES, (1, "DUO@1:1,0+2,0"), (0, "QUAD@1:3,0+4,0+3,1+4,1")]


def test_a_player_with_no_placement_is_out_when_their_turn_comes() -> None:
    state = position(BLOCKED_QUAD, players=3, hands=[{"UNI": 3}, {"QUAD": 1}, EMPTY])
    assert state.refusal(state.game.parse_move("QUAD@2:3,0+4,0+3,1+4,1")) is not None
    state.play("UNI@1:5,0")
    # seat 1 cannot place, seat 2 holds nothing: both are out, and seat 0 goes again
    assert state.to_dict()["out"] == [1, 2]
    assert state.to_move == 0
    assert not state.is_over


def test_out_is_for_the_rest_of_the_round() -> None:
    state = position(BLOCKED_QUAD, hands=[{"UNI": 2, "DUO": 1, "TRIO": 1}, {"QUAD": 1}])
    state.play("UNI@1:5,0")
    assert state.to_dict()["out"] == [1]
    assert state.to_move == 0
    state.play("UNI@1:2,1")
    # a QUAD of seat 1 would now fit on a new layer 2, but seat 1 stays out
    assert [str(m) for m in state.moves_for(1)] == ["QUAD@2:2,0+2,1+3,0+3,1"]
    assert state.to_dict()["out"] == [1]
    assert state.to_move == 0


def test_last_non_bomber_piece_wins_the_round_and_its_layer_starts_the_next() -> None:
    state = position(TWO_BASES, hands=[{"DUO": 1}, EMPTY])
    state.play("DUO@1:0,0+1,0")
    data = state.to_dict()
    assert data["points"] == [1, 0]
    assert data["round_winners"] == [0]
    assert data["round"] == 2
    assert data["pieces"] == [] and data["out"] == [] and data["layer"] == 0
    assert data["hands"][1] == {"BASE": 2, "UNI": 12, "DUO": 8, "TRIO": 4, "QUAD": 2, "BOMBER": 2}
    assert state.to_move == 0


def test_the_rounds_winner_starts_the_next_round() -> None:
    state = position(TWO_BASES, hands=[EMPTY, {"DUO": 1}], to_move=1)
    state.play("DUO@1:0,0+1,0")
    assert state.to_dict()["round_winners"] == [1]
    assert state.to_move == 1
    assert all(m.piece.value == "BASE" for m in state.legal_moves())


def test_a_bomber_cannot_be_the_last_piece_played_to_win() -> None:
    laid = [*TWO_BASES, (1, "DUO@1:0,0+1,0")]
    state = position(laid, hands=[{"BOMBER": 1}, EMPTY])
    state.play("BOMBER@1:2,0")
    # seat 0 laid the last piece, but it was a BOMBER: seat 1's DUO wins
    assert state.to_dict()["round_winners"] == [1]
    assert state.to_move == 1


def test_match_to_three_points() -> None:
    state = position(TWO_BASES, hands=[{"DUO": 1}, EMPTY], round_winners=[1, 0, 1])
    state.play("DUO@1:0,0+1,0")
    assert state.to_dict()["points"] == [2, 2]
    assert not state.is_over
    end = position(TWO_BASES, hands=[EMPTY, {"DUO": 1}], to_move=1, round_winners=[0, 1, 0, 1])
    end.play("DUO@1:0,0+1,0")
    assert end.to_dict()["points"] == [2, 3]
    assert end.is_over
    assert end.to_move is None
    assert end.winners() == [1]
    assert end.scores() == [2.0, 3.0]
    assert end.legal_moves() == []
    # the last round's stack stays on the table, everyone out
    assert len(end.to_dict()["pieces"]) == 3
    assert end.to_dict()["out"] == [0, 1]
    with pytest.raises(cubegames.IllegalMove, match="over"):
        end.play("DUO@1:3,0+4,0")


def test_points_to_win_sets_the_match_length() -> None:
    state = position(TWO_BASES, hands=[{"DUO": 1}, EMPTY], points_to_win=1)
    state.play("DUO@1:0,0+1,0")
    assert state.is_over and state.winners() == [0]


@pytest.mark.parametrize("players", [2, 3, 8])
def test_random_matches_end_with_one_winner(players: int) -> None:
    state = cubegames.make("stakd", players=players).new_state()
    bot = cubegames.bot("random", seed=players)
    rounds = 0
    while not state.is_over:
        before = state.to_dict()["round"]
        state.play(bot.choose(state))
        rounds += state.to_dict()["round"] != before
    points = state.to_dict()["points"]
    assert max(points) == 3 and points.count(3) == 1
    assert state.winners() == [points.index(3)]
    assert sum(points) == rounds + 1


def test_solo_win_by_laying_every_piece() -> None:
    laid = [(0, TWO_BASES[0][1]), (0, TWO_BASES[1][1])]
    state = position(laid, players=1, hands=[{"DUO": 1}])
    state.play("DUO@1:0,0+1,0")
    assert state.is_over
    assert state.winners() == [0]
    assert state.to_dict()["points"] == [1]
    assert state.scores() == [3.0]


def test_solo_loss_with_pieces_left() -> None:
    laid = [(0, TWO_BASES[0][1]), (0, TWO_BASES[1][1])]
    state = position(laid, players=1, hands=[{"DUO": 2}])
    state.play("DUO@1:0,0+1,0")
    # no DUO fits layer 1 beside it, and layer 2 would only be an identical stacking
    assert state.is_over
    assert state.winners() == []
    assert state.to_dict()["hands"][0]["DUO"] == 1
    assert state.to_dict()["out"] == [0]
    again = cubegames.make("stakd", players=1).state_from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict() and again.is_over


def test_solo_is_lost_when_the_last_piece_laid_is_a_bomber() -> None:
    # "A BLUE BOMBER piece cannot be the last piece played to win" (spec, solo)
    laid = [(0, TWO_BASES[0][1]), (0, TWO_BASES[1][1]), (0, "DUO@1:0,0+1,0")]
    state = position(laid, players=1, hands=[{"BOMBER": 1}])
    state.play("BOMBER@1:2,0")
    assert state.is_over
    assert state.to_dict()["hands"][0]["BOMBER"] == 0  # every piece is laid ...
    assert state.winners() == []  # ... but the last was the bomber
    assert state.to_dict()["points"] == [0]
    again = cubegames.make("stakd", players=1).state_from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict() and again.winners() == []
    claimed = {**state.to_dict(), "points": [1], "round_winners": [0]}
    with pytest.raises(ValueError, match="the last piece laid is not a BOMBER"):
        cubegames.make("stakd", players=1).state_from_dict(claimed)


def test_solo_random_games_end() -> None:
    state = cubegames.make("stakd", players=1).new_state()
    bot = cubegames.bot("random", seed=2)
    while not state.is_over:
        state.play(bot.choose(state))
    assert state.to_dict()["out"] == [0]
    data = state.to_dict()
    won = not any(data["hands"][0].values()) and data["pieces"][-1]["type"] != "BOMBER"
    assert state.winners() == ([0] if won else [])


def test_out_of_turn_and_after_the_end() -> None:
    state = position(TWO_BASES, hands=[{"DUO": 1}, {"DUO": 1}])
    with pytest.raises(cubegames.IllegalMove, match="it is seat 0's turn, not seat 1's"):
        state.play("DUO@1:0,0+1,0", seat=1)
    assert state.to_move == 0


#: a whole solo game that lays all 39 pieces (found by a seeded greedy search): with the
#: assumed shapes, solo play can be won
SOLO_WIN = [
    "BASE@0:0,0+0,1+0,2+1,0+1,1+1,2",
    "BASE@0:0,-2+0,-1+1,-2+1,-1+2,-2+2,-1",
    "QUAD@1:0,-1+0,0+1,-1+1,0",
    "TRIO@1:0,-2+1,-2+2,-2",
    "DUO@1:1,1+1,2",
    "UNI@1:0,1",
    "UNI@1:2,-1",
    "BOMBER@1:0,2",
    "TRIO@2:0,-1+1,-1+2,-1",
    "QUAD@2:0,0+0,1+1,0+1,1",
    "DUO@2:1,-2+2,-2",
    "UNI@2:1,2",
    "UNI@2:0,-2",
    "DUO@3:1,0+1,1",
    "DUO@3:1,-1+2,-1",
    "UNI@3:2,-2",
    "TRIO@3:0,-2+0,-1+0,0",
    "UNI@3:0,1",
    "QUAD@4:0,-1+0,0+1,-1+1,0",
    "DUO@4:0,1+1,1",
    "UNI@4:2,-1",
    "UNI@4:0,-2",
    "QUAD@5:0,0+0,1+1,0+1,1",
    "TRIO@5:0,-1+1,-1+2,-1",
    "TRIO@6:1,-1+1,0+1,1",
    "DUO@6:0,-1+0,0",
    "UNI@6:0,1",
    "UNI@6:2,-1",
    "TRIO@7:0,-1+0,0+0,1",
    "DUO@7:1,-1+1,0",
    "UNI@7:1,1",
    "DUO@8:1,0+1,1",
    "DUO@8:0,-1+0,0",
    "UNI@8:0,1",
    "UNI@8:1,-1",
    "DUO@9:1,-1+1,0",
    "UNI@9:0,-1",
    "UNI@9:1,1",
    "UNI@10:1,0",
]


def test_a_whole_solo_game_can_be_won() -> None:
    state = cubegames.make("stakd", players=1).new_state()
    for i, move in enumerate(SOLO_WIN):
        assert not state.is_over, f"ended before move {i}"
        state.play(move)
    assert state.is_over
    assert state.winners() == [0]
    assert state.scores() == [39.0]
