"""Move notation: `K@x,y,z` stacks, `x,y,z` removes; text and moves round-trip."""

from __future__ import annotations

import pytest

import cubegames
from cubegames.games.unstackable import Colour, Stack, Unstack

GAME = cubegames.make("unstackable")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("K@0,0,0", Stack(Colour.BLACK, 0, 0, 0)),
        ("R@3,2,1", Stack(Colour.RED, 3, 2, 1)),
        ("Y@1,1,3", Stack(Colour.YELLOW, 1, 1, 3)),
        ("0,0,0", Unstack(0, 0, 0)),
        ("3,3,3", Unstack(3, 3, 3)),
    ],
)
def test_text_and_moves_round_trip(text: str, move: object) -> None:
    assert GAME.parse_move(text) == move
    assert str(move) == text
    assert GAME.parse_move(str(move)) == move


def test_loose_spelling_is_read() -> None:
    assert GAME.parse_move(" k@1, 2, 3 ") == Stack(Colour.BLACK, 1, 2, 3)
    assert GAME.parse_move("1 ,2, 3") == Unstack(1, 2, 3)


def test_moves_outside_the_box_still_parse_so_the_rules_can_say_why() -> None:
    assert GAME.parse_move("K@4,0,-1") == Stack(Colour.BLACK, 4, 0, -1)


def test_reprs_can_be_pasted_back() -> None:
    move = Stack(Colour.RED, 0, 1, 0)
    assert repr(move) == "Stack(colour=Colour.RED, x=0, y=1, z=0)"
    assert eval(repr(move)) == move


def test_moves_are_hashable_values() -> None:
    assert len({Unstack(0, 0, 0), Unstack(0, 0, 0), Stack(Colour.BLACK, 0, 0, 0)}) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("G@0,0,0", "'G' is not a cube colour: use Y, R or K"),
        ("K@0,0", "cannot read 'K@0,0'"),
        ("0,0", "cannot read '0,0'"),
        ("KK@0,0,0", "cannot read"),
        ("", "cannot read ''"),
        ("pass", "cannot read 'pass': K@x,y,z to stack a cube"),
    ],
)
def test_unreadable_moves(text: str, message: str) -> None:
    with pytest.raises(cubegames.IllegalMove, match=message):
        GAME.parse_move(text)
