"""The PettingZoo AEC environments: PettingZoo's own API test, masks, rewards, refusals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import cubegames
from cubegames.rl import codec, env, observer
from cubegames.rl.session import IllegalAction

ENVS = [
    ("cubed", {"players": 3, "rounds": 1}),
    ("cubed", {"players": 1}),
    ("cubed", {"players": 2, "variants": ["bridging", "void", "draw3"], "rounds": 1}),
    ("cubed", {"players": 2, "edition": "ja", "rounds": 1}),
    ("unstackable", {}),
    ("stakd", {"players": 3}),
    ("stakd", {"players": 1}),
    ("cubes", {"players": 4, "sets": 1}),
]
ENV_IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for g, o in ENVS]


# api_test warns about two things on purpose: an observation that is a dict (the PettingZoo
# convention for action masks, {"observation", "action_mask"}, which it accepts silently
# only for its own classic games, by name) and an observation space that is a Dict.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box"
)
@pytest.mark.parametrize(("game_id", "options"), ENVS, ids=ENV_IDS)
def test_pettingzoo_api_test(game_id: str, options: dict[str, Any]) -> None:
    api_test(env(game_id, render_mode="ansi", **options), num_cycles=1000)


@pytest.mark.parametrize(("game_id", "options"), ENVS, ids=ENV_IDS)
def test_a_whole_game(game_id: str, options: dict[str, Any]) -> None:
    """Masked random play to the end: the selected agent is the seat to move, its mask and
    observation are the codec's and observer's of its view, and rewards follow the winners."""
    aec = env(game_id, **options)
    aec.reset(seed=11)
    start = aec.session.state.to_dict()
    game = aec.session.game
    c, obs = codec(game), observer(game)
    rng = np.random.default_rng(0)
    final: dict[str, float] = {}
    while aec.agents:
        agent = aec.agent_selection
        observation, reward, terminated, truncated, info = aec.last()
        assert not truncated
        if terminated:
            final[agent] = reward
            aec.step(None)
            continue
        state = aec.session.state
        seat = int(agent.split("_")[1])
        assert seat == state.to_move
        view = state.view(seat)
        mask = c.mask(state.legal_moves(), view)
        assert np.array_equal(observation["action_mask"], mask)
        assert np.array_equal(info["action_mask"], mask)
        assert info["legal_actions"].tolist() == [c.encode(m, view) for m in state.legal_moves()]
        assert np.array_equal(observation["observation"], obs.observe(view))
        for other in aec.agents:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    state = aec.session.state
    assert state.is_over
    won = state.winners()
    assert final == {
        f"player_{s}": (1 / len(won) if s in won else 0.0) for s in range(game.players)
    }
    aec.reset(seed=11)  # the same seed deals the same game
    assert aec.session.state.to_dict() == start


def test_rewards_at_the_end() -> None:
    aec = env("unstackable")
    aec.reset(seed=0)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    rng = np.random.default_rng(1)
    for agent in aec.agent_iter():
        observation, reward, terminated, _, _ = aec.last()
        totals[agent] += reward
        if terminated:
            aec.step(None)
            continue
        assert reward == 0.0
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    state = aec.session.state
    won = state.winners()
    assert totals == {f"player_{s}": (1 / len(won) if s in won else 0.0) for s in (0, 1)}


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    aec = env("cubed", players=2, rounds=1)
    aec.reset(seed=3)
    before = aec.session.state.to_dict()
    mask = aec.observe(aec.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for action in (illegal, -1, aec.session.codec.size, "draw"):
        with pytest.raises(IllegalAction):
            aec.step(action)  # type: ignore[arg-type]
    assert aec.session.state.to_dict() == before


def test_a_step_with_no_game_in_progress_is_refused_clearly() -> None:
    aec = env("cubes", players=2, sets=1)
    with pytest.raises(RuntimeError, match=r"no game in progress .*call reset\(\)"):
        aec.step(0)  # before reset
    aec.reset(seed=0)
    for _agent in aec.agent_iter():
        _, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else 0)
    assert aec.agents == []
    with pytest.raises(RuntimeError, match=r"no game in progress .*call reset\(\)"):
        aec.step(0)  # after every agent has left
    aec.reset(seed=0)  # and a new game plays on
    aec.step(0)


def test_an_illegal_action_can_lose_instead() -> None:
    aec = env("stakd", players=2, illegal="lose")
    aec.reset(seed=0)
    agent = aec.agent_selection
    aec.step(aec.session.codec.size - 1)
    assert all(aec.terminations.values())
    assert aec.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert aec.infos[agent]["illegal_action"] is True


def test_shaped_rewards_and_options() -> None:
    aec = env("cubed", players=1, reward="shaped", radius=25)
    assert aec.session.codec.size == (3 * 25 * 26 + 1) * 174 + 2
    aec.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in aec.agent_iter():
        observation, reward, terminated, _, _ = aec.last()
        if terminated:
            assert reward == aec.session.game.rewards(aec.session.state)[0]
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    with pytest.raises(ValueError, match="reward"):
        env("cubed", reward="score")
    with pytest.raises(ValueError, match="radius"):
        env("stakd", radius=3)
    with pytest.raises(ValueError, match="no option"):
        env("unstackable", players=2, edition="en")


def test_render_draws_the_view_of_the_seat_to_move() -> None:
    aec = env("cubed", players=2, rounds=1, render_mode="ansi")
    aec.reset(seed=1)
    text = aec.render()
    assert isinstance(text, str) and "0,0" in text
    assert env("cubed").render() is None
    assert cubegames.GAMES  # every game has an environment
    for game_id in cubegames.GAMES:
        env(game_id).reset(seed=0)


def test_rgb_array_renders_a_picture_of_the_seat_to_move() -> None:
    aec = env("unstackable", render_mode="rgb_array")
    aec.reset(seed=2)
    first = aec.render()
    assert first.shape == (480, 640, 3) and first.dtype == np.uint8
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert not np.array_equal(first, aec.render())
    with pytest.raises(ValueError, match="render_mode must be"):
        env("unstackable", render_mode="human")
