"""Stage 1: turns by colour, where a cube may go, the fill and who starts stage 2."""

from __future__ import annotations

import pytest

import cubegames
from cubegames.games.unstackable import Colour, UnstackableState
from tests.unstackable.helpers import moves, refusal, stacking


def new() -> UnstackableState:
    state = cubegames.make("unstackable").new_state()
    assert isinstance(state, UnstackableState)
    return state


def test_the_first_cube_goes_on_0_0_0_in_any_colour() -> None:
    state = new()
    assert state.to_move == 0
    assert moves(state) == ["Y@0,0,0", "R@0,0,0", "K@0,0,0"]
    assert refusal(state, "K@1,1,0") == (
        "the first cube goes on 0,0,0 (the structure is kept in the corner)"
    )


def test_the_structure_may_grow_either_way_and_shifts_into_the_corner() -> None:
    state = new()
    state.play("K@0,0,0")
    assert moves(state) == ["K@0,-1,0", "K@-1,0,0", "K@1,0,0", "K@0,1,0", "K@0,0,1"]
    state.play("K@-1,0,0")  # the first cube moves to 1,0,0
    assert state.grid()[:2] == "KK"
    state.play("K@1,-1,0")  # both move up a row
    assert state.grid()[:8] == ".K..KK.."
    assert state.to_move == 1


def test_the_first_cube_is_not_pinned_to_the_middle() -> None:
    # A fixed box let the first player bury a yellow cube in the middle of the final cube.
    # The limit is on the structure's size only, so the others may build it out to a side.
    state = new()
    state.play("Y@0,0,0")
    state.play("K@-1,0,0")
    state.play("K@-1,0,0")
    state.play("K@-1,0,0")
    assert state.colour_at(3) is Colour.YELLOW  # on the east face of the cube
    state.play("K@0,-1,0")
    state.play("K@0,-1,0")
    state.play("K@0,-1,0")
    assert state.colour_at(3 + 4 * 3) is Colour.YELLOW  # now on its north-east edge


def test_the_structure_is_never_more_than_4_wide_deep_or_tall() -> None:
    row = {(x, 0, 0): "K" for x in range(4)}
    state = stacking(row)
    assert "K@-1,0,0" not in moves(state)
    assert refusal(state, "K@-1,0,0") == (
        "a cube on -1,0,0 would make the structure 5 wide (along x); "
        "it is never more than 4 wide, deep or tall"
    )
    assert refusal(state, "K@4,0,0") == (
        "a cube on 4,0,0 would make the structure 5 wide (along x); "
        "it is never more than 4 wide, deep or tall"
    )
    assert "K@0,-1,0" in moves(state)  # still 1 deep
    column = {(0, y, 0): "K" for y in range(4)}
    assert refusal(stacking(column), "K@0,-1,0") == (
        "a cube on 0,-1,0 would make the structure 5 deep (along y); "
        "it is never more than 4 wide, deep or tall"
    )
    tower = {(0, 0, z): "K" for z in range(4)}
    assert refusal(stacking(tower), "K@0,0,4") == (
        "a cube on 0,0,4 would make the structure 5 tall; "
        "it is never more than 4 wide, deep or tall"
    )
    assert refusal(stacking(tower), "K@-1,0,1") == (
        "a cube on -1,0,1 would float: there is no cube under it on -1,0,0"
    )
    assert refusal(stacking(tower), "K@-2,0,0") == "-2,0,0 is not next to the cubes on the bag"


def test_seed_does_not_matter() -> None:
    game = cubegames.make("unstackable")
    assert game.new_state(seed=1).to_dict() == game.new_state(seed=99).to_dict()


def test_black_places_three_then_the_turn_passes() -> None:
    state = new()
    state.play("K@0,0,0")
    assert state.to_move == 0
    assert state.to_dict()["turn"] == {"colour": "K", "placed": 1}
    state.play("K@1,0,0")
    state.play("K@0,0,1")
    assert state.to_move == 1
    assert state.to_dict()["turn"] == {"colour": None, "placed": 0}
    assert state.to_dict()["supply"] == {"Y": 3, "R": 16, "K": 42}


