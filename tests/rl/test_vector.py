"""Batched environments: the compiled CUBED one plays the Python rules, observation for
observation and mask for mask; the Python fallback serves every other game."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.games.cubed import CubedState, kernel_bridge
from cubegames.games.cubed.vector import VectorEnv
from cubegames.kit.vector import outcome, seat_outcomes
from cubegames.rl import vector_env
from cubegames.rl.session import win_shares
from cubegames.rl.vector import SessionVectorEnv


def masked_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per game (0 where none is legal)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def python_state(envs: VectorEnv, i: int) -> CubedState:
    """Game `i` of the kernel, read back into the Python rules."""
    state = envs.game.new_state(0)
    assert isinstance(state, CubedState)
    kernel_bridge.decode_into(state, envs.game_arrays(i))
    return state


@pytest.mark.parametrize("players", [2, 3])
def test_the_compiled_environment_plays_the_python_rules(players: int) -> None:
    envs = VectorEnv(3, seed=players, players=players, rounds=1)
    obs, info = envs.reset()
    shadows = [python_state(envs, i) for i in range(3)]
    rng = np.random.default_rng(players)
    finished = 0
    for _ in range(250):
        for i, state in enumerate(shadows):
            if info["to_move"][i] < 0:
                continue
            seat = state.to_move
            assert seat is not None and info["to_move"][i] == seat
            view = state.view(seat)
            assert np.array_equal(obs[i], envs.observer.observe(view))
            expected = envs.codec.mask(state.legal_moves(), view).astype(bool)
            assert np.array_equal(info["action_mask"][i], expected)
        actions = masked_actions(info["action_mask"], rng)
        movers = info["to_move"].copy()
        obs, rewards, terminations, truncations, info = envs.step(actions)
        assert not truncations.any()
        for i in range(3):
            if movers[i] < 0:  # this step dealt game i afresh
                assert rewards[i] == 0 and not terminations[i]
                shadows[i] = python_state(envs, i)
                continue
            state = shadows[i]
            state.play(envs.codec.decode(int(actions[i])))
            if state.is_over:
                finished += 1
                assert terminations[i] and info["to_move"][i] == -1
                assert rewards[i] == outcome(win_shares(state), int(movers[i]))
                # every seat's reward, the losers' -1 included
                assert info["seat_rewards"][i].tolist() == seat_outcomes(win_shares(state))
                assert np.array_equal(obs[i], envs.observer.observe(state.view(int(movers[i]))))
                assert not info["action_mask"][i].any()
            else:
                assert not terminations[i] and rewards[i] == 0
                assert not info["seat_rewards"][i].any()
                assert python_state(envs, i).to_dict() == state.to_dict()
    assert finished >= 3


def test_against_the_random_opponent_the_learner_is_seat_0() -> None:
    envs = vector_env("cubed", 4, seed=5, opponent="random", players=2, rounds=1)
    assert isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"].value == "NextStep"
    _, info = envs.reset()
    rng = np.random.default_rng(1)
    ended = np.zeros(4, dtype=bool)
    outcomes = set()
    for _ in range(150):
        assert set(info["to_move"].tolist()) <= {-1, 0}
        assert np.array_equal(info["to_move"] == -1, ended)
        _, rewards, terminations, _, info = envs.step(masked_actions(info["action_mask"], rng))
        assert np.all(rewards[~terminations] == 0)
        assert not np.any(terminations & ended)  # the step after the end only resets
        outcomes.update(rewards[terminations].tolist())
        ended = terminations.copy()
    assert outcomes <= {-1.0, 0.0, 1.0} and len(outcomes) >= 2


def test_the_same_seed_plays_the_same_games() -> None:
    runs = []
    for _ in range(2):
        envs = VectorEnv(2, seed=11, players=2, rounds=1)
        obs, info = envs.reset()
        rng = np.random.default_rng(3)
        for _ in range(40):
            obs, *_, info = envs.step(masked_actions(info["action_mask"], rng))
        runs.append(obs.copy())
    assert np.array_equal(runs[0], runs[1])


@pytest.mark.parametrize("opponent", ["self", "random"])
def test_stepping_some_games_plays_them_as_stepping_all_does(opponent: str) -> None:
    """`step_rows` (a game at a time in the kernel) against `step` (every game in one call
    of the compiled kernel), on one seed: the games stepped get the same observations,
    masks, rewards and each seat's reward at the end; the others stay as they were."""
    whole = VectorEnv(3, seed=4, opponent=opponent, players=2, rounds=1)
    part = VectorEnv(3, seed=4, opponent=opponent, players=2, rounds=1)
    _, info = whole.reset()
    part.reset()
    rng = np.random.default_rng(4)
    ends = 0
    for turn in range(300):
        actions = masked_actions(info["action_mask"], rng)
        # a strided array of another dtype: the environment copies it into its own
        actions_view = np.repeat(actions.astype(np.int32), 2)[::2]
        obs, rewards, terminations, _, info = whole.step(actions_view)
        rows = [0, 2] if turn % 2 else [1]
        others = [i for i in range(3) if i not in rows]
        before = part.obs[others].copy(), part.masks[others].copy()
        p_obs, p_rewards, p_terminations, _, p_info = part.step_rows(actions, rows)
        assert np.array_equal(p_obs[others], before[0])
        assert np.array_equal(p_info["action_mask"][others], before[1])
        assert not p_rewards[others].any() and not p_terminations[others].any()
        assert not p_info["seat_rewards"][others].any()
        for name in ("action_mask", "to_move", "seat_rewards", "illegal_action"):
            assert np.array_equal(p_info[name][rows], info[name][rows]), name
        assert np.array_equal(p_obs[rows], obs[rows])
        assert np.array_equal(p_rewards[rows], rewards[rows])
        assert np.array_equal(p_terminations[rows], terminations[rows])
        ends += int(terminations.sum())
        # the games left out catch up, with the same actions, before the next turn
        part.step_rows(actions, others)
        assert np.array_equal(part.obs, obs) and np.array_equal(part.masks, info["action_mask"])
        assert np.array_equal(part.seat_rewards[others], info["seat_rewards"][others])
    assert ends >= 2


