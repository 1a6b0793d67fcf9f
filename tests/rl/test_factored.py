"""The factored CUBED action space (pattern, then cell) and Dict observations."""

from __future__ import annotations

import numpy as np
import pytest

from cubegames.rl import vector_env
from cubegames.rl.factored import Shaped
from cubegames.rl.vector import SessionVectorEnv


def factored(opponent: str = "self", **settings: str) -> Shaped:
    # rounds=2 keeps the Python environment (the compiled one plays single rounds)
    envs = vector_env(
        "cubed",
        2,
        seed=4,
        opponent=opponent,
        players=2,
        rounds=2,
        action_space="factored",
        **settings,
    )
    assert isinstance(envs, Shaped) and isinstance(envs.envs, SessionVectorEnv)
    return envs


def test_the_two_steps_offer_exactly_the_legal_placements() -> None:
    envs = factored()
    codec = envs.codec
    s = envs.patterns
    rng = np.random.default_rng(4)
    _, info = envs.reset()
    checked = 0
    for _ in range(300):
        for i in range(2):
            session = envs.envs.sessions[i]
            state = session.state
            if info["to_move"][i] < 0:
                continue
            legal = {str(m) for m in state.legal_moves()}
            mask = info["action_mask"][i]
            if envs.pending[i] < 0:
                offered = {codec.patterns[p] for p in np.flatnonzero(mask[:s])}
                placed = {m.split("@")[0] for m in legal if "@" in m}
                assert offered == placed
                others = {
                    str(codec.decode(codec.draw + a - s)) for a in np.flatnonzero(mask[s:]) + s
                }
                assert others == {m for m in legal if "@" not in m}
            else:
                pattern = codec.patterns[envs.pending[i]]
                cells = {
                    f"{pattern}@{q},{r}" for q, r in (codec.cells[c] for c in np.flatnonzero(mask))
                }
                assert cells == {m for m in legal if m.startswith(pattern + "@")}
                checked += 1
        before = [sess.state.to_dict() for sess in envs.envs.sessions]
        choosing = envs.pending.copy()
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        )
        _, rewards, terminations, _, info = envs.step(actions)
        assert not info["illegal_action"].any()
        for i in range(2):
            if choosing[i] < 0 and actions[i] < s and info["choosing_cell"][i]:
                # step 1 of a placement: nothing happens in the game yet
                assert envs.envs.sessions[i].state.to_dict() == before[i]
                assert rewards[i] == 0 and not terminations[i]
    assert checked >= 50


def test_the_factor_block_says_the_pattern_chosen() -> None:
    envs = factored()
    obs, info = envs.reset()
    size = envs.observer.shape[0]
    assert obs.shape == (2, size + 1 + envs.patterns)
    assert not obs[:, size:].any()
    pattern = int(np.flatnonzero(info["action_mask"][0][: envs.patterns])[0])
    obs, _, _, _, info = envs.step(np.array([pattern, pattern]))
    assert obs[0, size] == 1.0 and obs[0, size + 1 + pattern] == 1.0 and obs[0, size:].sum() == 2.0
    assert info["choosing_cell"].all()
    # the flat part is still the seat's view of the unchanged game
    view = envs.envs.sessions[0].state.view(0)
    assert np.array_equal(obs[0, :size], envs.observer.observe(view))


def test_a_pattern_with_no_legal_cell_or_a_bad_cell_loses() -> None:
    envs = factored()
    _, info = envs.reset()
    mask = info["action_mask"][0]
    bad_pattern = int(np.flatnonzero(~mask[: envs.patterns])[0])
    good = int(np.flatnonzero(mask[: envs.patterns])[0])
    _, rewards, terminations, _, info = envs.step(np.array([bad_pattern, good]))
    assert terminations[0] and rewards[0] == -1.0 and info["illegal_action"][0]
    assert not terminations[1] and info["choosing_cell"][1]
    bad_cell = int(np.flatnonzero(~info["action_mask"][1])[0])
    _, rewards, terminations, _, info = envs.step(np.array([0, bad_cell]))
    assert terminations[1] and rewards[1] == -1.0 and info["illegal_action"][1]


