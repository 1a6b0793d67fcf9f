"""The box data file: its numbers, and clear errors for a bad one."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from typing import Any

import pytest

from cubegames.games.unstackable import BoxError, Colour, load_box, parse_box

TEXT = resources.files("cubegames.games.unstackable").joinpath("editions/standard.toml")
DATA: dict[str, Any] = tomllib.loads(TEXT.read_text("utf-8"))


def test_the_standard_box() -> None:
    box = load_box()
    assert box.count == {Colour.YELLOW: 3, Colour.RED: 16, Colour.BLACK: 45}
    assert box.per_turn == {Colour.YELLOW: 1, Colour.RED: 2, Colour.BLACK: 3}
    assert box.points[0] == {Colour.YELLOW: 5, Colour.RED: 3, Colour.BLACK: 0}
    assert box.points[1] == {Colour.YELLOW: 0, Colour.RED: 0, Colour.BLACK: 1}
    assert load_box() is box  # read once


def test_unknown_box() -> None:
    with pytest.raises(BoxError, match="unknown box 'deluxe'"):
        load_box("deluxe")


def edited(path: list[str], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(DATA)
    here = data
    for key in path[:-1]:
        here = here[key]
    if value is None:
        del here[path[-1]]
    else:
        here[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["name"], 7, "t.toml: name: must be text"),
        (["colours", "R"], None, "t.toml: colours: colour R is missing"),
        (["colours", "G"], {"name": "green"}, "t.toml: colours: unknown colour 'G'"),
        (["colours", "K", "count"], 44, "the counts add up to 63, but the cube has 64 cells"),
        (["colours", "Y", "count"], -1, "colours.Y.count: must be at least 0"),
        (
            ["colours", "R", "per_turn"],
            0,
            "colours.R.per_turn: must be at least 1",
        ),
        (["colours", "R", "rgb"], "red", "colours.R.rgb: must look like #12ab3f"),
        (["colours", "R", "name"], None, "colours.R: missing field 'name'"),
        (["colours", "K"], 3, "colours.K: must be a table"),
        (["points", "pile3"], {"Y": 1, "R": 1, "K": 1}, "points: must have exactly"),
        (["points", "pile1", "Y"], 2.5, "points.pile1.Y: must be a whole number"),
        (["points", "pile2", "K"], True, "points.pile2.K: must be a whole number"),
    ],
)
def test_bad_box_files_name_the_field(path: list[str], value: Any, message: str) -> None:
    with pytest.raises(BoxError, match=message):
        parse_box(edited(path, value), "t.toml")