def test_the_environment_runs_its_kernel_as_python_under_numba_disable_jit() -> None:
    """The step called without numba's dispatch (`vector.compiled`) is the plain function
    when numba compiles nothing, as every other kernel is."""
    code = """
import numpy as np
from cubegames.games.cubed.vector import VectorEnv, step_all
envs = VectorEnv(2, seed=1, players=2, rounds=1)
_, info = envs.reset()
assert envs._step_all is step_all
for _ in range(3):
    actions = np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
    _, rewards, _, _, info = envs.step(actions)
print(info["to_move"].tolist(), rewards.tolist())
"""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[0] == "[1, 1] [0.0, 0.0]"


def test_an_illegal_action_loses_the_episode() -> None:
    envs = VectorEnv(2, seed=1, players=2, rounds=1)
    _, info = envs.reset()
    illegal = int(np.flatnonzero(~info["action_mask"][0])[0])
    legal = int(np.flatnonzero(info["action_mask"][1])[0])
    _, rewards, terminations, _, info = envs.step(np.array([illegal, legal]))
    assert rewards.tolist() == [-1.0, 0.0] and terminations.tolist() == [True, False]
    assert info["illegal_action"].tolist() == [True, False]


BATCHES = [
    ("cubed", {"players": 2, "rounds": 1}),  # the kernel
    ("unstackable", {}),  # its kernel
    ("stakd", {"players": 3}),  # the Python rules
    ("cubed", {"players": 2, "rounds": 1, "action_space": "factored"}),
]


@pytest.mark.parametrize(("game_id", "options"), BATCHES)
def test_a_malformed_batch_of_actions_is_refused_before_any_game_moves(
    game_id: str, options: dict[str, Any]
) -> None:
    def fresh() -> tuple[Any, np.ndarray]:
        envs = vector_env(game_id, 3, seed=5, **options)
        _, info = envs.reset()
        return envs, np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])

    envs, legal = fresh()
    bad = [
        (legal[:2], "step needs 3 actions, not 2"),  # one game short
        (np.array([*legal[:2], np.nan]), "game 2 has nan"),  # the first two legal
        (np.array([*legal[:2], legal[2] + 0.5]), "whole numbers"),
        (np.array([str(a) for a in legal]), "whole numbers"),
        # three actions in the wrong shape were read as a batch: name the shape instead
        (legal.reshape(1, 3), r"shaped \(3,\), not an array of shape \(1, 3\)"),
    ]
    for actions, message in bad:
        with pytest.raises(ValueError, match=message):
            envs.step(actions)
    # nothing moved: the legal actions play as they do in a fresh environment
    other, _ = fresh()
    played, expected = envs.step(legal), other.step(legal.astype(np.float64))
    for got, want in zip(played[:3], expected[:3], strict=True):
        assert np.array_equal(got, want)
    assert np.array_equal(played[4]["action_mask"], expected[4]["action_mask"])


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("stakd", {"players": 2}), ("cubes", {"players": 3}), ("cubed", {"players": 2})],
)
def test_games_without_a_kernel_get_the_python_environment(
    game_id: str, options: dict[str, Any]
) -> None:
    envs = vector_env(game_id, 2, seed=3, **options)
    assert isinstance(envs, SessionVectorEnv)  # cubed with 3 rounds: no kernel either
    single = cubegames.rl.single_agent(game_id, **options)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    obs, info = envs.reset()
    rng = np.random.default_rng(0)
    seen_end = False
    for _ in range(400):
        assert obs.shape == (2, *single.observation_space.shape)
        for i in range(2):
            assert info["action_mask"][i].any() == (info["to_move"][i] >= 0)
        movers = info["to_move"].copy()
        obs, rewards, terminations, _, info = envs.step(masked_actions(info["action_mask"], rng))
        assert set(rewards[terminations].tolist()) <= {-1.0, 0.0, 1.0}
        assert np.all(rewards[movers < 0] == 0)
        seen_end |= bool(terminations.any())
        if seen_end and game_id != "cubed":
            break
    assert seen_end or game_id == "cubed"
