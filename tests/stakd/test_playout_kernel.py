"""STAKD's compiled stacking rules and playouts (`playout_kernel`, `search_bridge`): the
kernel's placements are the Python rules' legal moves, every playout is replayed move by
move through the Python rules (which must accept each move, hand the turn to the same seats
and end the round with the same winner), and the greedy values computed in the kernel pick
the Python heuristic's move."""

from __future__ import annotations

import random

import numpy as np
import pytest

import cubegames
from cubegames.bots.mcts import MctsBot
from cubegames.games.stakd import playout_kernel as k
from cubegames.games.stakd import search_bridge, search_hooks
from cubegames.games.stakd.state import StakdState

SETTINGS: list[dict[str, object]] = [
    {"players": 2},
    {"players": 3},
    {"players": 1},
    {"players": 5},
    {"players": 8, "points_to_win": 1},
    {"players": 3, "uni_opens_beside_bombers": True},
]


def positions(options: dict[str, object], seed: int, every: int = 3) -> list[StakdState]:
    """Positions of one random match after the bases, every `every`-th one."""
    game = cubegames.make("stakd", **options)
    state = game.new_state()
    assert isinstance(state, StakdState)
    rng = random.Random(seed)
    found: list[StakdState] = []
    played = 0
    while state.to_move is not None and len(found) < 60:
        if search_bridge.supported(state) and played % every == 0:
            found.append(state.clone())
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
        played += 1
    return found


def kernel_moves(state: StakdState, seat: int) -> list[str]:
    tb, _ = search_bridge.tables(state)
    out_c = np.empty(tb.ctype.shape[0] * 2, dtype=np.int64)
    out_z = np.empty(tb.ctype.shape[0] * 2, dtype=np.int64)
    n = k.moves(search_bridge.encode(state), tb, seat, out_c, out_z, False)
    return sorted(
        str(search_bridge.place_of(state, int(c), int(z)))
        for c, z in zip(out_c[:n].tolist(), out_z[:n].tolist(), strict=True)
    )


@pytest.mark.parametrize("options", SETTINGS)
def test_the_kernels_placements_are_the_legal_moves(options: dict[str, object]) -> None:
    for seed in range(2):
        for state in positions(options, seed):
            for seat in range(state.game.players):
                python = sorted(str(m) for m in state.moves_for(seat))
                assert kernel_moves(state, seat) == python


def replay(state: StakdState, arm: int, seed: int, greed: float) -> None:
    playouts = search_bridge.KernelPlayouts(state)
    tb = playouts.tables
    width = tb.ctype.shape[0] * 2
    log = np.zeros(400, dtype=np.int64)
    out = np.empty(state.game.players, dtype=np.float64)
    k.playout(
        playouts.scratch,
        playouts.start,
        tb,
        int(playouts.roots_c[arm]),
        int(playouts.roots_z[arm]),
        seed,
        greed,
        playouts.points,
        playouts.target,
        playouts.total,
        out,
        np.empty(width, dtype=np.int64),
        np.empty(width, dtype=np.int64),
        log,
    )
    python = state.clone()
    won_before = len(python.round_winners)
    python.play(playouts.moves[arm])
    for entry in log[1 : log[0] + 1].tolist():
        seat = python.to_move
        assert seat is not None and len(python.round_winners) == won_before
        c, z = divmod(entry, 4096)
        move = search_bridge.place_of(state, c, z)
        python.play(move)  # `play` checks the move against the rules
    meta = playouts.scratch.meta
    assert meta[k.M_TO_MOVE] == -1
    players = state.game.players
    if players > 1:
        assert python.round_winners[won_before:] == [meta[k.M_WINNER]]
        expected = search_hooks.rewards(python)
        target = state.game.points_to_win
        winner = int(meta[k.M_WINNER])
        if python.points[winner] >= target:  # the match is won: all or nothing
            expected = [1.0 if s == winner else 0.0 for s in range(players)]
        assert out.tolist() == pytest.approx(expected)
    else:
        assert python.to_move is None
        assert out.tolist() == pytest.approx(search_hooks.rewards(python))


@pytest.mark.parametrize("options", SETTINGS)
@pytest.mark.parametrize("greed", [0.0, 0.75, 1.0])
def test_playouts_follow_the_python_rules_move_by_move(
    options: dict[str, object], greed: float
) -> None:
    rng = random.Random(11)
    for state in positions(options, 3, every=7)[:8]:
        arm = rng.randrange(len(state.legal_moves()))
        replay(state, arm, rng.getrandbits(62), greed)


@pytest.mark.parametrize("options", SETTINGS)
def test_the_kernels_greedy_values_pick_the_python_heuristics_move(
    options: dict[str, object],
) -> None:
    for i, state in enumerate(positions(options, 5, every=2)):
        assert search_bridge.greedy_move(state, random.Random(i)) == search_hooks.greedy_move(
            state, random.Random(i)
        )


def test_a_batch_is_its_playouts_one_by_one() -> None:
    state = positions({"players": 3}, 1)[1]
    playouts = search_bridge.KernelPlayouts(state)
    seat = playouts.seat
    moves = [i % len(playouts.moves) for i in range(9)]
    seeds = [50 + i for i in range(9)]
    singly = [playouts.run(m, s)[seat] for m, s in zip(moves, seeds, strict=True)]
    assert playouts.batch(moves, seeds, seat) == singly
    with pytest.raises(ValueError, match="one seed per move"):
        playouts.batch(moves, seeds[:2], seat)


def test_mcts_plays_stakd_by_the_flat_search() -> None:
    game = cubegames.make("stakd", players=2, points_to_win=1)
    state = game.new_state()
    bot = MctsBot(seed=3, iterations=40)
    greedy = cubegames.bot("greedy", seed=2)
    searched = 0
    while state.to_move is not None:
        if state.to_move == 0:
            move = bot.choose(state)
            searched += bot.last_search == "flat" and bot.last_iterations > 0
        else:
            move = greedy.choose(state)
        state.play(move)
    assert searched > 5
    assert game.playouts(state.view(0), 0, random.Random(1)) is None
