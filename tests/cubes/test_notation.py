"""The roll move: its notation, forced outcomes and refusals."""

from __future__ import annotations

import pytest

import cubegames
from cubegames.games.cubes import CubesState, Roll
from tests.cubes.helpers import position, refusal


def test_the_only_legal_move_is_roll() -> None:
    state = cubegames.make("cubes", players=5).new_state(seed=3)
    assert state.legal_moves() == [Roll()]
    assert [str(m) for m in state.legal_moves()] == ["roll"]


@pytest.mark.parametrize("text", ["roll", "ROLL", "  roll  "])
def test_parse_roll(text: str) -> None:
    assert cubegames.make("cubes").parse_move(text) == Roll()


def test_forced_roll_round_trips() -> None:
    game = cubegames.make("cubes")
    move = game.parse_move("roll 1 c . 6 . 3")
    assert move == Roll(("1", "C", ".", "6", ".", "3"))
    assert str(move) == "roll 1 C . 6 . 3"
    assert game.parse_move(str(move)) == move


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "cannot read"),
        ("throw", "cannot read"),
        ("roll 1 C . 6 .", "6 faces"),
        ("roll 1 C . 6 . 3 3", "6 faces"),
        ("roll 1 C x 6 . 3", "'x' is not a face"),
        ("roll 1 C 0 6 . 3", "'0' is not a face"),
        ("roll 1 C -3 6 . 3", "'-3' is not a face"),
    ],
)
def test_unreadable_moves(text: str, reason: str) -> None:
    with pytest.raises(cubegames.IllegalMove, match=reason):
        cubegames.make("cubes").parse_move(text)


def test_a_forced_face_must_be_on_its_die() -> None:
    state = position([15, 15], 10)
    # the rules' own example: die 4 shows 1 or 6, never 4
    assert refusal(state, "roll 1 C . 4 . 3") == "die 4 has no face 4 (its faces are C 1 6 . . .)"
    assert "die 1 has no face 2" in refusal(state, "roll 2 . . . . .")
    assert not state.is_legal("roll 7 . . . . .")
    assert state.is_legal("roll 6 5 4 1 2 3")
    assert "6 faces" in refusal_of(state, Roll(("C",)))


def refusal_of(state: CubesState, move: Roll) -> str:
    with pytest.raises(cubegames.IllegalMove) as info:
        state.play(move)
    return str(info.value)


def test_nothing_can_be_played_once_the_game_is_over() -> None:
    state = position([15, 2], 23, sets=1)
    state.play("roll C C . . . .")
    assert state.is_over
    assert "over" in refusal(state, "roll")


def test_rolling_out_of_turn_is_refused() -> None:
    state = position([15, 15], 10, to_move=1)
    with pytest.raises(cubegames.IllegalMove, match="turn"):
        state.play("roll", seat=0)
