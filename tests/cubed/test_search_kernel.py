"""The search bot's kernel pieces (`games/cubed/search_kernel.py`) give what the Python
heuristics give (`games/cubed/search_hooks.py`)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.games.cubed import CubedState, kernel_bridge, search_hooks, search_kernel


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
            if kernel_bridge.supported(state):
                expected = search_hooks.root_moves(state)
                assert kernel_bridge.root_moves(state) == expected
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
            if kernel_bridge.supported(state):
                chosen = set()
                for k in range(3):
                    mine, theirs = random.Random(k), random.Random(k)
                    move = kernel_bridge.greedy_move(state, mine)
                    assert move == search_hooks.greedy_move(state, theirs)
                    assert mine.getstate() == theirs.getstate()  # the same numbers drawn
                    chosen.add(move)
                ties += len(chosen) > 1  # a tie, broken alike by both
                checked += 1
            else:
                move = search_hooks.greedy_move(state, rng)
            if rng.random() < 0.3:  # now and then a random move, for other positions
                moves = state.legal_moves()
                move = moves[rng.randrange(len(moves))]
            state.play(move)
    assert checked > 60
    assert ties > 5


def test_a_playouts_lean_copy_is_the_position() -> None:
    """`copy_search` then `sync_others` give what `copy_game` then `sync_hands` give, even
    into arrays that held a bigger table, with the other hands dealt afresh."""
    from cubegames.games.cubed import compiled_rules as k

    game = cubegames.make("cubed", players=3, rounds=1)
    state = game.new_state(seed=2)
    assert isinstance(state, CubedState)
    bot = cubegames.bot("greedy", seed=2)
    for _ in range(9):
        state.play(bot.choose(state))
    later = state.clone()
    for _ in range(9):
        later.play(bot.choose(later))
    ed = kernel_bridge.tables(state.ed)
    template = kernel_bridge.encode(state)
    seat = 1
    # the other hands swap pieces with the bag, as a playout's deal does
    hands, bag, hsize = template.hands, template.bag, template.hsize
    hands[0, 0], bag[0] = bag[0], hands[0, 0]
    hands[2, : hsize[2]] = hands[2, : hsize[2]][::-1]
    lean, plain = kernel_bridge.encode(later), kernel_bridge.encode(later)
    search_kernel.copy_search(lean, template)
    search_kernel.sync_others(lean, ed, seat)
    k.copy_game(plain, template)
    k.sync_hands(plain, ed)
    for i in range(13):
        if i == 12:  # scratch room
            continue
        assert np.array_equal(lean[i], plain[i]) or i in (5, 6, 7, 9), i
    meta = plain[0]
    n_tab, n_play, bag_end = meta[k.M_NTAB], meta[k.M_NPLAY], meta[k.M_BAG_END]
    assert np.array_equal(lean[5][:n_tab], plain[5][:n_tab])
    assert np.array_equal(lean[6][:n_play], plain[6][:n_play])
    assert np.array_equal(lean[9][:bag_end], plain[9][:bag_end])
    for s in range(3):
        size = plain[8][s]
        assert np.array_equal(lean[7][s, :size], plain[7][s, :size])
    dealt = state.clone()
    kernel_bridge.decode_into(dealt, lean)
    assert dealt.table == state.table
    assert dealt.hands[seat] == state.hands[seat]
