"""STAKD move notation: TYPE@z:x,y+x,y+..., node lists read as sets."""

from __future__ import annotations

import pytest

import cubegames
from cubegames.games.stakd import PieceType, Place
from cubegames.games.stakd.notation import parse


def test_text_round_trips() -> None:
    for text in ["DUO@1:0,0+1,0", "BASE@0:0,0+0,1+0,2+1,0+1,1+1,2", "UNI@12:-3,-7"]:
        assert str(parse(text)) == text


def test_node_order_does_not_matter() -> None:
    a = parse("TRIO@2:2,0+0,0+1,0")
    b = parse("TRIO@2:1,0+2,0+0,0")
    assert a == b
    assert hash(a) == hash(b)
    assert str(a) == "TRIO@2:0,0+1,0+2,0"
    assert Place(PieceType.DUO, 1, ((1, 0), (0, 0))) == a.__class__(
        PieceType.DUO, 1, ((0, 0), (1, 0))
    )


def test_negative_coordinates_and_case_and_spaces() -> None:
    move = parse(" quad@3 : -1,-1 + -1,0 + 0,-1 + 0,0 ")
    assert move == Place(PieceType.QUAD, 3, ((-1, -1), (-1, 0), (0, -1), (0, 0)))
    assert str(move) == "QUAD@3:-1,-1+-1,0+0,-1+0,0"


def test_repr_can_be_pasted_back() -> None:
    move = parse("DUO@1:0,0+1,0")
    assert eval(repr(move), {"Place": Place, "PieceType": PieceType}) == move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "cannot read"),
        ("DUO", "cannot read"),
        ("DUO@1", "cannot read"),
        ("DUO@-1:0,0+1,0", "cannot read"),
        ("HEX@1:0,0", "unknown piece 'HEX'"),
        ("DUO@1:0,0+1", "cannot read node '1'"),
        ("DUO@1:0,0++1,0", "cannot read node ''"),
        ("DUO@1:0,0+0,0", "node 0,0 is listed twice"),
        ("UNI@1:5000,0", "out of reach"),
        ("UNI@5000:0,0", "layer 5000 is out of reach"),
        # more digits than Python converts (4300): still out of reach, in a short sentence
        ("UNI@1:" + "9" * 5000 + ",0", "^node 99999999999999999999,0 is out of reach"),
        ("UNI@1:-" + "9" * 5000 + ",0", "^node -99999999999999999999,0 is out of reach"),
        ("UNI@" + "9" * 5000 + ":0,0", "^layer 99999999999999999999 is out of reach"),
    ],
)
def test_bad_text_is_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(cubegames.IllegalMove, match=message):
        parse(text)


def test_game_parses_the_same_way() -> None:
    game = cubegames.make("stakd")
    assert game.parse_move("duo@1:1,0+0,0") == parse("DUO@1:0,0+1,0")
