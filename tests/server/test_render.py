"""The SVG drawings: made from one seat's view, they point out exactly the legal moves,
and every colour carries its letter."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cubegames
from cubegames.core.game import State
from cubegames.core.registry import games
from cubegames.render import svg, web

NS = {"s": "http://www.w3.org/2000/svg"}


def positions(game_id: str, options: dict[str, Any], plies: int = 80) -> Iterator[State[Any]]:
    """Positions along a seeded random game, every few moves, and its end."""
    state = cubegames.make(game_id, **options).new_state(seed=2)
    rng = random.Random(1)
    for ply in range(plies):
        if ply % 7 == 0:
            yield state.clone()
        if state.is_over:
            return
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    yield state


def examples() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for facts in games():  # the plug-in (tests/plugin_game) too: its generic drawing
        found += [(facts.id, dict(options)) for options in facts.example_options[:3]]
    return found


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def with_attr(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in el.attrib]


@pytest.mark.parametrize(("game_id", "options"), examples())
def test_every_seat_and_spectator_gets_a_well_formed_drawing(
    game_id: str, options: dict[str, Any]
) -> None:
    for state in positions(game_id, options):
        for seat in [None, *range(state.game.players)]:
            drawing = svg(state, seat)
            root = parse(drawing)
            assert root.tag == "{http://www.w3.org/2000/svg}svg"
            assert f"cg-{game_id}" in root.attrib["class"]
            view = state.public_view() if seat is None else state.view(seat)
            legal = state.legal_moves() if seat is not None and seat == state.to_move else []
            assert drawing == web.draw(state.game, view, legal)


def test_cubed_shows_the_viewers_hand_and_where_its_pieces_go() -> None:
    for state in positions("cubed", {"players": 3, "rounds": 1}):
        if state.is_over:
            continue
        seat = state.to_move
        root = parse(svg(state, seat))
        hand = [el.attrib["data-piece"] for el in with_attr(root, "data-piece")]
        assert hand == state.view(seat)["hands"][seat]
        open_cells = {
            el.attrib["data-cell"]
            for el in with_attr(root, "data-cell")
            if "open" in el.attrib.get("class", "").split()
        }
        places = {f"{m.q},{m.r}" for m in state.legal_moves() if hasattr(m, "slots")}
        assert open_cells == places
        # each seat sees its own hand only; a spectator sees none
        for other in range(3):
            drawn = [
                el.attrib["data-piece"] for el in with_attr(parse(svg(state, other)), "data-piece")
            ]
            assert drawn == state.to_dict()["hands"][other]
        assert not with_attr(parse(svg(state)), "data-hand")


def test_every_cubed_diamond_carries_its_colours_letter() -> None:
    game = cubegames.make("cubed", players=2, rounds=1)
    ed = game.edition
    rgb = {c.rgb: c.letter for c in ed.colours}
    state = list(positions("cubed", {"players": 2, "rounds": 1}))[-2]
    root = parse(svg(state, 0))
    groups = list(root.iter("{http://www.w3.org/2000/svg}g"))
    checked = 0
    for group in groups:
        diamonds = group.findall("s:polygon[@data-slot]", NS)
        letters = group.findall("s:text", NS)
        if len(diamonds) != 3:
            continue
        for diamond, letter in zip(diamonds, letters, strict=True):
            assert rgb[diamond.attrib["fill"]] == letter.text
            checked += 1
    assert checked >= 3 * 25


def test_unstackable_points_out_targets_then_removable_cubes() -> None:
    for state in positions("unstackable", {}, plies=200):
        if state.is_over:
            continue
        root = parse(svg(state, state.to_move))
        legal = [str(m) for m in state.legal_moves()]
        if "@" in legal[0]:
            targets = {
                el.attrib["data-cell"]
                for el in with_attr(root, "data-cell")
                if "target" in el.attrib.get("class", "")
            }
            assert targets == {m.split("@")[1] for m in legal}
        else:
            assert {el.attrib["data-move"] for el in with_attr(root, "data-move")} == set(legal)


def test_stakd_marks_the_nodes_of_every_legal_placement() -> None:
    for state in positions("stakd", {"players": 2}):
        if state.is_over:
            continue
        root = parse(svg(state, state.to_move))
        marked = {
            (el.attrib["data-z"], el.attrib["data-node"])
            for el in with_attr(root, "data-node")
            if "open" in el.attrib.get("class", "").split()
        }
        wanted = {(str(m.z), f"{x},{y}") for m in state.legal_moves() for x, y in m.nodes}
        assert marked == wanted


def test_cubes_tells_each_roll_in_words() -> None:
    state = cubegames.make("cubes", players=3).new_state(seed=5)
    assert "No roll yet." in svg(state, 0)
    state.play("roll")
    said = web.tell(state.game, state.view(1))
    assert said is not None and said[:60] in svg(state, 1)
    assert web.words(state.game, "roll", 0, 1) == "Seat 0 rolled."


def test_words_keep_secret_what_a_seat_may_not_know() -> None:
    game = cubegames.make("cubed", players=3, variants=["draw3", "void"], rounds=1)
    assert web.words(game, "keep:GPY", 1, 1) == "You kept the green, purple and yellow piece."
    assert web.words(game, "keep:GPY", 1, 0) == "Seat 1 kept one of the drawn pieces."
    assert (
        web.words(game, "give:GPY>2", 1, 2)
        == "Seat 1 gave a green, purple and yellow piece to you."
    )
    assert web.words(game, "give:GPY>2", 1, 0) == "Seat 1 gave a piece to seat 2."
    assert web.words(game, "give:GPY>2", 1, None) == "Seat 1 gave a piece to seat 2."
    assert not web.visible(game, "keep:GPY", 1, 0) and web.visible(game, "keep:GPY", 1, 1)
    assert web.visible(game, "GPY@1,0", 1, None)


#: what notation looks like: a cell or node (1,-2), a move's @ or a variant's colon
NOTATION = re.compile(r"-?\d+,-?\d+|@|\w:\w|>\d")


@pytest.mark.parametrize(("game_id", "options"), examples())
def test_the_log_reads_like_a_person_telling_the_game(
    game_id: str, options: dict[str, Any]
) -> None:
    game = cubegames.make(game_id, **options)
    state = game.new_state(seed=3)
    rng = random.Random(4)
    seen = 0
    while not state.is_over and seen < 60:
        moves = state.legal_moves()
        move = str(moves[rng.randrange(len(moves))])
        mover = state.to_move
        assert mover is not None
        for viewer in [None, *range(game.players)]:
            said = web.words(game, move, mover, viewer)
            assert not NOTATION.search(said), (move, said)
            assert said[0].isupper() and said.endswith(".") and len(said) < 110, said
            if re.search(r"[@:,]", move):
                assert move not in said, (move, said)
        state.play(move)
        seen += 1
    assert seen > 0


def test_cubed_places_are_named_from_the_first_piece_one_name_a_cell() -> None:
    """Each cell near the first piece gets its own name, and the names go the way the
    table is drawn: up is a row above (r - 1), right is half a cell per q + r/2."""
    from cubegames.games.cubed.web import centre, place_words

    names = {}
    for q in range(-6, 7):
        for r in range(-6, 7):
            name = place_words(q, r)
            assert name not in names, (name, names.get(name), (q, r))
            names[name] = (q, r)
            x, y = centre(q, r, 1.0)
            if y < 0:
                assert f"{-r} row" in name and ("up" in name or "above" in name), name
            if y > 0:
                assert f"{r} row" in name and ("down" in name or "below" in name), name
            if round(x, 6) > 0:
                assert "right" in name, name
            if round(x, 6) < 0:
                assert "left" in name, name
    assert place_words(1, 0) == "1 cell right of the first piece"
    assert place_words(-5, 3) == "3 rows down, 3½ cells left of the first piece"


def test_the_log_names_pieces_cubes_and_layers_in_words() -> None:
    cubed = cubegames.make("cubed", players=2)
    assert web.words(cubed, "GPY@0,0", 0, 1) == (
        "Seat 0 laid a green, purple and yellow piece in the middle of the table."
    )
    assert web.words(cubed, "GGG@1,-1", 1, 1) == (
        "You laid an all-green piece 1 row up, ½ cell right of the first piece."
    )
    # where a piece went is as open as the table: every seat and spectator reads it
    for viewer in (0, 1, None):
        assert web.words(cubed, "GPY@-3,2", 0, viewer).endswith(
            " laid a green, purple and yellow piece 2 rows down, 2 cells left of the first piece."
        )
    assert web.words(cubed, "draw", 1, 0) == "Seat 1 drew a piece."
    unstackable = cubegames.make("unstackable", players=2)
    # where, on the board fixed for the game, in the words of the page's hovers
    # (tests/server/test_page_modules.py reads the page's words for the same cells)
    first = ["R@0,0,0"]
    assert web.words(unstackable, "R@0,0,0", 0, 1) == (
        "Seat 0 stacked a red cube on the bottom layer at D4 (columns A–G left to right, "
        "rows 1–7 front to back)."
    )
    assert web.words(unstackable, "R@0,2,0", 0, 1, first) == (
        "Seat 0 stacked a red cube on the bottom layer at D6."
    )
    assert web.words(unstackable, "1,0,2", 1, 1, first) == "You took a cube out of layer 2 at E4."
    # a cube stacked before the structure is named where it lands; the structure shifts,
    # its cubes keep their names
    assert web.words(unstackable, "Y@-1,0,0", 0, 0, first) == (
        "You stacked a yellow cube on the bottom layer at C4."
    )
    assert web.words(unstackable, "K@1,0,1", 1, 0, [*first, "Y@-1,0,0"]).endswith(
        " on layer 1 at D4."
    )
    assert web.words(unstackable, "end", 0, 1) == "Seat 0 ended the turn."
    assert web.words(unstackable, "end", 0, 0) == "You ended the turn."
    stakd = cubegames.make("stakd", players=2)
    assert web.words(stakd, "DUO@1:0,0+1,0", 1, 0) == "Seat 1 laid a DUO on layer 1."


def test_unstackable_names_a_cube_alike_from_its_stacking_to_the_end() -> None:
    """A cube keeps its name however the structure shifts: the name said when it was
    stacked names the same cell of the finished structure (issue #23: moves 1 and 3 were
    both "row 1 from the front, 1st from the left")."""
    from cubegames.games.unstackable.web import frame_of, place_words

    for seed in range(6):
        game = cubegames.make("unstackable", players=2)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        said: dict[str, str] = {}  # a cube's name when stacked -> its colour
        moves: list[str] = []
        while state.to_dict()["stage"] == "stack":
            move = str(rng.choice(state.legal_moves()))
            if "@" in move:
                colour, cell = move.split("@")
                x, y, z = (int(v) for v in cell.split(","))
                name = place_words(x, y, z, frame_of(moves))
                assert name not in said, (seed, name)
                said[name] = colour
            moves.append(move)
            state.play(move)
        grid = state.to_dict()["grid"]
        frame = frame_of(moves)
        final = {
            place_words(i % 4, i // 4 % 4, i // 16, frame): letter
            for i, letter in enumerate(grid)
            if letter != "."
        }
        assert said.items() <= final.items(), seed
        assert any(m.startswith(("Y@-1", "R@-1", "K@-1")) or ",-1," in m for m in moves), seed


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("cubed", {"players": 3, "variants": ("draw3", "void")}),
        ("unstackable", {}),
        ("stakd", {"players": 2}),
        ("cubes", {"players": 2}),
        ("nim", {}),
    ],
)
def test_a_move_worded_once_reads_as_its_words_and_its_phrase(
    game_id: str, options: dict[str, Any]
) -> None:
    """`web.worded` (what the server sends) is `words` and `described` of the same move,
    for every seat and a spectator: a phrase's English is the move's words."""
    game = cubegames.make(game_id, **options)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    earlier: list[str] = []
    told = 0
    while not state.is_over and len(earlier) < 60:
        mover = state.to_move
        assert mover is not None
        moves = state.legal_moves()
        move = str(moves[rng.randrange(len(moves))])
        for viewer in [None, *range(game.players)]:
            text, phrase = web.worded(game, move, mover, viewer, earlier)
            assert text == web.words(game, move, mover, viewer, earlier)
            described = web.described(game, move, mover, viewer, earlier)
            assert web.said(phrase) == web.said(described)
            told += 1
        state.play(move)
        earlier.append(move)
    assert told > 10


@given(
    st.lists(
        st.one_of(
            st.tuples(st.sampled_from("RYK"), *[st.integers(-1, 4)] * 3).map(
                lambda m: f"{m[0]}@{m[1]},{m[2]},{m[3]}"
            ),
            st.tuples(*[st.integers(0, 4)] * 3).map(lambda m: f"{m[0]},{m[1]},{m[2]}"),
            st.just("end"),
        ),
        max_size=40,
    )
)
def test_unstackable_frame_counts_each_cube_stacked_before_the_structure(moves: list[str]) -> None:
    """`frame_of` (read in the moves' text at once) counts, move by move, each cube
    stacked in the column (`x = -1`) or the row (`y = -1`) before the structure."""
    from cubegames.games.unstackable.web import frame_of

    stacked = [m.split("@")[1].split(",") for m in moves if "@" in m]
    assert frame_of(moves) == (
        sum(x == "-1" for x, _y, _z in stacked),
        sum(y == "-1" for _x, y, _z in stacked),
    )
