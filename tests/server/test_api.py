"""The REST API: making games, listing them, records out and in, replays, restarts; on
SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.server.app import create_app
from tests.server.helpers import (
    BOTH,
    HUMAN,
    Socket,
    TestClient,
    bot,
    connect,
    make_game,
    played_record,
    token,
)

pytestmark = BOTH


def finished_record(game: str = "cubes", options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A record of a whole game between random bots, played here through the engine."""
    return played_record(game, {"players": 2, "sets": 1} if options is None else options)


def test_the_pages_and_the_catalog_are_served(client: TestClient) -> None:
    for path in ("/", "/play/abc", "/replay/abc"):
        page = client.get(path)
        assert (
            page.status_code == 200 and '<script type="module" src="/static/app.js">' in page.text
        )
    for asset in ("app.js", "play.js", "replay.js", "util.js", "app.css", "games/cubed.js"):
        assert client.get(f"/static/{asset}").status_code == 200
    menu = client.get("/api/catalog").json()
    ids = [g["id"] for g in menu["games"]]
    # the built-in four first, then the test suite's plug-in game (tests/plugin_game)
    assert ids[:4] == ["cubed", "unstackable", "stakd", "cubes"] and "nim" in ids[4:]
    assert {b["spec"] for b in menu["bots"]} >= {"random", "greedy"}


def test_the_start_page_offers_every_reading_option_of_stakd(client: TestClient) -> None:
    menu = client.get("/api/catalog").json()
    stakd = next(g for g in menu["games"] if g["id"] == "stakd")
    option = next(o for o in stakd["options"] if o["name"] == "uni_opens_beside_bombers")
    assert (option["kind"], option["default"]) == ("bool", False)
    options = {"players": 2, "uni_opens_beside_bombers": True}
    made = make_game(client, "stakd", [HUMAN, bot("random")], options)
    detail = client.get(f"/api/games/{made['id']}").json()
    assert detail["options"]["uni_opens_beside_bombers"] is True


def test_making_a_game_gives_tokens_to_people_only(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, bot("random")], {"players": 2, "rounds": 1})
    assert made["status"] == "playing"
    assert "token" in made["seats"][0] and "token" not in made["seats"][1]
    assert made["seats"][1]["bot"] == "random"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"game": "chess", "seats": [HUMAN]}, "unknown game 'chess'"),
        ({"game": "cubed", "options": {"colour": 1}, "seats": [HUMAN]}, "no option 'colour'"),
        (
            {"game": "cubed", "options": {"edition": "/etc/passwd"}, "seats": [HUMAN, HUMAN]},
            "option edition: choose from en, ja",
        ),
        (
            {"game": "cubed", "options": {"players": 7}, "seats": [HUMAN] * 7},
            "the en edition plays 1 to 6 players, not 7",
        ),
        ({"game": "cubed", "seats": [HUMAN]}, "this game has 2 seats; 1 were given"),
        ({"game": "unstackable", "seats": [HUMAN, bot("wizard")]}, "seats.1: unknown bot 'wizard'"),
        ({"game": "cubes", "seats": [{"kind": "alien"}, HUMAN]}, "seats.0.kind"),
        ({"game": "cubes", "seats": [HUMAN, HUMAN], "seed": -1}, "seed: Input should be"),
    ],
)
def test_a_bad_game_is_refused_with_its_reason(
    client: TestClient, body: dict[str, Any], reason: str
) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    assert reason in answer.json()["detail"]


