"""Hidden information against an attacker: deals that cannot be guessed, invitations that
open a seat once, and records and replays that show a seat only its own view until the
game is over."""

from __future__ import annotations

from typing import Any

import pytest

from cubegames.server.rooms import replay
from tests.server.helpers import HUMAN, Socket, TestClient, bot, connect, make_game, token

INVITED = {"kind": "human", "invite": True}


def bearer(credential: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {credential}"}


def create(client: TestClient, game: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
    response = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def test_the_server_deals_from_128_bits_of_the_operating_systems_generator(
    client: TestClient,
) -> None:
    store = client.app.state.server.store  # type: ignore[attr-defined]
    seeds = []
    for _ in range(8):
        made = create(client, "cubed", [HUMAN, INVITED], options={"rounds": 1})
        info = store.load(made["id"])
        seeds.append(info.seed)
    assert len(set(seeds)) == 8
    # 2**31 seeds can be searched from a hand in minutes; 8 draws of 128 bits all under
    # 2**100 would happen with probability 2**-224
    assert max(s.bit_length() for s in seeds) > 100
    # the deal is the one the seed gives, and it survives the database
    detail = client.get(f"/api/games/{made['id']}").json()
    assert detail["seed"] is None


def test_a_cubes_deal_keeps_its_128_bits_in_the_dice_generator(client: TestClient) -> None:
    # CUBES carries its dice generator in the position: 64 bits of state would drop half
    # of the deal's 128 (a 128-bit draw falls below 2**64 once in 2**64 deals)
    store = client.app.state.server.store  # type: ignore[attr-defined]
    for _ in range(3):
        made = create(client, "cubes", [HUMAN, INVITED])
        _, state, _ = replay(store.load(made["id"]))
        rng = state.to_dict()["rng"]
        assert len(rng) == 48 and int(rng, 16).bit_length() > 128


def test_a_seed_picked_by_a_person_is_refused_with_an_invited_player(
    client: TestClient,
) -> None:
    refused = client.post(
        "/api/games", json={"game": "cubed", "seats": [HUMAN, INVITED], "seed": 5}
    )
    assert refused.status_code == 400 and "secret deal" in refused.json()["detail"]
    # at one screen, or among bots, a seed is fine
    create(client, "cubed", [HUMAN, HUMAN], seed=5)
    create(client, "cubed", [bot(), bot()], seed=5)


def test_the_creator_gets_no_credential_for_an_invited_seat(client: TestClient) -> None:
    made = create(client, "cubed", [HUMAN, INVITED], options={"rounds": 1})
    assert "token" in made["seats"][0] and "invite" not in made["seats"][0]
    assert "token" not in made["seats"][1] and "invite" in made["seats"][1]
    invite = made["seats"][1]["invite"]
    # the invitation itself opens nothing: it must be claimed
    with connect(client, made["id"], invite) as session:
        said = Socket(session).receive()
    assert said["type"] == "error" and "does not open any seat" in said["message"]
    claimed = client.post(f"/api/games/{made['id']}/claim", json={"invite": invite})
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1
    credential = claimed.json()["token"]
    # spent: the creator (or anyone who saw the link) cannot take the seat again
    again = client.post(f"/api/games/{made['id']}/claim", json={"invite": invite})
    assert again.status_code == 409 and "already been used" in again.json()["detail"]
    # the creator's own credentials (its seat's and the host's) do not open seat 1
    path = f"/api/games/{made['id']}/replay"
    for held in (token(made, 0), made["host"], invite):
        view = client.get(path, params={"seat": 1}, headers=bearer(held))
        assert view.status_code == 403, held
    assert client.get(path, params={"seat": 1}, headers=bearer(credential)).status_code == 200
    with connect(client, made["id"], credential) as session:
        hello, _ = Socket(session).opening()
    assert hello["seat"] == 1


def test_a_foreign_invitation_is_refused_clearly(client: TestClient) -> None:
    one = create(client, "cubed", [HUMAN, INVITED])
    two = create(client, "cubed", [HUMAN, INVITED])
    foreign = client.post(
        f"/api/games/{two['id']}/claim", json={"invite": one["seats"][1]["invite"]}
    )
    assert foreign.status_code == 409 and "ask the host to reissue" in foreign.json()["detail"]


def test_the_host_reissues_a_lost_seat_visibly_to_both(client: TestClient) -> None:
    made = create(client, "cubed", [HUMAN, INVITED], options={"rounds": 1})
    game_id = made["id"]
    first = client.post(f"/api/games/{game_id}/claim", json={"invite": made["seats"][1]["invite"]})
    old = first.json()["token"]
    reissue = f"/api/games/{game_id}/seats/1/reissue"
    assert client.post(reissue).status_code == 403
    assert client.post(reissue, headers=bearer(old)).status_code == 403
    assert client.post(reissue, headers=bearer(token(made, 0))).status_code == 403
    with (
        connect(client, game_id, token(made, 0)) as host_page,
        connect(client, game_id, old) as lost,
    ):
        host_ws, lost_ws = Socket(host_page), Socket(lost)
        host_ws.opening()
        lost_ws.opening()
        again = client.post(reissue, headers=bearer(made["host"]))
        assert again.status_code == 200
        told = host_ws.until(lambda m: m["type"] == "seat")
        assert told == {"type": "seat", "seat": 1, "event": "reissued"}
        dropped = lost_ws.until(lambda m: m["type"] == "error" and m["code"] == "reissued")
        assert "reissued seat 1" in dropped["message"]
    detail = client.get(f"/api/games/{game_id}").json()
    assert detail["seats"][1]["reissued"] == 1 and detail["seats"][1]["invited"] is True
    with connect(client, game_id, old) as session:
        said = Socket(session).receive()
    assert "does not open any seat" in said["message"]
    new = client.post(f"/api/games/{game_id}/claim", json={"invite": again.json()["invite"]})
    assert new.status_code == 200 and new.json()["seat"] == 1


SEAT_KINDS = {
    "two people": [HUMAN, HUMAN],
    "a person and an invited person": [HUMAN, INVITED],
    "a person and a bot": [HUMAN, bot("random")],
    # bots slow enough that the game is still in play while the test asks (some 50 moves
    # of half a second), quick to stop when it ends
    "two bots": [bot("mcts:seconds=0.5"), bot("mcts:seconds=0.5")],
}


@pytest.mark.parametrize("kinds", SEAT_KINDS.values(), ids=SEAT_KINDS.keys())
def test_an_unfinished_games_record_and_replay_show_a_seat_only_its_own_view(
    client: TestClient, kinds: list[dict[str, Any]]
) -> None:
    made = create(client, "cubed", kinds, options={"rounds": 1})
    game_id = made["id"]
    record = f"/api/games/{game_id}/record"
    replay = f"/api/games/{game_id}/replay"
    assert client.get(record).status_code == 403
    for seat in (0, 1):
        assert client.get(replay, params={"seat": seat}).status_code == 403
    assert client.get(replay).status_code == 200  # the spectator's view
    for seat, info in enumerate(made["seats"]):
        if "token" not in info:
            continue
        own = client.get(record, headers=bearer(info["token"]))
        assert own.status_code == 200
        body = own.json()
        assert "seed" not in body and body["seat"] == seat
        assert body["format"] == "cubegames-seat-view"
        other = client.get(replay, params={"seat": 1 - seat}, headers=bearer(info["token"]))
        assert other.status_code == 403
    # the host's credential opens no record either
    assert client.get(record, headers=bearer(made["host"])).status_code == 403


def test_the_full_record_comes_once_the_game_is_over(client: TestClient) -> None:
    made = make_game(client, "cubes", [bot("random"), bot("random")], {"sets": 1})
    game_id = made["id"]
    with connect(client, game_id) as session:
        Socket(session).until(lambda m: m["type"] == "state" and m["over"], timeout=60)
    full = client.get(f"/api/games/{game_id}/record")
    assert full.status_code == 200 and full.json()["seed"] == 7


def test_a_token_in_the_address_is_refused(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/games/{made['id']}?token={token(made, 0)}") as session:
        said = Socket(session).receive()
    assert "never goes in the address" in said["message"]
    replay = client.get(
        f"/api/games/{made['id']}/replay", params={"seat": 0, "token": token(made, 0)}
    )
    assert replay.status_code == 400


def test_a_websocket_must_say_who_it_is_first(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/games/{made['id']}") as session:
        session.send_json({"type": "move", "move": "draw"})
        ws = Socket(session)
        said = ws.receive()
        closed = ws.receive()
    assert 'first message must be {"type": "auth"' in said["message"]
    assert closed == {"type": "closed", "code": 4401}