def test_red_places_two_and_yellow_one() -> None:
    state = new()
    state.play("R@0,0,0")
    assert state.to_move == 0
    state.play("R@1,0,0")
    assert state.to_move == 1
    state.play("Y@2,0,0")
    assert state.to_move == 0
    assert state.to_dict()["supply"] == {"Y": 2, "R": 14, "K": 45}


def test_the_first_cube_fixes_the_colour_of_the_turn() -> None:
    state = new()
    state.play("K@0,0,0")
    assert all(m.startswith("K@") for m in moves(state))
    assert refusal(state, "R@1,0,0") == (
        "this turn is black: place 2 more black cubes before the turn ends, not red"
    )
    state.play("K@1,0,0")
    assert refusal(state, "Y@2,0,0") == (
        "this turn is black: place 1 more black cube before the turn ends, not yellow"
    )


def test_a_short_supply_ends_the_turn_early() -> None:
    # 15 reds stacked: a red turn now places only the last one.
    cells = {(x, y, 0): "R" for y in range(4) for x in range(4) if (x, y) != (3, 3)}
    state = stacking(cells, to_move=1, last_red=0)
    assert state.to_dict()["supply"]["R"] == 1
    state.play("R@3,3,0")
    assert state.to_move == 0
    assert state.to_dict()["last_red"] == 1
    # black with only 2 left in the supply: a black turn of 2
    state = stacking("R" * 16 + "K" * 43 + "." * 5, to_move=0, last_red=1)
    assert state.to_dict()["supply"] == {"Y": 3, "R": 0, "K": 2}
    state.play("K@3,2,3")
    state.play("K@0,3,3")
    assert state.to_move == 1
    assert moves(state) == ["Y@1,3,3", "Y@2,3,3", "Y@3,3,3"]


def test_a_cube_on_the_bag_must_touch_a_cube_on_the_bag() -> None:
    state = stacking({(0, 0, 0): "K", (0, 0, 1): "K"})
    cells = ["0,-1,0", "-1,0,0", "1,0,0", "0,1,0", "0,0,2"]
    assert moves(state) == [f"{c}@{cell}" for c in "YRK" for cell in cells]
    assert refusal(state, "K@1,1,0") == "1,1,0 is not next to the cubes on the bag"
    assert refusal(state, "K@3,3,0") == "3,3,0 is not next to the cubes on the bag"


def test_cubes_above_the_bag_need_a_cube_under_them() -> None:
    state = stacking({(0, 0, 0): "K", (1, 0, 0): "K"})
    state.play("R@1,0,1")
    assert refusal(state, "R@1,0,3") == (
        "a cube on 1,0,3 would float: there is no cube under it on 1,0,2"
    )
    # a cube beside a raised cube, but over an empty cell, floats too
    assert refusal(state, "R@0,1,1") == (
        "a cube on 0,1,1 would float: there is no cube under it on 0,1,0"
    )
    state.play("R@1,0,2")
    assert state.to_move == 1


def test_refused_cells_under_the_bag_or_taken() -> None:
    state = stacking({(0, 0, 0): "K"})
    assert refusal(state, "K@0,0,-1") == "0,0,-1 is under the bag"
    assert refusal(state, "Y@0,0,0") == "0,0,0 is already taken by a black cube"


def test_a_colour_with_no_supply_is_refused() -> None:
    state = stacking({(0, 0, 0): "Y", (1, 0, 0): "Y", (2, 0, 0): "Y"})
    assert refusal(state, "Y@3,0,0") == "there are no yellow cubes left in the supply"
    assert not any(m.startswith("Y") for m in moves(state))


def test_no_removing_while_stacking() -> None:
    state = stacking({(0, 0, 0): "K"})
    assert refusal(state, "0,0,0") == "the cube is still being built; place cubes, written K@x,y,z"


def test_the_last_red_is_remembered() -> None:
    state = new()
    assert state.to_dict()["last_red"] is None
    state.play("R@0,0,0")
    assert state.to_dict()["last_red"] == 0
    state.play("R@1,0,0")
    state.play("K@2,0,0")
    state.play("K@3,0,0")
    state.play("K@0,1,0")
    assert state.to_dict()["last_red"] == 0
    state.play("R@1,1,0")
    assert state.to_dict()["last_red"] == 0
    state.play("R@2,1,0")
    assert state.to_dict()["last_red"] == 0
    state.play("R@3,1,0")
    assert state.to_dict()["last_red"] == 1


