"""Step 3: when a new layer may start, with what, and closing the layers below."""

from __future__ import annotations

import pytest

import cubegames
from cubegames.games.stakd import StakdState
from tests.stakd.helpers import FOUR_BASES, SIX_ON_LAYER_1, TWO_BASES, moves, position, refusal

#: layer 1 with two pieces: a QUAD on the left base, a TRIO across both bases
TWO_ON_LAYER_1 = [*TWO_BASES, (1, "QUAD@1:0,0+1,0+0,1+1,1"), (1, "TRIO@1:2,0+3,0+4,0")]


def layers_of(state: StakdState) -> set[int]:
    return {m.z for m in state.legal_moves()}


def test_too_early_while_the_mover_can_still_lay() -> None:
    state = position(TWO_ON_LAYER_1, hands=[{"TRIO": 1, "DUO": 1}, {"DUO": 1}])
    assert refusal(state, "DUO@1:2,1+3,1") is None
    assert refusal(state, "TRIO@2:1,0+2,0+3,0") == (
        "layer 2 cannot start yet: layer 1 holds 2 pieces (6 needed) and you can still lay on it"
    )
    assert layers_of(state) == {1}


def test_a_mover_with_no_placement_on_the_layer_may_start_the_next() -> None:
    # every TRIO on layer 1 would rest on a base that already carries the TRIO
    state = position(TWO_ON_LAYER_1, hands=[{"TRIO": 1}, {"DUO": 1}])
    assert refusal(state, "TRIO@1:3,1+4,1+5,1") == "the BASE under 3,1 already carries a TRIO"
    assert refusal(state, "TRIO@2:1,0+2,0+3,0") is None
    assert layers_of(state) == {2}
    state.play("TRIO@2:1,0+2,0+3,0")
    assert state.to_dict()["layer"] == 2


def test_six_pieces_open_the_next_layer_even_with_moves_left() -> None:
    hold = {"UNI": 1, "DUO": 1, "TRIO": 1, "QUAD": 1, "BOMBER": 1}
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[hold, hold])
    assert layers_of(state) == {1, 2}
    five = position([*FOUR_BASES, *SIX_ON_LAYER_1[:5]], hands=[hold, hold], to_move=1)
    assert layers_of(five) == {1}


def test_a_new_layer_never_starts_with_a_bomber() -> None:
    hold = {"UNI": 1, "DUO": 1, "BOMBER": 1}
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[hold, hold])
    assert refusal(state, "BOMBER@2:0,2") == "a new layer never starts with a BOMBER"
    assert not any(m.startswith("BOMBER@2") for m in moves(state))
    fresh = position(TWO_BASES, hands=[hold, hold])
    assert refusal(fresh, "BOMBER@1:0,0") == "a new layer never starts with a BOMBER"


def test_a_new_layer_starts_with_a_uni_only_from_a_hand_of_unis() -> None:
    mixed = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[{"UNI": 1, "DUO": 1}, {"UNI": 1}])
    assert refusal(mixed, "UNI@2:0,2") == (
        "a new layer starts with a UNI only if you hold nothing but UNIs"
    )
    assert not any(m.startswith("UNI@2") for m in moves(mixed))
    assert refusal(mixed, "UNI@1:2,2") is None  # on the current layer a UNI is fine
    unis = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[{"UNI": 2}, {"UNI": 1}])
    assert refusal(unis, "UNI@2:0,2") is None
    # the very first layer above the bases follows the same rule
    fresh = position(TWO_BASES, hands=[{"UNI": 1, "QUAD": 1}, {"UNI": 1}])
    assert refusal(fresh, "UNI@1:0,0") == (
        "a new layer starts with a UNI only if you hold nothing but UNIs"
    )
    assert refusal(fresh, "QUAD@1:0,0+1,0+0,1+1,1") is None


def test_a_bomber_in_hand_is_another_piece_for_a_uni_opening_a_layer() -> None:
    # "unless you have no other pieces in hand": a BLUE BOMBER is another piece (spec step 3)
    hand = [{"UNI": 2, "BOMBER": 1}, {"UNI": 1}]
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=hand)
    assert refusal(state, "UNI@2:0,2") == (
        "a new layer starts with a UNI only if you hold nothing but UNIs"
    )
    assert not any(m.startswith("UNI@2") for m in moves(state))
    # on bare bases such a hand has no legal placement at all, so that seat would be out
    with pytest.raises(ValueError, match="seat 0 has no legal placement"):
        position(TWO_BASES, hands=hand)


def test_uni_opens_beside_bombers_keeps_the_looser_reading() -> None:
    hand = [{"UNI": 2, "BOMBER": 1}, {"UNI": 1}]
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=hand, uni_opens_beside_bombers=True)
    assert state.game.options["uni_opens_beside_bombers"] is True
    assert refusal(state, "UNI@2:0,2") is None
    assert "UNI@2:0,2" in moves(state)
    mixed = position(
        [*FOUR_BASES, *SIX_ON_LAYER_1],
        hands=[{"UNI": 1, "DUO": 1, "BOMBER": 1}, {"UNI": 1}],
        uni_opens_beside_bombers=True,
    )
    assert refusal(mixed, "UNI@2:0,2") == (
        "a new layer starts with a UNI only if you hold just UNIs and BOMBERs"
    )
    with pytest.raises(ValueError, match="uni_opens_beside_bombers must be true or false"):
        cubegames.make("stakd", uni_opens_beside_bombers="yes")
    # the option is named in position files only when it is on, and they read back
    again = state.game.state_from_dict(state.to_dict())
    assert again.legal_moves() == state.legal_moves()
    plain = cubegames.make("stakd")
    with pytest.raises(ValueError, match='field "options"'):
        plain.state_from_dict(state.to_dict())


def test_once_a_layer_starts_the_ones_below_are_closed() -> None:
    hold = {"UNI": 1, "DUO": 1, "TRIO": 1}
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[hold, hold])
    assert refusal(state, "DUO@1:2,2+3,2") is None
    state.play("DUO@2:1,0+2,0")
    assert refusal(state, "DUO@1:2,2+3,2") == "layer 1 is closed: layer 2 has started"
    assert layers_of(state) == {2}
