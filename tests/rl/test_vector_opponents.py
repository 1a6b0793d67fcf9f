"""Batched environments: opponents (bots by name, frozen policies), every seat's reward at
the end, restarting a game at once, and kernels loaded from numba's cache."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from cubegames.kit.vector import seat_outcomes
from cubegames.rl import vector_env
from cubegames.rl.session import win_shares
from cubegames.rl.vector import SessionVectorEnv


def masked(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def play_until_ends(envs: Any, steps: int, seed: int) -> list[tuple[int, Any]]:
    """Masked random play; the (game, info) of every step that ended a game."""
    rng = np.random.default_rng(seed)
    _, info = envs.reset(seed=seed)
    ended = []
    for _ in range(steps):
        _, _, terminations, _, info = envs.step(masked(info["action_mask"], rng))
        ended.extend(
            (int(i), {k: np.copy(v) for k, v in info.items()}) for i in np.flatnonzero(terminations)
        )
    return ended


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("stakd", {"players": 3, "points_to_win": 1}),
        ("cubed", {"players": 3, "rounds": 1, "variants": ("bridging",)}),
    ],
)
def test_in_self_play_every_seat_gets_its_reward_at_the_end(
    game_id: str, options: dict[str, Any]
) -> None:
    envs = vector_env(game_id, 2, seed=1, **options)
    assert isinstance(envs, SessionVectorEnv)
    rng = np.random.default_rng(2)
    _, info = envs.reset()
    seen = 0
    for _ in range(3000):
        movers = info["to_move"].copy()
        _, rewards, terminations, _, info = envs.step(masked(info["action_mask"], rng))
        for i in range(2):
            row = info["seat_rewards"][i]
            if terminations[i]:
                expected = seat_outcomes(win_shares(envs.sessions[i].state))
                assert row.tolist() == expected
                assert rewards[i] == expected[movers[i]]
                assert -1.0 in expected  # a loser hears of it too
                seen += 1
            else:
                assert not row.any()
        if seen >= 2:
            break
    assert seen >= 2


def test_unstackable_delivers_both_seats_rewards() -> None:
    envs = vector_env("unstackable", 3, seed=4)
    for i, info in play_until_ends(envs, 200, 4):
        row = info["seat_rewards"][i]
        assert row.sum() == 0.0 and sorted(row.tolist()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize(("opponent", "python"), [("greedy", False), ("mcts:iterations=8", True)])
def test_a_bot_by_name_plays_the_other_seats(opponent: str, python: bool) -> None:
    envs = vector_env("unstackable", 2, seed=3, opponent=opponent)
    assert isinstance(envs, SessionVectorEnv) == python  # greedy: in the kernel
    rng = np.random.default_rng(3)
    _, info = envs.reset()
    ends = 0
    for _ in range(120):
        assert set(info["to_move"].tolist()) <= {0, -1}  # the learner is seat 0
        _, rewards, terminations, _, info = envs.step(masked(info["action_mask"], rng))
        ends += int(terminations.sum())
        for i in np.flatnonzero(terminations):
            assert rewards[i] == info["seat_rewards"][i][0]
    assert ends >= 1


def test_a_frozen_policy_chooses_for_every_waiting_game_at_once() -> None:
    calls: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append((obs.copy(), masks.copy()))
        return np.array([np.flatnonzero(m)[-1] for m in masks])  # the last legal action

    envs = vector_env("cubed", 3, seed=5, opponent=policy, players=2, rounds=1)
    assert isinstance(envs, SessionVectorEnv)
    rng = np.random.default_rng(5)
    _, info = envs.reset()
    for _ in range(6):
        before = [s.state.clone() for s in envs.sessions]
        _, _, _, _, info = envs.step(masked(info["action_mask"], rng))
        assert set(info["to_move"].tolist()) <= {0, -1}
    assert calls
    obs, masks = calls[0]
    assert obs.shape == (3, envs.observer.shape[0]) and masks.shape == (3, envs.codec.size)
    assert masks.dtype == bool and (masks.sum(axis=1) > 0).all()
    del before


def test_a_policy_choosing_an_illegal_action_is_told() -> None:
    envs = vector_env("unstackable", 1, seed=1, opponent=lambda obs, masks: np.array([999]))
    _, info = envs.reset()
    with pytest.raises(ValueError, match="opponent policy chose action 999"):
        for _ in range(10):  # a turn may place several cubes before the opponent's turn
            _, _, _, _, info = envs.step(masked(info["action_mask"], np.random.default_rng(0)))


@pytest.mark.parametrize(
    ("bad", "says"),
    [(np.nan, "not a whole number"), (1.5, "not a whole number"), ("x", "must return")],
)
def test_a_policy_answering_nonsense_in_one_game_moves_none_of_them(bad: Any, says: str) -> None:
    """Two CUBED games wait on the policy at once; it answers well for the first and
    nonsense for the second: refused saying what is wrong, and neither game moved."""

    def policy(obs: np.ndarray, masks: np.ndarray) -> list[Any]:
        good = [int(np.flatnonzero(m)[0]) for m in masks]
        return [*good[:-1], bad]

    envs = vector_env("cubed", 2, seed=3, opponent=policy, players=2, rounds=1)
    _, info = envs.reset()
    learner = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    with pytest.raises(ValueError, match=says):
        envs.step(np.array(learner))
    # the learner's moves were played (a placement each, the turn passed); no opponent's
    assert [s.state.to_move for s in envs.sessions] == [1, 1]


@pytest.mark.parametrize("seed", [1.5, -1, "x", True])
def test_a_seed_that_is_not_a_whole_number_of_at_least_0_is_refused(seed: Any) -> None:
    for game_id in ("cubed", "unstackable", "stakd"):
        with pytest.raises(ValueError, match="seed must be None or a whole number"):
            vector_env(game_id, 2, seed=seed).reset()


@pytest.mark.parametrize("opponent", ["chess-engine", 3, "mcts:iterations=-4"])
def test_a_bad_opponent_is_refused_by_name(opponent: Any) -> None:
    with pytest.raises(ValueError, match="opponent"):
        vector_env("stakd", 1, opponent=opponent)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("cubed", {"players": 2, "rounds": 1}), ("unstackable", {}), ("stakd", {"players": 2})],
)
def test_restart_deals_what_the_next_step_would_have(game_id: str, options: dict[str, Any]) -> None:
    """Two environments on one seed: one restarts an ended game at once, the other lets the
    next step do it; the new game is the same."""
    a = vector_env(game_id, 2, seed=9, **options)
    b = vector_env(game_id, 2, seed=9, **options)
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    _, info_a = a.reset()
    _, info_b = b.reset()
    for _ in range(400):
        actions = masked(info_a["action_mask"], rng_a)
        masked(info_b["action_mask"], rng_b)
        _, _, term_a, _, info_a = a.step(actions)
        _, _, _, _, info_b = b.step(actions)
        if term_a.any():
            i = int(np.flatnonzero(term_a)[0])
            a.restart([i])
            obs_a = a.observations() if hasattr(a, "observations") else a.obs
            masks_a = a.action_masks() if hasattr(a, "observations") else a.masks
            other = 1 - i
            still = np.array([0, 0])
            still[other] = masked(
                info_b["action_mask"][other : other + 1], np.random.default_rng(1)
            )[0]
            obs_b, _, _, _, info_b = b.step(still)
            assert np.array_equal(obs_a[i], obs_b[i])
            assert np.array_equal(masks_a[i], info_b["action_mask"][i])
            assert info_b["to_move"][i] == 0
            return
    pytest.fail("no game ended")


def test_the_compiled_kernels_come_from_the_cache_after_warming() -> None:
    """After `cubegames compile` (here: its learning part), a new process steps the
    compiled environments without compiling anything."""
    warm = "from cubegames.kernels import warm\nwarm(('learning',))"
    subprocess.run([sys.executable, "-c", warm], check=True, capture_output=True)
    code = """
import numpy as np
from cubegames.rl import vector_env
from cubegames.games.cubed import vector as cubed
from cubegames.games.unstackable import vector_rules
from cubegames.games.unstackable import opponents as kernel_opponents
setups = (("cubed", {"players": 3, "rounds": 1}), ("unstackable", {}))
for game_id, options in setups:
    kernel = ("greedy", "mcts:iterations=8") if game_id == "cubed" else ("greedy",)
    for opponent in ("self", "random", *kernel):
        envs = vector_env(game_id, 4, seed=1, opponent=opponent, **options)
        _, info = envs.reset()
        for _ in range(3):
            actions = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in info["action_mask"]]
            _, _, _, _, info = envs.step(np.array(actions)[::-1][::-1])
        envs.restart([1])
for f in (cubed.reset_all, cubed.step_all, vector_rules.reset_all, vector_rules.step,
          kernel_opponents.unstackable_step):
    print(sum(f.stats.cache_misses.values()), sum(f.stats.cache_hits.values()))
"""
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    for line in out.stdout.split("\n")[:5]:
        misses, hits = map(int, line.split())
        assert misses == 0 and hits >= 1, out.stdout