def test_games_are_listed_newest_first_with_their_moves(client: TestClient) -> None:
    first = make_game(client, "unstackable", [HUMAN, HUMAN])
    second = make_game(client, "stakd", [HUMAN, bot()])
    with connect(client, first["id"], token(first, 0)) as s:
        ws = Socket(s)
        ws.opening()
        ws.move("R@0,0,0")
        ws.state(ply=1)
    # private games (the default) are listed only to the page that names them
    assert client.get("/api/games").json() == []
    listed = client.get(f"/api/games?ids={first['id']},{second['id']}").json()
    assert [g["id"] for g in listed[:2]] == [second["id"], first["id"]]
    assert listed[1]["moves"] == 1 and listed[1]["status"] == "playing"
    assert client.get("/api/games?status=finished").json() == []
    assert client.get("/api/games?status=lost").status_code == 400
    detail = client.get(f"/api/games/{first['id']}").json()
    assert detail["moves"] == [
        {
            "ply": 1,
            "seat": 0,
            "text": "Seat 0 stacked a red cube on the bottom layer at D4 "
            "(columns A–G left to right, rows 1–7 front to back).",
            "say": [
                "words-unst-stacked-first",
                {
                    "who": {"seat": 0},
                    # a phrase inside whose key the catalogs know goes without English
                    "colour": {"say": ["unst-colour-R", {}]},
                    "place": {
                        "say": [
                            "unst-place",
                            {"layer": {"say": ["unst-bottom-layer", {}]}, "cell": "D4"},
                        ],
                    },
                },
            ],
            "move": "R@0,0,0",
        }
    ]
    assert client.get("/api/games/nothing").status_code == 404


def test_games_survive_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        made = make_game(client, "cubed", [HUMAN, bot("greedy")], {"rounds": 1})
        with connect(client, made["id"], token(made, 0)) as s:
            ws = Socket(s)
            _, first = ws.opening()
            ws.move(first["legal"][0])
            before = ws.state(ply=2)
    with (
        TestClient(create_app(db_url, bot_delay=0)) as client,
        connect(client, made["id"], token(made, 0)) as s,
    ):
        ws = Socket(s)
        _, after = ws.opening()
        ws.move(after["legal"][-1])
        ws.state(ply=3)
    assert after["ply"] == 2
    assert after["view"] == before["view"] and after["legal"] == before["legal"]


def test_a_record_is_refused_while_it_would_reveal_hidden_hands(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN, bot()], {"players": 3, "rounds": 1})
    path = f"/api/games/{made['id']}/record"
    assert client.get(path).status_code == 403
    # a credential never goes in the address
    assert client.get(path, params={"token": token(made, 0)}).status_code == 400
    forged = client.get(path, headers={"Authorization": "Bearer forged"})
    assert forged.status_code == 403
    # a seat gets its own view of the game so far: no seed, no record to load
    own = client.get(path, headers={"Authorization": f"Bearer {token(made, 0)}"})
    assert own.status_code == 200
    assert own.headers["content-disposition"].startswith("attachment; filename=")
    record = own.json()
    assert record["format"] == "cubegames-seat-view" and record["seat"] == 0
    assert "seed" not in record
    assert [s["kind"] for s in record["seats"]] == ["human", "human", "bot"]


def test_a_record_round_trips(client: TestClient) -> None:
    record = finished_record()
    loaded = client.post("/api/records", content=json.dumps(record))
    assert loaded.status_code == 201, loaded.text
    made = loaded.json()
    assert made["status"] == "finished"
    back = client.get(f"/api/games/{made['id']}/record").json()
    for key in ("format", "version", "game", "options", "seed", "chance", "seats", "moves"):
        assert back[key] == record[key], key
    assert back["result"] == record["result"]
    again = client.post("/api/records", content=json.dumps(back))
    assert again.status_code == 201


