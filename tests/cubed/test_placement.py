"""Placement rules (spec §3, §4, §10, §12), each from a hand-built position.

The tables here repeat pieces (and the worked examples of §10 use mirror images of EN
singles), so the positions use the workshop test box: EN colours, every piece four times.
"""

from __future__ import annotations

import pytest

from cubegames.games.cubed import load_edition
from cubegames.games.cubed.placement import SLOT, Contact, contact
from tests.cubed.helpers import placements, refusal
from tests.cubed.helpers import position as en_position
from tests.cubed.helpers import workshop as position

EN = load_edition("en")
G, P, L, N, Y, B, W, K = (EN.index[c] for c in "GPLNYBWK")


# -- geometry and contacts ----------------------------------------------------------------


def test_slots_cover_two_edges_each() -> None:
    # top = edges 1, 2; left = edges 3, 4; right = edges 5, 0
    assert SLOT == (2, 0, 0, 1, 1, 2)


def test_contact_judgement() -> None:
    assert contact(G, G, False, False, EN) is Contact.MATCH
    assert contact(G, Y, False, False, EN) is Contact.MISMATCH
    assert contact(W, Y, False, False, EN) is Contact.MATCH
    assert contact(Y, W, False, False, EN) is Contact.MATCH
    assert contact(W, W, False, False, EN) is Contact.MATCH
    # white does not connect to a blocking piece's colour, from either side
    assert contact(W, Y, False, True, EN) is Contact.MISMATCH
    assert contact(Y, W, True, False, EN) is Contact.MISMATCH
    assert contact(Y, Y, True, False, EN) is Contact.MATCH
    # black touches nothing, not even black
    assert contact(K, K, True, True, EN) is Contact.BLACK
    assert contact(G, K, False, True, EN) is Contact.BLACK


# -- the spec's worked examples (§10) ----------------------------------------------------


def test_worked_example_one_piece_on_the_table() -> None:
    state = position([((0, 0), "NLY")], [["YNB"], ["PPP"]])
    assert placements(state) == ["BYN@0,-1", "BYN@1,0", "YNB@0,1", "YNB@1,-1"]


def test_worked_example_one_seen_in_a_mirror_holds_en_pieces() -> None:
    # NLY and YNB are mirror images of EN singles. Mirrored left to right (q, r) becomes
    # (-q - r, r) and top, left, right become top, right, left: the same position made of
    # the EN box's LNY and NYB, and the same four placements, mirrored.
    state = en_position([((0, 0), "NYL")], [["YBN"], ["PPP"]])
    assert placements(state) == ["BNY@-1,0", "BNY@1,-1", "YBN@-1,1", "YBN@0,-1"]


def test_worked_example_white_matches_any_colour() -> None:
    state = position([((0, 0), "GGG"), ((1, 0), "YYY")], [["GYB", "GGW"], ["PPP"]])
    assert placements(state) == ["BGY@1,-1", "GGW@1,-1", "WGG@0,1"]


def test_worked_example_blocking_pieces() -> None:
    table = [((0, 0), "BBB"), ((0, 1), "BBB"), ((-1, 1), "BBB")]
    state = position(table, [["KKB", "BBB"], ["PPP"]])
    assert placements(state) == [
        "BBB@-1,0",
        "BBB@-1,2",
        "BBB@1,0",
        "BKK@-1,2",
        "KBK@1,0",
        "KKB@-1,0",
    ]


# -- first, second and later pieces ------------------------------------------------------


def test_first_piece_goes_on_the_origin_in_any_rotation() -> None:
    state = position([], [["GPY", "KKG"], ["PPP"]])
    assert placements(state) == ["GPY@0,0", "PYG@0,0", "YGP@0,0"]
    assert refusal(state, "GPY@1,0") == "the first piece goes on 0,0"


def test_blocking_piece_not_before_three_pieces() -> None:
    state = position([], [["KKG", "GGG"], ["PPP"]])
    assert "blocking piece may be played only once 3 pieces" in refusal(state, "KKG@0,0")
    state = position([((0, 0), "GGG"), ((1, 0), "GGG")], [["KKG"], ["PPP"]])
    assert refusal(state, "GKK@0,1") == (
        "a blocking piece may be played only once 3 pieces are on the table (now 2)"
    )


