"""Games of chance version 2 (dealt by the releases before version 3, whose CUBED first deal
Python's generator shuffled) replay on the server exactly as they were played: a record of
one loads as version 2, is stored with its version, and the stored game rebuilds, in the
room, the replays and its record, to the very position version 2 reached
(`tests/cubed/data/chance2-games.json`, made by that code). A game made now is of the
current version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.core import chance
from cubegames.server.records import to_record
from cubegames.server.replays import Replays
from cubegames.server.rooms import replay
from cubegames.server.storage import Store
from tests.server.helpers import HUMAN, TestClient, make_game

GOLDEN = json.loads(
    (Path(__file__).parents[1] / "cubed" / "data" / "chance2-games.json").read_text()
)
#: a 3-player draw3 match of three rounds, dealt from a 128-bit seed as the server deals
#: them, and a plain 2-player match
PICKED = [GOLDEN["games"][1], GOLDEN["games"][0]]


def _record(golden: dict[str, Any], version: int | None) -> dict[str, Any]:
    game = cubegames.make("cubed", **golden["options"])
    record = {
        "format": "cubegames-record",
        "version": 1,
        "game": "cubed",
        "options": game.options,
        "seed": golden["seed"],
        "seats": [{"kind": "human"}] * game.players,
        "moves": golden["moves"],
    }
    if version is not None:
        record["chance"] = version
    return record


@pytest.mark.parametrize("golden", PICKED, ids=["3p-draw3-server-deal", "2p-3rounds"])
def test_a_record_and_a_stored_game_of_chance_version_2_replay_move_for_move(
    golden: dict[str, Any], client: TestClient, db_url: str
) -> None:
    made = client.post("/api/records", content=json.dumps(_record(golden, 2)))
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    game = cubegames.make("cubed", **golden["options"])
    end = game.state_from_dict(golden["final"])
    plies = len(golden["moves"])
    for seat in range(game.players):
        seen = client.get(f"/api/games/{game_id}/replay", params={"ply": plies, "seat": seat})
        assert seen.json()["view"] == end.view(seat) and seen.json()["over"]
    assert client.get(f"/api/games/{game_id}/record").json()["chance"] == 2
    store = Store(db_url)
    try:
        info = store.load(game_id)
        assert info is not None and info.chance == 2
        # the room's rebuild and the replays', move for move, to the very position
        assert replay(info)[1].to_dict() == golden["final"]
        replays = Replays()
        ply = golden["file"]["ply"]
        assert replays.at(info, ply)[1].to_dict() == golden["file"]["position"]
        assert replays.at(info, plies)[1].to_dict() == golden["final"]
        assert to_record(info)["chance"] == 2
    finally:
        store.close()


def test_the_same_record_claimed_as_the_current_version_is_another_game(
    client: TestClient,
) -> None:
    golden = PICKED[0]
    other = client.post("/api/records", content=json.dumps(_record(golden, chance.CURRENT)))
    if other.status_code == 201:
        final = client.get(
            f"/api/games/{other.json()['id']}/replay",
            params={"ply": len(golden["moves"]), "seat": 0},
        ).json()
        end = cubegames.make("cubed", **golden["options"]).state_from_dict(golden["final"])
        assert final["view"] != end.view(0)
    else:
        assert other.status_code == 400 and "is refused" in other.json()["detail"]


def test_a_game_made_now_is_of_the_current_chance_version(client: TestClient, db_url: str) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN], {"players": 2})
    store = Store(db_url)
    try:
        info = store.load(made["id"])
        assert info is not None and info.chance == chance.CURRENT == 3
        assert (
            replay(info)[1].to_dict()
            == chance.new_state(cubegames.make("cubed", players=2), info.seed, 3).to_dict()
        )
    finally:
        store.close()
