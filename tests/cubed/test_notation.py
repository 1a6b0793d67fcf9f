"""Move notation (spec §9): reading and writing round-trip, errors say what is wrong."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cubegames
from cubegames.games.cubed import Draw, Draw3, Give, Keep, Pass, Place, Skip

GAME = cubegames.make("cubed")
JA = cubegames.make("cubed", edition="ja")


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("GPY@1,-1", Place("GPY", 1, -1)),
        ("draw", Draw()),
        ("pass", Pass()),
        ("draw3:2", Draw3(2)),
        ("keep:GPY", Keep("GPY")),
        ("give:GPY>2", Give("GPY", 2)),
        ("skip", Skip()),
    ],
)
def test_each_form(text: str, move: object) -> None:
    assert GAME.parse_move(text) == move
    assert str(move) == text


def test_pieces_in_hand_may_start_anywhere_but_placements_may_not() -> None:
    assert GAME.parse_move("keep:YGP") == GAME.parse_move("keep:PYG") == Keep("GPY")
    assert str(GAME.parse_move("give:YGP>1")) == "give:GPY>1"
    assert GAME.parse_move("GPY@0,0") != GAME.parse_move("PYG@0,0")


def test_reading_is_forgiving_about_case_and_spaces() -> None:
    assert GAME.parse_move("  gpy@1,-1 ") == Place("GPY", 1, -1)
    assert GAME.parse_move("DRAW") == Draw()
    assert JA.parse_move("aco@0,0") == Place("ACO", 0, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("GPY", "cannot read 'GPY'"),
        ("GPY@1", "cannot read"),
        ("hello", "cannot read 'hello': moves look like GPY@1,-1"),
        ("GXY@0,0", "'X' is not a colour here"),
        ("keep:GG", "cannot read"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    with pytest.raises(cubegames.IllegalMove, match=message):
        GAME.parse_move(text)


def test_a_cell_beyond_the_grid_is_out_of_reach_not_another_cell() -> None:
    """The grid packs a cell as (q + 128) * 256 + r + 128: -2,257 would be -1,1 (a legal
    place after the first piece) under another name."""
    state = GAME.new_state(seed=5)
    state.play("BBB@0,0")
    assert "BBG@-1,1" in [str(m) for m in state.legal_moves()]
    for text in ("BBG@-2,257", "BBG@127,0", "BBG@0,-127", f"BBG@{10**30},0"):
        with pytest.raises(cubegames.IllegalMove, match="out of reach") as refused:
            state.play(text)
        assert refused.value.refusal.code == "reach"
    assert len(state.to_dict()["table"]) == 1
    assert GAME.parse_move("BBG@126,-126") == Place("BBG", 126, -126)


def test_a_number_of_more_digits_than_python_converts_is_refused_as_a_move() -> None:
    """int() refuses more than 4300 digits with a plain ValueError: a move naming such a
    number is an IllegalMove like any other, in a short sentence, the state unchanged."""
    state = cubegames.make("cubed", players=2, variants=("draw3", "void")).new_state(seed=5)
    before = state.to_dict()
    huge = "9" * 5000
    for text, message in (
        (f"BBG@{huge},0", "^cell 99999999999999999999,0 is out of reach"),
        (f"BBG@0,-{huge}", "^cell 0,-99999999999999999999 is out of reach"),
        (f"draw3:{huge}", "^draw3 draws 1, 2 or 3 pieces"),
        (f"give:BBG>{huge}", "^there is nothing to give now"),
    ):
        with pytest.raises(cubegames.IllegalMove, match=message):
            state.play(text)
    assert state.to_dict() == before


def test_edition_letters_differ() -> None:
    with pytest.raises(cubegames.IllegalMove, match="'G' is not a colour here"):
        JA.parse_move("GPY@0,0")


@given(
    st.text(alphabet="GPLNYBWK", min_size=3, max_size=3),
    st.integers(-60, 60),
    st.integers(-60, 60),
)
def test_place_round_trips(slots: str, q: int, r: int) -> None:
    move = Place(slots, q, r)
    assert GAME.parse_move(str(move)) == move


@given(st.text(max_size=20))
def test_any_text_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        move = GAME.parse_move(text)
    except cubegames.IllegalMove as exc:
        assert str(exc)
    else:
        assert GAME.parse_move(str(move)) == move