def test_second_piece_touches_the_first_and_matches() -> None:
    state = position([((0, 0), "GGG")], [["PPP", "GPY"], ["LLL"]])
    assert refusal(state, "GPY@2,0") == "cell 2,0 does not touch the piece on the table"
    # GPY's left diamond is P; at 1,0 the left faces the origin's right (G)
    assert refusal(state, "GPY@1,0") == ("only 0 of 1 contacts match: your left P meets G at 0,0")
    assert "PYG@1,0" not in placements(state)
    assert "YGP@1,0" in placements(state)


def test_later_pieces_touch_two() -> None:
    state = position([((0, 0), "GGG"), ((1, 0), "GGG")], [["GGG"], ["LLL"]])
    assert refusal(state, "GGG@2,0") == (
        "cell 2,0 touches only 1 piece; from the third piece on, a piece must touch 2"
    )
    assert refusal(state, "GGG@5,5") == (
        "cell 5,5 touches no piece; from the third piece on, a piece must touch 2"
    )
    assert sorted(placements(state)) == ["GGG@0,1", "GGG@1,-1"]


def test_every_contact_must_match_by_default() -> None:
    state = position([((0, 0), "GGG"), ((1, 0), "YYY")], [["GGB"], ["PPP"]])
    # at 1,-1 the left faces 0,0 (G) and the right faces 1,0 (Y)
    assert refusal(state, "BGG@1,-1") == "only 1 of 2 contacts match: your right G meets Y at 1,0"


# The empty cell 0,0 below touches 1,0 with its right diamond and both 1,-1 and 0,-1
# with its top diamond: three contacts.
THREE = [((1, 0), "GGG"), ((1, -1), "GGG"), ((0, -1), "YYY")]


def test_loose_colour_rule_accepts_one_mismatch_beside_two_matches() -> None:
    strict = position(THREE, [["GGB"], ["PPP"]])
    loose = position(THREE, [["GGB"], ["PPP"]], strict_colors=False)
    assert refusal(strict, "GBG@0,0") == "only 2 of 3 contacts match: your top G meets Y at 0,-1"
    assert "GBG@0,0" in placements(loose)
    assert "GBG@0,0" not in placements(strict)
    loose.play("GBG@0,0")


def test_loose_colour_rule_still_needs_two_matches() -> None:
    loose = position(THREE, [["GGB"], ["PPP"]], strict_colors=False)
    assert refusal(loose, "GGB@0,0") == "only 1 of 3 contacts match; at least 2 must"
    two = position([((0, 0), "GGG"), ((1, 0), "YYY")], [["GGB"], ["PPP"]], strict_colors=False)
    assert refusal(two, "BGG@1,-1") == "only 1 of 2 contacts match; at least 2 must"


def test_black_sides_touch_nothing() -> None:
    table = [((0, 0), "BBB"), ((0, 1), "BBB"), ((-1, 1), "BBB"), ((1, 0), "KBK")]
    # KBK@1,0: black top (edges 1, 2) and right (edges 5, 0): 2,-1, 1,-1, 1,1, 2,0 are dead
    state = position(table, [["BBB", "KKB"], ["PPP"]])
    assert refusal(state, "BBB@1,-1") == "cell 1,-1 is dead: it touches a black side at 1,0"
    assert "BBB@1,-1" not in placements(state)
    # a blocking piece whose black side would touch a piece
    state = position(table[:3], [["KKB"], ["PPP"]])
    assert refusal(state, "KBK@-1,0") == "contact with a black side at 0,0"


def test_blocking_piece_colour_must_match_exactly() -> None:
    table = [((0, 0), "WGG"), ((0, 1), "BBB"), ((-1, 1), "BBB")]
    # at 1,0 the left slot faces 0,0's right (G) and 0,1's top (B)
    state = position(table, [["KKB"], ["PPP"]])
    assert refusal(state, "KBK@1,0") == (
        "a blocking piece's colour must match exactly: its B meets G at 0,0"
    )
    table = [((0, 0), "GGW"), ((0, 1), "WBB"), ((-1, 1), "BBB")]
    state = position(table, [["KKB"], ["PPP"]])
    assert "must match exactly" in refusal(state, "KBK@1,0")


