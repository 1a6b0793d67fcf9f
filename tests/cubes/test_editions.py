"""Edition files: the standard box, designers' own files, and errors that name the field."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.games.cubes import EditionError, load_edition
from cubegames.games.cubes.edition import parse_edition


def standard_data() -> dict[str, Any]:
    text = resources.files("cubegames.games.cubes").joinpath("editions/standard.toml")
    return tomllib.loads(text.read_text("utf-8"))


def test_the_standard_box() -> None:
    ed = load_edition("standard")
    assert [(c.name, c.value, c.count) for c in ed.chips] == [
        ("white", 1, 40),
        ("red", 5, 8),
        ("blue", 10, 2),
    ]
    assert ed.box_points == 100
    # the sheet's two setup rules meet: 5 players share the box as 20 each, the 2-4 amount
    assert ed.deal(5) == (ed.each, 0)
    assert sum(c.count for c in ed.chips) == 50
    numbers = [[f for f in d.faces if f.isdigit()] for d in ed.dice]
    assert numbers == [["1", "6"], ["2", "5"], ["3", "4"]] * 2
    assert all(d.faces.count("C") == 1 and d.faces.count(".") == 3 for d in ed.dice)
    assert (ed.ante, ed.opponent_pays, ed.blank_pays, ed.multiplier) == (5, 5, 2, 2)
    assert (ed.min_players, ed.max_players, ed.each, ed.share_from) == (2, 10, 20, 5)


def refused(change: dict[str, Any]) -> str:
    """The error for the standard file with `change` applied (dotted keys reach inside)."""
    data = standard_data()
    for key, value in change.items():
        *path, last = key.split(".")
        target: Any = data
        for part in path:
            target = target[int(part)] if part.isdigit() else target[part]
        if value is None:
            del target[last]
        else:
            target[int(last) if last.isdigit() else last] = value
    with pytest.raises(EditionError) as info:
        parse_edition(copy.deepcopy(data), "my.toml")
    return str(info.value)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"dice": standard_data()["dice"][:5]}, "dice: a roll uses 6 dice"),
        ({"dice.0.faces": ["C", "1", "6", ".", "."]}, "dice[0].faces: a die has 6 faces"),
        ({"dice.2.faces": ["C", "X", "6", ".", ".", "."]}, "dice[2].faces[1]"),
        ({"dice.2.faces": ["C", 0, "6", ".", ".", "."]}, "dice[2].faces[1]"),
        ({"dice.1.rgb": "red"}, "dice[1].rgb: must look like"),
        ({"chips.0.count": -1}, "chips[0].count: must be at least 0"),
        ({"chips.1.value": 0}, "chips[1].value: must be at least 1"),
        ({"chips": []}, "chips: the box needs"),
        ({"payments.ante": None}, "payments: missing field 'ante'"),
        ({"payments.blank": 0}, "payments.blank: must be at least 1"),
        ({"payments.opponent": "5"}, "payments.opponent: must be a whole number"),
        ({"players.min": 1}, "players.min: must be at least 2"),
        ({"players.max": 1}, "players.max: must be at least 2"),
        ({"players.min": 4, "players.max": 3}, "players: max must be at least min (4)"),
        ({"players.share_from": 2, "players.min": 3}, "players: share_from must be at least min"),
        ({"players.each": 60}, "players.each"),
        ({"payments.ante": 25}, "payments.ante"),
        ({"id": None}, "missing field 'id'"),
    ],
)
def test_bad_files_name_the_field(change: dict[str, Any], named: str) -> None:
    message = refused(change)
    assert message.startswith("my.toml: ")
    assert named in message


def test_a_number_written_bare_is_a_face() -> None:
    data = standard_data()
    data["dice"][0]["faces"] = ["C", 1, 6, ".", ".", "."]
    assert parse_edition(data, "x").dice[0].faces == ("C", "1", "6", ".", ".", ".")


def test_a_designers_file(tmp_path: Path) -> None:
    text = resources.files("cubegames.games.cubes").joinpath("editions/standard.toml")
    body = text.read_text("utf-8").replace("opponent = 5 ", "opponent = 3 ")
    path = tmp_path / "mine.toml"
    path.write_text(body)
    game = cubegames.make("cubes", players=3, edition=str(path), referee=True)
    assert game.edition.opponent_pays == 3
    state = game.new_state(seed=1)
    state.play("roll C C . . . .")
    assert state.chips == [15, 12, 12]


def test_unknown_and_unreadable_editions(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match="unknown edition 'deluxe'"):
        load_edition("deluxe")
    with pytest.raises(EditionError, match="cannot read edition file"):
        load_edition(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("id = ")
    with pytest.raises(EditionError, match="not valid TOML"):
        load_edition(str(bad))
    with pytest.raises(ValueError, match="edition"):
        cubegames.make("cubes", edition=3)
