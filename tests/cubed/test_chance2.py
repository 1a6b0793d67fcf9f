"""Chance version 2 plays exactly as the code before version 3 did: games that code played
(made by `scripts/cubed_chance2_goldens.py` at commit 81da904, kept in
`data/chance2-games.json`: 3-round matches, draw3, 2 to 5 players, solo, the web server's
128-bit deals) replay with today's rules in chance version 2 move for move to the very
positions that code reached, and positions it wrote as files play on to the same ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.core import chance

GOLDEN = json.loads((Path(__file__).parent / "data" / "chance2-games.json").read_text())
GAMES = GOLDEN["games"]


def label(game: dict[str, Any]) -> str:
    options = game["options"]
    variants = "+".join(options.get("variants", [])) or "plain"
    return f"{options['players']}p-{options.get('edition', 'en')}-{variants}-{game['seed'] % 1000}"


def test_the_goldens_cover_later_rounds_draw3_returns_solo_and_secret_deals() -> None:
    """What the games below exercise (so that a thinner golden file cannot pass quietly)."""
    assert GOLDEN["made_by"] == "81da904"
    finals = [g["final"] for g in GAMES]
    assert sum(f["round"] >= 2 for f in finals) >= 3
    assert {f["options"]["players"] for f in finals} >= {1, 2, 3, 4, 5}
    assert sum(m.startswith("keep:") for g in GAMES for m in g["moves"]) >= 10
    assert sum(len(f["rng"]) == 48 for f in finals) >= 2  # the server's 128-bit deals
    assert all(f["version"] == 2 for f in finals)


@pytest.mark.parametrize("golden", GAMES, ids=label)
def test_a_game_of_chance_version_2_replays_move_for_move(golden: dict[str, Any]) -> None:
    game = cubegames.make("cubed", **golden["options"])
    state = chance.new_state(game, golden["seed"], 2)
    for ply, move in enumerate(golden["moves"], 1):
        state.play(move)
        if ply == golden["file"]["ply"]:
            assert state.to_dict() == golden["file"]["position"]
    assert state.to_dict() == golden["final"]
    # in chance version 3 the same seed and moves make another game (or fail to replay)
    today = game.new_state(golden["seed"])
    assert today.to_dict() != chance.new_state(game, golden["seed"], 2).to_dict()
    try:
        for move in golden["moves"]:
            today.play(move)
    except cubegames.IllegalMove:
        return
    assert today.to_dict() != golden["final"]


@pytest.mark.parametrize("golden", GAMES, ids=label)
def test_a_file_written_in_chance_version_2_plays_on_as_it_would_have(
    golden: dict[str, Any],
) -> None:
    """The position format did not change with chance version 3: a file of version 2 loads
    as it was written and its later draws are the ones version 2 made."""
    file = golden["file"]
    game = cubegames.make("cubed", **golden["options"])
    state = game.state_from_dict(file["position"])
    assert state.to_dict() == file["position"]
    for move in golden["moves"][file["ply"] :]:
        state.play(move)
    assert state.to_dict() == golden["final"]
