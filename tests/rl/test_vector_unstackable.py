"""The batched Unstackable environment against the Python rules, encoders and the
single-agent environment's spaces.

Every step of many seeded random games, each game is decoded into an `UnstackableState`
(through `state_from_dict`, which checks it) and its observation and action mask must equal
`observer` and `codec` of that state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from cubegames.games.unstackable.vector import VectorEnv
from cubegames.rl import vector_env
from cubegames.rl.gym import SingleAgentEnv

OPTIONS: list[dict[str, Any]] = [{}, {"exact_counts": False}, {"bag_counts_as_exposed": True}]


def random_actions(masks: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    out = np.zeros(len(masks), dtype=np.int64)
    for g, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        out[g] = rng.choice(legal) if len(legal) else 0
    return out


def check(envs: VectorEnv, obs: Any, info: dict[str, Any], ended: Any, versus_random: bool) -> None:
    for g in range(envs.num_envs):
        state = envs.state(g)
        if ended[g]:
            continue
        seat = state.to_move
        assert seat is not None and info["to_move"][g] == seat
        if versus_random:
            assert seat == 0
        assert np.array_equal(obs[g], envs.observer.observe(state.view(seat)))
        want = envs.codec.mask(state.legal_moves()).astype(bool)
        assert np.array_equal(info["action_mask"][g], want)


@pytest.mark.parametrize("opponent", ["self", "random"])
@pytest.mark.parametrize("options", OPTIONS, ids=["default", "exact_counts=False", "bag"])
def test_observations_and_masks_are_the_python_rules(
    opponent: str, options: dict[str, Any]
) -> None:
    envs = VectorEnv(5, seed=3, opponent=opponent, **options)
    obs, info = envs.reset()
    check(envs, obs, info, np.zeros(5, dtype=bool), opponent == "random")
    rng = np.random.default_rng(len(options))
    finished = 0
    pending = np.zeros(5, dtype=bool)
    for _ in range(220):
        before = [envs.state(g) for g in range(5)]
        actions = random_actions(info["action_mask"], rng)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for g in range(5):
            if pending[g]:  # NEXT_STEP autoreset: a new game, the action ignored
                assert rewards[g] == 0 and not terminated[g]
                assert envs.state(g).occupied.bit_count() == 0
            elif terminated[g]:
                finished += 1
                state = envs.state(g)
                assert state.is_over
                mover = 0 if opponent == "random" else before[g].to_move
                assert mover is not None
                scores = state.scores()
                want = np.sign(scores[mover] - scores[1 - mover])
                assert rewards[g] == want
                assert np.array_equal(obs[g], envs.observer.observe(state.view(mover)))
                assert not info["action_mask"][g].any() and info["to_move"][g] == -1
            else:
                assert rewards[g] == 0
        check(envs, obs, info, terminated, opponent == "random")
        pending = terminated
    assert finished >= 5  # several whole games went by


def test_the_spaces_are_the_single_agent_environments() -> None:
    envs = vector_env("unstackable", 3)
    assert isinstance(envs, VectorEnv)
    single = SingleAgentEnv("unstackable")
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space.shape == (3, *single.observation_space.shape)
    assert envs.metadata["autoreset_mode"].value == "NextStep"


def test_an_illegal_action_loses_and_the_next_step_resets() -> None:
    envs = VectorEnv(2, seed=0)
    envs.reset()
    actions = np.array([0, 5], dtype=np.int64)  # Y@0,0,0 is legal; Y@1,1,0 is not
    _, rewards, terminated, _, info = envs.step(actions)
    assert rewards.tolist() == [0.0, -1.0] and terminated.tolist() == [False, True]
    assert info["illegal_action"].tolist() == [False, True]
    _, rewards, terminated, _, info = envs.step(np.array([73, 0], dtype=np.int64))  # R@1,0,0
    assert rewards.tolist() == [0.0, 0.0] and not terminated.any()
    assert envs.state(1).occupied == 0 and info["to_move"].tolist() == [1, 0]


def test_the_random_opponent_is_reproducible() -> None:
    runs = []
    for _ in range(2):
        envs = VectorEnv(4, seed=11, opponent="random")
        obs, info = envs.reset()
        rng = np.random.default_rng(0)
        for _ in range(60):
            obs, *_, info = envs.step(random_actions(info["action_mask"], rng))
        runs.append(obs)
    assert np.array_equal(runs[0], runs[1])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": 0}, "num_envs must be a whole number"),
        ({"num_envs": 2, "opponent": "mcts"}, "opponent must be 'self', 'random' or 'greedy'"),
        ({"num_envs": 2, "players": 3}, "exactly 2 players"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        VectorEnv(**kwargs)


def test_step_needs_one_action_per_game() -> None:
    envs = VectorEnv(3)
    envs.reset()
    with pytest.raises(ValueError, match="step needs 3 actions, not 2"):
        envs.step([0, 0])
