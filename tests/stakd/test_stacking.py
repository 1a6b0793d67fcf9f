"""Step 2: laying pieces on a layer, every rule and every refusal."""

from __future__ import annotations

from tests.stakd.helpers import (
    FOUR_BASES,
    SIX_ON_LAYER_1,
    TWO_BASES,
    moves,
    position,
    refusal,
)

HOLD = {"UNI": 2, "DUO": 2, "TRIO": 2, "QUAD": 1, "BOMBER": 2}


def test_no_overhang_names_the_node() -> None:
    state = position(TWO_BASES, hands=[HOLD, HOLD])
    assert refusal(state, "DUO@1:5,0+6,0") == "overhang: node 6,0 has nothing under it on layer 0"
    assert refusal(state, "TRIO@1:5,-1+5,0+5,1") == (
        "overhang: node 5,-1 has nothing under it on layer 0"
    )
    # spanning two bases is fine
    assert refusal(state, "DUO@1:2,0+3,0") is None


def test_a_node_on_an_occupied_spot() -> None:
    state = position([*TWO_BASES, (0, "DUO@1:0,0+1,0")], hands=[HOLD, HOLD], to_move=1)
    assert refusal(state, "DUO@1:1,0+1,1") == "node 1,0 on layer 1 is already taken"


def test_the_first_piece_of_a_layer_goes_anywhere_later_ones_connect() -> None:
    state = position(TWO_BASES, hands=[HOLD, HOLD])
    assert refusal(state, "DUO@1:4,1+5,1") is None
    state.play("DUO@1:4,1+5,1")
    # not touching at all, and touching only corner to corner
    assert (
        refusal(state, "DUO@1:0,0+1,0")
        == "the DUO must touch another piece of layer 1 side by side"
    )
    assert refusal(state, "UNI@1:3,0") == "the UNI must touch another piece of layer 1 side by side"
    assert refusal(state, "UNI@1:3,1") is None


def test_one_type_per_piece_below() -> None:
    state = position([*TWO_BASES, (0, "TRIO@1:0,0+1,0+2,0")], hands=[HOLD, HOLD], to_move=1)
    assert refusal(state, "TRIO@1:0,1+1,1+2,1") == "the BASE under 0,1 already carries a TRIO"
    # a TRIO resting partly on the other base still rests on this one
    assert refusal(state, "TRIO@1:2,1+3,1+4,1") == "the BASE under 2,1 already carries a TRIO"
    # other types are welcome on the same base, and a TRIO on the other base alone
    assert refusal(state, "DUO@1:0,1+1,1") is None
    assert refusal(state, "TRIO@1:3,0+4,0+5,0") is None


def test_identical_stacking() -> None:
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[HOLD, HOLD])
    assert refusal(state, "TRIO@2:0,0+1,0+2,0") == (
        "identical stacking: the TRIO would cover exactly the TRIO under it"
    )
    state.play("DUO@2:1,0+2,0")
    assert refusal(state, "UNI@2:2,1") == (
        "identical stacking: the UNI would cover exactly the UNI under it"
    )
    assert refusal(state, "BOMBER@2:2,1") == (
        "identical stacking: the BOMBER would cover exactly the UNI under it"
    )
    # the same type shifted by one node is not identical
    assert refusal(state, "DUO@2:3,1+4,1") == (
        "identical stacking: the DUO would cover exactly the DUO under it"
    )
    assert refusal(state, "DUO@2:3,0+4,0") is None


def test_bomber_terminates_its_support() -> None:
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[HOLD, HOLD])
    state.play("DUO@2:1,0+2,0")
    assert refusal(state, "BOMBER@2:1,1") is None
    state.play("BOMBER@2:1,1")
    assert state.board.terminated(6)  # the DUO at 0,1+1,1: 4 bases, then the third piece
    assert refusal(state, "UNI@2:0,1") == "the DUO under 0,1 is terminated by a BOMBER"
    # a piece may touch the bomber sideways when it rests elsewhere: here only the
    # bomber is next to it
    assert refusal(state, "DUO@2:0,2+1,2") is None
    assert all("0,1" not in m and "@2:1,1" not in m for m in moves(state))


def test_bomber_may_join_a_support_that_carries_others() -> None:
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[HOLD, HOLD])
    state.play("DUO@2:1,0+2,0")
    # the TRIO below already carries the DUO; a bomber is exempt from the type rule
    assert refusal(state, "BOMBER@2:0,0") is None
    assert refusal(state, "DUO@2:0,0+0,1") == "the TRIO under 0,0 already carries a DUO"


def test_one_bomber_per_layer() -> None:
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[HOLD, HOLD])
    state.play("DUO@2:1,0+2,0")
    state.play("BOMBER@2:1,1")
    assert refusal(state, "BOMBER@2:0,0") == "layer 2 already has its BOMBER (one per layer)"
    assert not any(m.startswith("BOMBER") for m in moves(state))


def test_laying_on_a_closed_layer_or_too_high() -> None:
    state = position(
        [*FOUR_BASES, *SIX_ON_LAYER_1, (0, "DUO@2:1,0+2,0")], hands=[HOLD, HOLD], to_move=1
    )
    assert refusal(state, "DUO@1:2,2+3,2") == "layer 1 is closed: layer 2 has started"
    assert refusal(state, "QUAD@4:1,0+2,0+1,1+2,1") == "layer 4 cannot start before layer 3"
    assert {m.z for m in state.legal_moves()} == {2}


def test_a_piece_not_held_and_a_wrong_shape() -> None:
    state = position(TWO_BASES, hands=[{"DUO": 1}, HOLD])
    assert refusal(state, "TRIO@1:0,0+1,0+2,0") == "you have no TRIO left"
    assert refusal(state, "DUO@1:0,0+2,0") == (
        "0,0+2,0 is not the shape of a DUO (0,0+1,0, turned by 90° or not)"
    )
    assert refusal(state, "DUO@1:0,0+1,1") == (
        "0,0+1,1 is not the shape of a DUO (0,0+1,0, turned by 90° or not)"
    )
    assert refusal(state, "DUO@1:0,0+0,1") is None
