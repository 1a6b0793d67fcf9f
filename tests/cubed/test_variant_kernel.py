"""The kernel plays CUBED's variants as the Python rules do (`compiled_rules.place`, `give`,
`skip`, `pass_turn`, `search_kernel.play_move`), values placements as the greedy bot does,
and `mcts` searches every variant with its compiled playouts."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.bots.mcts import MctsBot
from cubegames.core import chance
from cubegames.games.cubed import CubedState, kernel_bridge, search_hooks, search_kernel
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed.notation import Draw3, Give, Keep, Pass, Place, Skip

VARIANT_SETS: list[dict[str, Any]] = [
    {"players": 2, "variants": ["bridging"], "rounds": 1},
    {"players": 2, "variants": ["void"], "rounds": 1},
    {"players": 3, "variants": ["draw3"], "rounds": 1},
    {"players": 3, "variants": ["bridging", "void", "draw3"], "rounds": 2},
    {"players": 4, "variants": ["bridging", "void"], "edition": "ja", "rounds": 1},
]
IDS = ["bridging", "void", "draw3-3p", "all-3p", "bv-4p-ja"]


def positions(options: dict[str, Any], seed: int) -> list[CubedState]:
    """Every position of a game that packs the table (the placement touching the most
    pieces, half the time), else plays greedy moves with one random move in three, so that
    bridging placements, voids and gifts come up. The seeds below were chosen for the deals
    of chance version 2, which deals them here."""
    state = chance.new_state(cubegames.make("cubed", **options), seed, 2)
    assert isinstance(state, CubedState)
    rng = random.Random(seed)
    greedy = cubegames.bot("greedy", seed=seed)
    out = []
    while state.to_move is not None:
        out.append(state.clone())
        moves = state.legal_moves()
        frontier = state.game.frontier
        found = state.placements()
        if found and rng.random() < 0.5:
            touching = max(
                found, key=lambda pc: frontier.info(state.front.get(pc[1], (-1,) * 6)).touches
            )
            state.apply_placement(*touching)
        elif rng.random() < 0.35:
            state.play(moves[rng.randrange(len(moves))])
        else:
            state.play(greedy.choose(state))
    return out


def kernel_after(state: CubedState, move: Any, seed: int = 1) -> k.Game:
    """`state` in kernel arrays after the kernel played `move`."""
    arrays = kernel_bridge.encode(state)
    kind, a, b = kernel_bridge.kernel_move(state, move)
    rng = np.array([seed], dtype=np.uint64)
    buffers = (np.empty(k.MAX_MOVES, dtype=np.int64), np.empty(k.MAX_MOVES, dtype=np.int64))
    search_kernel.play_move(arrays, kernel_bridge.tables(state.ed), kind, a, b, rng, *buffers)
    return arrays


def kernel_placements(state: CubedState) -> list[str]:
    seat = state.to_move
    assert seat is not None
    rot = np.empty(k.MAX_MOVES, dtype=np.int64)
    cell = np.empty(k.MAX_MOVES, dtype=np.int64)
    arrays = kernel_bridge.encode(state)
    count = k.placements(arrays, kernel_bridge.tables(state.ed), seat, rot, cell)
    out = []
    for r, c in zip(rot[:count].tolist(), cell[:count].tolist(), strict=True):
        q, s = c // k.W - k.OFF, c % k.W - k.OFF
        out.append(f"{state.ed.text(kernel_bridge.piece_of(r))}@{q},{s}")
    return out


@pytest.mark.parametrize("options", VARIANT_SETS, ids=IDS)
def test_the_kernel_plays_every_variant_move_as_the_python_rules(options: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    natural = 0
    for seed in SEEDS:
        for found in positions(options, seed):
            if found.drawn:
                continue  # a draw3 keep: the search plays it in Python
            natural += found.give
            # voids are rare: a gift is also made pending by hand where one could be
            pending = found.clone()
            pending.give = "void" in options["variants"] and not found.bonus
            for state in (found, pending) if pending.give and not found.give else (found,):
                check_every_move(state, seen)
    # the variants' own steps were all met
    if "bridging" in options["variants"]:
        assert seen["Place+bonus"] > 0 and seen["Pass+bonus"] > 0
    if "void" in options["variants"]:
        assert seen["Give"] > 0 and seen["Skip"] > 0
    if options["players"] == 3 and "void" in options["variants"]:
        assert natural > 0  # and a void was filled in play


#: seeds of the games checked move by move (the last game of 3 fills a void)
SEEDS = (0, 1, 11)


def check_every_move(state: CubedState, seen: Counter[str]) -> None:
    """Every legal move but a draw3 played by the kernel and by the Python rules from
    `state` gives the same position (or the same end of the round)."""
    assert kernel_bridge.searchable(state)
    legal = state.legal_moves()
    if not state.give:
        assert kernel_placements(state) == [str(m) for m in legal if isinstance(m, Place)]
    for move in legal:
        if isinstance(move, Draw3):
            continue  # checked below: the kernel keeps by its own policy
        seen[type(move).__name__ + ("+bonus" if state.bonus else "")] += 1
        python = state.clone()
        python._apply(move)
        arrays = kernel_after(state, move)
        meta = arrays.meta
        if python.round != state.round or python.to_move is None:
            ended = python.past_rounds[-1]
            assert kernel_bridge.ENDINGS[int(meta[k.M_END])] == ended["end"]
            assert int(meta[k.M_WINNER]) == (-1 if ended["winner"] is None else ended["winner"])
            continue
        assert meta[k.M_END] == 0
        back = state.clone()
        kernel_bridge.decode_into(back, arrays)
        assert back.to_dict() == python.to_dict(), move


@pytest.mark.parametrize("options", VARIANT_SETS[2:4], ids=IDS[2:4])
def test_the_kernels_draw3_keeps_one_drawn_piece_and_returns_the_rest(
    options: dict[str, Any],
) -> None:
    checked = 0
    for seed in range(3):
        for state in positions(options, seed):
            seat = state.to_move
            assert seat is not None
            for move in state.legal_moves():
                if not isinstance(move, Draw3):
                    continue
                arrays = kernel_after(state, move, seed=checked)
                back = state.clone()
                kernel_bridge.decode_into(back, arrays)
                drawn = state.bag[: move.k]
                kept = Counter(back.hands[seat]) - Counter(state.hands[seat])
                assert sum(kept.values()) == 1 and next(iter(kept)) in drawn
                assert Counter(back.bag) == Counter(state.bag) - kept
                python = state.clone()
                python.play(move)
                python.play(Keep(state.ed.text(next(iter(kept)))))
                if arrays.meta[k.M_END]:  # the last turn of the round
                    assert python.round != state.round or python.is_over
                    continue
                assert python.to_move == back.to_move == (seat + 1) % state.game.players
                assert python.idle == back.idle == min(state.idle + 1, state.game.players)
                assert Counter(python.bag) == Counter(back.bag)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("options", VARIANT_SETS, ids=IDS)
def test_kernel_root_moves_and_greedy_values_are_the_python_ones(options: dict[str, Any]) -> None:
    pruned = 0
    for seed in range(2):
        for state in positions(options, seed):
            if state.drawn:
                continue
            expected = search_hooks.root_moves(state)
            assert kernel_bridge.root_moves(state) == expected
            pruned += len(state.legal_moves()) > len(expected)
    assert pruned > 10  # the ranking by value, not only the short lists, was compared


@pytest.mark.parametrize(
    "options",
    [
        *VARIANT_SETS,
        {"players": 2, "variants": ["bridging", "void", "draw3"], "rounds": 3},
        {"players": 6, "variants": ["draw3"], "rounds": 1},
    ],
    ids=[*IDS, "match", "draw3-6p"],
)
def test_mcts_searches_every_variant_with_compiled_playouts(options: dict[str, Any]) -> None:
    game = cubegames.make("cubed", **options)
    state = game.new_state(seed=5)
    bot = cubegames.bot("mcts:iterations=60", seed=5)
    assert isinstance(bot, MctsBot)
    searched = 0
    while state.to_move is not None and searched < 25:
        state.play(bot.choose(state))
        assert bot.last_search == "flat"
        searched += 1
    assert searched == 25 or state.is_over


def test_a_draw3_keep_is_searched_with_a_template_per_kept_piece() -> None:
    game = cubegames.make("cubed", players=2, variants=["draw3"], rounds=1)
    state = game.new_state(seed=2)
    assert isinstance(state, CubedState)
    state.play(Draw3(3))
    assert state.drawn and all(isinstance(m, Keep) for m in state.legal_moves())
    seat = state.to_move
    assert seat is not None
    playouts = game.playouts(state.view(seat), seat, random.Random(1))
    assert isinstance(playouts, kernel_bridge.KernelPlayouts)
    assert playouts.moves == state.legal_moves()
    assert len(playouts.templates) == len(playouts.moves)
    rewards = playouts.batch(list(range(len(playouts.moves))) * 4, list(range(4 * 3)), seat)
    assert all(0.0 <= r <= 1.0 for r in rewards)
    bot = cubegames.bot("mcts:iterations=30", seed=1)
    assert isinstance(bot, MctsBot)
    assert isinstance(bot.choose(state), Keep)
    assert bot.last_search == "flat"


def test_the_playouts_gift_and_bonus_follow_the_rules() -> None:
    """A pending gift or bonus at the root is searched by the kernel: gifts to each other
    seat and a skip, or a bonus placement and a pass."""
    options = {"players": 3, "variants": ["bridging", "void"], "rounds": 1}
    found = {"give": False, "bonus": False}
    for seed in range(6):
        for state in positions(options, seed):
            seat = state.to_move
            assert seat is not None
            if not (state.give or state.bonus):
                continue
            playouts = state.game.playouts(state.view(seat), seat, random.Random(seed))
            assert isinstance(playouts, kernel_bridge.KernelPlayouts)
            if state.give:
                found["give"] = True
                assert {type(m) for m in playouts.moves} == {Give, Skip}
            else:
                found["bonus"] = True
                assert {type(m) for m in playouts.moves} <= {Place, Pass}
                assert Pass() in playouts.moves
            rewards = playouts.batch(
                list(range(len(playouts.moves))), [7] * len(playouts.moves), seat
            )
            assert all(0.0 <= r <= 1.0 for r in rewards)
    assert all(found.values())


@pytest.mark.parametrize("options", VARIANT_SETS, ids=IDS)
def test_the_kernel_greedy_move_is_the_python_greedy_move_in_every_variant(
    options: dict[str, Any],
) -> None:
    checked = bonuses = 0
    for seed in range(2):
        for state in positions(options, seed):
            if not kernel_bridge.searchable(state):
                continue
            for n in range(2):
                mine, theirs = random.Random(n), random.Random(n)
                move = kernel_bridge.greedy_move(state, mine)
                assert move == search_hooks.greedy_move(state, theirs)
                assert mine.getstate() == theirs.getstate()  # the same numbers drawn
            checked += 1
            bonuses += state.bonus  # where the heuristic weighs the bonus against a pass
    assert checked > 60
    if "bridging" in options["variants"]:
        assert bonuses > 0
