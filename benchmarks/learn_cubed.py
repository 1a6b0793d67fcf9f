"""MaskablePPO learning 2-player CUBED against the random bot on the factored action space.

The learner is seat 0 of `vector_env("cubed", N, opponent="random", players=2, rounds=1,
action_space="factored", observation="dict")` (the compiled environment), through
`cubegames.rl.sb3.SB3VecEnv`, with sb3-contrib's MaskablePPO and `MultiInputPolicy`, whose
features are the planes averaged over 4x4 cells (28 x 10 x 10) beside the vector, through
one layer of 128 (`Pooled`, below), then two of 64. Before training and after, the policy
plays `--eval` games against the random bot (sampling its actions from the masked policy)
and the win rate is printed as a Markdown row for benchmarks/README.md.

    .venv/bin/python benchmarks/learn_cubed.py --steps 60000 --seed 0

One core: torch is held to one thread. The training time is the process's CPU time (on a
shared machine the wall time, printed beside it, can be several times longer).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from cubegames.rl import vector_env
from cubegames.rl.sb3 import SB3VecEnv


class Pooled(BaseFeaturesExtractor):
    """The planes averaged over 4x4 cells, beside the vector, through one layer."""

    def __init__(self, observation_space: spaces.Dict, features_dim: int = 128) -> None:
        super().__init__(observation_space, features_dim)
        planes = observation_space["planes"].shape
        vector = observation_space["vector"].shape[0]
        self.pool = nn.AvgPool2d(4)
        pooled = planes[0] * (planes[1] // 4) * (planes[2] // 4)
        self.layer = nn.Sequential(nn.Linear(pooled + vector, features_dim), nn.ReLU())

    def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        pooled = self.pool(obs["planes"]).flatten(1)
        return self.layer(torch.cat([pooled, obs["vector"]], dim=1))


def make_envs(num_envs: int, seed: int) -> SB3VecEnv:
    raw = vector_env(
        "cubed",
        num_envs,
        seed=seed,
        opponent="random",
        players=2,
        rounds=1,
        action_space="factored",
        observation="dict",
    )
    return SB3VecEnv(raw)


def win_rate(model: MaskablePPO, games: int, seed: int) -> tuple[float, float]:
    """The learner's share of wins (ties half) and its mean reward over `games` games."""
    envs = make_envs(8, seed)
    obs = envs.reset()
    rewards: list[float] = []
    while len(rewards) < games:
        actions, _ = model.predict(obs, action_masks=envs.action_masks(), deterministic=False)
        obs, reward, dones, _ = envs.step(actions)
        rewards.extend(float(reward[i]) for i in np.flatnonzero(dones))
    done = np.array(rewards[:games])
    return float(np.mean((done + 1) / 2)), float(np.mean(done))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--eval", type=int, default=400, dest="games")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    envs = make_envs(args.envs, args.seed)
    kwargs: dict[str, Any] = {
        "normalize_images": False,
        "net_arch": [64, 64],
        "features_extractor_class": Pooled,
    }
    model = MaskablePPO(
        "MultiInputPolicy",
        envs,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        ent_coef=0.01,
        gamma=0.995,
        seed=args.seed,
        device="cpu",
        policy_kwargs=kwargs,
    )
    before, before_reward = win_rate(model, args.games, args.seed + 1000)
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(args.steps)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    after, after_reward = win_rate(model, args.games, args.seed + 2000)
    print(
        "| steps | seed | training CPU time (wall) | win rate before | after "
        "| mean reward before | after |"
    )
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {args.steps:,} | {args.seed} | {cpu / 60:.1f} min ({seconds / 60:.1f} min) "
        f"| {before:.3f} | {after:.3f} | {before_reward:+.3f} | {after_reward:+.3f} |"
    )


if __name__ == "__main__":
    main()
