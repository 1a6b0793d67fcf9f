"""Batched learning environments: N games stepped together, masks included.

    envs = cubegames.rl.vector_env("cubed", 64, seed=1, players=2, rounds=1)
    obs, info = envs.reset()
    obs, rewards, terminations, truncations, info = envs.step(actions)   # actions: (64,)

`vector_env(game_id, num_envs, *, seed=None, opponent="self", **options)` returns the game's
compiled environment, `cubegames.rl.vector.<game_id>.VectorEnv`, when the game has one and
it covers the options (its module's `supports(options)`), else `SessionVectorEnv`, the same
interface over the Python rules. Every one is a `gymnasium.vector.VectorEnv`:

- `single_observation_space` and `single_action_space` are those of
  `cubegames.rl.gym.SingleAgentEnv` (observation `observer(game)`, actions `codec(game)`);
- `reset(seed=None) -> (obs[N, ...], info)` and `step(actions[N]) -> (obs, rewards,
  terminations, truncations, info)`, with `info["action_mask"]` (bool, `(N, codec.size)`,
  all False where an episode has just ended) and `info["to_move"]` (`(N,)`, -1 where an
  episode has just ended);
- `opponent="self"`: the action is for whichever seat is to move, the observation is that
  seat's, and the reward (+1 for a win, -1 for a loss, 0 otherwise, shared wins included)
  goes to the seat that just moved; `opponent="random"`: the learner is seat 0 and a
  uniformly random opponent plays the other seats inside the environment;
- an illegal action ends that episode with reward -1 for the mover and
  `info["illegal_action"]` set;
- autoreset `NEXT_STEP` (`metadata["autoreset_mode"]`): the step after an episode ends
  resets that game, ignores its action and returns reward 0.

The arrays returned are the environment's own buffers, overwritten by the next call: copy
what you keep.
"""

from __future__ import annotations

import importlib
from typing import Any

from cubegames.core.registry import built_in
from cubegames.rl.vector.session import SessionVectorEnv

__all__ = ["SessionVectorEnv", "vector_env"]


def vector_env(
    game_id: str, num_envs: int, *, seed: int | None = None, opponent: str = "self", **options: Any
) -> Any:
    """The fastest batched environment for `game_id` with these options (see the module).

    >>> envs = vector_env("stakd", 2, seed=1, players=2)
    >>> type(envs).__name__, envs.num_envs
    ('SessionVectorEnv', 2)
    """
    module = None
    if built_in(game_id):  # a plug-in game has no compiled environment here
        try:
            module = importlib.import_module(f"cubegames.rl.vector.{game_id}")
        except ModuleNotFoundError as error:
            if error.name != f"cubegames.rl.vector.{game_id}":
                raise
    supports = getattr(module, "supports", None)
    if module is not None and (supports is None or supports(options)):
        return module.VectorEnv(num_envs, seed=seed, opponent=opponent, **options)
    return SessionVectorEnv(game_id, num_envs, seed=seed, opponent=opponent, **options)
