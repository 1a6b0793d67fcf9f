"""Batched learning environments: N games stepped together, masks included.

    envs = cubegames.rl.vector_env("cubed", 64, seed=1, players=2, rounds=1)
    obs, info = envs.reset()
    obs, rewards, terminations, truncations, info = envs.step(actions)   # actions: (64,)

`vector_env(game_id, num_envs, *, seed=None, opponent="self", **options)` returns the game's
compiled environment, `VectorEnv` of its own `vector` part (`cubegames.kit.parts`:
`cubegames.games.cubed.vector` for CUBED), when the game has one and it covers the options
(its module's `supports(options)`), else `SessionVectorEnv`, the same interface over the
Python rules. Every one is a `gymnasium.vector.VectorEnv`:

- `single_observation_space` and `single_action_space` are those of
  `cubegames.rl.gym.SingleAgentEnv` (observation `observer(game)`, actions `codec(game)`);
- `reset(seed=None) -> (obs[N, ...], info)` and `step(actions[N]) -> (obs, rewards,
  terminations, truncations, info)`, with `info["action_mask"]` (bool, `(N, codec.size)`,
  all False where an episode has just ended) and `info["to_move"]` (`(N,)`, -1 where an
  episode has just ended);
- `opponent="self"`: the action is for whichever seat is to move, the observation is that
  seat's, and the reward (+1 for a win, -1 for a loss, 0 otherwise, shared wins included)
  goes to the seat that just moved;
- any other opponent makes the learner seat 0, the opponent playing every other seat inside
  the step: `"random"` (compiled in the kernels of CUBED and Unstackable), any bot by name
  (`"greedy"`, `"mcts:iterations=50"`, ...: `cubegames.bot`'s names; CUBED's kernel plays
  `greedy` and `mcts[:iterations=N]` itself, see `cubegames.rl.kernel_opponents`; the
  others run over the Python rules), or a
  frozen policy, a callable `policy(obs, masks) -> actions` given the observations
  `(k, obs_size)` and boolean masks `(k, actions)` of the k games where an opponent is to
  move, each from that seat's view (a league or a self-play pool passes snapshots here);
- every seat's reward at the end: `info["seat_rewards"]`, `(N, players)`, is each seat's
  +1 / -1 / 0 in the step that ends a game (zeros elsewhere), so in self-play the loser's -1
  is delivered too, for any number of seats (see docs/rl.md beside PettingZoo's convention);
- an illegal action ends that episode with reward -1 for the mover (and in
  `seat_rewards`, 0 for the others) and `info["illegal_action"]` set;
- `restart(indexes)` deals those games afresh at once and shows them in the buffers (what
  the next step would have done): Stable-Baselines3's adapter (`cubegames.rl.sb3`) uses it;
- autoreset `NEXT_STEP` (`metadata["autoreset_mode"]`): the step after an episode ends
  resets that game, ignores its action and returns reward 0.

The arrays returned are the environment's own buffers, overwritten by the next call: copy
what you keep.
"""

from __future__ import annotations

from typing import Any

from cubegames.kit.parts import part
from cubegames.rl.vector.session import SessionVectorEnv

__all__ = ["SessionVectorEnv", "vector_env"]


def vector_env(
    game_id: str, num_envs: int, *, seed: int | None = None, opponent: Any = "self", **options: Any
) -> Any:
    """The fastest batched environment for `game_id` with these options (see the module).

    Two settings are the environment's own, not the game's: `action_space="factored"`
    (CUBED: pattern, then cell) and `observation="dict"` (planes and vector apart); see
    `cubegames.rl.factored`.

    >>> envs = vector_env("stakd", 2, seed=1, players=2)
    >>> type(envs).__name__, envs.num_envs
    ('SessionVectorEnv', 2)
    """
    action_space = options.pop("action_space", "flat")
    observation = options.pop("observation", "flat")
    envs = _vector_env(game_id, num_envs, seed=seed, opponent=opponent, **options)
    if action_space == "flat" and observation == "flat":
        return envs
    from cubegames.rl.factored import Shaped

    return Shaped(envs, action_space=action_space, observation=observation)


def _vector_env(
    game_id: str, num_envs: int, *, seed: int | None, opponent: Any, **options: Any
) -> Any:
    module = part(game_id, "vector")
    supports = getattr(module, "supports", None)
    from cubegames.rl.kernel_opponents import spec  # numba: imported only when asked for

    found = None if module is None else spec(game_id, opponent, options)
    if module is not None and found is not None and (supports is None or supports(options)):
        return module.VectorEnv(
            num_envs, seed=seed, opponent=opponent, kernel_opponent=found, **options
        )
    return SessionVectorEnv(game_id, num_envs, seed=seed, opponent=opponent, **options)