def test_a_record_without_a_chance_version_is_of_version_1(client: TestClient) -> None:
    """A record as the releases before chance version 2 wrote them (no "chance"): a CUBED
    match that code played (tests/cubed/data/format1-games.json, 3 players, draw3, the
    server's deal) loads and ends where that code's did; its record now says chance 1.
    Claiming chance version 2 instead, the same moves make another game or none."""
    golden = json.loads(
        (Path(__file__).parents[1] / "cubed" / "data" / "format1-games.json").read_text()
    )
    old = golden["games"][1]
    game = cubegames.make("cubed", **old["options"])
    record = {
        "format": "cubegames-record",
        "version": 1,
        "game": "cubed",
        "options": game.options,
        "seed": old["seed"],
        "seats": [{"kind": "human"}] * game.players,
        "moves": old["moves"],
    }
    made = client.post("/api/records", content=json.dumps(record))
    assert made.status_code == 201, made.text
    path = f"/api/games/{made.json()['id']}"
    end = game.state_from_dict(old["final"])
    for seat in range(game.players):
        seen = client.get(f"{path}/replay", params={"ply": len(old["moves"]), "seat": seat}).json()
        assert seen["view"] == end.view(seat) and seen["over"]
    assert client.get(f"{path}/record").json()["chance"] == 1
    other = client.post("/api/records", content=json.dumps({**record, "chance": 2}))
    if other.status_code == 201:
        final = client.get(
            f"/api/games/{other.json()['id']}/replay", params={"ply": len(old["moves"]), "seat": 0}
        ).json()
        assert final["view"] != end.view(0)
    else:
        assert other.status_code == 400 and "is refused" in other.json()["detail"]
    for bad in (0, 4, "2", True, None):
        refused = client.post("/api/records", content=json.dumps({**record, "chance": bad}))
        assert refused.status_code == 400 and "chance" in refused.json()["detail"], bad


def test_an_unfinished_record_can_be_played_on(client: TestClient) -> None:
    record = finished_record("unstackable", {})
    record["moves"] = record["moves"][:5]
    record["result"] = None
    record["seats"] = [{"kind": "human"}, {"kind": "human"}]
    made = client.post("/api/records", content=json.dumps(record)).json()
    assert made["status"] == "playing"
    state = cubegames.make("unstackable").new_state(seed=4)
    for move in record["moves"]:
        state.play(move)
    seat = state.to_move
    with connect(client, made["id"], token(made, seat)) as s:
        ws = Socket(s)
        _, first = ws.opening()
        assert first["ply"] == 5 and first["view"] == state.view(seat)
        ws.move(first["legal"][0])
        ws.state(ply=6)


def _bad(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**record, **changes}


def test_a_bad_record_is_refused_with_a_clear_reason(client: TestClient) -> None:
    good = finished_record()
    moves = list(good["moves"])
    cases: list[tuple[bytes, str]] = [
        (b"{not json", "not valid JSON (Expecting property name"),
        (b'{"moves": []}', 'this is not a game record (no "format": "cubegames-record")'),
        (json.dumps(_bad(good, version=2)).encode(), "bad record: version"),
        (json.dumps(_bad(good, game="chess")).encode(), "unknown game 'chess'"),
        (
            json.dumps(_bad(good, options={**good["options"], "edition": "/etc/x.toml"})).encode(),
            "option edition: choose from standard",
        ),
        (
            json.dumps(_bad(good, seats=good["seats"][:1])).encode(),
            "has 2 seats, the record lists 1",
        ),
        (
            json.dumps(_bad(good, moves=[moves[0], "roll 1 C . 6 . 3"])).encode(),
            "move 2 (roll 1 C . 6 . 3) is refused: this game rolls its own dice",
        ),
        (json.dumps(_bad(good, moves=[*moves, "roll"])).encode(), "the game was already over"),
        (
            json.dumps(_bad(good, result={"scores": [0, 0], "winners": [0, 1]})).encode(),
            "does not match its moves",
        ),
    ]
    for raw, reason in cases:
        answer = client.post("/api/records", content=raw)
        assert answer.status_code == 400, (reason, answer.text)
        assert reason in answer.json()["detail"], answer.json()
    huge = client.post("/api/records", content=b" " * 1_000_001)
    assert huge.status_code == 413
    assert client.get("/api/games").json() == []


