"""The games' tutorials (core.tutorial): the script model refuses a malformed script with a
message naming the field, and every built-in game's script replays through its rules, so a
change of the rules or the deal that breaks a tutorial fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.core import chance, tutorial
from cubegames.core.tutorial import Tutorial

BUILT_IN = ("cubed", "unstackable", "stakd", "cubes")
LOCALES = Path(cubegames.__file__).parent / "server" / "static" / "locales"


def script(game: str) -> Tutorial:
    found = tutorial.load(cubegames.make(game))
    assert found is not None, f"{game} has no tutorial"
    return found


def data(game: str) -> dict[str, Any]:
    return script(game).model_dump()


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_built_in_tutorial_replays_through_the_rules(game: str) -> None:
    found = script(game)
    state = tutorial.check(found)
    assert not state.is_over
    # the learner ends on the free game's turn or the bot's, and made several moves
    assert sum(s.seat == found.learner for s in found.steps) >= 2


def test_a_plug_in_game_ships_its_own_tutorial_in_its_own_words() -> None:
    nim = tutorial.load(cubegames.make("nim"))  # tests/plugin_game's tutorial.json
    assert nim is not None and nim.catalog_keys() == []
    assert all(s.text for s in nim.steps) and nim.intro_text and nim.free_text
    assert tutorial.check(nim).to_dict()["pile"] == 4


def test_a_game_without_a_tutorial_has_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tutorial, "FILE", "no-such-tutorial.json")
    assert tutorial.load(cubegames.make("cubed")) is None


@pytest.mark.parametrize("game", BUILT_IN)
def test_a_move_the_rules_refuse_fails_the_check_naming_the_step(game: str) -> None:
    broken = data(game)
    last = len(broken["steps"]) - 1
    broken["steps"][last]["move"] = "nonsense@9"
    with pytest.raises(ValueError, match=rf"^steps\.{last} \(nonsense@9\): "):
        tutorial.check(Tutorial.model_validate(broken))


def test_a_step_played_by_the_wrong_seat_fails_the_check() -> None:
    broken = data("cubed")
    broken["steps"][1]["seat"] = 0
    with pytest.raises(ValueError, match=r"steps\.1 .*seat 0 plays it, but seat 1 is to move"):
        tutorial.check(Tutorial.model_validate(broken))


def test_a_setup_move_the_rules_refuse_fails_the_check() -> None:
    broken = data("unstackable")
    broken["setup"][3] = broken["setup"][2]  # the same cell twice
    with pytest.raises(ValueError, match=r"^setup\.3 "):
        tutorial.check(Tutorial.model_validate(broken))


def test_a_script_that_ends_the_game_leaves_no_free_game() -> None:
    # CUBES: the script rolls on until its one set ends
    long = data("cubes")
    _, state = tutorial.start(Tutorial.model_validate(long))
    long["steps"] = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        long["steps"].append({"seat": seat, "move": "roll", "say": "tutorial-cubes-pot"})
        state.play("roll")
    assert len(long["steps"]) <= 60
    with pytest.raises(ValueError, match="over"):
        tutorial.check(Tutorial.model_validate(long))


def test_the_learner_must_play_a_step() -> None:
    broken = data("cubes")
    broken["learner"] = 1
    broken["steps"] = [broken["steps"][0]]
    with pytest.raises(ValueError, match="the learner plays none"):
        tutorial.check(Tutorial.model_validate(broken))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"steps": []}, "steps"),
        ({"intro": "Hello there"}, "intro"),
        ({"surprise": 1}, "surprise"),
        ({"learner": "0"}, "learner"),
        ({"chance": 0}, "chance"),
        ({"chance": 4}, "chance"),
        ({"chance": "2"}, "chance"),
    ],
)
def test_a_malformed_script_is_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    text = json.dumps({**data("cubes"), **change})
    with pytest.raises(ValueError, match=rf"^tutorial\.json: {field}"):
        tutorial.parse(text)


def test_a_tutorial_deals_its_seed_in_its_chance_version() -> None:
    """CUBED's tutorial names chance version 2, whose deal of its seed its steps were
    written for; a tutorial that names none is dealt in the current version."""
    cubed = tutorial.load(cubegames.make("cubed"))
    assert cubed is not None and cubed.chance == 2
    game, state = tutorial.start(cubed)
    assert state.to_dict() == chance.new_state(game, cubed.seed, 2).to_dict()
    assert state.to_dict() != game.new_state(cubed.seed).to_dict()
    raw = data("cubes")
    raw.pop("chance", None)
    assert tutorial.parse(json.dumps(raw)).chance == chance.CURRENT


def test_a_step_without_words_is_refused() -> None:
    bad = data("cubes")
    bad["steps"][0] = {"seat": 0, "move": "roll"}
    with pytest.raises(ValueError, match=r"steps\.0: .*a step needs its words"):
        tutorial.parse(json.dumps(bad))


def test_a_plug_in_script_may_bring_its_own_words() -> None:
    own = data("cubes")
    own["intro"] = None
    own["intro_text"] = "Roll and see."
    own["steps"] = [{"seat": 0, "move": "roll", "text": "Roll the dice."}]
    parsed = tutorial.parse(json.dumps(own))
    assert parsed.steps[0].text == "Roll the dice." and parsed.intro is None
    assert "tutorial-cubes-free" in parsed.catalog_keys()


def test_a_tutorial_of_another_game_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "fakegame"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tutorial.json").write_text(json.dumps(data("cubes")))
    (package / "game.py").write_text("class Fake:\n    id = 'fake'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from fakegame.game import Fake  # type: ignore[import-not-found]

    with pytest.raises(ValueError, match=r"fakegame/tutorial\.json: game: 'cubes' is not 'fake'"):
        tutorial.load(Fake())  # type: ignore[arg-type]
    (package / "tutorial.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"fakegame/tutorial\.json: not valid JSON"):
        tutorial.load(Fake())  # type: ignore[arg-type]


def _catalog(lang: str) -> set[str]:
    text = (LOCALES / f"{lang}.ftl").read_text("utf-8")
    return set(re.findall(r"^([a-z][a-z0-9-]*) =", text, re.MULTILINE))


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_sentence_of_a_tutorial_is_in_both_catalogs(game: str) -> None:
    keys = script(game).catalog_keys()
    assert keys
    for lang in ("en", "ja"):
        assert sorted(set(keys) - _catalog(lang)) == [], lang


def _played(game: str) -> list[tuple[int, str, str]]:
    """Each step's seat, move and rule, with the table before it for CUBED."""
    return [(s.seat, s.move, s.rule or "") for s in script(game).steps]


