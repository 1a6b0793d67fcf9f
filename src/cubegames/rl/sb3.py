"""Stable-Baselines3's `VecEnv` over a batched environment (`cubegames.rl.vector_env`).

    from sb3_contrib import MaskablePPO
    from cubegames.rl import vector_env
    from cubegames.rl.sb3 import SB3VecEnv

    envs = SB3VecEnv(vector_env("unstackable", 8, seed=0, opponent="random"))
    model = MaskablePPO("MlpPolicy", envs, seed=0).learn(50_000)

Factored actions and Dict observations (`vector_env(..., action_space="factored",
observation="dict")`, see `cubegames.rl.factored`) pass through; use `MultiInputPolicy`
for Dict observations.

SB3 learns one seat: the learner is seat 0 and the environment's opponent plays the others
("random", any bot by name, or a frozen policy: see `cubegames.rl.vector`); a self-play
league passes snapshots of the learner as that policy. `opponent="self"` is refused here,
since its steps alternate between seats that one SB3 rollout would mix up.

What the adapter does:

- SB3 resets a finished game in the step that ends it: the game's last observation goes to
  `infos[i]["terminal_observation"]`, and the environment's `restart` deals the next game
  at once, whose first observation is returned (Gymnasium's vector environments wait for
  the next step instead).
- `action_masks()` (and `env_method("action_masks")`, which sb3-contrib's maskable
  algorithms call) gives the current boolean masks, one row per game.
- `infos[i]` of a step that ended game i also holds `seat_rewards` (every seat's +1 / -1 /
  0) and `illegal_action` when the learner's action was not legal.
- Rewards are float32; games never truncate.
- Factored actions and Dict observations (`vector_env(..., action_space="factored",
  observation="dict")`, see `cubegames.rl.factored`) pass through; Dict observations take
  SB3's `MultiInputPolicy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from cubegames.kit.vector import batch_actions


class SB3VecEnv(VecEnv):
    """A cubegames batched environment as SB3 sees one (see the module docstring)."""

    def __init__(self, envs: Any) -> None:
        if getattr(envs, "opponent", "self") == "self":
            raise ValueError(
                "SB3 learns one seat: make the vector env with an opponent (e.g. "
                "opponent='random', 'greedy' or a frozen policy), not 'self'"
            )
        self.envs = envs
        super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)
        self._actions: npt.NDArray[np.int64] = np.zeros(envs.num_envs, dtype=np.int64)
        self._masks = np.zeros((envs.num_envs, int(envs.single_action_space.n)), dtype=bool)

    def reset(self) -> VecEnvObs:
        seed = self._seeds[0] if self._seeds else None
        obs, info = self.envs.reset(seed=seed)
        self._reset_seeds()
        self._masks = np.array(info["action_mask"], dtype=bool)
        copied: VecEnvObs = _copy(obs)
        return copied

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = batch_actions(actions, self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminations, truncations, info = self.envs.step(self._actions)
        obs = _copy(obs)
        masks = np.array(info["action_mask"], dtype=bool)
        dones = np.asarray(terminations, dtype=bool) | np.asarray(truncations, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        ended = np.flatnonzero(dones)
        for i in ended:
            infos[i] = {
                "terminal_observation": _row(obs, int(i)),
                "TimeLimit.truncated": bool(truncations[i] and not terminations[i]),
                "seat_rewards": np.array(info["seat_rewards"][i]),
            }
            if info["illegal_action"][i]:
                infos[i]["illegal_action"] = True
        if len(ended):
            self.envs.restart(ended)
            fresh = self.envs.observations()
            if isinstance(obs, dict):
                for key in obs:
                    obs[key][ended] = fresh[key][ended]
            else:
                obs[ended] = fresh[ended]
            masks[ended] = self.envs.action_masks()[ended]
        self._masks = masks
        return obs, np.asarray(rewards, dtype=np.float32).copy(), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game now, `(num_envs, actions)` booleans."""
        return self._masks.copy()

    def close(self) -> None:
        self.envs.close()

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks for _ in self._indices(indices)]
        value = getattr(self.envs, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"the games of a batched environment share {attr_name!r}")

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if method_name == "action_masks":
            return [self._masks[i].copy() for i in self._indices(indices)]
        raise AttributeError(f"the games of a batched environment have no method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]


def _copy(obs: Any) -> Any:
    """A copy of a batch of observations (an array, or a dict of arrays)."""
    if isinstance(obs, dict):
        return {key: np.array(value) for key, value in obs.items()}
    return np.array(obs)


def _row(obs: Any, i: int) -> Any:
    """Game `i`'s observation of a batch (a copy)."""
    if isinstance(obs, dict):
        return {key: value[i].copy() for key, value in obs.items()}
    return obs[i].copy()
