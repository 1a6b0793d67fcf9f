"""Solo CUBED (spec §8) in the compiled kernel: every move played as the Python rules play it
(placements while one fits, else up to two draws, the stuck and empty-bag losses), the
search's playouts played to the end and judged won or lost, and `mcts` searching solo games
with them."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cubegames
from cubegames.bots.mcts import MctsBot
from cubegames.games.cubed import CubedState, kernel_bridge, search_hooks, search_kernel
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed.notation import Draw, Place
from cubegames.games.cubed.pieces import Piece, canonical
from tests.cubed.helpers import position

EDITIONS = ["en", "ja"]


def solo_positions(edition: str, seed: int) -> list[CubedState]:
    """Every position of a solo game played by the greedy bot with one random move in
    three, and for each, copies whose bag holds one piece and none (when a piece fits: an
    empty bag with nothing fitting has already lost), so that the empty-bag loss comes up."""
    state = cubegames.make("cubed", players=1, edition=edition).new_state(seed=seed)
    assert isinstance(state, CubedState)
    rng = random.Random(seed)
    greedy = cubegames.bot("greedy", seed=seed)
    out = []
    while state.to_move is not None:
        out.append(state.clone())
        for size in (1, 0):
            short = state.clone()
            short.bag = short.bag[:size]
            if short.bag or short.placements():
                out.append(short)
        moves = state.legal_moves()
        if rng.random() < 0.35:
            state.play(moves[rng.randrange(len(moves))])
        else:
            state.play(str(greedy.choose(state)))
    return out


def kernel_after(state: CubedState, move: Place | Draw) -> k.Game:
    """`state` in kernel arrays after the kernel played `move` (`search_kernel.play_move`,
    which makes the solo checks after it)."""
    arrays = kernel_bridge.encode(state)
    kind, a, b = kernel_bridge.kernel_move(state, move)
    rng = np.array([1], dtype=np.uint64)
    buffers = (np.empty(k.MAX_MOVES, dtype=np.int64), np.empty(k.MAX_MOVES, dtype=np.int64))
    search_kernel.play_move(arrays, kernel_bridge.tables(state.ed), kind, a, b, rng, *buffers)
    return arrays


def kernel_placements(state: CubedState) -> list[str]:
    rot = np.empty(k.MAX_MOVES, dtype=np.int64)
    cell = np.empty(k.MAX_MOVES, dtype=np.int64)
    count = k.placements(kernel_bridge.encode(state), kernel_bridge.tables(state.ed), 0, rot, cell)
    return [
        str(kernel_bridge._place(state, r, c))
        for r, c in zip(rot[:count].tolist(), cell[:count].tolist(), strict=True)
    ]


def check_every_move(state: CubedState, seen: Counter[str]) -> None:
    """Every legal move played by the kernel and by the Python rules from `state` gives the
    same position, or the same end of the game."""
    assert kernel_bridge.searchable(state)
    legal = state.legal_moves()
    places = [str(m) for m in legal if isinstance(m, Place)]
    assert kernel_placements(state) == places
    assert legal == [Draw()] if not places else len(legal) == len(places)
    for move in legal:
        assert isinstance(move, Place | Draw)
        python = state.clone()
        python._apply(move)
        arrays = kernel_after(state, move)
        meta = arrays.meta
        if python.to_move is None:
            seen[python.end or ""] += 1
            assert kernel_bridge.ENDINGS[int(meta[k.M_END])] == python.end, move
            assert int(meta[k.M_WINNER]) == (0 if python.winners() == [0] else -1)
            back = state.clone()
            kernel_bridge.decode_into(back, arrays)
            assert (back.table, back.hands, back.bag) == (python.table, python.hands, python.bag)
            continue
        seen[type(move).__name__ + str(state.draws)] += 1
        assert meta[k.M_END] == 0, move
        back = state.clone()
        kernel_bridge.decode_into(back, arrays)
        assert back.to_dict() == python.to_dict(), move


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_kernel_plays_every_solo_move_as_the_python_rules(edition: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        for state in solo_positions(edition, seed):
            check_every_move(state, seen)
    # placements, a first and a second draw, and every ending were met
    assert seen["Place0"] > 0 and seen["Draw0"] > 0 and seen["Draw1"] > 0
    assert seen["emptied"] > 0 and seen["stuck"] > 0 and seen["bag_empty"] > 0


@settings(max_examples=15)
@given(
    seed=st.integers(0, 2**31),
    edition=st.sampled_from(EDITIONS),
    at=st.integers(0, 60),
    cut=st.integers(0, 3),
)
def test_the_kernel_plays_the_python_solo_rules_anywhere(
    seed: int, edition: str, at: int, cut: int
) -> None:
    """At every position of a solo game of random moves, and at its move `at` with the bag
    cut to `cut` pieces (when a piece fits), every move gives what the Python rules give."""
    state = cubegames.make("cubed", players=1, edition=edition).new_state(seed=seed)
    assert isinstance(state, CubedState)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    played = 0
    while state.to_move is not None:
        check_every_move(state, seen)
        if played == at and state.placements():
            short = state.clone()
            short.bag = short.bag[:cut]
            check_every_move(short, seen)
        legal = state.legal_moves()
        state.play(legal[rng.randrange(len(legal))])
        played += 1
    assert sum(seen[end] for end in ("emptied", "stuck", "bag_empty", "blocked")) > 0


def playout(state: CubedState, move: Place | Draw, seed: int) -> tuple[float, k.Game]:
    """One search playout of `move` from `state`: seat 0's reward and the position it ended
    in."""
    playouts = kernel_bridge.KernelPlayouts(state, [move])
    reward = playouts.run(0, seed)[0]
    return reward, playouts.scratch


def pieces(state: CubedState) -> Counter[Piece]:
    """The pieces in hand, on the table and in the bag, by least rotation."""
    return Counter(map(canonical, [*state.hands[0], *state.table.values(), *state.bag]))


def test_a_solo_playout_plays_to_the_end_and_is_won_or_lost() -> None:
    for edition in EDITIONS:
        game = cubegames.make("cubed", players=1, edition=edition)
        wins = 0
        for seed in range(6):
            state = game.new_state(seed=seed)
            assert isinstance(state, CubedState)
            playouts = game.playouts(state.view(0), 0, random.Random(seed))
            assert isinstance(playouts, kernel_bridge.KernelPlayouts)
            assert playouts.horizon == search_hooks.SOLO_HORIZON
            for arm in range(len(playouts.moves)):
                reward = playouts.run(arm, seed)[0]
                meta = playouts.scratch.meta
                assert meta[k.M_END] != 0  # played to the end of the game
                assert reward == (1.0 if meta[k.M_END] == k.EMPTIED else 0.0)
                wins += reward == 1.0
                # only the bag was dealt afresh: the table and the hand are the template's,
                # less what the game laid, plus what it drew from the bag
                end = state.clone()
                kernel_bridge.decode_into(end, playouts.scratch, frontier=False)
                assert pieces(end) == pieces(state)
                assert all(end.table[cell] == piece for cell, piece in state.table.items())
        assert wins > 0


def test_solo_playouts_judge_the_end_they_reach() -> None:
    table = [((0, 0), "GGG")]
    # the last piece laid: won
    won = position(table, [["GGY"]], bag=["PPP", "BBB"], players=1)
    move = won.legal_moves()[0]
    assert isinstance(move, Place) and playout(won, move, 1)[0] == 1.0
    # nothing fits after two draws: lost, stuck
    stuck = position(table, [["PPP"]], bag=["BBB", "LLL", "YYY"], players=1)
    reward, end = playout(stuck, Draw(), 1)
    assert reward == 0.0 and kernel_bridge.ENDINGS[int(end.meta[k.M_END])] == "stuck"
    # the bag runs out when a draw is due: lost, bag_empty
    short = position(table, [["PPP"]], bag=["BBB"], players=1)
    reward, end = playout(short, Draw(), 1)
    assert reward == 0.0 and kernel_bridge.ENDINGS[int(end.meta[k.M_END])] == "bag_empty"


@pytest.mark.parametrize("edition", EDITIONS)
def test_kernel_root_moves_and_greedy_moves_are_the_python_ones_in_solo(edition: str) -> None:
    pruned = ties = 0
    for seed in range(2):
        for state in solo_positions(edition, seed)[::3]:
            expected = search_hooks.root_moves(state)
            assert kernel_bridge.root_moves(state) == expected
            pruned += len(state.legal_moves()) > len(expected)
            chosen = set()
            for n in range(2):
                mine, theirs = random.Random(n), random.Random(n)
                move = kernel_bridge.greedy_move(state, mine)
                assert move == search_hooks.greedy_move(state, theirs)
                assert mine.getstate() == theirs.getstate()
                chosen.add(move)
            ties += len(chosen) > 1
    assert pruned > 10  # the ranking by value, not only the short lists, was compared
    assert ties > 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_mcts_searches_solo_games_with_compiled_playouts(edition: str) -> None:
    game = cubegames.make("cubed", players=1, edition=edition)
    state = game.new_state(seed=3)
    bot = cubegames.bot("mcts:iterations=60", seed=3)
    assert isinstance(bot, MctsBot)
    searched = 0
    while state.to_move is not None:
        state.play(bot.choose(state))
        # a search ran (flat), or there was one legal move (a draw, a single placement)
        assert bot.last_search == "flat" or bot.last_iterations == 0
        searched += bot.last_search == "flat"
    assert searched > 5
