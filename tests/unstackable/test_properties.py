"""Properties that hold in every game, checked on many random ones."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import cubegames
from cubegames.games.unstackable import (
    Colour,
    End,
    Stack,
    Unstack,
    UnstackableMove,
    UnstackableState,
)
from tests.unstackable.helpers import unstacking

CUBES = "Y" * 3 + "R" * 16 + "K" * 45
TOP_CORNERS = ["0,0,3", "3,0,3", "0,3,3", "3,3,3"]

colourings = st.permutations(CUBES).map("".join)


@settings(max_examples=50, deadline=None)
@given(colourings, st.booleans(), st.sampled_from([0, 1]))
def test_a_full_cube_offers_exactly_the_four_top_corners(
    text: str, bag: bool, last_red: int
) -> None:
    options = {"bag_counts_as_exposed": True} if bag else {}
    state = unstacking(text, last_red=last_red, **options)
    assert state.to_move == 1 - last_red
    assert [str(m) for m in state.legal_moves()] == TOP_CORNERS


@settings(max_examples=60, deadline=None)
@given(colourings, st.booleans(), st.data())
def test_a_removable_cube_exists_while_any_cube_remains(
    text: str, bag: bool, data: st.DataObject
) -> None:
    options = {"bag_counts_as_exposed": True} if bag else {}
    state = unstacking(text, **options)
    removals = 0
    while not state.is_over:
        moves = state.legal_moves()
        assert moves, f"no removable cube with {64 - removals} cubes left"
        state.play(data.draw(st.sampled_from(moves)))
        removals += 1
    assert removals == 64
    assert state.to_dict()["grid"] == "." * 64


def legal_by_refusal(state: UnstackableState) -> list[str]:
    """Every move of the right kind over every cell, kept when the rules accept it."""
    cells = [(x, y, z) for z in range(-1, 6) for y in range(-2, 6) for x in range(-2, 6)]
    tried: list[UnstackableMove]
    if state.to_dict()["stage"] == "stack":
        tried = [Stack(c, *cell) for c in Colour for cell in cells]
        tried.append(End())
    else:
        tried = [Unstack(*cell) for cell in cells]
    return sorted(str(m) for m in tried if state.is_legal(m))


def test_the_move_list_and_the_refusals_agree() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        options: dict[str, bool] = [{}, {"bag_counts_as_exposed": True}, {"exact_counts": False}][
            seed % 3
        ]
        state = cubegames.make("unstackable", **options).new_state()
        while not state.is_over:
            assert isinstance(state, UnstackableState)
            moves = [str(m) for m in state.legal_moves()]
            assert sorted(moves) == legal_by_refusal(state)
            for text in moves:
                assert state.refusal(state.game.parse_move(text)) is None
            state.play(rng.choice(moves))