def test_cubed_meets_each_rule_when_it_matters() -> None:
    found = script("cubed")
    _, state = tutorial.start(found)
    met: dict[str, list[int]] = {}
    for step in found.steps:
        table = len(state.to_dict()["table"])
        met.setdefault(step.rule or "", []).append(table)
        if step.rule == "blocking pieces":
            assert "K" in step.move and table >= 3
        if step.rule == "drawing":
            assert step.move == "draw" or state.to_dict()["turn"]["drew"]
        state.play(step.move)
    assert met["second-piece rule"] == [2]  # the first piece that must touch two
    assert 1 in met["matching sides"]  # the second piece: one contact, matching
    assert {"drawing", "blocking pieces"} <= set(met)


def test_unstackable_meets_both_stages_and_both_piles() -> None:
    found = script("unstackable")
    _, state = tutorial.start(found)
    stages = []
    for step in found.steps:
        stages.append(state.to_dict()["stage"])
        state.play(step.move)
    assert stages[0] == "stack" and stages[-1] == "unstack"
    piles = state.to_dict()["piles"][found.learner]
    assert piles == ["Y", "K"]  # yellow scores 5 in pile 1, black 1 in pile 2


def test_stakd_meets_layers_uni_and_bomber() -> None:
    moves = [m for seat, m, _ in _played("stakd") if seat == 0]
    kinds = [m.split("@")[0] for m in moves]
    assert {"BASE", "UNI", "BOMBER"} <= set(kinds)
    assert any(m.split("@")[1].startswith("1:") for m in moves)  # a piece on layer 1


def test_cubes_ends_with_the_learner_claiming_the_pot() -> None:
    found = script("cubes")
    state = tutorial.check(found)
    view = state.to_dict()
    assert view["pot"] == 0 and view["last"]["seat"] == found.learner
    faces = view["last_roll"].split()
    assert "C" in faces and sum(f.isdigit() for f in faces) >= 3


def test_a_move_written_otherwise_than_the_game_writes_it_fails_the_check() -> None:
    odd = data("stakd")
    odd["steps"][0]["move"] = "BASE@0:2,1+0,0+0,1+1,0+1,1+2,0"  # legal, nodes out of order
    with pytest.raises(ValueError, match=r"steps\.0 .*write it as the game does"):
        tutorial.check(Tutorial.model_validate(odd))