def test_blocking_piece_colour_diamond_must_touch_two_pieces() -> None:
    # With black touching nothing and every piece touching two, the coloured diamond
    # (the only side allowed to touch) must meet two pieces.
    table = [((0, 0), "BBB"), ((1, 0), "BBB"), ((2, 0), "BBB")]
    state = position(table, [["KKB"], ["PPP"]])
    # 1,-1 touches 0,0 with its left diamond and 1,0 with its right one
    assert refusal(state, "KBK@1,-1") == "contact with a black side at 1,0"
    assert refusal(state, "BKK@1,-1") == "contact with a black side at 0,0"
    assert refusal(state, "KBK@3,-1") == (
        "cell 3,-1 touches only 1 piece; from the third piece on, a piece must touch 2"
    )
    # it fits only under the row, where its top diamond meets two pieces at once
    assert [m for m in placements(state) if "K" in m] == ["BKK@0,1", "BKK@1,1"]


def test_occupied_cell_and_pieces_not_in_hand() -> None:
    state = position([((0, 0), "GPY")], [["GPY", "LNY"], ["PPP"]])
    assert refusal(state, "GPY@0,0") == "cell 0,0 is already taken"
    assert refusal(state, "BBB@1,0") == "no piece in your hand shows BBB in some rotation"
    # GYP is GPY seen in a mirror: pieces have a flat bottom and cannot be flipped
    assert refusal(state, "GYP@1,0") == (
        "a piece cannot be flipped: GYP is the mirror image of GPY in your hand"
    )


@pytest.mark.parametrize("rotation", ["YGP", "PYG", "GPY"])
def test_any_of_the_three_rotations_may_be_laid(rotation: str) -> None:
    state = position([], [["GPY"], ["PPP"]])
    state.play(f"{rotation}@0,0")
    assert state.to_dict()["table"] == [{"cell": [0, 0], "slots": rotation}]


def test_white_never_connects_to_a_blocking_piece() -> None:
    # A hand-made table where a blocking piece's coloured top diamond faces empty cells:
    # 1,-1 meets it with its left diamond and meets 2,-1 with its right one.
    table = [((0, 0), "YKK"), ((2, -1), "YYY"), ((3, -1), "YYY")]
    state = position(table, [["WYY"], ["PPP"]])
    assert refusal(state, "YWY@1,-1") == "only 1 of 2 contacts match: your left W meets Y at 0,0"
    at_cell = [m for m in placements(state) if m.endswith("@1,-1")]
    assert at_cell == ["WYY@1,-1", "YYW@1,-1"]


@pytest.mark.parametrize("strict", [True, False])
def test_the_yes_or_no_check_refuses_exactly_what_the_worded_one_refuses(strict: bool) -> None:
    """`placement_refusal(..., why=False)` (the plain search's question) refuses the very
    placements the worded check refuses, on tables of many random games."""
    import random

    import cubegames
    from cubegames.games.cubed import CubedState
    from cubegames.games.cubed.pieces import canonical, rotations
    from cubegames.games.cubed.placement import REFUSED, candidate_cells, placement_refusal

    game = cubegames.make("cubed", players=3, rounds=1, strict_colors=strict)
    asked = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        rng = random.Random(seed)
        while not state.is_over and len(state.table) < 14:
            ed = state.game.edition
            for cell in candidate_cells(state.table):
                for piece in {canonical(p) for p in ed.pieces}:
                    for rot in rotations(piece):
                        worded = placement_refusal(state.table, rot, cell, strict=strict, ed=ed)
                        quiet = placement_refusal(
                            state.table, rot, cell, strict=strict, ed=ed, why=False
                        )
                        assert quiet is (None if worded is None else REFUSED)
                        asked += 1
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
    assert asked > 1000
