"""Opponents played inside the compiled vector environments (`games/<id>/opponents.py`,
named by `cubegames.rl.kernel_opponents`): which names run there, that their moves are the
bots' moves, and that they play as well."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed import kernel_bridge, search_hooks
from cubegames.games.cubed import opponents as cubed_opponents
from cubegames.games.cubed.notation import Draw, Pass, Place
from cubegames.games.cubed.vector import VectorEnv
from cubegames.games.unstackable import opponents as unstackable_opponents
from cubegames.rl import kernel_opponents as ko
from cubegames.rl import vector_env
from cubegames.rl.vector import SessionVectorEnv


@pytest.mark.parametrize(
    ("game_id", "opponent", "expected"),
    [
        ("cubed", "self", (ko.SELF, 0)),
        ("cubed", "random", (ko.RANDOM, 0)),
        ("cubed", "greedy", (ko.GREEDY, 0)),
        ("cubed", "mcts", (ko.MCTS, 300)),
        ("cubed", "mcts:iterations=40", (ko.MCTS, 40)),
        ("cubed", "mcts:seconds=0.5", None),  # a clock: the Python bot
        ("cubed", "mcts:tree=true", None),
        ("cubed", "alphabeta:depth=2", None),
        ("unstackable", "random", (ko.RANDOM, 0)),
        ("unstackable", "greedy", (ko.GREEDY, 0)),
        ("unstackable", "mcts", None),
        ("stakd", "greedy", None),
    ],
)
def test_which_opponents_the_kernels_play(game_id: str, opponent: str, expected: Any) -> None:
    assert ko.spec(game_id, opponent) == expected


def test_a_callable_is_no_kernel_opponent_and_a_bad_name_is_refused() -> None:
    assert ko.spec("cubed", lambda obs, masks: masks.argmax(axis=1)) is None
    with pytest.raises(ValueError, match="iterations"):
        ko.spec("cubed", "mcts:iterations=-4")


@pytest.mark.parametrize("opponent", ["greedy", "mcts:iterations=30"])
def test_vector_env_runs_them_in_the_kernel(opponent: str) -> None:
    envs = vector_env("cubed", 2, seed=1, opponent=opponent, players=2, rounds=1)
    assert isinstance(envs, VectorEnv)
    slow = vector_env("cubed", 2, seed=1, opponent="mcts:seconds=0.01", players=2, rounds=1)
    assert isinstance(slow, SessionVectorEnv)


def _positions(count: int, players: int = 2) -> list[Any]:
    """Positions of random 1-round CUBED games with a seat to move, some late in the round."""
    game = cubegames.make("cubed", players=players, rounds=1)
    rng = random.Random(7)
    out = []
    for seed in range(count):
        state = game.new_state(seed)
        for _ in range(rng.randrange(0, 40)):
            if state.to_move is None:
                break
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
        if state.to_move is not None:
            out.append(state)
    return out


def _kernel_move(state: Any, kind: int, rot: int, cell: int) -> Any:
    if kind == 1:
        return Draw()
    if kind == 2:
        return Pass()
    q, r = divmod(cell, k.W)
    return Place(state.ed.text(kernel_bridge.piece_of(rot)), q - k.OFF, r - k.OFF)


def test_the_kernels_greedy_plays_a_move_the_greedy_bot_plays() -> None:
    ed = kernel_bridge.tables(cubegames.make("cubed").edition)
    work = cubed_opponents.cubed_work(2)
    checked = 0
    for state in _positions(30):
        python = {search_hooks.greedy_move(state, random.Random(s)) for s in range(64)}
        arrays = kernel_bridge.encode(state)
        for seed in range(4):
            rng = np.array([seed], dtype=np.uint64)
            kind, rot, cell, count = cubed_opponents.cubed_choose(
                arrays, ed, work, rng, ko.GREEDY, 0
            )
            assert count == len(state.placements())
            assert _kernel_move(state, kind, rot, cell) in python
            checked += 1
    assert checked >= 80


def test_the_kernels_mcts_plays_one_of_the_bots_root_moves() -> None:
    ed = kernel_bridge.tables(cubegames.make("cubed").edition)
    work = cubed_opponents.cubed_work(2)
    for state in _positions(12):
        roots = kernel_bridge.root_moves(state)
        arrays = kernel_bridge.encode(state)
        before = arrays.meta.copy(), arrays.hands.copy(), arrays.bag.copy()
        rng = np.array([3], dtype=np.uint64)
        kind, rot, cell, _ = cubed_opponents.cubed_choose(arrays, ed, work, rng, ko.MCTS, 40)
        assert _kernel_move(state, kind, rot, cell) in roots
        # the search worked on its scratch game: the real one is as it was
        assert np.array_equal(arrays.meta, before[0])
        assert np.array_equal(arrays.hands, before[1]) and np.array_equal(arrays.bag, before[2])


def _learner_wins(opponent: str, games: int) -> int:
    """Games a uniformly random learner (seat 0) wins outright against `opponent`."""
    envs = vector_env("cubed", 8, seed=0, opponent=opponent, players=2, rounds=1)
    _, info = envs.reset()
    rng = np.random.default_rng(0)
    wins = done = 0
    while done < games:
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        _, rewards, terminations, _, info = envs.step(actions)
        for i in np.flatnonzero(terminations):
            done += 1
            wins += int(rewards[i] > 0)
            assert info["seat_rewards"][i][0] == rewards[i]
    return wins


def test_the_kernels_opponents_beat_a_random_learner_far_more_than_random_does() -> None:
    against_random = _learner_wins("random", 40)
    assert 10 <= against_random <= 30
    assert _learner_wins("greedy", 40) <= 6
    assert _learner_wins("mcts:iterations=30", 24) <= 4


# -- Unstackable ------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"exact_counts": False}])
def test_unstackables_kernel_greedy_plays_a_move_the_greedy_bot_plays(
    options: dict[str, Any],
) -> None:
    from cubegames.games.unstackable import search
    from cubegames.games.unstackable.vector import VectorEnv as UnstackableEnv

    envs = UnstackableEnv(4, seed=2, **options)
    _, info = envs.reset()
    rng = np.random.default_rng(2)
    state_rng = np.zeros(4, dtype=np.uint64)
    checked = set()
    for _ in range(150):
        for g in range(4):
            if info["to_move"][g] < 0:
                continue
            state = envs.state(g)
            python = {str(search.greedy_move(state, random.Random(s))) for s in range(48)}
            mask = info["action_mask"][g].copy()
            action = unstackable_opponents.unstackable_greedy(
                envs._boards, envs._st, g, mask, envs._gains, envs.game.bag_counts_as_exposed,
                state_rng,
            )  # fmt: skip
            move = envs.codec.decode(action, state.view(state.to_move))
            assert str(move) in python
            checked.add(state.stage.value)
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        _, _, _, _, info = envs.step(actions)
    assert len(checked) == 2  # both stages


def test_unstackables_greedy_opponent_beats_a_random_learner() -> None:
    def wins(opponent: str) -> int:
        envs = vector_env("unstackable", 8, seed=0, opponent=opponent)
        _, info = envs.reset()
        rng = np.random.default_rng(0)
        won = done = 0
        while done < 40:
            masks = info["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            _, rewards, terminations, _, info = envs.step(actions)
            for i in np.flatnonzero(terminations):
                done += 1
                won += int(rewards[i] > 0)
                assert info["seat_rewards"][i].tolist() == [rewards[i], -rewards[i]]
        return won

    assert wins("random") >= 12
    assert wins("greedy") <= 4


@pytest.mark.parametrize(
    ("options", "playouts"),
    [
        ({"players": 2}, 300),
        ({"players": 2, "edition": "ja"}, 1000),  # search_hooks.JA_TWO_SEAT_PLAYOUTS
        ({"players": 3}, 450),  # 150 a seat
        ({"players": 4, "edition": "ja", "render_mode": None}, 600),  # not a game option
        ({"players": 6}, 900),
    ],
    ids=["2", "2-ja", "3", "4-ja", "6"],
)
def test_the_mcts_opponent_runs_the_bots_default_budget(
    options: dict[str, Any], playouts: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel's `mcts` opponent searches with the playouts the default `mcts` bot runs
    for the same seats and edition (both read `Game.flat_budget`), and `iterations=N`
    overrides it in both."""
    from cubegames.bots import mcts

    asked: list[int | None] = []

    def halving(playouts: Any, seat: int, iterations: int | None, *rest: Any) -> tuple[int, int]:
        asked.append(iterations)
        return 0, 0

    monkeypatch.setattr(mcts, "halving", halving)
    game_options = {k: v for k, v in options.items() if k != "render_mode"}
    game = cubegames.make("cubed", rounds=1, **game_options)
    state = game.new_state(seed=2)
    for spec in ("mcts", "mcts:iterations=70"):
        cubegames.bot(spec, seed=1).choose(state)
        assert ko.spec("cubed", spec, {"rounds": 1, **options}) == (ko.MCTS, asked[-1])
    assert asked == [playouts, 70]


