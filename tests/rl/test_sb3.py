"""Stable-Baselines3's VecEnv adapter: reset-in-the-same-step, masks, and MaskablePPO."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from cubegames.rl import vector_env
from cubegames.rl.sb3 import SB3VecEnv


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("unstackable", {}), ("cubed", {"players": 2, "rounds": 1}), ("stakd", {"players": 2})],
)
def test_a_finished_game_restarts_in_the_step_that_ends_it(
    game_id: str, options: dict[str, Any]
) -> None:
    envs = SB3VecEnv(vector_env(game_id, 3, seed=1, opponent="random", **options))
    rng = np.random.default_rng(1)
    envs.seed(7)
    obs = envs.reset()
    assert obs.shape == (3, *envs.observation_space.shape)
    ended = 0
    for _ in range(600):
        masks = np.stack(envs.env_method("action_masks"))
        assert masks.shape == (3, envs.action_space.n) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = envs.step(actions)
        assert rewards.dtype == np.float32
        for i in np.flatnonzero(dones):
            ended += 1
            final = infos[i]["terminal_observation"]
            assert not np.array_equal(final, obs[i])  # the next game's first observation
            assert rewards[i] in (-1.0, 0.0, 1.0) and rewards[i] == infos[i]["seat_rewards"][0]
            assert np.array_equal(obs[i], envs.envs.observations()[i])
            assert "illegal_action" not in infos[i]
        for i in np.flatnonzero(~dones):
            assert "terminal_observation" not in infos[i] and rewards[i] == 0.0
        if ended >= 2:
            break
    assert ended >= 2


def test_an_illegal_action_loses_and_is_reported() -> None:
    envs = SB3VecEnv(vector_env("unstackable", 2, seed=2, opponent="random"))
    envs.reset()
    masks = envs.action_masks()
    illegal = [int(np.flatnonzero(~m)[0]) for m in masks]
    _, rewards, dones, infos = envs.step(np.array(illegal))
    assert dones.all() and (rewards == -1.0).all()
    assert all(info["illegal_action"] for info in infos)
    assert envs.action_masks().any(axis=1).all()  # the next games are ready


def test_self_play_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="SB3 learns one seat"):
        SB3VecEnv(vector_env("unstackable", 2, seed=1))


def test_maskable_ppo_learns_on_the_adapter() -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)

    class Watch(BaseCallback):
        illegal = 0
        episodes = 0

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                self.illegal += int(info.get("illegal_action", False))
                self.episodes += int("terminal_observation" in info)
            return True

    envs = SB3VecEnv(vector_env("unstackable", 4, seed=0, opponent="random"))
    watch = Watch()
    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(512, callback=watch)
    assert watch.episodes >= 1 and watch.illegal == 0  # masked: never an illegal action
    obs = envs.reset()
    actions, _ = model.predict(obs, action_masks=envs.action_masks(), deterministic=True)
    assert all(envs.action_masks()[i, a] for i, a in enumerate(actions))


def test_maskable_ppo_on_factored_cubed_with_dict_observations() -> None:
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    raw = vector_env(
        "cubed", 2, seed=3, opponent="random", players=2, rounds=1,
        action_space="factored", observation="dict",
    )  # fmt: skip
    envs = SB3VecEnv(raw)
    assert envs.action_space.n == 1261  # the cells of the window outnumber 174 patterns + 2
    model = MaskablePPO(
        "MultiInputPolicy", envs, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(64)
    obs = envs.reset()
    assert set(obs) == {"planes", "vector"}
    actions, _ = model.predict(obs, action_masks=envs.action_masks())
    assert all(envs.action_masks()[i, a] for i, a in enumerate(actions))
