"""The flat search's compiled playouts for Unstackable (`playout_kernel`, `search_bridge`):
the root moves are the rules' legal moves, and every playout is replayed move by move
through the Python rules, which must accept each move and end with the same points."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import cubegames
from cubegames.bots.mcts import MctsBot
from cubegames.games.unstackable import UnstackableState, playout_kernel, search_bridge


def positions(options: dict[str, object], seed: int) -> list[UnstackableState]:
    """The positions of one random game, every fifth one, both stages."""
    game = cubegames.make("unstackable", **options)
    state = game.new_state(seed=seed)
    assert isinstance(state, UnstackableState)
    rng = random.Random(seed)
    found: list[UnstackableState] = []
    while state.to_move is not None:
        if len(found) < 40 and rng.random() < 0.2:
            found.append(state.clone())
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    return found


OPTIONS = [{}, {"exact_counts": False}, {"bag_counts_as_exposed": True}]


@pytest.mark.parametrize("options", OPTIONS)
def test_root_moves_are_the_legal_moves(options: dict[str, object]) -> None:
    for seed in range(3):
        for state in positions(options, seed):
            playouts = search_bridge.KernelPlayouts(state)
            assert sorted(map(str, playouts.moves)) == sorted(map(str, state.legal_moves()))


def replay(state: UnstackableState, arm: int, seed: int, greed: float) -> None:
    """Play one kernel playout, then the same moves through the Python rules."""
    playouts = search_bridge.KernelPlayouts(state)
    seat = playouts.seat
    boards = np.empty_like(playouts.boards)
    st = np.empty_like(playouts.st)
    log = np.zeros(200, dtype=np.int64)
    reward = playout_kernel.playout(
        boards,
        st,
        playouts.boards,
        playouts.st,
        int(playouts.actions[arm]),
        seed,
        seat,
        playouts.per_turn,
        playouts.gains,
        playouts.bag,
        greed,
        playouts.TEMPERATURE,
        log,
    )
    python = state.clone()
    python.play(playouts.moves[arm])  # `play` checks every move against the rules
    for action in log[1 : log[0] + 1].tolist():
        assert python.to_move is not None
        python.play(search_bridge.action_move(action))
    assert python.to_move is None
    scores = python.scores()
    diff = scores[seat] - scores[1 - seat]
    assert reward == pytest.approx(1.0 / (1.0 + math.exp(-diff / playouts.TEMPERATURE)))
    # the kernel's own final position is the Python one
    assert (boards == 0).all()
    mine = playout_kernel.points(st, seat, playouts.gains)
    assert mine == scores[seat]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("greed", [0.0, 0.8, 1.0])
def test_playouts_follow_the_python_rules_move_by_move(
    options: dict[str, object], greed: float
) -> None:
    rng = random.Random(7)
    for seed in range(2):
        for state in positions(options, seed)[::3]:
            arm = rng.randrange(len(state.legal_moves()))
            replay(state, arm, rng.getrandbits(63), greed)


def test_a_batch_is_its_playouts_one_by_one_and_seeds_repeat() -> None:
    state = positions({}, 4)[2]
    playouts = search_bridge.KernelPlayouts(state)
    seat = playouts.seat
    moves = [i % len(playouts.moves) for i in range(10)]
    seeds = [100 + i for i in range(10)]
    singly = [playouts.run(m, s)[seat] for m, s in zip(moves, seeds, strict=True)]
    assert playouts.batch(moves, seeds, seat) == singly
    assert playouts.batch(moves, seeds, seat) == singly
    with pytest.raises(ValueError, match="one seed per move"):
        playouts.batch(moves, seeds[:2], seat)


def test_mcts_plays_unstackable_by_the_flat_search() -> None:
    game = cubegames.make("unstackable")
    state = game.new_state(seed=1)
    bot = MctsBot(seed=3)
    greedy = cubegames.bot("greedy", seed=2)
    while state.to_move is not None:
        if state.to_move == 0:
            move = bot.choose(state)
            assert bot.last_search == "flat"
        else:
            move = greedy.choose(state)
        state.play(move)
    assert game.playouts(state.view(0), 0, random.Random(1)) is None
