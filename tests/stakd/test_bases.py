"""Step 1: the bases, laid in turn order on layer 0 with the two-node rule."""

from __future__ import annotations

import cubegames
from tests.stakd.helpers import B0, B1, moves, position, refusal


def test_first_base_is_anchored_at_0_0() -> None:
    state = cubegames.make("stakd", players=2).new_state()
    assert moves(state) == [
        "BASE@0:0,0+0,1+0,2+1,0+1,1+1,2",
        "BASE@0:0,0+0,1+1,0+1,1+2,0+2,1",
    ]
    assert refusal(state, "BASE@0:1,0+2,0+3,0+1,1+2,1+3,1") == (
        "the first base goes with its first node (least x, then least y) at 0,0"
    )


def test_the_same_seed_or_any_seed_gives_the_same_start() -> None:
    game = cubegames.make("stakd", players=3)
    assert game.new_state(1).to_dict() == game.new_state(99).to_dict()
    assert game.new_state().to_move == 0


def test_later_bases_touch_with_two_nodes() -> None:
    state = position([(0, B0)], hands=[{"BASE": 1}, {"BASE": 1}], to_move=1)
    # end to end along the short side: two nodes touch
    assert refusal(state, B1) is None
    # shifted up by one: only one node touches
    assert refusal(state, "BASE@0:3,1+4,1+5,1+3,2+4,2+5,2") == (
        "a base must touch the other bases with at least 2 of its nodes; this one touches with 1"
    )
    # corner to corner touches with none
    assert refusal(state, "BASE@0:3,2+4,2+5,2+3,3+4,3+5,3") == (
        "a base must touch the other bases with at least 2 of its nodes; this one touches with 0"
    )
    assert refusal(state, "BASE@0:2,0+3,0+4,0+2,1+3,1+4,1") == (
        "node 2,0 on layer 0 is already taken"
    )
    # every listed move keeps the rule: 8 lying rectangles and 8 standing ones
    assert len(moves(state)) == 16
    assert all(refusal(state, m) is None for m in moves(state))


def test_bases_go_first_and_only_on_layer_0() -> None:
    state = position([(0, B0)], hands=[{"BASE": 1, "DUO": 1}, {"BASE": 1, "DUO": 1}], to_move=1)
    assert refusal(state, "DUO@1:0,0+1,0") == "all bases are laid first: lay a BASE"
    assert refusal(state, "BASE@1:0,0+1,0+2,0+0,1+1,1+2,1") == "bases go on layer 0"


def test_bases_are_laid_in_turn_order_then_stacking_begins() -> None:
    state = cubegames.make("stakd", players=2).new_state()
    seats = []
    for _ in range(4):
        seats.append(state.to_move)
        state.play(state.legal_moves()[0])
    assert seats == [0, 1, 0, 1]
    assert state.to_dict()["hands"][0]["BASE"] == 0
    # the first layer above the bases may start at once
    assert state.to_move == 0
    assert {m.z for m in state.legal_moves()} == {1}


def test_base_is_not_held_once_laid() -> None:
    state = position([(0, B0), (1, B1)], hands=[{"DUO": 1}, {"DUO": 1}])
    assert refusal(state, "BASE@0:0,2+1,2+2,2+0,3+1,3+2,3") == "you have no BASE left"
    assert refusal(state, "UNI@0:0,2") == "you have no UNI left"


def test_only_bases_on_layer_0() -> None:
    state = position([(0, B0), (1, B1)], hands=[{"UNI": 1, "DUO": 1}, {"DUO": 1}])
    assert refusal(state, "UNI@0:0,2") == "only bases go on layer 0"