def test_text_a_database_cannot_hold_is_refused(client: TestClient) -> None:
    # PostgreSQL refuses NUL in text (SQLite took it, and the app with it, before)
    seats = [{"kind": "human", "name": "An\x00a"}, HUMAN]
    made = client.post("/api/games", json={"game": "cubes", "seats": seats})
    assert made.status_code == 400
    assert made.json()["detail"] == "seats.0.name: a NUL character (\\u0000) cannot be stored"
    record = finished_record()
    record["seats"][1] = {"kind": "bot", "bot": "random", "name": "\x00"}
    loaded = client.post("/api/records", content=json.dumps(record))
    assert loaded.status_code == 400
    assert loaded.json()["detail"].startswith("bad record: seats.1.name: a NUL character")
    assert client.get("/api/games").json() == []


def test_replays_step_through_a_game(client: TestClient) -> None:
    record = finished_record("cubed", {"players": 2, "rounds": 1})
    made = client.post("/api/records", content=json.dumps(record)).json()
    path = f"/api/games/{made['id']}/replay"
    start = client.get(path, params={"ply": 0}).json()
    one = client.get(path, params={"ply": 1}).json()
    end = client.get(path, params={"ply": 10_000}).json()
    assert start["ply"] == 0 and start["total"] == len(record["moves"]) and start["said"] is None
    assert one["said"].startswith("Seat 0 ") and one["svg"] != start["svg"]
    assert end["ply"] == len(record["moves"]) and end["over"]
    seat = client.get(path, params={"ply": 1, "seat": 1}).json()
    assert 'class="hand-piece' in seat["svg"] and 'class="hand-piece' not in one["svg"]


def test_a_seats_replay_of_a_game_in_play_needs_its_token(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN], {"rounds": 1})
    path = f"/api/games/{made['id']}/replay"
    assert client.get(path, params={"ply": 0}).status_code == 200
    assert client.get(path, params={"ply": 0, "seat": 1}).status_code == 403
    wrong = client.get(
        path, params={"ply": 0, "seat": 1}, headers={"Authorization": f"Bearer {token(made, 0)}"}
    )
    assert wrong.status_code == 403
    right = client.get(
        path, params={"ply": 0, "seat": 1}, headers={"Authorization": f"Bearer {token(made, 1)}"}
    )
    assert right.status_code == 200 and 'class="hand-piece' in right.json()["svg"]
    assert client.get(path, params={"seat": 5}).status_code == 400


def test_bots_play_on_after_a_restart_with_nobody_watching(db_url: str) -> None:
    """Games left unfinished when the server stopped: the bots resume on start, without a
    page open. A game among bots finishes; a bot to move before a person makes its move
    and then waits; a person to move is left alone."""
    from cubegames.server.storage import NewSeat, Store

    store = Store(db_url)
    among_bots, _ = store.create(
        "unstackable", {}, 3, [NewSeat("bot", "random"), NewSeat("bot", "greedy")]
    )
    bot_first, _ = store.create(
        "cubed", {"rounds": 1}, 3, [NewSeat("bot", "greedy"), NewSeat("human")]
    )
    person_first, _ = store.create(
        "cubed", {"rounds": 1}, 3, [NewSeat("human"), NewSeat("bot", "greedy")]
    )
    store.close()
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = client.get(f"/api/games/{among_bots}").json()
            waiting = client.get(f"/api/games/{bot_first}").json()
            if done["status"] == "finished" and waiting["moves"]:
                break
            time.sleep(0.05)
        assert done["status"] == "finished"
        replayed = cubegames.make("unstackable").new_state(seed=3)
        for move in done["moves"]:
            replayed.play(move["move"])
        assert replayed.is_over and done["result"]["winners"] == replayed.winners()
        assert [m["seat"] for m in waiting["moves"]] == [0] * len(waiting["moves"])
        assert waiting["status"] == "playing"
        assert client.get(f"/api/games/{person_first}").json()["moves"] == []


