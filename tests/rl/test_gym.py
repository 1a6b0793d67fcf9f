"""The Gymnasium single-agent environments: Gymnasium's checker, bots, masks, rewards."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cubegames.rl import single_agent
from cubegames.rl.gym import ENV_ID, SingleAgentEnv
from cubegames.rl.session import IllegalAction

CHECKED = [
    {"game_id": "cubed", "players": 1},
    {"game_id": "stakd", "players": 1},
    {"game_id": "unstackable", "opponents": ("random",)},
    {"game_id": "cubed", "players": 3, "rounds": 1, "opponents": ("greedy", "random")},
    {"game_id": "stakd", "players": 2, "seat": "random"},
    {"game_id": "cubes", "players": 3},
]


@pytest.mark.parametrize("kwargs", CHECKED, ids=lambda k: "-".join(map(str, k.values())))
def test_gymnasium_check_env(kwargs: dict[str, Any]) -> None:
    """Made through `gymnasium.make`, so the checker also renders through the spec."""
    made = gymnasium.make(ENV_ID, render_mode="ansi", **kwargs)
    check_env(made.unwrapped)
    made.close()


def _play(env: SingleAgentEnv, seed: int) -> tuple[float, dict[str, Any], int]:
    """Masked random play of one episode: the last reward and info, and the steps taken."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        assert obs in env.observation_space
        mask = info["action_mask"]
        assert np.array_equal(mask.astype(bool), env.action_masks())
        state = env.session.state
        assert state.to_move == env.seat
        legal = env.codec.mask(state.legal_moves(), state.view(env.seat))
        assert np.array_equal(mask, legal)
        assert np.array_equal(obs, env.observer.observe(state.view(env.seat)))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        assert not truncated
        if terminated:
            assert not info["action_mask"].any()
            return float(reward), info, steps
        assert reward == 0.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game_id": "cubed", "players": 1},
        {"game_id": "stakd", "players": 1},
        {"game_id": "unstackable", "opponents": ("greedy",), "seat": 1},
        {"game_id": "cubed", "players": 4, "rounds": 1, "opponents": ("random",), "seat": 2},
    ],
    ids=lambda k: "-".join(map(str, k.values())),
)
def test_episodes_end_with_the_win_share(kwargs: dict[str, Any]) -> None:
    env = single_agent(**kwargs)
    for seed in range(3):
        reward, _, _ = _play(env, seed)
        state = env.session.state
        won = state.winners()
        assert state.is_over
        assert reward == (1 / len(won) if env.seat in won else 0.0)


def test_bots_play_the_other_seats_and_the_seed_fixes_everything() -> None:
    env = single_agent("cubed", players=3, rounds=1, opponents=("greedy", "random"), seat=1)
    env.reset(seed=5)
    assert [b.name for s, b in sorted(env.bots.items())] == ["greedy", "random"]
    reward, _, steps = _play(env, 5)
    end = env.session.state.to_dict()
    again, _, steps_again = _play(env, 5)
    assert (again, steps_again) == (reward, steps) and env.session.state.to_dict() == end


def test_a_random_seat_varies() -> None:
    env = single_agent("unstackable", seat="random")
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
        assert env.session.state.to_move == env.seat
    assert seats == {0, 1}


def test_illegal_actions() -> None:
    env = single_agent("cubed", players=1)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.session.state.to_dict()
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.session.state.to_dict() == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = single_agent("cubed", players=1, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalAction):
        strict.step(illegal)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        single_agent("unstackable", seat=2)
    with pytest.raises(ValueError, match="unknown bot"):
        single_agent("unstackable", opponents=("wizard",))
    with pytest.raises(ValueError, match="opponents"):
        single_agent("unstackable", opponents="random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="illegal"):
        single_agent("unstackable", illegal="ignore")


def test_legal_actions_list_the_mask() -> None:
    env = single_agent("unstackable")
    _, info = env.reset(seed=0)
    assert info["legal_actions"].dtype == np.int64
    assert info["legal_actions"].tolist() == np.flatnonzero(info["action_mask"]).tolist()
    legal = env.session.state.legal_moves()
    assert [env.codec.decode(int(i)) for i in info["legal_actions"]] == legal


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game_id": "cubed", "players": 2, "rounds": 1},
        {"game_id": "unstackable"},
        {"game_id": "stakd", "players": 1},
        {"game_id": "cubes", "players": 2, "sets": 1},
    ],
    ids=lambda k: k["game_id"],
)
def test_rgb_array_passes_gymnasiums_render_check(kwargs: dict[str, Any]) -> None:
    made = gymnasium.make(ENV_ID, render_mode="rgb_array", **kwargs)
    check_env(made.unwrapped)  # renders and checks the frame
    env = made.unwrapped
    env.reset(seed=1)
    first = env.render()
    assert first.shape == (480, 640, 3) and first.dtype == np.uint8
    assert (first < 200).any()  # something is drawn on the white canvas
    rng = np.random.default_rng(1)
    frames = [first]
    for _ in range(6):
        mask = env.action_masks()
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        frames.append(env.render())
        if terminated:
            break
    assert {f.shape for f in frames} == {(480, 640, 3)}  # one size: a video can be made
    assert any(not np.array_equal(first, f) for f in frames[1:])
    made.close()


def test_an_unknown_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode must be"):
        SingleAgentEnv("unstackable", render_mode="human")


@pytest.mark.parametrize("game_id", ["cubed", "unstackable", "stakd", "cubes"])
def test_env_pickles_and_plays_the_same(game_id: str) -> None:
    """Subprocess vector environments pickle the environment: CUBED's game held a closure
    (its points cache) and failed."""
    import pickle

    env = single_agent(game_id, players=2)
    obs, _ = env.reset(seed=4)
    copy = pickle.loads(pickle.dumps(env))
    again, _ = copy.reset(seed=4)
    np.testing.assert_array_equal(obs, again)