def test_the_vector_env_plays_the_bots_default_budget() -> None:
    from cubegames.games.cubed.vector import C_BUDGET

    envs = vector_env("cubed", 1, seed=1, opponent="mcts", players=2, edition="ja", rounds=1)
    assert isinstance(envs, VectorEnv)
    assert envs.tb.consts[C_BUDGET] == 1000


@pytest.mark.parametrize(("players", "edition"), [(2, "en"), (3, "en"), (5, "ja"), (8, "ja")])
def test_the_kernels_mcts_plays_the_bots_playouts_for_its_seats(players: int, edition: str) -> None:
    """The opponent's playouts are the bot's for the seat count (`KernelPlayouts`: 4 moves a
    seat, the race judgement from 7 seats): with two root moves (one placement and the draw
    or the pass) the search is one round of halving, and each move's total is the sum of the
    bot's playouts of it on the same seeds."""
    game = cubegames.make("cubed", players=players, edition=edition, rounds=1)
    ed = kernel_bridge.tables(game.edition)
    work = cubed_opponents.cubed_work(players)
    found = 0
    rng = random.Random(players)
    for seed in range(40):
        state = game.new_state(seed)
        while state.to_move is not None and found < 3:
            if len(state.placements()) == 1:
                found += 1
                playouts = kernel_bridge.KernelPlayouts(state, state.legal_moves())
                settings = work[2][cubed_opponents.F_SETTINGS]
                assert settings[cubed_opponents.S_HORIZON] == playouts.horizon
                budget = 8
                start = np.array([seed], dtype=np.uint64)
                draws = start.copy()
                seeds = [(k.splitmix(draws) << 32) | k.splitmix(draws) for _ in range(budget // 2)]
                cubed_opponents.cubed_choose(
                    kernel_bridge.encode(state), ed, work, start, ko.MCTS, budget
                )
                totals = work[2][cubed_opponents.F_TOTAL][:2]
                seat = state.to_move
                expected = [sum(playouts.run(arm, s)[seat] for s in seeds) for arm in range(2)]
                assert totals.tolist() == pytest.approx(expected)
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
        if found >= 3:
            break
    assert found == 3
