"""Position files: round trips, hidden chance, and refusals that name the bad field."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cubegames
from tests.cubes.helpers import FEW_9, NUMBERS_9, WORD_ONLY, position


def played(players: int = 3, rolls: int = 12, seed: int = 5) -> dict[str, Any]:
    state = cubegames.make("cubes", players=players).new_state(seed=seed)
    for _ in range(rolls):
        if state.is_over:
            break
        state.play("roll")
    return state.to_dict()


def load(data: dict[str, Any]) -> Any:
    game = cubegames.game_from_dict(data)
    return game.state_from_dict(data)


def test_fields_of_a_fresh_position() -> None:
    data = cubegames.make("cubes", players=2).new_state(seed=1).to_dict()
    assert data["game"] == "cubes"
    assert data["options"] == {"players": 2, "sets": 3, "edition": "standard"}
    assert data["faces"][0] == ["C", "1", "6", ".", ".", "."]
    assert len(data["faces"]) == 6
    assert (data["chips"], data["pot"], data["set"], data["totals"]) == ([15, 15], 10, 1, [0, 0])
    assert data["to_move"] == 0
    assert len(data["rng"]) == 16
    assert "last_roll" not in data and "past_sets" not in data


def test_last_roll_is_recorded() -> None:
    state = position([15, 15, 15], 15, to_move=1)
    state.play(FEW_9)
    data = state.to_dict()
    assert data["last_roll"] == "C 5 4 . . ."
    assert data["last"] == {"seat": 1, "pot": 15, "changes": [-5, 18, -5], "bust": None}


@pytest.mark.parametrize("rolls", [0, 1, 5, 40, 400])
def test_round_trip(rolls: int) -> None:
    data = played(rolls=rolls)
    again = load(json.loads(json.dumps(data)))
    assert again.to_dict() == data


def test_a_saved_position_continues_identically() -> None:
    state = cubegames.make("cubes", players=4).new_state(seed=9)
    for _ in range(7):
        state.play("roll")
    saved = load(json.loads(json.dumps(state.to_dict())))
    for _ in range(30):
        if state.is_over:
            break
        state.play("roll")
        saved.play("roll")
        assert saved.to_dict() == state.to_dict()


def test_the_view_hides_the_generator_and_nothing_else() -> None:
    state = cubegames.make("cubes", players=3).new_state(seed=2)
    state.play("roll")
    view = state.view(1)
    data = state.to_dict()
    assert "rng" not in view
    assert view == {**{k: v for k, v in data.items() if k != "rng"}, "seat": 1}
    with pytest.raises(ValueError, match="no seat 3"):
        state.view(3)


def test_determinize_fills_a_fresh_generator() -> None:
    state = cubegames.make("cubes", players=3).new_state(seed=2)
    state.play("roll")
    view = state.view(0)
    guess = state.game.determinize(view, 0, random.Random(1))
    assert guess.view(0) == view
    assert guess.to_dict()["rng"] != state.to_dict()["rng"]


def broken(change: dict[str, Any], base: dict[str, Any] | None = None) -> str:
    """The refusal of `base` (by the game it was written for) with `change` made."""
    data = dict(base or played())
    game = cubegames.game_from_dict(data)
    data.update(change)
    with pytest.raises(ValueError) as info:
        game.state_from_dict(data)
    return str(info.value)


def test_negative_chips_name_the_field() -> None:
    assert "chips[1]" in broken({"chips": [40, -5, 15]})


def test_points_must_make_the_points_in_play() -> None:
    assert 'field "chips"' in broken({"chips": [15, 15, 16]})
    seven = played(players=7)
    message = broken({"pot": seven["pot"] + 1}, seven)
    assert 'field "chips"' in message and "100" in message


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": "cubed"}, '"game"'),
        ({"options": {"players": 3, "sets": 2, "edition": "standard"}}, '"options"'),
        ({"faces": [["C", "1", "6", ".", ".", "."]] * 6}, '"faces"'),
        ({"pot": -1}, '"pot"'),
        ({"pot": "10"}, '"pot"'),
        ({"chips": [15, 15]}, '"chips"'),
        ({"set": 4}, '"set"'),
        ({"set": 0}, '"set"'),
        ({"totals": [0, 0, 1]}, '"totals"'),
        ({"to_move": 3}, '"to_move"'),
        ({"to_move": None}, '"to_move"'),
        ({"rng": 12}, '"rng"'),
        ({"rng": "xyz"}, '"rng"'),
        ({"rng": "0123456789ABCDEF"}, '"rng"'),
    ],
)
def test_bad_fields_are_named(change: dict[str, Any], field: str) -> None:
    data = cubegames.make("cubes", players=3).new_state(seed=1).to_dict()
    assert field in broken(change, data)


@pytest.mark.parametrize("key", ["chips", "pot", "set", "totals", "to_move", "faces", "rng"])
def test_missing_fields_are_named(key: str) -> None:
    data = played()
    del data[key]
    with pytest.raises(ValueError, match=f'"{key}"'):
        load(data)


def test_the_last_roll_is_checked() -> None:
    state = position([15, 15, 15], 15, to_move=1)
    state.play(FEW_9)
    data = state.to_dict()
    assert "last_roll" in broken({"last_roll": "C 5 4 . . 7"}, data)
    assert "last_roll" in broken({"last_roll": "C 5 4 ."}, data)
    bad = {**data}
    del bad["last"]
    assert '"last_roll" and "last"' in broken({}, bad)
    assert "last.seat" in broken({"last": {**data["last"], "seat": 9}}, data)
    assert "last.changes" in broken({"last": {**data["last"], "changes": [1]}}, data)
    assert '"to_move"' in broken({"to_move": 0}, data)  # seat 2 rolls after seat 1
    assert '"pot"' in broken({"pot": 8, "chips": [10, 32, 10]}, data)


def test_the_last_roll_must_make_the_position_it_records() -> None:
    """The record of the last roll is that roll rolled again on the chips and pot before
    it: after a roll that ended a set its pot and changes were not checked at all (a pot
    of 10**5000 was read, and the view could not be written as JSON), and after another
    roll only the sum of the changes was."""
    state = position([3, 20, 15, 12], 30, to_move=2)
    state.play(FEW_9)  # seat 0 cannot pay: the set ends
    busted = state.to_dict()
    assert busted["last"]["bust"] == 0
    assert load(busted).to_dict() == busted
    last = busted["last"]
    assert "last.pot" in broken({"last": {**last, "pot": 10**5000}}, busted)
    assert "last.pot" in broken({"last": {**last, "pot": 81}}, busted)  # 80 in play
    assert 'field "last"' in broken({"last": {**last, "pot": last["pot"] - 1}}, busted)
    changes = list(last["changes"])
    changes[1] += 10**30
    assert "last.changes[1]" in broken({"last": {**last, "changes": changes}}, busted)
    assert 'field "last"' in broken({"last": {**last, "seat": 3}}, busted)
    assert 'field "last"' in broken({"last_roll": ". 2 3 . . 4"}, busted)  # pays nobody

    state = position([15, 15, 15], 15, to_move=1)
    state.play(FEW_9)
    data = state.to_dict()
    assert load(data).to_dict() == data
    last = data["last"]
    shifted = [last["changes"][0] + 10**30, last["changes"][1] - 10**30, last["changes"][2]]
    assert "last.changes[0]" in broken({"last": {**last, "changes": shifted}}, data)
    moved = [last["changes"][0] - 1, last["changes"][1] + 1, last["changes"][2]]
    assert 'field "last"' in broken({"last": {**last, "changes": moved}}, data)


def test_past_sets_must_agree_with_the_totals() -> None:
    state = position([3, 20, 15, 12], 30, to_move=2)
    state.play(FEW_9)
    data = state.to_dict()
    assert data["past_sets"] == [{"scores": [0, 20, 15, 7], "bust": 0}]
    assert '"totals"' in broken({"totals": [0, 20, 15, 8]}, data)
    assert "past_sets[0].scores[0]" in broken(
        {"past_sets": [{"scores": [1, 20, 15, 6], "bust": 0}], "totals": [1, 20, 15, 6]}, data
    )
    assert '"past_sets"' in broken({"past_sets": [], "totals": [0, 0, 0, 0]}, data)
    # set 2 was just dealt by the roll that ended set 1
    assert '"chips"' in broken({"chips": [20, 10, 15, 15]}, data)
    assert '"to_move"' in broken({"to_move": 2}, data)


def test_a_finished_game_is_read_back() -> None:
    state = position([15, 2], 23, sets=1)
    state.play(WORD_ONLY)
    data = state.to_dict()
    assert data["to_move"] is None
    assert load(data).winners() == [0]
    assert '"to_move"' in broken({"to_move": 0}, data)


def test_the_position_reader_refuses_non_objects() -> None:
    game = cubegames.make("cubes")
    not_an_object: Any = []
    with pytest.raises(ValueError, match="JSON object"):
        game.state_from_dict(not_an_object)


def test_clone_is_independent() -> None:
    state = position([15, 15], 10)
    twin = state.clone()
    twin.play(NUMBERS_9)
    assert state.to_dict() != twin.to_dict()
    assert state.chips == [15, 15] and state.last is None
