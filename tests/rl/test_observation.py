"""Observations: shapes, dtypes and bounds, built from the view alone, and what they show."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.games.cubed.rl import Observer as CubedObserver
from cubegames.games.stakd import PieceType
from cubegames.rl import observer
from tests.cubed.helpers import position, workshop
from tests.rl.helpers import CASES, IDS, positions


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_shapes_dtypes_and_bounds(game_id: str, options: dict[str, Any]) -> None:
    game = cubegames.make(game_id, **options)
    obs = observer(game)
    for state in positions(game_id, options, range(2), every=3):
        for seat in range(game.players):
            view = state.view(seat)
            flat = obs.observe(view)
            assert flat.dtype == np.float32 and flat.shape == obs.shape
            assert flat.min() >= 0.0 and flat.max() <= 1.0
            planes, vector = obs.split(flat)
            assert planes.shape == obs.plane_shape and vector.shape == (obs.vector_size,)
            assert np.array_equal(planes, obs.planes(view))
            assert np.array_equal(vector, obs.vector(view))


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_a_seat_sees_only_its_view(game_id: str, options: dict[str, Any]) -> None:
    """A state re-dealt from a seat's view (hidden parts sampled anew) gives that seat the
    same observation; another seat's observation of it may differ."""
    game = cubegames.make(game_id, **options)
    obs = observer(game)
    rng = random.Random(5)
    hidden_differs = False
    for state in positions(game_id, options, range(2), every=9):
        for seat in range(game.players):
            mine = obs.observe(state.view(seat))
            other = game.determinize(state.view(seat), seat, rng)
            assert np.array_equal(obs.observe(other.view(seat)), mine)
            for them in range(game.players):
                if them != seat:
                    seen = obs.observe(other.view(them))
                    hidden_differs |= not np.array_equal(seen, obs.observe(state.view(them)))
    if game_id == "cubed" and game.players > 1:
        assert hidden_differs, "re-dealt hands never showed in the other seats' observations"


def test_observations_change_with_the_position() -> None:
    """Not a constant: each move of a game changes the mover's observation."""
    for game_id, options in [("unstackable", {}), ("stakd", {"players": 2}), ("cubes", {})]:
        game = cubegames.make(game_id, **options)
        obs = observer(game)
        state = game.new_state(seed=3)
        before = obs.observe(state.view(0))
        for _ in range(4):
            state.play(state.legal_moves()[0])
            after = obs.observe(state.view(0))
            assert not np.array_equal(before, after)
            before = after


def test_cubed_planes() -> None:
    """Slot colours, occupied, dead and playable cells of the rules' third worked example."""
    state = workshop(  # a test box: the worked example repeats BBB
        [((0, 0), "BBB"), ((0, 1), "BBB"), ((-1, 1), "BBB")],
        hands=[["KKB", "BBB"], ["GGG"]],
    )
    state.play("KKB@-1,0")  # blocking: its black sides face 0,-1 / -1,-1 / -2,0 / -2,1
    obs = CubedObserver(state.game, radius=3)
    planes = obs.planes(state.view(1))
    K, R = obs.colours, obs.radius
    ed = state.game.edition

    def at(channel: int, q: int, r: int) -> float:
        return float(planes[channel, r + R, q + R])

    black, blue = ed.index["K"], ed.index["B"]
    assert at(0 * K + black, -1, 0) == at(1 * K + black, -1, 0) == at(2 * K + blue, -1, 0) == 1
    assert at(0 * K + blue, 0, 0) == 1 and at(0 * K + black, 0, 0) == 0
    assert at(3 * K, 0, 0) == at(3 * K, -1, 0) == 1 and at(3 * K, 1, 0) == 0
    dead = {(q, r) for q in range(-R, R + 1) for r in range(-R, R + 1) if at(3 * K + 1, q, r)}
    assert dead == {(0, -1), (-1, -1), (-2, 0), (-2, 1)}
    playable = {(q, r) for q in range(-R, R + 1) for r in range(-R, R + 1) if at(3 * K + 2, q, r)}
    assert playable == {(1, 0), (-1, 2)}
    assert planes[3 * K + 3].sum() == 37  # the hexagon of radius 3


