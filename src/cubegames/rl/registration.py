"""Gymnasium ids for the games, registered when `cubegames.rl` is imported.

    import gymnasium
    import cubegames.rl   # registers the ids below (when gymnasium is installed)

    env = gymnasium.make("cubegames/Unstackable-v0", opponents=("greedy",))
    envs = gymnasium.make_vec("cubegames/Cubed-v0", num_envs=8, players=2, rounds=1)

- `cubegames/<Game>-v0` for every registered game (`Cubed`, `Unstackable`, `Stakd`,
  `Cubes`, and a plug-in game's id capitalised): `gymnasium.make` gives the single-agent
  environment (`cubegames.rl.gym.SingleAgentEnv`, the game fixed, its options and the
  environment's settings as keyword arguments); `gymnasium.make_vec` gives the batched
  environment (`cubegames.rl.vector_env`, compiled where the game has a kernel).
- `cubegames/SingleAgent-v0`: the same single-agent environment with `game_id=` given.

Registering imports gymnasium's registry only, none of the environments' modules.
"""

from __future__ import annotations

from typing import Any

import cubegames

#: the id of the single-agent environment taking `game_id=`
SINGLE_AGENT_ID = "cubegames/SingleAgent-v0"


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game.

    >>> env_id("stakd")
    'cubegames/Stakd-v0'
    """
    return f"cubegames/{game_id.capitalize()}-v0"


def vector(num_envs: int, game_id: str, **kwargs: Any) -> Any:
    """`gymnasium.make_vec`'s entry point: `cubegames.rl.vector_env`."""
    from cubegames.rl.vector import vector_env

    return vector_env(game_id, num_envs, **kwargs)


def register() -> bool:
    """Register every id with Gymnasium (idempotent); False when gymnasium is missing."""
    try:
        import gymnasium
    except ImportError:
        return False
    entry = "cubegames.rl.gym:SingleAgentEnv"
    if SINGLE_AGENT_ID not in gymnasium.registry:
        gymnasium.register(id=SINGLE_AGENT_ID, entry_point=entry)
    for game_id in cubegames.GAMES:
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point=entry,
                vector_entry_point="cubegames.rl.registration:vector",
                kwargs={"game_id": game_id},
            )
    return True
