"""Each row of the rules' table, from hand-built positions and forced rolls."""

from __future__ import annotations

from tests.cubes.helpers import BLANK, FEW_6, FEW_9, MANY, NUMBERS_9, WORD_ONLY, position


def test_numbers_only_takes_the_sum_from_the_pot() -> None:
    state = position([15, 15], 10)
    state.play(NUMBERS_9)
    assert (state.chips, state.pot, state.to_move) == ([24, 15], 1, 1)


def test_numbers_only_with_the_pot_exactly_the_sum() -> None:
    state = position([16, 15], 9)
    state.play(NUMBERS_9)
    assert (state.chips, state.pot) == ([25, 15], 0)


def test_pot_short_roller_takes_nothing_and_pays_the_difference() -> None:
    state = position([18, 18], 4)
    state.play(NUMBERS_9)
    # the pot held 4, short of 9: the roller puts in 5 so it holds 9
    assert (state.chips, state.pot, state.to_move) == ([13, 18], 9, 1)
    assert state.last is not None and state.last.bust is None


def test_cubes_and_two_numbers_opponents_pay_then_roller_takes_double() -> None:
    state = position([15, 15, 15], 15, to_move=1)
    state.play(FEW_9)
    # opponents 2 and 0 pay 5 (pot 25), then seat 1 takes 2 × 9 = 18
    assert (state.chips, state.pot, state.to_move) == ([10, 33, 10], 7, 2)
    assert state.last is not None and state.last.changes == (-5, 18, -5)


def test_cubes_and_one_number() -> None:
    state = position([15, 15], 10)
    state.play(FEW_6)
    assert (state.chips, state.pot) == ([27, 10], 3)


def test_cubes_few_with_the_pot_short_after_the_opponents_pay() -> None:
    state = position([20, 20, 20], 0, to_move=0)
    state.play(FEW_9)
    # after 2 × 5 the pot holds 10, short of 18: seat 0 pays 8 so it holds 18
    assert (state.chips, state.pot) == ([12, 15, 15], 18)


def test_cubes_and_three_or_more_numbers_takes_the_whole_pot() -> None:
    state = position([15, 15, 15, 15], 20, to_move=3)
    state.play(MANY)
    assert (state.chips, state.pot, state.to_move) == ([10, 10, 10, 50], 0, 0)


def test_cubes_and_five_numbers_takes_the_whole_pot() -> None:
    state = position([15, 15], 10)
    state.play("roll C 2 3 6 5 4")
    assert (state.chips, state.pot) == ([30, 10], 0)


def test_only_the_word_opponents_pay() -> None:
    state = position([15, 15, 15], 15, to_move=2)
    state.play(WORD_ONLY)
    assert (state.chips, state.pot, state.to_move) == ([10, 10, 15], 25, 0)


def test_all_blank_the_roller_pays_two() -> None:
    state = position([15, 15], 10, to_move=1)
    state.play(BLANK)
    assert (state.chips, state.pot, state.to_move) == ([15, 13], 12, 0)


def test_six_numbers_can_cost_the_roller_the_set() -> None:
    state = position([15, 15], 10)
    state.play("roll 6 5 4 6 5 4")  # sum 30: the pot is short by 20 and seat 0 holds 15
    assert state.last is not None and state.last.bust == 0
    assert state.last.changes == (-15, 0)
    assert state.past_sets[-1].scores == (0, 15)


def test_paying_exactly_everything_is_paying_in_full() -> None:
    state = position([30, 5], 5)
    state.play(WORD_ONLY)
    assert (state.chips, state.pot, state.to_move) == ([30, 0], 10, 1)
    assert state.set_number == 1 and not state.past_sets


def test_a_roll_passes_play_to_the_next_seat_around_the_table() -> None:
    state = position([10, 10, 10, 10, 10], 50, to_move=4)
    state.play(NUMBERS_9)
    assert state.to_move == 0
