"""Position files: to_dict round-trips, and bad files are refused naming the field."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import cubegames
from tests.stakd.helpers import (
    FOUR_BASES,
    SIX_ON_LAYER_1,
    TWO_BASES,
    piece_entry,
    position,
    position_data,
)

HOLD = {"UNI": 2, "DUO": 2, "TRIO": 2, "QUAD": 1, "BOMBER": 2}


def test_to_dict_has_the_stable_fields() -> None:
    state = position([*TWO_BASES, (0, "DUO@1:0,0+1,0")], hands=[HOLD, HOLD], to_move=1)
    data = state.to_dict()
    assert data["game"] == "stakd"
    assert data["options"] == {"players": 2, "edition": "standard", "points_to_win": 3}
    assert data["pieces"][2] == {"type": "DUO", "owner": 0, "z": 1, "nodes": [[0, 0], [1, 0]]}
    assert data["hands"][0] == {"BASE": 0, "UNI": 2, "DUO": 2, "TRIO": 2, "QUAD": 1, "BOMBER": 2}
    assert (data["out"], data["layer"], data["to_move"], data["points"]) == ([], 1, 1, [0, 0])


def test_round_trip_through_json_and_view() -> None:
    state = cubegames.make("stakd", players=3).new_state()
    bot = cubegames.bot("random", seed=5)
    for _ in range(60):
        state.play(bot.choose(state))
    data = json.loads(json.dumps(state.to_dict()))
    again = state.game.state_from_dict(data)
    assert again.to_dict() == data
    assert again.legal_moves() == state.legal_moves()
    view = state.view(2)
    assert view == {**data, "seat": 2}
    other = state.game.determinize(view, 2, random.Random(1))
    assert other.to_dict() == data
    with pytest.raises(ValueError, match="there is no seat 3"):
        state.view(3)


def _edit(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    laid = [*FOUR_BASES, *SIX_ON_LAYER_1, (0, "DUO@2:1,0+2,0")]
    data = copy.deepcopy(position_data(laid, hands=[HOLD, HOLD], to_move=1))
    change(data)
    return data


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(key, value)


def _add(owner: int, text: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["pieces"].append(piece_entry(owner, text))


def _hand(seat: int, piece: str, n: int) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["hands"][seat].__setitem__(piece, n)


def _piece(i: int, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["pieces"][i].__setitem__(key, value)


BAD: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_set("game", "cubed"), 'field "game"'),
    (_set("options", {"players": 3}), 'field "options"'),
    (lambda d: d.pop("pieces"), 'field "pieces" is missing'),
    # overlapping nodes, on the table and on a layer
    (_add(1, "DUO@2:2,0+3,0"), r"pieces\[11\]: node 2,0 on layer 2 is already taken"),
    (
        lambda d: d["pieces"].insert(2, piece_entry(0, "BASE@0:2,0+3,0+4,0+2,1+3,1+4,1")),
        r"pieces\[2\]: node 2,0 on layer 0 is already taken",
    ),
    (_add(1, "DUO@2:5,0+6,0"), r"pieces\[11\]: overhang: node 6,0"),
    (_add(1, "DUO@2:0,2+0,3"), r"pieces\[11\]: the DUO must touch"),
    (_add(1, "DUO@1:2,2+3,2"), r"pieces\[11\].z: layer 1 was closed"),
    (_add(1, "DUO@4:0,0+1,0"), r"pieces\[11\].z: layer 4 has nothing under it"),
    (_add(1, "UNI@0:9,9"), r"pieces\[11\].z: bases and only bases"),
    (_add(1, "BOMBER@3:1,0"), r"pieces\[11\]: a new layer never starts with a BOMBER"),
    (_piece(0, "type", "HEX"), r"pieces\[0\].type: unknown piece 'HEX'"),
    (_piece(4, "owner", 2), r"pieces\[4\].owner: must be a whole number from 0 to 1"),
    (_piece(4, "nodes", [[0, 0], [1, 0], [3, 0]]), r"pieces\[4\].nodes: not the shape"),
    (_piece(4, "nodes", [[0, 0], [0, 0], [1, 0]]), r"pieces\[4\].nodes\[1\]: node 0,0"),
    (_piece(4, "nodes", [[0, 0], [1]]), r"pieces\[4\].nodes\[1\]: a node is two"),
    (lambda d: d["pieces"][4].pop("z"), r"pieces\[4\]: must be"),
    # malformed pieces: each a ValueError naming the field, never a TypeError
    (_piece(0, "type", ["BASE"]), r"pieces\[0\].type: unknown piece \['BASE'\]"),
    (_piece(0, "type", {"BASE": 1}), r"pieces\[0\].type: unknown piece"),
    (_piece(0, "type", None), r"pieces\[0\].type: unknown piece None"),
    (_piece(4, "owner", [0]), r"pieces\[4\].owner: must be a whole number"),
    (_piece(4, "owner", "0"), r"pieces\[4\].owner: must be a whole number"),
    (_piece(4, "z", 1.0), r"pieces\[4\].z: must be a whole number"),
    (_piece(4, "z", None), r"pieces\[4\].z: must be a whole number"),
    (_piece(4, "nodes", {"0": [0, 0]}), r"pieces\[4\].nodes: must be a non-empty list"),
    (_piece(4, "nodes", "0,0+1,0"), r"pieces\[4\].nodes: must be a non-empty list"),
    (_piece(4, "nodes", [[[0], 0], [1, 0]]), r"pieces\[4\].nodes\[0\]: a node is two"),
    (_piece(4, "nodes", [{"x": 0}, [1, 0]]), r"pieces\[4\].nodes\[0\]: a node is two"),
    (lambda d: d["pieces"].__setitem__(4, ["DUO", 0, 1]), r"pieces\[4\]: must be"),
    (lambda d: d["pieces"].__setitem__(4, None), r"pieces\[4\]: must be"),
    # more pieces than the box gives a player
    (_hand(0, "TRIO", 4), r"hands\[0\].TRIO: seat 0 holds 4 and has laid 1, more than the 4"),
    (_hand(1, "QUAD", 2), r"hands\[1\].QUAD: seat 1 holds 2 and has laid 1, more than the 2"),
    (_hand(0, "UNI", 13), r"hands\[0\].UNI: must be a whole number from 0 to 12"),
    (lambda d: d["hands"][0].pop("QUAD"), r"hands\[0\].QUAD is missing"),
    (_hand(0, "HEX", 1), r"hands\[0\].HEX: unknown piece"),
    (_set("hands", [HOLD]), 'field "hands": needs 2 hands'),
    (_set("layer", 1), 'field "layer": the pieces reach layer 2, not 1'),
    (_set("points", [1, 0]), 'field "points": they do not match'),
    (_set("points", [0]), 'field "points": needs 2 numbers'),
    (_set("round", 3), 'field "round_winners": 2 rounds are finished, 0 listed'),
    (_set("round", 0), 'field "round": must be a whole number'),
    (_set("out", [1, 0]), 'field "out": list each seat once, in order'),
    (_set("out", [1]), 'field "to_move": seat 1 is out'),
    (_set("out", [5]), r"out\[0\]: must be a whole number from 0 to 1"),
    (_set("to_move", None), 'field "to_move": null, but nobody has won'),
    (_set("to_move", 2), 'field "to_move": must be a whole number from 0 to 1'),
    (lambda d: d.pop("to_move"), 'field "to_move" is missing'),
    (
        lambda d: d["hands"][1].update(HOLD, UNI=0, DUO=0, TRIO=0, QUAD=0, BOMBER=0),
        'field "to_move": seat 1 has no legal placement, so it is out',
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_bad_positions_name_the_field(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    game = cubegames.make("stakd", players=2)
    game.state_from_dict(_edit(lambda d: None))  # the unchanged position is fine
    with pytest.raises(ValueError, match=message):
        game.state_from_dict(_edit(change))


def test_bases_must_follow_their_own_rules_in_a_file() -> None:
    game = cubegames.make("stakd", players=2)
    apart = position_data([(0, TWO_BASES[0][1]), (1, "BASE@0:4,0+5,0+6,0+4,1+5,1+6,1")])
    with pytest.raises(ValueError, match=r"pieces\[1\]: a base must touch"):
        game.state_from_dict(apart)
    moved = position_data([(0, "BASE@0:1,0+2,0+3,0+1,1+2,1+3,1")])
    with pytest.raises(ValueError, match=r"pieces\[0\]: the first base goes"):
        game.state_from_dict(moved)
    early = position_data(TWO_BASES, hands=[{"BASE": 1}, {"BASE": 1}], to_move=1)
    early["pieces"].append(piece_entry(0, "DUO@1:0,0+1,0"))
    early["layer"] = 1
    with pytest.raises(ValueError, match=r"hands\[0\].BASE: a base is still held"):
        game.state_from_dict(early)


def test_a_piece_on_a_terminated_piece_in_a_file() -> None:
    laid = [*FOUR_BASES, *SIX_ON_LAYER_1, (0, "DUO@2:1,0+2,0"), (1, "BOMBER@2:1,1")]
    data = position_data(laid, hands=[HOLD, HOLD])
    data["pieces"].append(piece_entry(0, "UNI@2:0,1"))
    with pytest.raises(ValueError, match=r"pieces\[12\]: the DUO under 0,1 is terminated"):
        cubegames.make("stakd").state_from_dict(data)


def test_finished_matches_read_back() -> None:
    state = cubegames.make("stakd", players=2, points_to_win=1).new_state()
    bot = cubegames.bot("random", seed=1)
    while not state.is_over:
        state.play(bot.choose(state))
    data = state.to_dict()
    assert state.game.state_from_dict(data).to_dict() == data
    data["out"] = [0]
    with pytest.raises(ValueError, match='field "out": when the match ends'):
        state.game.state_from_dict(data)
    data = state.to_dict()
    data["to_move"] = 0
    with pytest.raises(ValueError, match='field "to_move": the match is over'):
        state.game.state_from_dict(data)
