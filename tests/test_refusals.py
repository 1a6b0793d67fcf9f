"""Refusals are data: a code and parameters beside the English sentence (`core.errors`)."""

from __future__ import annotations

import importlib
import json
import pickle
import random

import pytest

import cubegames
from cubegames.core.errors import UNREADABLE, IllegalMove, Refusal


def test_a_refusal_is_its_sentence_with_a_code_and_parameters() -> None:
    reason = Refusal("occupied", "cell 1,0 is already taken", cell=[1, 0])
    assert reason == "cell 1,0 is already taken" and str(reason) == reason
    assert (reason.code, reason.params) == ("occupied", {"cell": [1, 0]})
    again = pickle.loads(pickle.dumps(reason))
    assert isinstance(again, Refusal) and again == reason
    assert (again.code, again.params) == (reason.code, reason.params)
    error = IllegalMove(reason)
    assert str(error) == "cell 1,0 is already taken" and error.refusal is reason
    assert isinstance(error, ValueError)
    assert IllegalMove("cannot read 'zz'").refusal.code == UNREADABLE


def test_play_refuses_with_codes_for_a_finished_game_and_the_wrong_seat() -> None:
    state = cubegames.make("cubed", players=2).new_state(seed=1)
    with pytest.raises(IllegalMove) as wrong:
        state.play("draw", seat=1)
    assert wrong.value.refusal.code == "turn"
    assert wrong.value.refusal.params == {"to_move": 0, "seat": 1}
    assert str(wrong.value) == "it is seat 0's turn, not seat 1's"


#: moves worth trying besides the ones legal at some point of the game
EXTRA = {"cubes": ["roll 1 2 3 4 5 6", "roll C C C C C C", "roll . .", "roll Q . . . . ."]}


@pytest.mark.parametrize("game_id", ["cubed", "unstackable", "stakd", "cubes"])
def test_every_refusal_of_every_game_has_a_code_and_json_parameters(game_id: str) -> None:
    module = importlib.import_module(f"cubegames.games.{game_id}")
    codes: set[str] = set()
    for options in module.EXAMPLE_OPTIONS:
        game = cubegames.make(game_id, **options)
        state = game.new_state(seed=3)
        rng = random.Random(4)
        others = {str(m) for m in state.legal_moves()}
        for _ply in range(120):
            if state.is_over:
                break
            legal = {str(m) for m in state.legal_moves()}
            others |= legal
            for text in [*sorted(others - legal)[:40], *EXTRA.get(game_id, [])]:
                try:
                    reason = state.refusal(game.parse_move(text))
                except IllegalMove as exc:
                    reason = exc.refusal
                if reason is None:
                    continue
                assert isinstance(reason, Refusal), (text, reason)
                assert reason.code and json.loads(json.dumps(reason.params)) == reason.params
                codes.add(reason.code)
            moves = state.legal_moves()
            state.play(moves[rng.randrange(len(moves))])
    assert codes, "the test needs refused moves to look at"


@pytest.mark.parametrize("game_id", ["cubed", "unstackable", "stakd", "cubes"])
def test_a_position_with_a_field_its_game_has_not_is_refused_naming_it(game_id: str) -> None:
    """A misspelt optional field ("asides") would otherwise be dropped without a word, and
    `to_dict(state_from_dict(d)) == d` would not hold."""
    game = cubegames.make(game_id)
    position = game.new_state(seed=3).to_dict()
    assert game.state_from_dict(position).to_dict() == position
    with pytest.raises(ValueError, match=r'^field "asides": not a field of an? \w+ position$'):
        game.state_from_dict({**position, "asides": []})


def _nested(depth: int) -> list[object]:
    deep: list[object] = []
    for _ in range(depth):
        deep = [deep]
    return deep


#: values a hostile caller sends where a seat, seed, name or move belongs
UNPRINTABLE = {
    "nested 100,000 deep": _nested(100_000),
    "a number of 5,001 digits": 10**5000,
    "a megabyte of text": "x" * 1_000_000,
}


@pytest.mark.parametrize("value", UNPRINTABLE.values(), ids=UNPRINTABLE.keys())
def test_a_value_that_cannot_be_printed_whole_is_refused_in_a_short_message(
    value: object,
) -> None:
    """Naming what was refused must neither fail (a `RecursionError` from `repr`, Python's
    4300-digit `ValueError`) nor echo a megabyte: every refusal stays one short line."""
    state = cubegames.make("cubed", players=2).new_state(seed=1)
    before = state.to_dict()
    attempts = [
        lambda: cubegames.make(value),  # type: ignore[arg-type]
        lambda: cubegames.make("cubed", edition=value),
        lambda: cubegames.make("cubed", variants=(value,)),
        lambda: cubegames.make("cubed", players=value),
        lambda: cubegames.bot(value),  # type: ignore[arg-type]
        lambda: state.view(value),  # type: ignore[arg-type]
        lambda: state.play(value),  # type: ignore[arg-type]
        lambda: state.play(state.legal_moves()[0], seat=value),  # type: ignore[arg-type]
        lambda: state.game.state_from_dict({**before, "version": value}),
    ]
    for game_id in ["unstackable", "stakd", "cubes"]:
        other = cubegames.make(game_id).new_state(seed=1)
        attempts += [
            lambda other=other: other.view(value),
            lambda other=other: other.play(value),
            lambda game_id=game_id: cubegames.make(game_id, players=value),
        ]
    if not isinstance(value, int):
        attempts += [
            lambda: cubegames.bot("random", seed=value),  # type: ignore[arg-type]
            lambda: state.game.new_state(seed=value),
        ]
    for attempt in attempts:
        with pytest.raises(ValueError) as refused:
            attempt()
        message = str(refused.value)
        assert len(message) < 300 and "4300" not in message, message
    assert state.to_dict() == before
    assert not state.is_legal(value)  # type: ignore[arg-type]


