"""The `referee` option: forced rolls only in a game refereed with real dice."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rich.console import Console

import cubegames
from cubegames.core.registry import options_from_text
from cubegames.games.cubes import Cubes, CubesState, Roll
from cubegames.render.terminal import draw
from tests.cubes.helpers import BLANK, NUMBERS_9, WORD_ONLY, position, refusal

NOT_REFEREED = (
    "this game rolls its own dice; typing the faces of a roll is for refereeing real dice "
    "(option referee=true)"
)


def test_an_ordinary_game_refuses_a_forced_roll_and_changes_nothing() -> None:
    state = cubegames.make("cubes", players=3).new_state(seed=1)
    assert isinstance(state, CubesState)
    # refusal() asserts that the refused move left the position exactly as it was
    assert refusal(state, "roll 1 C . 6 . 3") == NOT_REFEREED
    assert refusal(state, BLANK) == NOT_REFEREED
    assert not state.is_legal(NUMBERS_9)
    with pytest.raises(cubegames.IllegalMove) as info:
        state.play(Roll(("1", "C", ".", "6", ".", "3")))
    assert str(info.value) == NOT_REFEREED
    # what is listed is what is accepted: the plain roll
    assert state.legal_moves() == [Roll()]
    assert state.is_legal("roll")
    state.play("roll")
    assert state.last is not None


def test_the_refusal_says_so_before_judging_the_faces() -> None:
    state = position([15, 15], 10, referee=False)
    # die 4 has no face 4, but an ordinary game takes no typed faces at all
    assert refusal(state, "roll 1 C . 4 . 3") == NOT_REFEREED
    assert refusal(state, Roll(("C", "C", "C", "C", "C", "C"))) == NOT_REFEREED
    # what cannot be read is still refused as unreadable, a move object as its notation
    assert "6 faces" in refusal(state, "roll 1 C .")
    assert "6 faces" in refusal(state, Roll(("C",)))


def test_a_refereed_game_plays_forced_rolls() -> None:
    state = cubegames.make("cubes", players=3, referee=True).new_state(seed=1)
    assert state.legal_moves() == [Roll()]
    assert state.is_legal("roll 1 C . 6 . 3")
    state.play("roll 1 C . 6 . 3")  # CUBES and three numbers: the whole pot
    assert (state.chips, state.pot, state.to_move) == ([40, 10, 10], 0, 1)
    assert state.to_dict()["last_roll"] == "1 C . 6 . 3"
    assert state.legal_moves() == [Roll()]


def test_a_refereed_game_still_checks_each_face() -> None:
    state = position([15, 15], 10)
    assert refusal(state, "roll 1 C . 4 . 3") == "die 4 has no face 4 (its faces are C 1 6 . . .)"
    assert "6 faces" in refusal(state, Roll(("C",)))


def test_a_plain_roll_in_a_refereed_game_rolls_as_an_ordinary_one() -> None:
    ordinary = cubegames.make("cubes", players=4).new_state(seed=9)
    refereed = cubegames.make("cubes", players=4, referee=True).new_state(seed=9)

    def without_options(state: Any) -> dict[str, Any]:
        return {k: v for k, v in state.to_dict().items() if k != "options"}

    assert without_options(refereed) == without_options(ordinary)
    for _ in range(40):
        if ordinary.is_over:
            break
        ordinary.play("roll")
        refereed.play("roll")
        assert without_options(refereed) == without_options(ordinary)
    assert refereed.is_over == ordinary.is_over


def test_the_option_is_a_boolean() -> None:
    assert "referee" in Cubes.option_names
    assert cubegames.make("cubes").referee is False
    assert cubegames.make("cubes", referee=False).referee is False
    assert cubegames.make("cubes", referee=True).referee is True
    for bad in ("true", 1, 0, None, "yes"):
        with pytest.raises(ValueError, match="referee must be true or false"):
            cubegames.make("cubes", referee=bad)


def test_the_option_is_written_only_when_true() -> None:
    default = {"players": 2, "sets": 3, "edition": "standard"}
    assert cubegames.make("cubes").options == default
    assert cubegames.make("cubes", referee=False).options == default
    assert cubegames.make("cubes", referee=True).options == {**default, "referee": True}
    data = cubegames.make("cubes").new_state(seed=1).to_dict()
    assert data["options"] == default
    data = cubegames.make("cubes", players=3, referee=True).new_state(seed=1).to_dict()
    assert data["options"] == {"players": 3, "sets": 3, "edition": "standard", "referee": True}


def test_the_command_line_reads_the_option() -> None:
    options = options_from_text("cubes", ["referee=true"], 3)
    assert options == {"referee": True, "players": 3}
    assert cubegames.make("cubes", **options).referee is True


def test_a_refereed_position_round_trips() -> None:
    state = position([15, 15, 15], 15, to_move=1)
    state.play(WORD_ONLY)
    data = state.to_dict()
    assert data["options"]["referee"] is True
    text = json.dumps(data)
    game = cubegames.game_from_dict(json.loads(text))
    assert isinstance(game, Cubes) and game.referee
    again = game.state_from_dict(json.loads(text))
    assert again.to_dict() == data
    # and it is still refereed: the next roll may be typed
    again.play(NUMBERS_9)
    state.play(NUMBERS_9)
    assert again.to_dict() == state.to_dict()


def test_an_ordinary_position_stays_ordinary_when_read_back() -> None:
    state = cubegames.make("cubes", players=2).new_state(seed=4)
    state.play("roll")
    again = cubegames.game_from_dict(state.to_dict()).state_from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict()
    assert refusal(again, BLANK) == NOT_REFEREED


def test_a_game_reads_only_positions_with_its_own_referee_option() -> None:
    refereed = cubegames.make("cubes", referee=True).new_state(seed=1).to_dict()
    ordinary = cubegames.make("cubes").new_state(seed=1).to_dict()
    with pytest.raises(ValueError, match='field "options"'):
        cubegames.make("cubes").state_from_dict(refereed)
    with pytest.raises(ValueError, match='field "options"'):
        cubegames.make("cubes", referee=True).state_from_dict(ordinary)


def test_a_determinized_refereed_position_stays_refereed() -> None:
    state = position([15, 15, 15], 15)
    guess = state.game.determinize(state.view(2), 2, random.Random(3))
    assert guess.view(2) == state.view(2)
    assert guess.is_legal(NUMBERS_9)


def test_the_drawing_tells_the_referee_to_type_the_dice() -> None:
    def shown(referee: bool) -> str:
        game = cubegames.make("cubes", players=2, referee=referee)
        state = game.new_state(seed=1)
        console = Console(width=120, record=True, color_system=None)
        console.print(draw(game, state.view(0), state.legal_moves()))
        return console.export_text()

    assert "Your roll: type roll." in shown(False)
    assert "what the real dice show" not in shown(False)
    assert "Your roll: type roll, or what the real dice show, e.g. roll 1 C . 6 . 3." in shown(True)
