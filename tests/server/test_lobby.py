"""The lobby: public tables listed while a seat is free, taken with one request; quick play
matching a waiting table or opening one; the lobby's websocket, its caps and its
refusals; the public list of games; a picked deal told everywhere and stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cubegames.server.app import create_app
from cubegames.server.limits import Limits
from cubegames.server.storage import Store
from tests.server.helpers import HUMAN, Socket, TestClient, bot, connect, token
from tests.server.test_api import finished_record

INVITED = {"kind": "human", "invite": True}
TEN_FIVE = {"kind": "realtime", "minutes": 10, "increment": 5}


def public_table(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"game": "cubed", "seats": seats, "public": True, **extra}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def lobby(client: TestClient) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = client.get("/api/lobby").json()["tables"]
    return tables


def test_a_public_table_is_listed_with_its_settings_until_its_seats_are_taken(
    client: TestClient,
) -> None:
    private = client.post(
        "/api/games", json={"game": "cubed", "seats": [HUMAN, INVITED]}
    ).json()  # the default: by invitation only, as before
    made = public_table(
        client,
        [{"kind": "human", "name": "Ana"}, INVITED, bot("greedy")],
        options={"players": 3, "edition": "ja"},
        clock=TEN_FIVE,
    )
    [table] = lobby(client)
    assert table["id"] == made["id"] and table["game"] == "cubed"
    assert table["options"]["edition"] == "ja" and table["players"] == 3
    assert table["free"] == 1
    assert [s["kind"] for s in table["seats"]] == ["human", "human", "bot"]
    assert table["clock"] == {"kind": "realtime", "bank": 600.0, "increment": 5.0}
    assert table["host"] == {"seat": 0, "name": "Ana"}
    assert table["rated"] is False and table["host_rating"] is None
    assert table["deal_picked"] is False
    # nothing in an entry is a secret: no token, invitation or seed
    text = json.dumps(table)
    for secret in (made["host"], made["seats"][0]["token"], made["seats"][1]["invite"]):
        assert secret not in text
    joined = client.post(f"/api/games/{made['id']}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    assert lobby(client) == []  # full: no longer open
    # the credential opens the seat, as a claimed invitation's does
    with connect(client, made["id"], joined.json()["token"]) as session:
        hello, _ = Socket(session).opening()
        assert hello["seat"] == 1 and hello["seats"][1]["name"] == "Bo"
        assert hello["public"] is True
        assert hello["takebacks"] is True  # an unrated CUBED table: moves may be taken back
    # the invitation the host still holds opens nothing more
    claim = client.post(
        f"/api/games/{made['id']}/claim", json={"invite": made["seats"][1]["invite"]}
    )
    assert claim.status_code == 409
    assert private["id"] not in {t["id"] for t in lobby(client)}


def test_the_public_list_of_games_shows_only_public_games_and_a_pages_own(
    client: TestClient,
) -> None:
    private = client.post("/api/games", json={"game": "cubes", "seats": [HUMAN, HUMAN]}).json()
    shown = public_table(client, [HUMAN, bot()])  # public, no free seat: in play, not open
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [shown["id"]] and listed[0]["public"] is True
    assert lobby(client) == []
    mine = client.get(f"/api/games?ids={private['id']},nonsense").json()
    assert {g["id"] for g in mine} == {private["id"], shown["id"]}
    assert client.get(f"/api/games?ids={'x,' * 2000}").status_code == 400


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"name": "x" * 41}, "name"),
        ({"name": 7}, "name"),
        ({"name": None, "seat": 0}, "seat"),
        ({"name": "A\x00b"}, "control"),
    ],
)
def test_a_bad_join_is_refused_and_changes_nothing(
    client: TestClient, body: dict[str, Any], reason: str
) -> None:
    made = public_table(client, [HUMAN, INVITED])
    answer = client.post(f"/api/games/{made['id']}/join", json=body)
    assert answer.status_code == 400 and reason in answer.json()["detail"]
    assert lobby(client)[0]["free"] == 1
    garbage = client.post(
        f"/api/games/{made['id']}/join",
        content=b"[" * 5000,
        headers={"content-type": "application/json"},
    )
    assert garbage.status_code == 400
    assert lobby(client)[0]["free"] == 1


def test_joins_are_refused_where_there_is_no_free_public_seat(client: TestClient) -> None:
    private = client.post("/api/games", json={"game": "cubed", "seats": [HUMAN, INVITED]}).json()
    refused = client.post(f"/api/games/{private['id']}/join", json={})
    assert refused.status_code == 403 and "not public" in refused.json()["detail"]
    assert client.post("/api/games/nothing/join", json={}).status_code == 404
    made = public_table(client, [HUMAN, INVITED])
    assert client.post(f"/api/games/{made['id']}/join", json={}).status_code == 200
    full = client.post(f"/api/games/{made['id']}/join", json={})
    assert full.status_code == 409 and "taken" in full.json()["detail"]


def test_joins_are_bounded_per_address(db_url: str) -> None:
    limits = Limits(seat_changes_per_client=2)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as client:
        tables = [public_table(client, [HUMAN, INVITED]) for _ in range(3)]
        for made in tables[:2]:
            assert client.post(f"/api/games/{made['id']}/join", json={}).status_code == 200
        held = client.post(f"/api/games/{tables[2]['id']}/join", json={})
        assert held.status_code == 429 and "Retry-After" in held.headers
        assert lobby(client)[0]["id"] == tables[2]["id"]  # still free


def test_one_address_keeps_only_a_few_public_tables_waiting(db_url: str) -> None:
    """A stranger may not fill the lobby with tables nobody plays: once an address has
    `open_tables_per_client` public tables waiting for players, it opens no more (by
    POST /api/games or quick play) until one fills or ends; private tables and tables
    with no free seat are not counted."""
    limits = Limits(open_tables_per_client=2)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as client:
        first, second = (public_table(client, [HUMAN, INVITED]) for _ in range(2))
        refused = client.post(
            "/api/games", json={"game": "cubed", "seats": [HUMAN, INVITED], "public": True}
        )
        assert refused.status_code == 429
        assert refused.json()["code"] == "error-open-tables"
        assert "2 public tables waiting" in refused.json()["detail"]
        quick = client.post("/api/quickplay", json={"game": "unstackable"})
        assert quick.status_code == 429 and quick.json()["code"] == "error-open-tables"
        assert {t["id"] for t in lobby(client)} == {first["id"], second["id"]}
        # what the lobby does not list is not counted
        private = client.post("/api/games", json={"game": "cubed", "seats": [HUMAN, INVITED]})
        assert private.status_code == 201
        full = client.post(
            "/api/games", json={"game": "cubed", "seats": [HUMAN, bot()], "public": True}
        )
        assert full.status_code == 201
        # a table that fills, or ends, frees its place
        assert client.post(f"/api/games/{first['id']}/join", json={}).status_code == 200
        third = public_table(client, [HUMAN, INVITED])
        with connect(client, second["id"], token(second, 0)) as session:
            page = Socket(session)
            page.opening()
            page.send({"type": "resign"})
            page.until(lambda m: m["type"] == "state" and bool(m.get("over")))
        public_table(client, [HUMAN, INVITED])
        assert len(lobby(client)) == 2 and third["id"] in {t["id"] for t in lobby(client)}
        again = client.post("/api/quickplay", json={"game": "unstackable"})
        assert again.status_code == 429


def test_quick_play_opens_a_table_then_matches_the_same_settings(client: TestClient) -> None:
    ask = {"game": "cubed", "players": 2, "clock": TEN_FIVE, "name": "Ana"}
    first = client.post("/api/quickplay", json=ask).json()
    assert first["joined"] is False and first["host"]
    assert "invite" not in json.dumps(first)  # the free seat is the lobby's, not a link's
    [table] = lobby(client)
    assert table["id"] == first["id"] and table["free"] == 1
    # another time control, or another player count, is another table
    other = client.post("/api/quickplay", json={**ask, "clock": None}).json()
    assert other["joined"] is False and other["id"] != first["id"]
    three = client.post("/api/quickplay", json={**ask, "players": 3}).json()
    assert three["joined"] is False
    # the same settings sit at the oldest waiting table
    second = client.post("/api/quickplay", json={**ask, "name": "Bo"}).json()
    assert second == {
        "joined": True,
        "id": first["id"],
        "game": "cubed",
        "seat": 1,
        "token": second["token"],
    }
    assert first["id"] not in {t["id"] for t in lobby(client)}
    # a page passes over the tables it sits at already
    again = client.post("/api/quickplay", json={**ask, "avoid": [other["id"]], "clock": None})
    assert again.json()["joined"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess"},
        {"game": "cubed", "players": 10**9},
        {"game": "cubed", "players": "two"},
        {"game": "cubed", "clock": {"kind": "realtime", "minutes": 1e308}},
        {"game": "cubed", "clock": "NaN"},
        {"game": "cubed", "avoid": ["x"] * 51},
        {"game": "cubed", "rated": True},
    ],
)
def test_bad_quick_play_is_refused_and_opens_nothing(
    client: TestClient, body: dict[str, Any]
) -> None:
    answer = client.post("/api/quickplay", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"]
    assert lobby(client) == [] and client.get("/api/games").json() == []


def test_quick_play_with_nan_is_refused(client: TestClient) -> None:
    raw = b'{"game": "cubed", "players": NaN}'
    answer = client.post(
        "/api/quickplay", content=raw, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400
    assert lobby(client) == []


def test_the_rating_hooks_show_a_rating_and_narrow_quick_play(app: Any, client: TestClient) -> None:
    lobby_part = app.state.server.lobby
    lobby_part.rating_of = lambda table: 1512.0
    ask = {"game": "cubed", "players": 2}
    first = client.post("/api/quickplay", json=ask).json()
    assert lobby(client)[0]["host_rating"] == 1512.0
    lobby_part.fits = lambda table, asked: False  # outside every rating window
    second = client.post("/api/quickplay", json=ask).json()
    assert second["joined"] is False and second["id"] != first["id"]


def test_the_lobby_socket_sends_the_list_then_patches_when_it_changes(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws/lobby") as session:
        watcher = Socket(session)
        assert watcher.receive() == {"type": "lobby", "version": 0, "tables": []}
        made = public_table(client, [HUMAN, INVITED])
        opened = watcher.until(lambda m: m["type"] == "lobby-patch")
        assert opened["version"] == 1 and opened["removed"] == opened["changed"] == []
        assert [(a["at"], a["table"]["id"]) for a in opened["added"]] == [(0, made["id"])]
        assert opened["added"][0]["table"] == lobby(client)[0]
        client.post(f"/api/games/{made['id']}/join", json={"name": "Bo"})
        filled = watcher.until(lambda m: m["type"] == "lobby-patch")
        assert filled == {
            "type": "lobby-patch",
            "version": 2,
            "removed": [made["id"]],
            "changed": [],
            "added": [],
        }
        # the lobby only reads pings: anything else is one refusal, nothing changed
        for raw in (
            "garbage",
            "[]",
            '{"type": "move", "move": "x"}',
            '{"type": "ping", "x": NaN}',
            "[" * 100,
            "x" * 5000,
        ):
            watcher.send_text(raw)
            refused = watcher.until(lambda m: m["type"] == "error")
            assert refused["code"] == "bad-message" and refused["message"]
        session.send_bytes(b"\x00\x01")
        assert watcher.until(lambda m: m["type"] == "error")["code"] == "bad-message"
        watcher.send({"type": "ping"})
        assert watcher.until(lambda m: m["type"] != "lobby") == {"type": "pong"}


def test_the_lobby_socket_is_bounded_per_address(db_url: str) -> None:
    limits = Limits(connections_per_client=2)
    with (
        TestClient(create_app(db_url, bot_delay=0, limits=limits)) as client,
        client.websocket_connect("/ws/lobby") as a,
        client.websocket_connect("/ws/lobby") as b,
    ):
        Socket(a).receive()
        Socket(b).receive()
        with client.websocket_connect("/ws/lobby") as c:
            closed = Socket(c).until(lambda m: m["type"] == "closed")
            assert closed["code"] == 4429


def test_max_connections_counts_the_lobbys_sockets_with_the_games(db_url: str) -> None:
    limits = Limits(max_connections=3)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as client:
        made = client.post("/api/games", json={"game": "cubes", "seats": [HUMAN, HUMAN]}).json()
        with (
            client.websocket_connect("/ws/lobby") as a,
            connect(client, made["id"], token(made, 0)) as g1,
            connect(client, made["id"], token(made, 1)) as g2,
        ):
            Socket(a).receive()
            Socket(g1).opening()
            Socket(g2).opening()
            with client.websocket_connect("/ws/lobby") as extra:
                refused = Socket(extra).until(lambda m: m["type"] in ("closed", "error"))
                assert refused["type"] == "error" and "busy" in refused["message"]


def test_a_lobby_socket_from_another_site_is_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/ws/lobby", headers={"Origin": "https://evil.example"}) as s,
    ):
        s.receive_json()


def test_a_picked_deal_is_stored_and_told_everywhere(client: TestClient, db_url: str) -> None:
    picked = client.post(
        "/api/games", json={"game": "cubed", "seats": [HUMAN, HUMAN], "seed": 12}
    ).json()
    dealt = client.post("/api/games", json={"game": "cubed", "seats": [HUMAN, HUMAN]}).json()
    loaded = client.post("/api/records", content=json.dumps(finished_record())).json()
    for made, flag in ((picked, True), (dealt, False), (loaded, True)):
        assert client.get(f"/api/games/{made['id']}").json()["deal_picked"] is flag
    with connect(client, picked["id"], token(picked, 0)) as session:
        hello, state = Socket(session).opening()
        assert hello["deal_picked"] is True and state["ply"] == 0
    with connect(client, dealt["id"], None) as session:
        assert Socket(session).opening()[0]["deal_picked"] is False
    store = Store(db_url)  # stored, for the ratings to read
    try:
        info = store.load(picked["id"])
        assert info is not None and info.deal_picked
    finally:
        store.close()


def test_a_public_table_with_a_picked_deal_cannot_invite(client: TestClient) -> None:
    body = {"game": "cubed", "seats": [HUMAN, INVITED], "seed": 3, "public": True}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400 and lobby(client) == []
    assert client.post("/api/games", json={**body, "public": "yes"}).status_code == 400


def test_the_migration_marks_the_old_games_whose_deal_a_person_could_pick(tmp_path: Path) -> None:
    """Before 0007 a game's seed tells whether it was picked: a server's deal is kept in
    `deal` (128 bits), a person's fits the seed column. No old game is public."""
    from sqlalchemy import create_engine, text

    from cubegames.server import migrations

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as connection:
        from alembic import command

        config = migrations.config(connection)
        command.upgrade(config, "0005")
        connection.execute(
            text(
                "INSERT INTO games (id, game, options, seed, deal, chance, status, created_at)"
                " VALUES ('picked', 'cubed', '{}', 5, NULL, 2, 'playing', '2026-11-01'),"
                " ('dealt', 'cubed', '{}', 5, '99999999999999999999999', 2, 'playing',"
                " '2026-11-01')"
            )
        )
    engine.dispose()
    store = Store(url)
    try:
        picked, dealt = store.load("picked"), store.load("dealt")
        assert picked is not None and picked.deal_picked and not picked.public
        assert dealt is not None and not dealt.deal_picked
    finally:
        store.close()