def test_a_seat_must_be_a_whole_number_not_a_bool() -> None:
    state = cubegames.make("cubed", players=2).new_state(seed=1)
    state.play("draw")
    state.play("pass")
    with pytest.raises(IllegalMove) as refused:
        state.play("draw", seat=True)
    assert refused.value.refusal.params == {"to_move": 1, "seat": True}
    state.play("draw", seat=1)


def _hand_built() -> list[tuple[str, object]]:
    from cubegames.games.cubed.notation import Place as CubedPlace
    from cubegames.games.stakd.notation import Place as StakdPlace
    from cubegames.games.unstackable.notation import Colour, Stack

    stakd_first = cubegames.make("stakd").new_state(seed=1).legal_moves()[0]
    assert isinstance(stakd_first, StakdPlace) and stakd_first.z == 0
    return [
        ("cubed", CubedPlace("BBB", "X", 0)),  # type: ignore[arg-type]
        ("cubed", CubedPlace("BBB", 0.0, 0)),  # type: ignore[arg-type]
        ("stakd", StakdPlace("X", 0, stakd_first.nodes)),  # type: ignore[arg-type]
        ("stakd", StakdPlace(stakd_first.piece, False, stakd_first.nodes)),  # type: ignore[arg-type]
        ("stakd", CubedPlace("BBB", 0, 0)),
        ("unstackable", Stack(None, 0, 0, 0)),  # type: ignore[arg-type]
        ("unstackable", Stack(Colour.YELLOW, False, 0.0, False)),  # type: ignore[arg-type]
        ("cubes", Stack(Colour.YELLOW, 0, 0, 0)),
    ]


HAND_BUILT = [
    "cubed q='X'",
    "cubed q=0.0",
    "stakd piece='X'",
    "stakd z=False",
    "stakd given a cubed move",
    "unstackable colour=None",
    "unstackable x=False y=0.0 z=False",
    "cubes given an unstackable move",
]


@pytest.mark.parametrize(("game_id", "move"), _hand_built(), ids=HAND_BUILT)
def test_a_move_object_built_with_fields_of_the_wrong_kind_is_refused_whole(
    game_id: str, move: object
) -> None:
    """A move object is read back from its own notation before it is judged, so a field of
    the wrong kind (or a move of another game) is refused as its notation cannot be read
    (or as `not-a-move` when it has none), never a TypeError or a state half changed."""
    state = cubegames.make(game_id).new_state(seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalMove) as refused:
        state.play(move)  # type: ignore[arg-type]
    assert refused.value.refusal.code in ("not-a-move", "unreadable"), refused.value
    assert len(str(refused.value)) < 200
    assert state.to_dict() == before and not state.is_legal(move)  # type: ignore[arg-type]


def test_a_move_object_with_numpy_numbers_is_played_as_the_move_it_names() -> None:
    import numpy as np

    from cubegames.games.cubed.notation import Place

    state = cubegames.make("cubed", players=2).new_state(seed=1)
    first = state.legal_moves()[0]
    assert isinstance(first, Place)
    state.play(Place(first.slots, np.int64(first.q), np.int64(first.r)))  # type: ignore[arg-type]
    assert json.dumps(state.to_dict())  # plain numbers were stored, not numpy's
    assert state.to_dict()["table"][0]["cell"] == [first.q, first.r]


def _places(data: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in a position: each field, nested ones too, the first two of a list."""
    found = [at] if at else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += _places(value, (*at, key))
    elif isinstance(data, list):
        for i, value in enumerate(data[:2]):
            found += _places(value, (*at, i))
    return found


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("cubed", {"players": 3, "rounds": 3}), ("unstackable", {}), ("stakd", {}), ("cubes", {})],
)
def test_a_position_with_an_unprintable_value_anywhere_is_refused_in_a_short_line(
    game_id: str, options: dict[str, object]
) -> None:
    """Wherever a position file holds a value that cannot be printed whole (text of 100,000
    characters, a number of 5,001 digits, a list nested 100,000 deep), reading it is a
    ValueError of one short line: a CUBED piece and a STAKD piece type were quoted whole."""
    game = cubegames.make(game_id, **options)
    state = game.new_state(seed=3)
    rng = random.Random(2)
    for _ply in range(12):
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    position = state.to_dict()
    for place in _places(position):
        for value in UNPRINTABLE.values():
            changed = json.loads(json.dumps(position))
            inner = changed
            for step in place[:-1]:
                inner = inner[step]
            inner[place[-1]] = value
            with pytest.raises(ValueError) as refused:
                game.state_from_dict(changed)
            assert len(str(refused.value)) < 300, (place, str(refused.value)[:300])
