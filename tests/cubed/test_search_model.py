"""The flat search's model of greedy opponents (`search_kernel.greedy_pick`,
`playout_model`): the placement it lays is the greedy bot's, and valuing the placements
leaves the position as it was."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.games.cubed import CubedState, kernel_bridge, search_hooks, search_kernel
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed.notation import CubedMove, Pass, Place

ALL = ("bridging", "void", "draw3")


def buffers() -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    return np.empty(k.MAX_MOVES, dtype=np.int64), np.empty(k.MAX_MOVES, dtype=np.int64)


def picked(state: CubedState, seed: int) -> tuple[int, np.ndarray[Any, Any], Any]:
    """`greedy_pick` on `state`: (the index picked, the greedy values of the placements,
    the arrays after the call, which must equal a fresh encoding)."""
    ed = kernel_bridge.tables(state.ed)
    st = kernel_bridge.encode(state)
    seat = state.to_move
    assert seat is not None
    rots, cells = buffers()
    count = k.placements(st, ed, seat, rots, cells)
    values = np.empty(count, dtype=np.float64)
    scratch = k.new_game(state.game.players)
    search_kernel.greedy_values(scratch, st, ed, rots[:count], cells[:count], values, *buffers())
    room = np.empty((3, k.MAX_MOVES), dtype=np.int64)
    rng = np.array([seed], dtype=np.uint64)
    pick = search_kernel.greedy_pick(st, ed, count, rots, cells, room, rng)
    return pick, values, (st, rots, cells)


def greedy_move(bot: Any, state: CubedState) -> CubedMove:
    """The greedy bot's move in `state`."""
    move = bot.choose(state)
    assert isinstance(move, CubedMove)
    return move


def same_position(a: k.Game, b: k.Game) -> None:
    """The arrays of two positions agree wherever the rules read them."""
    meta = a.meta
    assert np.array_equal(a.meta, b.meta)
    for i in (1, 2, 3, 4, 10, 11):  # tab, edges, touch, dead, have, hbits
        assert np.array_equal(a[i], b[i]), i
    n_tab, n_play = meta[k.M_NTAB], meta[k.M_NPLAY]
    assert np.array_equal(a.order[:n_tab], b.order[:n_tab])
    assert np.array_equal(a.play[:n_play], b.play[:n_play])
    assert np.array_equal(a.hsize, b.hsize)
    for s in range(a.hsize.shape[0]):
        assert np.array_equal(a.hands[s, : a.hsize[s]], b.hands[s, : b.hsize[s]])


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "rounds": 1},
        {"players": 4, "rounds": 1, "variants": ALL},
        {"players": 11, "edition": "ja", "rounds": 1},
        {"players": 8, "edition": "ja", "rounds": 1, "variants": ALL},
    ],
    ids=["2p", "4p-all", "11p-ja", "8p-ja-all"],
)
def test_the_model_lays_the_greedy_bots_placement(options: dict[str, Any]) -> None:
    """On positions of greedy games with random moves among them: the pick is a placement
    of the best greedy value, the greedy bot's own move when that best is unique (a pass
    of a bridging bonus when the bot passes), and the position is left as it was."""
    checked = unique = ties = bonuses = 0
    for seed in range(3):
        state = cubegames.make("cubed", **options).new_state(seed=seed)
        assert isinstance(state, CubedState)
        rng = random.Random(seed)
        greedy = cubegames.bot("greedy", seed=seed)
        while state.to_move is not None:
            if kernel_bridge.searchable(state) and not state.give and state.placements():
                pick, values, (after, rots, cells) = picked(state, seed)
                same_position(after, kernel_bridge.encode(state))
                expected = search_hooks.greedy_move(state, random.Random(0))
                if isinstance(expected, Pass):
                    assert state.bonus and pick == -1
                    bonuses += 1
                else:
                    assert pick >= 0
                    assert values[pick] == values.max()
                    if np.count_nonzero(values == values.max()) == 1:
                        chosen = kernel_bridge.piece_of(int(rots[pick]))
                        q, r = divmod(int(cells[pick]), k.W)
                        assert isinstance(expected, Place)
                        assert (state.ed.text(chosen), q - k.OFF, r - k.OFF) == (
                            expected.slots,
                            expected.q,
                            expected.r,
                        )
                        unique += 1
                    else:
                        picks = {picked(state, s)[0] for s in range(12)}
                        assert all(values[p] == values.max() for p in picks)
                        ties += len(picks) > 1  # equals are drawn, not always the first
                checked += 1
            moves = state.legal_moves()
            if rng.random() < 0.3:
                state.play(moves[rng.randrange(len(moves))])
            else:
                state.play(greedy_move(greedy, state))
    assert checked > 40
    assert unique > 20
    assert ties > 0
    if options.get("variants"):
        assert bonuses + unique > 0


