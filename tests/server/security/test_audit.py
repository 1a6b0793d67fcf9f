"""An attacker's second look at the server after protocol 2, group commit and the bus:
each test here is an attack that worked before its fix."""

from __future__ import annotations

import json

from tests.server.helpers import HUMAN, TestClient, make_game

RECORD = {
    "format": "cubegames-record",
    "version": 1,
    "game": "cubed",
    "options": {},
    "seed": 3,
    "seats": [{"kind": "human"}, {"kind": "human"}],
    "moves": [],
}


def test_a_record_with_a_number_too_long_to_read_is_a_clear_400(client: TestClient) -> None:
    """Python refuses to read an integer of more than 4300 digits with a ValueError that
    is not a JSONDecodeError: a record whose seed had 5000 digits was a 500."""
    body = json.dumps(RECORD).replace('"seed": 3', '"seed": ' + "1" * 5000)
    answer = client.post("/api/records", content=body)
    assert answer.status_code == 400, answer.text
    assert "number" in answer.json()["detail"]


def test_a_picked_seed_cannot_reach_a_remote_player_through_a_reissued_seat(
    client: TestClient,
) -> None:
    """A seed you pick is refused with an invited seat, but a game made with a seed and
    every seat at one screen has a host, who could reissue seat 1 as an invitation for a
    friend: the maker, knowing the seed, then knew the friend's hand. A game whose deal
    was picked keeps its seats at one screen."""
    made = make_game(client, "cubed", [HUMAN, HUMAN], seed=5)
    reissue = client.post(
        f"/api/games/{made['id']}/seats/1/reissue",
        headers={"Authorization": f"Bearer {made['host']}"},
    )
    assert reissue.status_code == 409, reissue.text
    assert "picked" in reissue.json()["detail"]
    # a secret deal's host may still reissue a seat
    secret = client.post("/api/games", json={"game": "cubed", "seats": [HUMAN, HUMAN]}).json()
    again = client.post(
        f"/api/games/{secret['id']}/seats/1/reissue",
        headers={"Authorization": f"Bearer {secret['host']}"},
    )
    assert again.status_code == 200 and again.json()["invite"]
