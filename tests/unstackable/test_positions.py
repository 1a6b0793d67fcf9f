"""Position files: the api.md format, round trips, and errors that name the bad field."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cubegames
from cubegames.games.unstackable import bitboard as bb
from tests.unstackable.helpers import API_EXAMPLE, full_cube, load


def test_the_api_example_round_trips_exactly() -> None:
    state = load(API_EXAMPLE)
    assert state.to_dict() == API_EXAMPLE
    assert json.dumps(state.to_dict(), sort_keys=True) == json.dumps(API_EXAMPLE, sort_keys=True)
    assert state.to_move == 1
    assert [str(m) for m in state.legal_moves()] == [
        "K@0,-1,0",
        "K@1,-1,0",
        "K@-1,0,0",
        "K@2,0,0",
        "K@0,1,0",
        "K@1,1,0",
        "K@0,0,1",
        "K@1,0,1",
    ]


def test_a_new_game_in_the_file_format() -> None:
    data = cubegames.make("unstackable").new_state().to_dict()
    assert data == {
        "game": "unstackable",
        "options": {},
        "stage": "stack",
        "to_move": 0,
        "grid": "." * 64,
        "supply": {"Y": 3, "R": 16, "K": 45},
        "turn": {"colour": None, "placed": 0},
        "piles": [["", ""], ["", ""]],
        "last_red": None,
    }


def test_options_are_written_only_when_not_the_default() -> None:
    assert cubegames.make("unstackable").options == {}
    assert cubegames.make("unstackable", players=2).options == {}
    game = cubegames.make("unstackable", bag_counts_as_exposed=True)
    assert game.options == {"bag_counts_as_exposed": True}
    assert game.new_state().to_dict()["options"] == {"bag_counts_as_exposed": True}


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="exactly 2 players, not 3"):
        cubegames.make("unstackable", players=3)
    with pytest.raises(ValueError, match="bag_counts_as_exposed must be true or false"):
        cubegames.make("unstackable", bag_counts_as_exposed="yes")
    with pytest.raises(ValueError, match="has no option 'edition'"):
        cubegames.make("unstackable", edition="en")


def test_positions_from_random_games_round_trip() -> None:
    rng = random.Random(2)
    for options in ({}, {"bag_counts_as_exposed": True}):
        game = cubegames.make("unstackable", **options)
        state = game.new_state()
        while not state.is_over:
            data = state.to_dict()
            again = game.state_from_dict(json.loads(json.dumps(data)))
            assert again.to_dict() == data
            state.play(rng.choice(state.legal_moves()))
        assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_view_is_the_whole_position_and_determinize_rebuilds_it() -> None:
    state = full_cube()
    state.play("0,0,3")
    view = state.view(0)
    assert view == {**state.to_dict(), "seat": 0}
    assert state.view(1)["seat"] == 1
    with pytest.raises(ValueError, match="no seat 2"):
        state.view(2)
    again = state.game.determinize(view, 0, random.Random(0))
    assert again.to_dict() == state.to_dict()


def changed(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**base, **fields}


STAGE_1: dict[str, Any] = API_EXAMPLE


def stage_2() -> dict[str, Any]:
    state = full_cube()
    state.play("0,0,3")
    state.play("0,0,2")
    state.play("3,3,3")
    return state.to_dict()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "cubed"}, 'field "game"'),
        ({"stage": "build"}, 'field "stage": must be "stack" or "unstack"'),
        ({"extra": 1}, 'field "extra": not a field'),
        ({"grid": "RK"}, 'field "grid": must be text of 64 letters'),
        ({"grid": ["R"] * 64}, 'field "grid": must be text of 64 letters'),
        ({"grid": "RG" + "." * 62}, "field \"grid\": 'G' on 1,0,0 \\(index 1\\) is not"),
        ({"grid": "RK" + "." * 14 + "K" + "." * 15 + ".K" + "." * 30}, "floats"),
        ({"grid": "YYYY" + "." * 60}, 'field "grid": 4 yellow cubes, but the box holds only 3'),
        ({"grid": "R" * 16 + "R" * 16 + "." * 32}, "32 red cubes, but the box holds only 16"),
        ({"grid": "R.K" + "." * 61}, "not all joined face to face"),
        ({"supply": {"Y": 3, "R": 15}}, 'field "supply"'),
        ({"supply": {"Y": 3, "R": 15, "K": 45}}, "supply.K: 45 black cubes, but the box"),
        ({"supply": {"Y": 3, "R": -1, "K": 44}}, "supply.R: must be a whole number"),
        ({"turn": {"colour": "K"}}, 'field "turn": in this stage it has exactly the fields'),
        ({"turn": {"colour": "G", "placed": 1}}, 'turn.colour: must be "Y", "R", "K" or null'),
        ({"turn": {"colour": "", "placed": 1}}, 'turn.colour: must be "Y", "R", "K" or null'),
        ({"turn": {"colour": "RK", "placed": 1}}, 'turn.colour: must be "Y", "R", "K" or null'),
        ({"turn": {"colour": None, "placed": 1}}, "turn.placed: must be 0"),
        ({"turn": {"colour": "K", "placed": 0}}, "turn.colour: the colour is chosen"),
        ({"turn": {"colour": "K", "placed": 3}}, "turn.placed: a black turn would have ended"),
        ({"turn": {"colour": "R", "placed": 1}}, 'field "last_red": the seat to move'),
        ({"to_move": None}, 'field "to_move": must be a seat, 0 or 1'),
        ({"to_move": 2}, 'field "to_move": must be a seat'),
        ({"last_red": None}, 'field "last_red": red cubes are stacked'),
        ({"last_red": 5}, 'field "last_red": must be a seat'),
        ({"to_move": 1.0}, 'field "to_move": must be a seat'),
        ({"to_move": True}, 'field "to_move": must be a seat'),
        ({"last_red": 0.0}, 'field "last_red": must be a seat'),
        ({"piles": [["", ""]]}, 'field "piles": must be'),
        ({"piles": [["K", ""], ["", ""]]}, 'field "piles": nothing is removed'),
        ({"piles": [["G", ""], ["", ""]]}, "piles\\[0\\]\\[0\\]: must be text of Y, R and K"),
    ],
)
def test_bad_stage_1_fields_are_named(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load(changed(STAGE_1, **fields))


def test_options_must_match_the_game_reading_the_position() -> None:
    game = cubegames.make("unstackable")
    with pytest.raises(ValueError, match='field "options": they differ'):
        game.state_from_dict(changed(STAGE_1, options={"bag_counts_as_exposed": True}))
    other = cubegames.make("unstackable", bag_counts_as_exposed=True)
    with pytest.raises(ValueError, match='field "options": they differ'):
        other.state_from_dict(STAGE_1)


def test_missing_fields_are_named() -> None:
    for key in ("stage", "grid", "supply", "turn", "piles", "to_move", "last_red"):
        data = {k: v for k, v in STAGE_1.items() if k != key}
        with pytest.raises(ValueError, match=f'field "{key}" is missing'):
            load(data)


def test_only_black_left_must_be_filled() -> None:
    text = "YYY" + "R" * 16 + "." * 45
    data = changed(
        STAGE_1,
        grid=text,
        supply={"Y": 0, "R": 0, "K": 45},
        turn={"colour": None, "placed": 0},
    )
    with pytest.raises(ValueError, match="only black is left"):
        load(data)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"supply": {"Y": 0, "R": 0, "K": 1}}, 'field "supply": every cube is stacked'),
        ({"piles": [["", ""], ["K", "K"]]}, 'field "piles": with the grid they make 44 black'),
        (
            {"piles": [["K", "K"], ["K", ""]]},
            "piles\\[0\\]\\[1\\]: after 3 removals, with seat 1 going first, it should "
            "hold 0 cubes, not 1",
        ),
        ({"to_move": 1}, 'field "to_move": must be seat 0 after 3 removals'),
        ({"to_move": None}, 'field "to_move": must be seat 0 after 3 removals'),
        ({"turn": {"removed": 0}}, "turn.removed: after 3 removals it must be 1"),
        ({"turn": {"removed": 2}}, "turn.removed: must be at most 1"),
        ({"turn": {"colour": None, "placed": 0}}, 'field "turn": in this stage'),
        ({"last_red": None}, 'field "last_red": after stacking'),
        ({"last_red": 1.0}, 'field "last_red": must be a seat'),
        ({"to_move": 0.0}, 'field "to_move": must be a seat'),
    ],
)
def test_bad_stage_2_fields_are_named(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load(changed(stage_2(), **fields))


def test_a_floating_cube_in_stage_2_is_refused() -> None:
    data = stage_2()
    text = data["grid"]
    # put back the cube on 0,0,3 without the one under it; swap with a removed black
    text = text[:48] + "K" + text[49:]
    piles = [["K", ""], ["", "K"]]
    with pytest.raises(ValueError, match='field "grid": the cube on 0,0,3 floats'):
        load(changed(data, grid=text, piles=piles))


def test_a_non_object_is_refused() -> None:
    not_an_object: Any = []
    with pytest.raises(ValueError, match="must be a JSON object"):
        cubegames.make("unstackable").state_from_dict(not_an_object)


def test_an_old_file_with_the_structure_off_the_corner_is_moved_into_it() -> None:
    # Written when the box was fixed and the first cube could go on any floor cell.
    supply = {"Y": 3, "R": 14, "K": 44}
    old = changed(STAGE_1, grid="." * 6 + "RK" + "." * 12 + "..R." + "." * 40, supply=supply)
    state = load(old)
    assert state.grid() == "RK" + "." * 14 + "R" + "." * 47
    assert state.to_dict()["supply"] == supply
    assert "K@-1,0,0" in [str(m) for m in state.legal_moves()]
    assert load(state.to_dict()).to_dict() == state.to_dict()


def test_a_stage_2_position_no_play_reaches_is_refused() -> None:
    # the top-centre cube taken first: it has only its top face exposed in the full cube
    data = unstacking_after([bb.index(1, 1, 3)])
    with pytest.raises(
        ValueError,
        match='field "grid": no legal play reaches this position: the cube gone from 1,1,3',
    ):
        load(data)
    # the same cube taken once its neighbours are gone is fine
    cells = [bb.index(x, y, 3) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
    assert load(unstacking_after(cells)).occupied.bit_count() == 60


def unstacking_after(removed: list[int]) -> dict[str, Any]:
    """A stage-2 position file with the black cubes `removed` gone, in that order."""
    data = stage_2()
    grid = ["K"] * 64
    for cell in removed:
        grid[cell] = "."
    starter = 1 - data["last_red"]
    piles = [["", ""], ["", ""]]
    for n in range(len(removed)):
        piles[starter if (n // 2) % 2 == 0 else 1 - starter][n % 2] += "K"
    n = len(removed)
    grid_text = "".join(grid)
    letters = "YYY" + "R" * 16
    grid_text = letters + grid_text[len(letters) :]
    return changed(
        data,
        grid=grid_text,
        piles=piles,
        turn={"removed": n % 2},
        to_move=starter if (n // 2) % 2 == 0 else 1 - starter,
    )
