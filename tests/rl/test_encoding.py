"""Action codecs: round trips, masks equal to the legal moves, fixed sizes, and the windows."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.games.cubed import Draw, Draw3, Give, Keep, Pass, Place, Skip
from cubegames.games.cubed.rl import Codec as CubedCodec
from cubegames.games.cubed.rl import Observer as CubedObserver
from cubegames.games.cubed.rl import distance, full_radius
from cubegames.games.stakd import PieceType
from cubegames.games.stakd import Place as StakdPlace
from cubegames.games.stakd.rl import bounds
from cubegames.games.unstackable import Colour, End, Stack, Unstack
from cubegames.rl import codec
from cubegames.rl.encoding import ActionEncodingError
from tests.cubed.helpers import workshop
from tests.rl.helpers import CASES, IDS, positions


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_masks_are_the_legal_moves(game_id: str, options: dict[str, Any]) -> None:
    """At every position of random games, each legal move round-trips and the mask holds
    exactly the legal moves' indexes, which decode back to exactly the legal moves."""
    game = cubegames.make(game_id, **options)
    c = codec(game)
    for state in positions(game_id, options, range(3)):
        view = state.view(state.to_move)
        legal = state.legal_moves()
        indexes = [c.encode(m, view) for m in legal]
        assert [c.decode(i, view) for i in indexes] == legal
        mask = c.mask(legal, view)
        assert mask.dtype == np.int8 and mask.shape == (c.size,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(indexes)
        assert len(set(indexes)) == len(legal)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_indexes_round_trip(game_id: str, options: dict[str, Any]) -> None:
    """decode then encode gives the index back, for every non-placement index and a sample
    of the rest, in a position mid-game (STAKD reads the layer from it)."""
    game = cubegames.make(game_id, **options)
    c = codec(game)
    for step, state in enumerate(positions(game_id, options, range(1))):
        view = state.view(state.to_move)
        if step == 30:
            break
    rng = random.Random(0)
    sample = set(rng.sample(range(c.size), min(c.size, 3000)))
    sample |= set(range(max(0, c.size - 500), c.size))
    for index in sorted(sample):
        assert c.encode(c.decode(index, view), view) == index


def test_sizes_are_fixed_by_the_options() -> None:
    """The documented sizes; a position never changes them."""
    make = cubegames.make
    assert codec(make("cubed", players=2)).size == 1261 * 174 + 2
    assert codec(make("cubed", players=3, edition="ja")).size == 1261 * 234 + 2
    both = codec(make("cubed", players=2, variants=["draw3", "void"]))
    assert both.size == 1261 * 174 + 2 + 3 + 62 + 62 * 2 + 1
    assert codec(make("cubed", players=1), radius=3).size == 37 * 174 + 2
    assert codec(make("unstackable")).size == 281
    assert codec(make("unstackable", exact_counts=False)).size == 281
    assert codec(make("stakd", players=2)).size == 15 * 21 * 21
    assert codec(make("stakd", players=1)).size == 15 * 9 * 9
    assert codec(make("cubes", players=5)).size == 1


def test_cubed_layout() -> None:
    """Placements first (cell-major), then draw, pass and the variants' moves in order."""
    game = cubegames.make("cubed", players=3, variants=["draw3", "void"], rounds=1)
    c = CubedCodec(game, radius=2)
    assert c.cells[c.cell_index[(0, 0)]] == (0, 0) and len(c.cells) == 19
    first = c.encode(Place(c.patterns[0], 0, -2))
    assert first == 0
    assert c.encode(Place(c.patterns[1], 0, -2)) == 1
    assert c.encode(Place(c.patterns[0], 1, -2)) == len(c.patterns)
    assert c.encode(Draw()) == 19 * len(c.patterns)
    assert c.encode(Pass()) == c.encode(Draw()) + 1
    assert [c.encode(Draw3(k)) for k in (1, 2, 3)] == [c.encode(Pass()) + k for k in (1, 2, 3)]
    assert c.encode(Keep(c.pieces[0])) == c.encode(Draw3(3)) + 1
    assert c.encode(Give(c.pieces[1], 2)) == c.encode(Keep(c.pieces[-1])) + 1 + 3 + 2
    assert c.encode(Skip()) == c.size - 1
    # every rotation of one piece has its own pattern: `GPY`, `PYG`, `YGP`
    assert {c.pattern_index[p] for p in ("GPY", "PYG", "YGP")} == {
        c.pattern_index["GPY"] + k for k in range(3)
    }


def test_cubed_refuses_what_it_cannot_encode() -> None:
    plain = CubedCodec(cubegames.make("cubed", players=2), radius=4)
    for move in [Draw3(1), Keep("GPY"), Give("GPY", 1), Skip(), Place("GYP", 0, 0)]:
        with pytest.raises(ActionEncodingError):
            plain.encode(move)
    with pytest.raises(ActionEncodingError, match="radius=5 or more"):
        plain.encode(Place("GPY", 5, 0))
    for index in (-1, plain.size, 2.5):
        with pytest.raises(ActionEncodingError):
            plain.decode(index)  # type: ignore[arg-type]


def test_a_placement_beyond_the_window_raises_instead_of_vanishing() -> None:
    """A legal move outside the window makes the mask raise, naming the radius to use; the
    observer refuses a table it cannot show."""
    # the workshop test box holds GGG four times
    state = workshop([((0, 0), "GGG"), ((1, 0), "GGG")], hands=[["GGG", "GGG"], ["PPP"]])
    legal = state.legal_moves()
    assert {distance(m.q, m.r) for m in legal if isinstance(m, Place)} == {1}
    small = CubedCodec(state.game, radius=1)
    assert int(small.mask(legal).sum()) == len(legal)
    state.play("GGG@1,-1")
    state.play("draw")
    state.play("pass")
    view = state.view(0)
    legal = state.legal_moves()
    assert max(distance(m.q, m.r) for m in legal if isinstance(m, Place)) == 2
    with pytest.raises(ActionEncodingError, match="radius=2 or more"):
        small.mask(legal, view)
    assert int(CubedCodec(state.game, radius=2).mask(legal).sum()) == len(legal)
    state.play(next(m for m in legal if isinstance(m, Place) and distance(m.q, m.r) == 2))
    with pytest.raises(ActionEncodingError, match="outside the observation window"):
        CubedObserver(state.game, radius=1).observe(state.view(0))


def test_the_full_radius_bound() -> None:
    """Reaching distance k takes 2k pieces, so no piece lies beyond half the table; the full
    radius is half the box (checked on every table of many random games)."""
    assert full_radius(cubegames.make("cubed")) == 31
    assert full_radius(cubegames.make("cubed", edition="ja")) == 44
    for options in ({"players": 2, "rounds": 1}, {"players": 1}):
        for state in positions("cubed", options, range(40), every=5):
            table = state.to_dict()["table"]
            if len(table) > 1:
                far = max(distance(*e["cell"]) for e in table)
                assert 2 * far <= len(table)


@pytest.mark.parametrize("players", [1, 2, 3, 5, 8])
def test_the_stakd_window_holds_every_node(players: int) -> None:
    """The window is a bound, not a guess: every node of random games lies in it (the masks
    would raise otherwise)."""
    game = cubegames.make("stakd", players=players)
    lo, hi = bounds(game)
    bases = players * game.edition.counts[players][PieceType.BASE]
    assert (lo, hi) == (-3 * (bases - 1), 2 + 3 * (bases - 1))
    c = codec(game)
    for state in positions("stakd", {"players": players}, range(2), every=7):
        view = state.view(state.to_move)
        c.mask(state.legal_moves(), view)
        for piece in view["pieces"]:
            assert all(lo <= x <= hi and lo <= y <= hi for x, y in piece["nodes"])


def test_a_row_of_bases_reaches_the_window_edge() -> None:
    game = cubegames.make("stakd", players=2)
    state = game.new_state()
    c = codec(game)
    for k in range(4):
        text = "+".join(f"{3 * k + x},{y}" for x in range(3) for y in range(2))
        move = game.parse_move(f"BASE@0:{text}")
        assert c.mask(state.legal_moves(), state.view(state.to_move))[c.encode(move)] == 1
        state.play(move)
    assert max(x for p in state.to_dict()["pieces"] for x, _ in p["nodes"]) == bounds(game)[1]


def test_stakd_layers_are_relative() -> None:
    """One action means "this shape on the current layer" at any height."""
    game = cubegames.make("stakd", players=1)
    c = codec(game)
    duo = ((0, 0), (1, 0))
    low, high = {"layer": 2}, {"layer": 7}
    index = c.encode(StakdPlace(PieceType.DUO, 2, duo), low)
    assert c.decode(index, high) == StakdPlace(PieceType.DUO, 7, duo)
    opening = c.encode(StakdPlace(PieceType.DUO, 3, duo), low)
    assert opening != index and c.decode(opening, high).z == 8
    with pytest.raises(ActionEncodingError, match="pass the view"):
        c.decode(index)
    with pytest.raises(ActionEncodingError, match="neither the current layer"):
        c.encode(StakdPlace(PieceType.DUO, 5, duo), low)
    with pytest.raises(ActionEncodingError, match="no new action"):
        c.encode(StakdPlace(PieceType.BOMBER, 3, ((0, 0),)), low)
    base = StakdPlace(PieceType.BASE, 0, tuple((x, y) for x in range(3) for y in range(2)))
    assert c.decode(c.encode(base), None) == base


def test_unstackable_layout() -> None:
    c = codec(cubegames.make("unstackable"))
    assert c.encode(Stack(Colour.YELLOW, 0, 0, 0)) == 0
    assert c.encode(Stack(Colour.RED, 1, 2, 3)) == 72 + 1 + 8 + 48
    assert c.encode(Stack(Colour.BLACK, 3, 3, 3)) == 144 + 63
    assert c.encode(Stack(Colour.YELLOW, -1, 2, 0)) == 66  # before the structure, row 2
    assert c.encode(Stack(Colour.BLACK, 3, -1, 0)) == 144 + 71
    assert c.decode(215) == Stack(Colour.BLACK, 3, -1, 0)
    assert c.encode(Unstack(0, 0, 0)) == 216
    assert c.decode(279) == Unstack(3, 3, 3)
    assert c.encode(End()) == 280 and c.decode(280) == End()
    for move in (Unstack(4, 0, 0), Stack(Colour.RED, -1, 0, 1), Stack(Colour.RED, -2, 0, 0)):
        with pytest.raises(ActionEncodingError):
            c.encode(move)


def test_cubes_has_one_action() -> None:
    game = cubegames.make("cubes", players=3, referee=True)
    c = codec(game)
    state = game.new_state(seed=1)
    assert c.mask(state.legal_moves()).tolist() == [1]
    with pytest.raises(ActionEncodingError, match="chance"):
        c.encode(game.parse_move("roll 1 C . 6 . 3"))


@pytest.mark.parametrize("game_id", ["cubed", "unstackable", "stakd", "cubes", "nim"])
def test_decode_refuses_what_is_no_action_with_one_error(game_id: str) -> None:
    game = cubegames.make(game_id)
    actions = codec(game)
    view = game.new_state(0).view(0)
    # NaN, None and infinity made int() raise ValueError, TypeError or OverflowError, and
    # True was read as action 1
    for bad in (float("nan"), None, float("inf"), True, np.bool_(False), 2.5, "3", -1):
        with pytest.raises(ActionEncodingError, match=r"is not in 0\.\."):
            actions.decode(bad, view)  # type: ignore[arg-type]
