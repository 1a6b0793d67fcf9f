"""The compiled kernel plays the Python rules move for move (`games/cubed/compiled_rules.py`)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.bots.random import RandomBot
from cubegames.core import splitmix
from cubegames.games.cubed import CubedState, kernel_bridge, search_kernel
from cubegames.games.cubed import compiled_rules as k

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2, "rounds": 1},
    {"players": 3, "edition": "ja", "rounds": 2},
    {"players": 4, "rounds": 1},
    {"players": 2, "rounds": 3},
]


def python_game(options: dict[str, Any], seed: int) -> tuple[CubedState, list[int], list[Any]]:
    """A game played by random bots through the public API: the final state, the seat of
    each move and the bots."""
    state = cubegames.make("cubed", **options).new_state(seed=seed)
    assert isinstance(state, CubedState)
    bots = [cubegames.bot("random", seed=seed * 1000 + s) for s in range(state.game.players)]
    seats = []
    while (seat := state.to_move) is not None:
        seats.append(seat)
        state.play(bots[seat].choose(state))
    return state, seats, bots


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_random_playouts_play_the_games_of_random_bots(options: dict[str, Any]) -> None:
    game = cubegames.make("cubed", **options)
    for seed in range(10):
        expected, seats, bots = python_game(options, seed)
        state = game.new_state(seed=seed)
        rngs = [splitmix.Draws(splitmix.from_seed(seed * 1000 + s)) for s in range(game.players)]
        assert game.random_playout(state, rngs) == seats
        assert state.to_dict() == expected.to_dict()
        # the generators end where the bots' did
        assert [r.state for r in rngs] == [b.rng.state for b in bots]


@pytest.mark.parametrize("edition", ["en", "ja"])
def test_solo_random_games_are_played_in_the_kernel_move_for_move(edition: str) -> None:
    """Solo (spec §8): the deal made in Python, then the kernel plays the random bot's
    moves (placements in order, the draw when nothing fits) and the losses after every
    move: the same moves, final position and generator as the bot through the rules."""
    options = {"players": 1, "edition": edition}
    game = cubegames.make("cubed", **options)
    ends = set()
    for seed in range(40):
        expected, seats, bots = python_game(options, seed)
        state = game.new_state(seed=seed)
        rngs = [splitmix.Draws(splitmix.from_seed(seed * 1000))]
        assert game.random_playout(state, rngs) == seats
        assert state.to_dict() == expected.to_dict()
        assert rngs[0].state == bots[0].rng.state
        ends.add(expected.end)
    assert len(ends) >= 2  # won and lost games both


def kernel_moves(state: CubedState) -> list[str]:
    """The legal moves of `state` as the kernel lists them, as text."""
    seat = state.to_move
    assert seat is not None
    arrays = kernel_bridge.encode(state)
    rot = np.empty(k.MAX_MOVES, dtype=np.int64)
    cell = np.empty(k.MAX_MOVES, dtype=np.int64)
    count = k.placements(arrays, kernel_bridge.tables(state.ed), seat, rot, cell)
    out = []
    for r, c in zip(rot[:count].tolist(), cell[:count].tolist(), strict=True):
        q, s = c // k.W - k.OFF, c % k.W - k.OFF
        out.append(f"{state.ed.text(kernel_bridge.piece_of(r))}@{q},{s}")
    # the random playouts' way: count them, then find each by its number
    room = k.fit_scratch(kernel_bridge.tables(state.ed))
    assert k.fit_lists(arrays, kernel_bridge.tables(state.ed), seat, room) == count
    for i in range(count):
        assert k.nth_placement(arrays, kernel_bridge.tables(state.ed), i, room) == (rot[i], cell[i])
    # the random playouts' way now: count them with popcounts, then find each by its number
    room = k.fit_scratch(kernel_bridge.tables(state.ed))
    assert k.fit_count(arrays, kernel_bridge.tables(state.ed), seat, room) == count
    for i in range(count):
        assert k.fit_pick(arrays, kernel_bridge.tables(state.ed), i, room) == (rot[i], cell[i])
    with pytest.raises(IndexError):
        k.fit_pick(arrays, kernel_bridge.tables(state.ed), count, room)
    out.append("draw" if k.can_draw(arrays) else "pass")
    return out


@pytest.mark.parametrize("options", OPTION_SETS[:3], ids=lambda o: "-".join(map(str, o.values())))
def test_the_kernel_lists_the_legal_moves_in_order_at_every_position(
    options: dict[str, Any],
) -> None:
    game = cubegames.make("cubed", **options)
    for seed in range(4):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        bot = cubegames.bot("random", seed=seed)
        while state.to_move is not None:
            assert kernel_moves(state) == [str(m) for m in state.legal_moves()]
            # a position written into kernel arrays and read back is the same position
            back = state.clone()
            back.table, back.hands, back.bag = {}, [[] for _ in back.hands], []
            kernel_bridge.decode_into(back, kernel_bridge.encode(state))
            assert back.to_dict() == state.to_dict()
            assert (back.front, back.playable) == (state.front, state.playable)
            state.play(bot.choose(state))


def test_the_bots_generators_draw_as_the_random_bots_do() -> None:
    bot = RandomBot(seed=12345)
    rngs = np.array([1, bot.rng.state, 2], dtype=np.uint64)
    got = [k.sm_below(rngs, 1, n) for n in (1, 2, 3, 7, 64, 65, 1000) * 200]
    assert got == [bot.rng.randrange(n) for n in (1, 2, 3, 7, 64, 65, 1000) * 200]
    assert int(rngs[1]) == bot.rng.state and rngs[[0, 2]].tolist() == [1, 2]


def test_a_keyed_generator_is_left_to_python() -> None:
    """A bot seeded with 2**64 or more keys its generator (BLAKE2b), which the kernel does
    not draw: the game is left as it was, for the bots to play move by move."""
    game = cubegames.make("cubed", players=2, rounds=1)
    state = game.new_state(seed=1)
    before = state.to_dict()
    rngs = [splitmix.Draws(splitmix.from_seed(2**64 + s)) for s in range(2)]
    assert game.random_playout(state, rngs) is None and state.to_dict() == before


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "variants": ["bridging"], "rounds": 1},
        {"players": 2, "strict_colors": False, "rounds": 1},
        {"players": 1, "strict_colors": False},
    ],
)
def test_rules_the_kernel_does_not_cover_are_left_to_python(options: dict[str, Any]) -> None:
    game = cubegames.make("cubed", **options)
    state = game.new_state(seed=1)
    before = state.to_dict()
    rngs = [splitmix.Draws(splitmix.from_seed(s)) for s in range(game.players)]
    assert game.random_playout(state, rngs) is None
    assert state.to_dict() == before


def test_a_search_playout_deals_only_what_the_seat_cannot_see() -> None:
    game = cubegames.make("cubed", players=3, rounds=1)
    state = game.new_state(seed=4)
    assert isinstance(state, CubedState)
    bot = cubegames.bot("random", seed=4)
    for _ in range(20):
        state.play(bot.choose(state))
    seat = state.to_move
    assert seat is not None
    template = kernel_bridge.encode(state)
    scratch = k.new_game(game.players)
    rewards = np.zeros(game.players)
    buffers = (np.empty(k.MAX_MOVES, dtype=np.int64), np.empty(k.MAX_MOVES, dtype=np.int64))
    unseen = sorted([p for s in range(3) if s != seat for p in state.hands[s]] + state.bag)
    deals = set()
    for seed in range(5):
        # root move: a pass or a draw, then no playout at all
        args = (
            search_kernel.DRAW,
            0,
            0,
            seed,
            0,
            0.75,
            np.zeros(3),
            True,
            3.0,
            False,
            0.0,
            rewards,
            *buffers,
        )
        search_kernel.playout(scratch, template, kernel_bridge.tables(state.ed), seat, *args)
        dealt = state.clone()
        kernel_bridge.decode_into(dealt, scratch)
        assert dealt.table == state.table
        assert dealt.hands[seat][:-1] == state.hands[seat]  # and it drew one more
        assert [len(h) for h in dealt.hands] == [
            len(h) + (s == seat) for s, h in enumerate(state.hands)
        ]
        others = [p for s in range(3) if s != seat for p in dealt.hands[s]]
        assert sorted(others + dealt.bag + [dealt.hands[seat][-1]]) == sorted(unseen)
        deals.add(tuple(others))
        assert min(rewards) >= 0.0 and max(rewards) <= 1.0
    assert len(deals) > 1  # the hidden pieces really are dealt afresh


def test_popcount_counts_every_bit_of_a_word_the_sign_bit_included() -> None:
    rng = random.Random(14)
    words = [0, 1, -1, 1 << 63, (1 << 63) - 1, *(rng.getrandbits(64) for _ in range(200))]
    for word in words:
        signed = word - (1 << 64) if word >= 1 << 63 else word
        assert k.popcount(signed) == bin(word & ((1 << 64) - 1)).count("1")