def test_the_compiled_environment_takes_the_factored_space_too() -> None:
    envs = vector_env(
        "cubed", 3, seed=2, opponent="random", players=2, rounds=1, action_space="factored"
    )
    assert type(envs.envs).__module__ == "cubegames.games.cubed.vector"
    rng = np.random.default_rng(2)
    _, info = envs.reset()
    ends = 0
    for _ in range(300):
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        )
        _, _, terminations, _, info = envs.step(actions)
        assert not info["illegal_action"].any()
        ends += int(terminations.sum())
    assert ends >= 1


@pytest.mark.parametrize("game_id", ["cubed", "unstackable"])
def test_dict_observations_hold_the_planes_and_the_vector(game_id: str) -> None:
    options = {"players": 2, "rounds": 1} if game_id == "cubed" else {}
    envs = vector_env(game_id, 2, seed=1, observation="dict", **options)
    obs, _ = envs.reset()
    flat = envs.envs.observations()
    planes, vector = envs.observer.split(flat[0])
    assert obs["planes"].shape == (2, *envs.observer.plane_shape)
    assert np.array_equal(obs["planes"][0], planes) and np.array_equal(obs["vector"][0], vector)
    assert obs in envs.observation_space


def test_bad_settings_are_named() -> None:
    with pytest.raises(ValueError, match="action_space must be"):
        vector_env("cubed", 1, players=2, rounds=1, action_space="tree")
    with pytest.raises(ValueError, match="observation must be"):
        vector_env("cubed", 1, players=2, rounds=1, observation="image")
    with pytest.raises(ValueError, match="factored action space is CUBED's"):
        vector_env("unstackable", 1, action_space="factored")


@pytest.mark.parametrize("observation", ["flat", "dict"])
def test_the_single_agent_env_takes_the_factored_space(observation: str) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    made = gymnasium.make(
        "cubegames/Cubed-v0", players=2, rounds=1, action_space="factored", observation=observation
    )
    env = made.unwrapped
    check_env(env)
    assert env.action_space.n == 1261
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    s = env.shape.patterns
    for _ in range(200):
        state = env.session.state
        legal = {str(m) for m in state.legal_moves()}
        mask = info["action_mask"].astype(bool)
        assert np.array_equal(np.flatnonzero(mask), info["legal_actions"])
        assert np.array_equal(mask, env.action_masks())
        if env.shape.pending < 0:
            assert {env.codec.patterns[p] for p in np.flatnonzero(mask[:s])} == {
                m.split("@")[0] for m in legal if "@" in m
            }
        else:
            pattern = env.codec.patterns[env.shape.pending]
            cells = {
                f"{pattern}@{q},{r}" for q, r in (env.codec.cells[c] for c in np.flatnonzero(mask))
            }
            assert cells == {m for m in legal if m.startswith(pattern + "@")}
        before = state.to_dict()
        action = int(rng.choice(np.flatnonzero(mask)))
        choosing = env.shape.pending < 0 and action < s
        obs, reward, terminated, _, info = env.step(action)
        assert obs in env.observation_space
        if choosing:
            assert env.session.state.to_dict() == before and reward == 0.0
        if terminated:
            assert not info.get("illegal_action")
            obs, info = env.reset()


def test_an_illegal_cell_raised_leaves_the_chosen_pattern_waiting() -> None:
    from cubegames.rl import single_agent
    from cubegames.rl.session import IllegalAction

    env = single_agent("cubed", players=2, rounds=1, action_space="factored", illegal="raise")
    _, info = env.reset(seed=0)
    pattern = int(np.flatnonzero(info["action_mask"][: env.shape.patterns])[0])
    _, _, _, _, info = env.step(pattern)
    before = (env.session.state.to_dict(), info["action_mask"].astype(bool).tolist())
    cell = int(np.flatnonzero(info["action_mask"])[0])
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for action in (bad, -1, env.action_space.n, cell + 0.5, str(cell)):
        with pytest.raises(IllegalAction):
            env.step(action)
        # nothing changed: the pattern still waits for its cell
        assert (env.session.state.to_dict(), env.action_masks().tolist()) == before
        assert env.shape.pending == pattern
    _, _, _, _, info = env.step(cell)  # and the legal cell places it
    assert str(env.session.state.to_dict()["table"]) != str(before[0]["table"])
