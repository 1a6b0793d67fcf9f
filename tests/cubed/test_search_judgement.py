"""How the flat search judges the end of a playout (`search_kernel.evaluate`), on hand-built
positions: the points in hand, the pieces in hand and the turn order, against the best other
seat or against the whole field."""

from __future__ import annotations

import math

import numpy as np
import pytest

import cubegames
from cubegames.games.cubed import CubedState, kernel_bridge, search_hooks, search_kernel
from cubegames.games.cubed import compiled_rules as k


def judged(
    hands: list[list[str]],
    *,
    mover: int = 0,
    totals: list[float] | None = None,
    last_round: bool = False,
    field: bool = False,
    per_piece: float = 0.0,
    temperature: float = 3.0,
    emptied_by: int | None = None,
) -> list[float]:
    """Every seat's reward for a position whose hands are `hands` (pieces as text)."""
    players = len(hands)
    state = cubegames.make("cubed", players=players).new_state(seed=0)
    assert isinstance(state, CubedState)
    ed = state.ed
    st = k.new_game(players)
    for seat, hand in enumerate(hands):
        st.hsize[seat] = len(hand)
        for i, text in enumerate(hand):
            st.hands[seat, i] = kernel_bridge.code(ed.read_piece(text, "test"))
    st.meta[k.M_TO_MOVE] = mover
    if emptied_by is not None:
        st.meta[k.M_END] = k.EMPTIED
        st.meta[k.M_WINNER] = emptied_by
    rewards = np.zeros(players)
    search_kernel.evaluate(
        st,
        kernel_bridge.tables(ed),
        np.array(totals if totals is not None else [0.0] * players),
        last_round,
        temperature,
        field,
        per_piece,
        rewards,
    )
    return [float(r) for r in rewards]


def test_against_the_best_other_seat_only() -> None:
    # seat 0 holds 2 points, seat 1 holds 5, seat 2 holds 3: seat 0 is 1 point ahead of
    # its best other (seat 2), seat 2 one point behind seat 0
    rewards = judged([["GPL", "PLN"], ["KKG"], ["GGG"]])
    assert rewards[0] == pytest.approx(1 / (1 + math.exp(-1 / 3)))
    assert rewards[2] == pytest.approx(1 / (1 + math.exp(1 / 3)))
    assert rewards[1] == pytest.approx(1 / (1 + math.exp(3 / 3)))


def test_against_the_field_is_the_chance_of_ending_lowest() -> None:
    hands = [["GPL", "PLN"], ["KKG"], ["GGG"], ["GGG"]]
    rewards = judged(hands, field=True)
    weights = [math.exp(-points / 3) for points in (2, 5, 3, 3)]
    assert rewards == pytest.approx([w / sum(weights) for w in weights])
    assert sum(rewards) == pytest.approx(1.0)
    # a seat level with the best other but with a crowd close behind: less than 1/2, where
    # the best-other judgement gives 1/2 whatever the crowd
    crowd = [["GGG"], ["GGG"], ["PPG", "GPL"], ["PPG", "GPL"]]
    assert judged(crowd)[0] == pytest.approx(0.5)
    assert judged(crowd, field=True)[0] < 0.5


def test_two_seats_judge_alike_either_way() -> None:
    hands = [["GPL", "KKG"], ["GGG"]]
    assert judged(hands, field=True) == pytest.approx(judged(hands))


def test_pieces_in_hand_and_the_turn_order_count_while_the_round_goes_on() -> None:
    # the same 3 points each: one piece against three
    hands = [["GGG"], ["GPL", "PLN", "GLY"], ["GGG"]]
    plain = judged(hands, field=True)
    assert plain[0] == pytest.approx(plain[1])
    counted = judged(hands, field=True, per_piece=4.0)
    assert counted[0] > counted[1]
    # seats 0 and 2 hold the same hand; with seat 2 to move, it is a fraction of a piece
    # ahead of seat 0, whose turn comes after
    assert counted[0] > counted[2]  # seat 0 moves first
    later = judged(hands, field=True, per_piece=4.0, mover=2)
    assert later[2] > later[0]
    order = judged([["GGG"], ["GGG"]], per_piece=4.0)  # seat 0 to move: 2 points of 4 ahead
    assert order[0] == pytest.approx(1 / (1 + math.exp(-2 / 3)))


def test_a_round_over_is_judged_by_its_points_alone() -> None:
    # seat 1 went out; seat 0 holds 3 points in one piece, seat 2 3 points in three
    hands = [["GGG"], [], ["GPL", "PLN", "GLY"]]
    final = judged(hands, last_round=True, per_piece=4.0, field=True, emptied_by=1)
    assert final == [0.0, 1.0, 0.0]
    final = judged(hands, totals=[0.0, 9.0, 4.0], last_round=True, per_piece=4.0, emptied_by=1)
    assert final == [1.0, 0.0, 0.0]  # 3 points against 9 and 7: pieces do not count
    later = judged(hands, totals=[0.0, 9.0, 0.0], per_piece=4.0, field=True, emptied_by=1)
    assert later[0] == pytest.approx(later[2])  # 3 points each after the round, whatever pieces


def test_up_to_six_seats_keep_their_judgement_and_seven_race() -> None:
    for players in range(2, 7):
        assert search_hooks.flat_judge(players) == (False, 0.0, 3.0)
    for players in range(7, 12):
        assert search_hooks.flat_judge(players) == (True, 10.0, 6.0)


@pytest.mark.parametrize(
    ("players", "variants", "race"),
    [(2, (), False), (6, (), False), (7, (), True), (11, ("bridging", "void", "draw3"), True)],
)
def test_the_searchs_playouts_judge_as_their_seat_count_says(
    players: int, variants: tuple[str, ...], race: bool
) -> None:
    game = cubegames.make("cubed", players=players, edition="ja", variants=variants, rounds=1)
    state = game.new_state(seed=1)
    assert isinstance(state, CubedState)
    playouts = kernel_bridge.playouts(state)
    assert playouts is not None
    assert (playouts.field, playouts.per_piece > 0, playouts.temperature) == (
        race,
        race,
        6.0 if race else 3.0,
    )
