"""The search hooks of STAKD: samples, rollouts, rewards and the greedy heuristic."""

from __future__ import annotations

import random

import cubegames
from cubegames.games.stakd import StakdState
from tests.stakd.helpers import TWO_BASES, position


def test_sampler_hands_out_the_position_itself() -> None:
    state = cubegames.make("stakd", players=3).new_state()
    bot = cubegames.bot("random", seed=1)
    for _ in range(20):
        state.play(bot.choose(state))
    sample = state.game.sampler(state.view(1), 1)
    one, two = sample(random.Random(1)), sample(random.Random(2))
    assert one.to_dict() == two.to_dict() == state.to_dict()
    assert one is not two


def test_rollout_stops_at_the_end_of_the_round_and_rewards_its_winner() -> None:
    state = cubegames.make("stakd", players=2).new_state()
    assert isinstance(state, StakdState)
    assert state.game.rewards(state) == [0.5, 0.5]
    state.game.rollout(state, random.Random(3))
    data = state.to_dict()
    assert len(data["round_winners"]) == 1 and data["round"] == 2
    rewards = state.game.rewards(state)
    winner = data["round_winners"][0]
    assert rewards[winner] == 0.8 + 0.2 / 3 and rewards[1 - winner] == 0.0


def test_solo_rewards() -> None:
    won = position([(0, TWO_BASES[0][1]), (0, TWO_BASES[1][1])], players=1, hands=[{"DUO": 1}])
    won.play("DUO@1:0,0+1,0")
    assert won.game.rewards(won) == [1.0]
    lost = position([(0, TWO_BASES[0][1]), (0, TWO_BASES[1][1])], players=1, hands=[{"DUO": 2}])
    lost.play("DUO@1:0,0+1,0")
    assert lost.game.rewards(lost) == [0.5 * 3 / 39]


def test_greedy_beats_random() -> None:
    wins = 0
    for game_no in range(20):
        state = cubegames.make("stakd", players=2, points_to_win=1).new_state()
        me = game_no % 2
        bots = {me: cubegames.bot("greedy", seed=game_no), 1 - me: cubegames.bot("random")}
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            state.play(bots[seat].choose(state))
        wins += state.winners() == [me]
    assert wins >= 15


def test_mcts_plays_a_round() -> None:
    state = cubegames.make("stakd", players=2, points_to_win=1).new_state()
    bot = cubegames.bot("mcts:iterations=20", seed=1)
    while not state.is_over:
        state.play(bot.choose(state))
    assert len(state.winners()) == 1
