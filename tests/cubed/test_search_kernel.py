"""The search bot's kernel pieces give what the Python heuristics give (`games/cubed/ai.py`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cubegames
from cubegames.games.cubed import CubedState, ai, fast


@pytest.mark.parametrize(
    "options",
    [{"players": 2, "rounds": 1}, {"players": 3, "edition": "ja", "rounds": 2}],
    ids=["2p", "3p-ja"],
)
def test_root_moves_in_the_kernel_are_the_python_root_moves(options: dict[str, Any]) -> None:
    checked = pruned = 0
    for seed in range(3):
        state = cubegames.make("cubed", **options).new_state(seed=seed)
        assert isinstance(state, CubedState)
        rng = random.Random(seed)
        # greedy-ish games: long rounds with wide tables, and every few moves a random one
        greedy = cubegames.bot("greedy", seed=seed)
        while state.to_move is not None:
            if fast.supported(state):
                expected = ai.root_moves(state)
                assert fast.root_moves(state) == expected
                checked += 1
                pruned += len(state.legal_moves()) > len(expected)
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))] if rng.random() < 0.3 else None
            state.play(move if move is not None else greedy.choose(state))
    assert checked > 50
    assert pruned > 20  # the ranking, not only the short lists, was compared


@pytest.mark.parametrize(
    "options",
    [{"players": 2, "rounds": 1}, {"players": 4, "rounds": 1}],
    ids=["2p", "4p"],
)
def test_the_kernel_greedy_move_is_the_python_greedy_move(options: dict[str, Any]) -> None:
    checked = ties = 0
    for seed in range(4):
        state = cubegames.make("cubed", **options).new_state(seed=seed)
        assert isinstance(state, CubedState)
        rng = random.Random(seed)
        while state.to_move is not None:
            if fast.supported(state):
                chosen = set()
                for k in range(3):
                    mine, theirs = random.Random(k), random.Random(k)
                    move = fast.greedy_move(state, mine)
                    assert move == ai.greedy_move(state, theirs)
                    assert mine.getstate() == theirs.getstate()  # the same numbers drawn
                    chosen.add(move)
                ties += len(chosen) > 1  # a tie, broken alike by both
                checked += 1
            else:
                move = ai.greedy_move(state, rng)
            if rng.random() < 0.3:  # now and then a random move, for other positions
                moves = state.legal_moves()
                move = moves[rng.randrange(len(moves))]
            state.play(move)
    assert checked > 60
    assert ties > 5