def test_cubed_vector_reads_the_hand() -> None:
    # JA: the box holds each blocking piece twice, so two of them fill their count
    state = position(hands=[["AAA", "KKA", "AKK"], ["CCC"]], bag=["OOO"], edition="ja")
    obs = CubedObserver(state.game, radius=2)
    vector = obs.vector(state.view(0))
    hand = dict(zip(obs.pieces, vector[: len(obs.pieces)].tolist(), strict=True))
    assert hand["AAA"] == 1.0 and hand["AKK"] == 1.0 and hand["CKK"] == 0.0
    assert hand["CCC"] == 0.0
    sizes = vector[len(obs.pieces) : len(obs.pieces) + 2] * 88
    assert sizes.round().tolist() == [3.0, 1.0]  # the viewer first


def test_cubed_vector_counts_stuck_turns() -> None:
    # a round ends after a full circle of stuck turns (spec §6), so the count is observed
    table = [((0, 0), "GPY")]
    plain = position(table, fields={"idle": 1})
    stuck = position(table, fields={"idle": 1, "stuck": 1})
    obs = CubedObserver(plain.game, radius=2)
    counts = len(obs.pieces) + 2  # after the hand and the two hand sizes
    a, b = obs.vector(plain.view(0)), obs.vector(stuck.view(0))
    assert a[counts + 4] == b[counts + 4] == 0.5  # turns without placing ÷ players
    assert (a[counts + 5], b[counts + 5]) == (0.0, 0.5)  # stuck turns ÷ players
    assert np.flatnonzero(a != b).tolist() == [counts + 5]


def test_unstackable_planes() -> None:
    game = cubegames.make("unstackable")
    obs = observer(game)
    state = game.new_state()
    state.play("K@0,0,0")
    state.play("K@-1,0,0")
    state.play("K@1,-1,0")  # now on 1,0,0, 0,1,0 and 1,1,0
    planes = obs.planes(state.view(0))
    assert planes[2, 0, 1, 0] == 1 and planes[2, 0, 0, 1] == 1 and planes[:3].sum() == 3
    targets = {tuple(int(i) for i in t) for t in np.argwhere(planes[3])}
    # [z, y, x]: beside the structure on the bag, and on top of each cube
    assert targets == {(0, 0, 0), (0, 0, 2), (0, 1, 2), (0, 2, 0), (0, 2, 1)} | {
        (1, 1, 0),
        (1, 0, 1),
        (1, 1, 1),
    }
    # and the cells before it, which shift it: -1,y,0 for y = 1 and x,-1,0 for x = 1
    vector = obs.vector(state.view(1))
    assert vector[28:36].tolist() == [0, 1, 0, 0, 0, 1, 0, 0]


def test_stakd_planes_show_the_current_layer_and_the_one_below() -> None:
    game = cubegames.make("stakd", players=1)
    state = game.new_state()
    state.play("BASE@0:0,0+1,0+2,0+0,1+1,1+2,1")
    state.play(state.legal_moves()[0])  # the second base
    state.play("DUO@1:0,0+1,0")
    obs = observer(game)
    planes = obs.planes(state.view(0))
    lo = obs.lo
    duo = PieceType.DUO.order
    assert planes[12 + duo, 0 - lo, 0 - lo] == planes[12 + duo, 1 - lo, 0 - lo] == 1
    assert planes[12 + 6, 0 - lo, 0 - lo] == 1  # the viewer's own piece
    assert planes[0, 0 - lo, 0 - lo] == 1  # a base below it
    assert planes[7 + 1, 0 - lo, 0 - lo] == 1  # ... which carries a DUO
    assert planes[24].sum() == 12


def test_cubed_planes_follow_the_table_incrementally() -> None:
    """The observer extends the frontier of the last table it saw; across seats, turns and
    new rounds (a fresh table) that gives the planes a fresh observer gives."""
    options = {"players": 3, "variants": ["bridging", "void"], "rounds": 3}
    game = cubegames.make("cubed", **options)
    warm = CubedObserver(game)
    for state in positions("cubed", options, range(2)):
        for seat in (state.to_move, 0):
            view = state.view(seat)
            assert np.array_equal(warm.planes(view), CubedObserver(game).planes(view))
