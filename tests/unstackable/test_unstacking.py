"""Stage 2: which cubes may be removed, the two piles, the end of the game."""

from __future__ import annotations

import cubegames
from cubegames.games.unstackable import UnstackableState
from tests.unstackable.helpers import full_cube, grid, moves, refusal, unstacking

TOP_CORNERS = ["0,0,3", "3,0,3", "0,3,3", "3,3,3"]


def test_at_the_start_only_the_four_top_corners_may_be_removed() -> None:
    assert moves(full_cube()) == TOP_CORNERS
    assert moves(full_cube(bag_counts_as_exposed=True)) == TOP_CORNERS


def test_a_turn_removes_two_cubes_first_to_pile_1_then_to_pile_2() -> None:
    state = full_cube()
    assert state.to_move == 1
    state.play("3,3,3")
    data = state.to_dict()
    assert state.to_move == 1
    assert data["turn"] == {"removed": 1}
    assert data["piles"] == [["", ""], ["K", ""]]
    assert data["grid"][63] == "."
    # taking the corner bared the three cubes next to it (two beside, one below): each has
    # 3 faces open now, and the one below has nothing on top any more
    assert moves(state) == ["3,3,2", "0,0,3", "3,0,3", "3,2,3", "0,3,3", "2,3,3"]
    state.play("2,3,3")
    data = state.to_dict()
    assert state.to_move == 0
    assert data["turn"] == {"removed": 0}
    assert data["piles"] == [["", ""], ["K", "K"]]
    state.play("0,0,3")
    assert state.to_dict()["piles"] == [["K", ""], ["K", "K"]]


def test_a_cube_that_holds_another_up_is_refused() -> None:
    state = full_cube()
    assert refusal(state, "0,0,2") == (
        "the cube on 0,0,2 holds up the cube on 0,0,3; it cannot be pulled out from under it"
    )
    # even with every side bare: a lone column
    column = unstacking(grid({(0, 0, 0): "K", (0, 0, 1): "K", (0, 0, 2): "K"}))
    assert moves(column) == ["0,0,2"]
    assert refusal(column, "0,0,1").startswith("the cube on 0,0,1 holds up the cube on 0,0,2")


def test_a_cube_with_fewer_than_three_faces_exposed_is_refused() -> None:
    state = full_cube()
    assert refusal(state, "1,0,3") == (
        "the cube on 1,0,3 has only 2 of its 6 faces exposed; it needs at least 3"
    )
    assert refusal(state, "1,1,3") == (
        "the cube on 1,1,3 has only 1 of its 6 faces exposed; it needs at least 3"
    )


def test_other_refusals_while_unstacking() -> None:
    state = full_cube()
    state.play("3,3,3")
    assert refusal(state, "3,3,3") == "there is no cube on 3,3,3"
    assert refusal(state, "0,0,4") == "0,0,4 is outside the 4×4×4 box (each coordinate is 0 to 3)"
    assert refusal(state, "-1,0,3") == (
        "-1,0,3 is outside the 4×4×4 box (each coordinate is 0 to 3)"
    )
    assert refusal(state, "K@3,3,3") == "the cube is built; now remove cubes, written x,y,z"


def floor_t() -> str:
    """Four cubes on the bag: a row of three and one north of the middle."""
    return grid({(0, 0, 0): "K", (1, 0, 0): "K", (2, 0, 0): "K", (1, 1, 0): "K"})


def test_the_bag_face_is_not_exposed_by_default() -> None:
    state = unstacking(floor_t())
    # 1,0,0 has its top and its south side open; the bag under it does not count
    assert moves(state) == ["0,0,0", "2,0,0", "1,1,0"]
    assert refusal(state, "1,0,0") == (
        "the cube on 1,0,0 has only 2 of its 6 faces exposed; it needs at least 3"
    )


def test_option_bag_counts_as_exposed() -> None:
    state = unstacking(floor_t(), bag_counts_as_exposed=True)
    assert moves(state) == ["0,0,0", "1,0,0", "2,0,0", "1,1,0"]
    state.play("1,0,0")


def test_the_bag_face_never_frees_a_cube_that_holds_another_up() -> None:
    # bottom corner with a cube on it: bottom and two sides open, but it holds a cube up
    text = grid({(0, 0, 0): "K", (0, 0, 1): "K"})
    state = unstacking(text, bag_counts_as_exposed=True)
    assert moves(state) == ["0,0,1"]


def test_the_game_ends_when_the_bag_is_bare() -> None:
    state = unstacking(grid({(0, 0, 0): "Y", (1, 0, 0): "K"}), last_red=1)
    assert state.to_move == 1
    before = state.scores()
    state.play("0,0,0")
    assert not state.is_over
    assert state.scores()[1] == before[1] + 5  # yellow in pile 1
    state.play("1,0,0")
    assert state.scores()[1] == before[1] + 6  # black in pile 2
    assert state.is_over
    assert state.to_move is None
    assert state.legal_moves() == []
    data = state.to_dict()
    assert data["grid"] == "." * 64
    assert data["turn"] == {"removed": 0}
    assert [len(p) for pair in data["piles"] for p in pair] == [16, 16, 16, 16]
    try:
        state.play("0,0,0")
    except cubegames.IllegalMove as exc:
        assert str(exc) == "the game is over"
    else:
        raise AssertionError("a move after the end was accepted")


def test_a_whole_stage_takes_sixteen_turns_each() -> None:
    state: UnstackableState = full_cube()
    turns = [0, 0]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.play(state.legal_moves()[-1])
        assert state.to_move == seat
        state.play(state.legal_moves()[0])
        turns[seat] += 1
    assert turns == [16, 16]