def test_a_bridging_bonus_worth_less_than_nothing_is_passed() -> None:
    """A turn holding a bridging bonus: the model passes exactly when the greedy bot does
    (its best placement's value below `stay_value`), found over many bonus positions."""
    seen = {True: 0, False: 0}
    for seed in range(40):
        game = cubegames.make("cubed", players=3, rounds=1, variants=("bridging",))
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        greedy = cubegames.bot("greedy", seed=seed)
        while state.to_move is not None and sum(seen.values()) < 60:
            if state.bonus and state.placements() and kernel_bridge.searchable(state):
                pick, values, _ = picked(state, seed)
                passes = values.max() < search_hooks.stay_value(state, state.hands[state.to_move])
                assert (pick == -1) == passes
                assert isinstance(search_hooks.greedy_move(state, random.Random(0)), Pass) == (
                    passes
                )
                seen[passes] += 1
            state.play(greedy_move(greedy, state))
    assert seen[False] > 5  # bonus placements laid and, below, passed ones
    assert seen[True] + seen[False] > 10


def test_a_playout_plays_the_other_seats_as_greedy_and_the_searcher_lightly() -> None:
    """`playout_model` from a position where another seat is to move and nothing is hidden
    that could change its hand (two seats, an empty bag): with `GREEDY_OTHERS` its first
    move is the greedy bot's; with `LIGHT` it is not always (the light policy lays any
    piece now and then, on any cell)."""
    game = cubegames.make("cubed", players=2, rounds=1)
    greedy_moves = light_moves = 0
    differ = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        bot = cubegames.bot("greedy", seed=seed)
        for _ in range(6):
            state.play(greedy_move(bot, state))
        mover = state.to_move
        assert mover is not None
        if not state.placements():
            continue
        searcher = 1 - mover
        template = kernel_bridge.encode(state)
        template.meta[k.M_BAG_END] = template.meta[k.M_BAG_HEAD]  # nothing left to deal
        values = picked(state, 0)[1]
        best = values.max()
        ed = kernel_bridge.tables(state.ed)
        for model in (search_kernel.GREEDY_OTHERS, search_kernel.LIGHT):
            for s in range(20):
                scratch = k.new_game(2)
                search_kernel.playout_model(
                    scratch,
                    template,
                    ed,
                    searcher,
                    search_kernel.PLAYED,
                    0,
                    0,
                    s,
                    1,
                    0.75,
                    model,
                    np.zeros(2),
                    True,
                    3.0,
                    False,
                    0.0,
                    np.zeros(2),
                    *buffers(),
                    np.empty((3, k.MAX_MOVES), dtype=np.int64),
                )
                laid = scratch.order[scratch.meta[k.M_NTAB] - 1]
                code = scratch.tab[laid]
                rots, cells = buffers()
                count = k.placements(template, ed, mover, rots, cells)
                index = next(i for i in range(count) if rots[i] == code and cells[i] == laid)
                if model == search_kernel.GREEDY_OTHERS:
                    assert values[index] == best
                    greedy_moves += 1
                else:
                    differ += values[index] != best
                    light_moves += 1
    assert greedy_moves >= 60 and light_moves >= 60
    assert differ > 0


@pytest.mark.parametrize(
    ("players", "variants"), [(2, ALL), (6, ()), (7, ()), (7, ALL), (11, ()), (11, ALL)]
)
def test_the_search_plays_every_seat_lightly_by_default(
    players: int, variants: tuple[str, ...]
) -> None:
    """The greedy model did not measure better (benchmarks/strength.md): not the default."""
    assert search_hooks.flat_model(players, bool(variants)) == search_kernel.LIGHT
    game = cubegames.make("cubed", players=players, edition="ja", rounds=1, variants=variants)
    state = game.new_state(seed=3)
    assert isinstance(state, CubedState)
    playouts = kernel_bridge.playouts(state)
    assert playouts is not None and playouts.model == search_kernel.LIGHT
