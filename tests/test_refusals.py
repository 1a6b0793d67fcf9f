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
