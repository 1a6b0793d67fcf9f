"""Format 1 plays exactly as the code before format 2 did: games that code played (made by
`scripts/cubed_format1_goldens.py` at commit 35f0638, kept in `data/format1-games.json`:
3-round matches, draw3, 2 to 6 players, the web server's secret deals) replay with today's
rules in chance version 1 to the very positions that code reached, and positions it wrote
as files play on to the same ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.core import chance

DATA = Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "format1-games.json").read_text())
GAMES = GOLDEN["games"]


def label(game: dict[str, Any]) -> str:
    options = game["options"]
    return f"{options['players']}p-{'+'.join(options.get('variants', [])) or 'plain'}"


def test_the_goldens_cover_later_rounds_draw3_returns_and_secret_deals() -> None:
    """What the games below exercise (so that a thinner golden file cannot pass quietly)."""
    assert GOLDEN["made_by"] == "35f0638"
    finals = [g["final"] for g in GAMES]
    assert all(f["round"] == f["options"]["rounds"] >= 2 for f in finals)
    assert {f["options"]["players"] for f in finals} >= {2, 3, 4, 5, 6}
    assert sum(m.startswith("keep:") for g in GAMES for m in g["moves"]) >= 50
    assert sum("secret" in f for f in finals) >= 2
    assert all("version" not in f and "rng" not in f for f in finals)


@pytest.mark.parametrize("golden", GAMES, ids=label)
def test_a_game_of_chance_version_1_replays_to_the_old_codes_position(
    golden: dict[str, Any],
) -> None:
    game = cubegames.make("cubed", **golden["options"])
    state = chance.new_state(game, golden["seed"], 1)
    for move in golden["moves"]:
        state.play(move)
    assert state.to_dict() == golden["final"]
    # in chance version 2 the same seed and moves make another game (or fail to replay)
    today = game.new_state(golden["seed"])
    try:
        for move in golden["moves"]:
            today.play(move)
    except cubegames.IllegalMove:
        return
    assert today.to_dict()["hands"] != golden["final"]["hands"]


@pytest.mark.parametrize("golden", GAMES, ids=label)
@pytest.mark.parametrize("which", [0, 1], ids=["round1", "round2"])
def test_a_format_1_file_plays_on_as_it_always_would_have(
    golden: dict[str, Any], which: int
) -> None:
    file = golden["files"][which]
    game = cubegames.make("cubed", **golden["options"])
    state = game.state_from_dict(file["position"])
    assert state.to_dict() == file["position"]
    for move in golden["moves"][file["ply"] :]:
        state.play(move)
    assert state.to_dict() == golden["final"]


def test_the_file_written_before_format_2_plays_on_to_the_old_codes_end() -> None:
    """data/format1-round2.json: a server-dealt game (with its secret) in round 2 of 3,
    written by the code before format 2, played on to its end by that code's moves."""
    data = json.loads((DATA / "format1-round2.json").read_text())
    assert "version" not in data and "rng" not in data and "secret" in data
    game = cubegames.make("cubed", **data["options"])
    state = game.state_from_dict(data)
    assert state.to_dict() == data
    for move in GOLDEN["round2_file"]["moves"]:
        state.play(move)
    assert state.is_over and state.round == 3
    assert state.to_dict() == GOLDEN["round2_file"]["final"]