def almost_done() -> dict[tuple[int, int, int], str]:
    """Two yellows and fifteen reds on the floor and the layer above, nothing else."""
    cells: dict[tuple[int, int, int], str] = {}
    letters = "YY" + "R" * 15
    spots = [(x, y, z) for z in range(2) for y in range(4) for x in range(4)]
    for spot, letter in zip(spots, letters, strict=False):
        cells[spot] = letter
    return cells


def test_when_only_black_is_left_the_cube_is_filled_and_the_last_red_goes_second() -> None:
    # Seat 0 stacked the last red earlier; seat 1 now stacks the last yellow.
    cells = almost_done()
    cells[(1, 0, 1)] = "R"  # the sixteenth red
    state = stacking(cells, to_move=1, last_red=0)
    assert state.to_dict()["supply"] == {"Y": 1, "R": 0, "K": 45}
    state.play("Y@2,0,1")
    data = state.to_dict()
    assert data["stage"] == "unstack"
    assert data["grid"].count(".") == 0
    assert data["grid"].count("K") == 45
    assert data["supply"] == {"Y": 0, "R": 0, "K": 0}
    assert data["turn"] == {"removed": 0}
    assert data["last_red"] == 0
    assert state.to_move == 1  # seat 0 stacked the last red, so seat 0 goes second
    assert moves(state) == ["0,0,3", "3,0,3", "0,3,3", "3,3,3"]


def test_the_fill_after_the_last_red() -> None:
    cells = almost_done()
    cells[(2, 0, 1)] = "Y"
    state = stacking(cells, to_move=0, last_red=1)
    assert state.to_dict()["supply"] == {"Y": 0, "R": 1, "K": 45}
    state.play("R@1,0,1")
    assert state.to_dict()["stage"] == "unstack"
    assert state.to_dict()["last_red"] == 0
    assert state.to_move == 1


def test_black_turns_alone_never_fill() -> None:
    cells = almost_done()
    state = stacking(cells, to_move=0, last_red=0)
    for cell in ("2,0,1", "3,0,1", "0,1,1"):
        state.play(f"K@{cell}")
    assert state.to_dict()["stage"] == "stack"
    assert state.to_move == 1


def test_exact_counts_off_lets_a_turn_end_after_any_number_of_cubes() -> None:
    state = cubegames.make("unstackable", exact_counts=False).new_state()
    assert "end" not in moves(state)
    assert refusal(state, "end") == (
        "the turn has placed no cube yet: place at least one before ending it"
    )
    state.play("K@0,0,0")
    assert moves(state)[-1] == "end"
    state.play("end")
    assert state.to_move == 1
    assert state.to_dict()["turn"] == {"colour": None, "placed": 0}
    state.play("K@1,0,0")
    state.play("K@2,0,0")
    state.play("K@3,0,0")  # a black turn still ends by itself at 3
    assert state.to_move == 0
    assert state.to_dict()["supply"]["K"] == 41


def test_exact_counts_is_the_default_and_refuses_end() -> None:
    state = new()
    state.play("K@0,0,0")
    assert "end" not in moves(state)
    assert refusal(state, "end") == (
        "a black turn places exactly 3 cubes (the option exact_counts = false allows fewer)"
    )


def test_exact_counts_off_ending_on_the_last_red_fills_the_cube() -> None:
    cells = almost_done()
    cells[(2, 0, 1)] = "Y"
    state = stacking(cells, to_move=0, last_red=1, exact_counts=False)
    state.play("R@1,0,1")  # the last red: the turn ends, as the supply is out
    assert state.to_dict()["stage"] == "unstack"


@pytest.mark.parametrize("value", [1, "no", None])
def test_exact_counts_must_be_true_or_false(value: object) -> None:
    with pytest.raises(ValueError, match="exact_counts must be true or false"):
        cubegames.make("unstackable", exact_counts=value)
