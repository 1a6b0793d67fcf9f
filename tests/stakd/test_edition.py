"""STAKD edition files: shapes and counts as data, validated with the field named."""

from __future__ import annotations

from pathlib import Path

import pytest

import cubegames
from cubegames.games.stakd import EditionError, PieceType, load_edition
from cubegames.games.stakd.edition import parse_edition

STANDARD = (Path(cubegames.__file__).parent / "games/stakd/editions/standard.toml").read_text()


def test_standard_counts_follow_the_rules_table() -> None:
    ed = load_edition("standard")
    table = {
        1: (2, 16, 10, 6, 4, 1),
        2: (2, 12, 8, 4, 2, 2),
        3: (1, 6, 4, 2, 1, 2),
        4: (1, 6, 4, 2, 1, 2),
        5: (1, 4, 3, 2, 1, 2),
        6: (1, 4, 3, 2, 1, 2),
        7: (1, 4, 3, 2, 1, 2),
        8: (1, 4, 3, 2, 1, 2),
    }
    for players, row in table.items():
        assert tuple(ed.counts[players].values()) == row
        assert list(ed.counts[players]) == list(PieceType)


def test_turns_are_generated_and_deduplicated() -> None:
    ed = load_edition("standard")
    assert [len(ed.turns[t]) for t in PieceType] == [2, 1, 2, 2, 1, 1]
    assert ed.turns[PieceType.BASE][1] == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))


def test_a_changed_shape_changes_the_moves(tmp_path: Path) -> None:
    # an L-shaped TRIO has four turns; the engine must take them from the file
    text = STANDARD.replace("TRIO = [[0, 0], [1, 0], [2, 0]]", "TRIO = [[0, 0], [1, 0], [0, 1]]")
    path = tmp_path / "ell.toml"
    path.write_text(text)
    ed = load_edition(str(path))
    assert len(ed.turns[PieceType.TRIO]) == 4
    state = cubegames.make("stakd", players=1, edition=str(path)).new_state()
    state.play("BASE@0:0,0+1,0+2,0+0,1+1,1+2,1")
    state.play("BASE@0:3,0+4,0+5,0+3,1+4,1+5,1")
    assert "TRIO@1:0,0+0,1+1,0" in [str(m) for m in state.legal_moves()]
    assert state.refusal(cubegames.make("stakd").parse_move("TRIO@1:0,0+1,0+2,0")) == (
        "0,0+1,0+2,0 is not the shape of a TRIO (0,0+0,1+1,0, turned by 90° or not)"
    )


def _broken(old: str, new: str) -> str:
    assert old in STANDARD
    return STANDARD.replace(old, new)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_broken('id = "standard"\n', ""), "test.toml: missing field 'id'"),
        (_broken("new_layer_after = 6", "new_layer_after = 0"), "new_layer_after: must be at"),
        (_broken("new_layer_after = 6", 'new_layer_after = "6"'), "new_layer_after: must be a"),
        (_broken("UNI = [[0, 0]]\n", ""), "shapes: missing field 'UNI'"),
        (_broken("UNI = [[0, 0]]", "HEX = [[0, 0]]"), "shapes: unknown piece 'HEX'"),
        (_broken("DUO = [[0, 0], [1, 0]]", "DUO = [[0, 0], [2, 0]]"), "shapes.DUO: the nodes"),
        (_broken("DUO = [[0, 0], [1, 0]]", "DUO = [[0, 0], [0, 0]]"), "shapes.DUO: a node is"),
        (_broken("DUO = [[0, 0], [1, 0]]", "DUO = [[0, 0], [1]]"), r"shapes.DUO\[1\]: a node"),
        (_broken("DUO = [[0, 0], [1, 0]]", "DUO = [[0, 0], [99, 0]]"), r"DUO\[1\]: keep nodes"),
        (_broken("DUO = [[0, 0], [1, 0]]", "DUO = []"), "shapes.DUO: must be a non-empty"),
        (_broken("2 = { BASE = 2,", "2 = { BASE = 0,"), "counts.2.BASE: every player needs"),
        (_broken("2 = { BASE = 2,", "2 = { BASE = true,"), "counts.2.BASE: must be a whole"),
        (
            _broken("2 = { BASE = 2, UNI = 12,", "2 = { BASE = 2, UNI = -1,"),
            "counts.2.UNI: must be at",
        ),
        (_broken("QUAD = 2, BOMBER = 2 }", "QUAD = 2 }"), "counts.2: missing field 'BOMBER'"),
        (_broken("8 = {", "9 = {"), "counts.9: keys are numbers of players"),
        (_broken("8 = {", "eight = {"), "counts.eight: keys are numbers"),
        (_broken("1 = { BASE = 2,", "1 = { BASE = 2, HEX = 1,"), "counts.1: unknown piece 'HEX'"),
    ],
)
def test_bad_files_name_the_field(text: str, message: str) -> None:
    import tomllib

    with pytest.raises(EditionError, match=message):
        parse_edition(tomllib.loads(text), "test.toml")


def test_unknown_or_unreadable_editions(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match="unknown edition 'deluxe'"):
        load_edition("deluxe")
    with pytest.raises(EditionError, match="cannot read edition file"):
        load_edition(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("id = ")
    with pytest.raises(EditionError, match="not valid TOML"):
        load_edition(str(bad))


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="plays 1 to 8 players, not 9"):
        cubegames.make("stakd", players=9)
    with pytest.raises(ValueError, match="points_to_win must be from 1 to 10"):
        cubegames.make("stakd", points_to_win=0)
    with pytest.raises(ValueError, match="solo play is a single round"):
        cubegames.make("stakd", players=1, points_to_win=3)
    with pytest.raises(ValueError, match="players must be a whole number"):
        cubegames.make("stakd", players="two")
    assert cubegames.make("stakd", players=1).options["points_to_win"] == 1
