"""`import cubegames.rl` registers Gymnasium ids: `gymnasium.make` and `make_vec` find them."""

from __future__ import annotations

import subprocess
import sys

import pytest

import cubegames
from cubegames.rl.registration import env_id


def test_gymnasium_make_works_right_after_import_cubegames_rl() -> None:
    code = (
        "import cubegames.rl, gymnasium\n"
        "env = gymnasium.make('cubegames/Unstackable-v0', opponents=('greedy',))\n"
        "obs, info = env.reset(seed=1)\n"
        "print(env.unwrapped.session.game.id, obs.shape, int(info['action_mask'].sum()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["unstackable", "(356,)", "3"]


@pytest.mark.parametrize("game_id", cubegames.GAMES)
def test_every_game_has_an_id(game_id: str) -> None:
    import gymnasium

    spec = gymnasium.spec(env_id(game_id))
    assert spec.kwargs == {"game_id": game_id}
    env = gymnasium.make(env_id(game_id), players=2)
    assert env.unwrapped.session.game.id == game_id
    env.close()


def test_options_pass_through_to_the_game() -> None:
    import gymnasium

    env = gymnasium.make("cubegames/Cubed-v0", players=3, rounds=1, opponents=("random",))
    assert env.unwrapped.session.game.players == 3
    with pytest.raises(ValueError, match="variant"):
        gymnasium.make("cubegames/Cubed-v0", variants=("flying",))


def test_make_vec_gives_the_batched_environment() -> None:
    import gymnasium

    envs = gymnasium.make_vec("cubegames/Stakd-v0", num_envs=3, seed=2, players=2)
    obs, info = envs.reset()
    assert obs.shape[0] == 3 and info["action_mask"].shape[0] == 3
    assert type(envs).__name__ == "SessionVectorEnv"
