"""Setting up, the end of a set when someone cannot pay, openers, sets and the winner."""

from __future__ import annotations

import pytest

import cubegames
from tests.cubes.helpers import BLANK, FEW_9, NUMBERS_9, WORD_ONLY, position


@pytest.mark.parametrize(
    ("players", "each", "pot"),
    [
        (2, 15, 10),  # 20 each, antes of 5
        (3, 15, 15),
        (4, 15, 20),
        (5, 15, 25),  # 100 / 5 = 20 each, like 2-4 players
        (6, 11, 34),  # 100 / 6 = 16, 4 left in the pot
        (7, 9, 37),  # 100 / 7 = 14, 2 left in the pot
        (8, 7, 44),  # 100 / 8 = 12, 4 left in the pot
        (9, 6, 46),  # 100 / 9 = 11, 1 left in the pot
        (10, 5, 50),  # 100 / 10 = 10 each
    ],
)
def test_setup(players: int, each: int, pot: int) -> None:
    state = cubegames.make("cubes", players=players).new_state(seed=4)
    assert state.chips == [each] * players
    assert state.pot == pot
    assert (state.to_move, state.set_number, state.totals) == (0, 1, [0] * players)


@pytest.mark.parametrize("players", [1, 11, 0])
def test_player_counts_outside_2_to_10_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 10 players"):
        cubegames.make("cubes", players=players)


def test_sets_option() -> None:
    assert cubegames.make("cubes").options == {"players": 2, "sets": 3, "edition": "standard"}
    assert cubegames.make("cubes", sets=1).sets == 1
    for bad in (0, 11, "3", True):
        with pytest.raises(ValueError, match="sets"):
            cubegames.make("cubes", sets=bad)


def test_an_opponent_who_cannot_pay_ends_the_set_and_later_payers_pay_nothing() -> None:
    # seat 2 rolls; the paying order is 3, 0, 1; seat 0 holds only 3
    state = position([3, 20, 15, 12], 30, to_move=2)
    state.play(FEW_9)
    last = state.last
    assert last is not None
    assert last.bust == 0
    # seat 3 paid, seat 0 put in its 3, seat 1 paid nothing and the roller took nothing
    assert last.changes == (-3, 0, 0, -5)
    assert state.past_sets[-1].scores == (0, 20, 15, 7)
    assert state.totals == [0, 20, 15, 7]
    # set 2 is dealt afresh and opened by seat 1
    assert (state.set_number, state.to_move) == (2, 1)
    assert (state.chips, state.pot) == ([15] * 4, 20)


def test_a_roller_who_cannot_make_up_the_pot_scores_zero() -> None:
    state = position([4, 36], 0)
    state.play(NUMBERS_9)
    assert state.last is not None and state.last.bust == 0
    assert state.past_sets[-1].scores == (0, 36)


def test_a_roller_who_cannot_pay_two_on_all_blank_ends_the_set() -> None:
    state = position([39, 1], 0, to_move=1)
    state.play(BLANK)
    assert state.last is not None and state.last.bust == 1
    assert state.last.changes == (0, -1)
    assert state.past_sets[-1].scores == (39, 0)


def test_a_seat_with_nothing_left_ends_the_set_when_it_next_owes() -> None:
    state = position([35, 0], 5)
    state.play(NUMBERS_9)  # seat 0 takes nothing and pays 4: seat 1 owes nothing
    assert state.set_number == 1
    state.play(WORD_ONLY)  # seat 1 rolls; seat 0 pays 5
    assert state.set_number == 1
    state.play(WORD_ONLY)  # seat 0 rolls; seat 1 owes 5 and holds 0
    assert state.past_sets[-1].bust == 1


@pytest.mark.parametrize(("players", "openers"), [(2, [0, 1, 0]), (3, [0, 1, 2]), (4, [0, 1, 2])])
def test_each_set_is_opened_by_the_seat_after_the_last_opener(
    players: int, openers: list[int]
) -> None:
    state = cubegames.make("cubes", players=players).new_state(seed=2)
    seen = [state.to_move]
    while not state.is_over:
        current = state.set_number
        state.play("roll")
        if state.set_number != current:
            seen.append(state.to_move)
    assert seen == openers


def test_three_sets_then_game_over_with_totals() -> None:
    state = cubegames.make("cubes", players=3).new_state(seed=11)
    while not state.is_over:
        assert state.winners() == []
        state.play("roll")
    assert len(state.past_sets) == 3 and state.set_number == 3
    assert state.totals == [sum(p.scores[s] for p in state.past_sets) for s in range(3)]
    assert state.scores() == [float(t) for t in state.totals]
    best = max(state.totals)
    assert state.winners() == [s for s in range(3) if state.totals[s] == best]
    assert state.legal_moves() == []


def test_a_tie_shares_the_win() -> None:
    # set 3 of 3; totals 20 and 30; seat 1 cannot pay and seat 0 ends on 10
    state = position(
        [10, 3],
        27,
        set_number=3,
        past_sets=[([20, 0], 1), ([0, 30], 0)],
    )
    state.play(WORD_ONLY)
    assert state.is_over and state.to_move is None
    assert state.totals == [30, 30]
    assert state.winners() == [0, 1]


def test_a_one_set_game_ends_with_its_first_set() -> None:
    state = position([15, 2], 23, sets=1)
    state.play(WORD_ONLY)
    assert state.is_over and state.winners() == [0]
    assert state.totals == [15, 0]