def test_a_loaded_game_has_no_host_so_none_of_its_seats_can_be_passed_on(
    client: TestClient,
) -> None:
    record = finished_record("unstackable", {})
    record["moves"] = record["moves"][:5]
    record["result"] = None
    record["seats"] = [{"kind": "human"}, {"kind": "human"}]
    made = client.post("/api/records", content=json.dumps(record)).json()
    # the uploader knows every hand of this deal: its seats stay at the uploader's screen
    assert made["host"] is None and all("invite" not in s for s in made["seats"])
    for credential in (token(made, 0), token(made, 1)):
        refused = client.post(
            f"/api/games/{made['id']}/seats/1/reissue",
            headers={"Authorization": f"Bearer {credential}"},
        )
        assert refused.status_code == 403


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/games", {"game": "cubes", "seats": [HUMAN, HUMAN], "seed": True}, "seed"),
        ("/api/games", {"game": "cubes", "seats": [HUMAN, HUMAN], "seed": "3"}, "seed"),
        ("/api/games", {"game": "cubes", "seats": [HUMAN, HUMAN], "rated": "yes"}, "rated"),
        ("/api/games", {"game": "cubes", "seats": [HUMAN, HUMAN], "rated": 0}, "rated"),
        (
            "/api/games",
            {"game": "cubes", "seats": [HUMAN, {"kind": "human", "invite": 1}]},
            "seats.1.invite",
        ),
        ("/api/quickplay", {"game": "cubed", "players": True}, "players"),
        ("/api/quickplay", {"game": "cubed", "players": "3"}, "players"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_not_taken_for_another(
    client: TestClient, path: str, body: dict[str, Any], field: str
) -> None:
    """`true` is not the seed 1, nor `"3"` three players: one clear refusal naming the
    field, and no table made (as the websocket's messages, which are strict too)."""
    answer = client.post(path, json=body)
    assert answer.status_code == 400, answer.text
    refused = answer.json()
    assert refused["code"] == "error-field-kind" and refused["args"]["field"] == field
    assert client.get("/api/lobby").json()["tables"] == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seed": True}, "seed"),
        ({"seed": "5"}, "seed"),
        ({"seed": 5.0}, "seed"),
        ({"version": True}, "version"),
        ({"seats": [{"kind": "human", "zombie_from": True}, {"kind": "human"}]}, "seats.0"),
    ],
)
def test_a_record_value_of_the_wrong_type_is_refused(
    client: TestClient, change: dict[str, Any], field: str
) -> None:
    """A record's numbers are read as the type they are written as: `true` is not the seed
    1 nor version 1, `"5"` no seed (each was loaded as such)."""
    record = {**finished_record(), **change}
    answer = client.post("/api/records", content=json.dumps(record).encode())
    assert answer.status_code == 400, answer.text
    refused = answer.json()
    assert refused["code"] == "error-record-field" and refused["args"]["field"].startswith(field)
    assert client.get("/api/games").json() == []


def test_a_game_among_bots_plays_out_with_no_page_open(client: TestClient) -> None:
    """A game whose every seat is a bot starts as soon as it is made, not when a page first
    opens it (with a person in it, its bots wait for the page: a timed game's clock must not
    run before its player arrives)."""
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    made = client.post("/api/games", json={"game": "cubes", "options": {}, "seats": seats})
    assert made.status_code == 201
    server = client.app.state.server  # type: ignore[attr-defined]
    task = server.runner.tasks.get(made.json()["id"])
    assert task is not None, "the bots were not started"

    async def ended() -> None:
        await asyncio.wait_for(asyncio.shield(task), 60)

    client.portal.call(ended)
    game = client.get(f"/api/games/{made.json()['id']}").json()
    assert game["status"] == "finished" and game["moves"]
    with_a_person = client.post(
        "/api/games",
        json={"game": "cubes", "options": {}, "seats": [{"kind": "bot"}, {"kind": "human"}]},
    )
    assert with_a_person.status_code == 201
    assert server.runner.tasks.get(with_a_person.json()["id"]) is None
