"""Hostile settings and greedy clients: bot settings, request sizes and nesting, caps with
clear 429s, security headers and the websocket's Origin check."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI

from cubegames.server.app import create_app
from cubegames.server.limits import Limits
from cubegames.server.storage import HUMAN, NewSeat, Store
from tests.server.helpers import HUMAN as HUMAN_SEAT
from tests.server.helpers import Socket, TestClient, bot, connect, make_game, token


def refused(client: TestClient, game: str, spec: str) -> str:
    response = client.post(
        "/api/games", json={"game": game, "seats": [HUMAN_SEAT, bot(spec)], "options": {}}
    )
    assert response.status_code == 400, response.text
    detail: str = response.json()["detail"]
    return detail


@pytest.mark.parametrize(
    ("game", "spec", "reason"),
    [
        ("cubed", "mcts:seconds=nan", "finite"),
        ("cubed", "mcts:seconds=inf", "finite"),
        ("cubed", "mcts:c=nan", "finite"),
        ("cubed", "mcts:seconds=3600", "seconds is at most 5"),
        ("cubed", "mcts:iterations=100000000", "iterations is at most 20000"),
        ("unstackable", "alphabeta:depth=60", "depth is at most 10"),
        ("unstackable", "alphabeta:seconds=1e9", "seconds is at most 5"),
        ("cubed", "alphabeta", "plays unstackable only"),
        ("cubed", "random:seed=5", "give no seed"),
        ("cubed", "random:colour=5", "takes no parameter"),
    ],
)
def test_a_hostile_bot_is_refused_at_creation(
    client: TestClient, game: str, spec: str, reason: str
) -> None:
    assert reason in refused(client, game, spec)


def test_a_hostile_bot_in_a_record_is_refused(client: TestClient) -> None:
    record = {
        "format": "cubegames-record",
        "version": 1,
        "game": "cubed",
        "options": {},
        "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "alphabeta"}],
        "moves": [],
    }
    answer = client.post("/api/records", content=json.dumps(record))
    assert answer.status_code == 400 and "plays unstackable only" in answer.json()["detail"]
    record["seats"][1]["bot"] = "random:seed=5"  # type: ignore[index]
    answer = client.post("/api/records", content=json.dumps(record))
    assert answer.status_code == 400 and "seed" in answer.json()["detail"]


def test_a_stored_bot_that_cannot_play_does_not_hang_the_server_after_a_restart(
    db_url: str,
) -> None:
    """A game stored before the checks (alphabeta in CUBED searched for ever): on start it
    is not resumed, its page says why, and another bot game still finishes."""
    store = Store(db_url)
    stuck, _ = store.create("cubed", {}, 1, [NewSeat("bot", "alphabeta"), NewSeat(HUMAN)])
    fine, _ = store.create("cubes", {"sets": 1}, 1, [NewSeat("bot", "random")] * 2)
    store.close()
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        with connect(client, fine) as session:
            Socket(session).until(lambda m: m["type"] == "state" and m["over"], timeout=60)
        with connect(client, stuck) as session:
            _, state = Socket(session).opening()
        assert state["ply"] == 0
        assert "plays unstackable only" in state["trouble"]
        # the page words it from its catalogs (the English above is for programs)
        assert state["trouble_say"] == ["trouble-bot-cannot-play", {"who": {"seat": 0}}]


def test_a_large_body_is_refused_unread(client: TestClient) -> None:
    big = b"x" * 2_000_000
    answer = client.post("/api/records", content=big)
    assert answer.status_code == 413 and "too large" in answer.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        for _ in range(40):
            yield b"x" * 100_000

    answer = client.post("/api/records", content=chunks())
    assert answer.status_code == 413


@pytest.mark.parametrize("path", ["/api/records", "/api/games"])
def test_deep_json_is_a_clear_400(client: TestClient, path: str) -> None:
    deep = "[" * 5000 + "]" * 5000
    answer = client.post(path, content=deep, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and "nests too deep" in answer.json()["detail"]


def test_deep_json_over_the_websocket_is_refused_and_the_connection_lives_on(
    client: TestClient,
) -> None:
    made = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
    with connect(client, made["id"]) as session:
        ws = Socket(session)
        ws.opening()
        ws.send_text("[" * 2000)
        said = ws.error()
        assert "nested too deep" in said["message"]
        ws.send({"type": "ping"})
        assert ws.until(lambda m: m["type"] == "pong") == {"type": "pong"}


def capped(**limits: Any) -> FastAPI:
    return create_app("sqlite://", bot_delay=0, limits=Limits(**limits))


def test_games_made_per_client_per_minute_are_capped() -> None:
    with TestClient(capped(games_per_minute=3)) as client:
        for _ in range(3):
            make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
        over = client.post("/api/games", json={"game": "cubed", "seats": [HUMAN_SEAT] * 2})
        assert over.status_code == 429 and "at most 3 a minute" in over.json()["detail"]
        assert int(over.headers["retry-after"]) >= 1
        assert client.post("/api/records", content=b"{}").status_code == 429


def test_the_caps_count_an_ipv6_client_by_its_64_network() -> None:
    """One subscriber holds a whole IPv6 /64: a new address of it for every request must
    not make a new client of it."""
    app = capped(games_per_minute=2)
    for host in ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9"):
        with TestClient(app, client=(host, 5000)) as client:
            make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
    with TestClient(app, client=("2001:db8:1:2:abcd::3", 5000)) as client:
        over = client.post("/api/games", json={"game": "cubed", "seats": [HUMAN_SEAT] * 2})
        assert over.status_code == 429
    with TestClient(app, client=("2001:db8:1:3::1", 5000)) as client:  # another network
        make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])


def test_a_rate_forgets_the_clients_that_never_came_back() -> None:
    """Each address that made one game and never came back must not stay in memory for
    ever (every new address a stranger sends from would grow the table)."""
    from cubegames.server.limits import RateLimit

    moment = [0.0]
    rate = RateLimit(2, window=60.0, clock=lambda: moment[0])
    for n in range(10_001):
        rate.allow(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
    moment[0] = 61.0
    assert rate.allow("192.0.2.1") is None
    assert len(rate.seen) <= 2


def test_open_connections_per_client_are_capped() -> None:
    with TestClient(capped(connections_per_client=2)) as client:
        made = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
        with connect(client, made["id"]) as a, connect(client, made["id"]) as b:
            Socket(a).opening()
            Socket(b).opening()
            with connect(client, made["id"]) as c:
                ws = Socket(c)
                said = ws.receive()
                assert "too many connections" in said["message"]
                assert ws.receive() == {"type": "closed", "code": 4429}
        with connect(client, made["id"]) as again:  # closed ones no longer count
            Socket(again).opening()


def test_websockets_count_toward_the_servers_connection_cap() -> None:
    """`max_connections` bounds open websockets too, whichever addresses hold them (here
    the per-address cap is above it)."""
    with TestClient(capped(max_connections=2, connections_per_client=10)) as client:
        made = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
        with connect(client, made["id"]) as a, connect(client, made["id"]) as b:
            Socket(a).opening()
            Socket(b).opening()
            with connect(client, made["id"]) as c:
                ws = Socket(c)
                said = ws.receive()
                assert said["message"].startswith("the server is busy: 2 connections")
                assert ws.receive() == {"type": "closed", "code": 4429}
            with client.websocket_connect(f"/ws/games/{made['id']}?lang=ja") as d:
                ws = Socket(d)
                assert ws.receive()["message"].startswith("サーバーが混み合っています（接続が2件")
                assert ws.receive() == {"type": "closed", "code": 4429}
        with connect(client, made["id"]) as again:  # closed ones no longer count
            Socket(again).opening()


def _invited(client: TestClient) -> dict[str, Any]:
    response = client.post(
        "/api/games",
        json={"game": "cubed", "seats": [HUMAN_SEAT, {"kind": "human", "invite": True}]},
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def test_claims_are_capped_per_address_and_a_refused_one_spends_nothing() -> None:
    """Guessing invitations: after `seat_changes_per_client` tries a minute from one
    address, the next is refused with 429 before the database is asked (even a right
    invitation, which stays unclaimed); a minute later it is taken."""
    moment = [0.0]
    limits = Limits(seat_changes_per_client=3, seat_changes_per_game=100)
    app = create_app("sqlite://", bot_delay=0, limits=limits, clock=lambda: moment[0])
    with TestClient(app) as client:
        made = _invited(client)
        game_id, invite = made["id"], made["seats"][1]["invite"]
        for guess in range(3):
            tried = client.post(f"/api/games/{game_id}/claim", json={"invite": f"guess{guess}"})
            assert tried.status_code == 409
        over = client.post(f"/api/games/{game_id}/claim", json={"invite": invite})
        assert over.status_code == 429
        assert over.json()["detail"].endswith(
            "from your address: at most 3 a minute; try again in 60 seconds"
        )
        assert int(over.headers["retry-after"]) == 60
        in_japanese = client.post(
            f"/api/games/{game_id}/claim",
            json={"invite": invite},
            headers={"Accept-Language": "ja"},
        )
        assert in_japanese.status_code == 429
        assert in_japanese.json()["detail"].startswith("このアドレスからの招待の使用と席の再発行")
        assert "1分間に3回まで" in in_japanese.json()["detail"]
        assert client.get(f"/api/games/{game_id}").json()["seats"][1]["invited"]
        moment[0] += 60.0
        taken = client.post(f"/api/games/{game_id}/claim", json={"invite": invite})
        assert taken.status_code == 200 and taken.json()["seat"] == 1


def test_reissues_are_capped_per_game() -> None:
    """A host cannot throw a friend out of a seat over and over: after
    `seat_changes_per_game` a minute in one game, reissues there wait; another game is
    not held up."""
    moment = [0.0]
    limits = Limits(seat_changes_per_client=100, seat_changes_per_game=2)
    app = create_app("sqlite://", bot_delay=0, limits=limits, clock=lambda: moment[0])
    with TestClient(app) as client:
        made, other = _invited(client), _invited(client)

        def reissue(game: dict[str, Any]) -> Any:
            return client.post(
                f"/api/games/{game['id']}/seats/1/reissue",
                headers={"Authorization": f"Bearer {game['host']}"},
            )

        assert [reissue(made).status_code for _ in range(2)] == [200, 200]
        over = reissue(made)
        assert over.status_code == 429
        assert "in this game: at most 2 a minute; try again in" in over.json()["detail"]
        assert (
            "このゲームでの"
            in client.post(
                f"/api/games/{made['id']}/seats/1/reissue?lang=ja",
                headers={"Authorization": f"Bearer {made['host']}"},
            ).json()["detail"]
        )
        assert client.get(f"/api/games/{made['id']}").json()["seats"][1]["reissued"] == 2
        assert reissue(other).status_code == 200
        moment[0] += 30.0
        assert reissue(made).status_code == 429  # the first two are still in the minute
        moment[0] += 30.0
        assert reissue(made).status_code == 200


def test_live_rooms_per_server_are_capped() -> None:
    with TestClient(capped(max_rooms=1)) as client:
        one = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
        two = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
        with connect(client, one["id"]) as a:
            Socket(a).opening()
            with connect(client, two["id"]) as b:
                ws = Socket(b)
                said = ws.receive()
                assert "server is busy" in said["message"]
                assert ws.receive() == {"type": "closed", "code": 4429}


def test_games_among_bots_nobody_watches_never_keep_a_persons_game_out() -> None:
    """A game among bots plays on unwatched, in its room: made by the score and each
    opened for a moment, they would fill the server's rooms and refuse everyone else's
    games. A person's game takes the room of one of them instead (the least lately
    moved), which plays on when it is opened again."""
    app = create_app("sqlite://", bot_delay=0.2, limits=Limits(max_rooms=2))
    robots = [{"kind": "bot", "bot": "random"}] * 2
    with TestClient(app) as client:
        among = [make_game(client, "unstackable", robots)["id"] for _ in range(2)]
        for game_id in among:
            with connect(client, game_id) as peek:
                watching = Socket(peek)
                watching.opening()
                # its bots have started, and play on once the page is gone
                watching.until(lambda m: m["type"] == "state" and m["ply"] > 0)
        rooms = app.state.server.rooms.rooms
        assert set(rooms) == set(among)
        person = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
        with connect(client, person["id"], person["seats"][0]["token"]) as session:
            hello, _ = Socket(session).opening()
            assert hello["seat"] == 0
            assert set(rooms) == {among[1], person["id"]}
            # the game let go plays on when it is watched again (taking the other's room)
            with connect(client, among[0]) as again:
                watched = Socket(again)
                start = watched.opening()[1]["ply"]
                watched.until(lambda m: m["type"] == "state" and m["ply"] > start)
                assert set(rooms) == {among[0], person["id"]}
                # rooms that people use are never let go: a third game waits
                other = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
                with connect(client, other["id"]) as refused:
                    assert "server is busy" in Socket(refused).receive()["message"]


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/play/x", "/static/app.js", "/api/catalog"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert (
            "script-src 'self'" in csp
            and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        )
        assert "frame-ancestors 'none'" in csp
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_a_websocket_from_another_site_is_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    made = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(
            f"/ws/games/{made['id']}", headers={"Origin": "https://evil.example"}
        ) as session,
    ):
        session.send_json({"type": "auth", "token": None})
        session.receive_json()
    with client.websocket_connect(
        f"/ws/games/{made['id']}", headers={"Origin": "http://testserver"}
    ) as session:
        session.send_json({"type": "auth", "token": None})
        assert session.receive_json()["type"] == "hello"


def test_a_replay_is_computed_once_and_every_step_matches_the_engine(client: TestClient) -> None:
    import cubegames
    from cubegames.render import web

    made = make_game(client, "unstackable", [bot("random"), bot("random")])
    with connect(client, made["id"]) as session:
        Socket(session).until(lambda m: m["type"] == "state" and m["over"], timeout=60)
    detail = client.get(f"/api/games/{made['id']}").json()
    total = len(detail["moves"])
    assert total > 40, "the test needs a game longer than one cached stretch"
    game = cubegames.make("unstackable", **detail["options"])
    state = game.new_state(seed=7)
    for ply in range(total + 1):
        if ply:
            state.play(detail["moves"][ply - 1]["move"])
        step = client.get(f"/api/games/{made['id']}/replay", params={"ply": ply, "seat": 0})
        assert step.json()["svg"] == web.draw(game, state.view(0), []), ply
    assert client.app.state.server.replays.runs == 1  # type: ignore[attr-defined]


def test_an_abandoned_game_takes_no_move_and_its_bots_stay_still(db_url: str) -> None:
    store = Store(db_url)
    among_bots, _ = store.create("cubes", {}, 1, [NewSeat("bot", "random")] * 2)
    with_person, _ = store.create("cubes", {}, 1, [NewSeat(HUMAN), NewSeat("bot", "random")])
    store.close()
    app = create_app(db_url, bot_delay=0, limits=Limits(expire_days=0))
    with TestClient(app) as client:
        made = make_game(client, "cubes", [HUMAN_SEAT, HUMAN_SEAT])
        with connect(client, made["id"], token(made, 0)) as session:
            ws = Socket(session)
            ws.opening()
            ws.move("roll")
            said = ws.error()
        assert said["code"] == "abandoned" and "abandoned" in said["message"]
        with connect(client, among_bots) as session:  # a watcher wakes no bot either
            Socket(session).opening()  # (a bot it woke would be in the runner's tasks now)
            assert among_bots not in client.app.state.server.runner.tasks  # type: ignore[attr-defined]
        for game_id in (among_bots, with_person):
            assert client.get(f"/api/games/{game_id}").json()["moves"] == []


def test_a_silent_websocket_is_closed() -> None:
    with TestClient(capped(idle_seconds=0.5)) as client:
        made = make_game(client, "cubed", [HUMAN_SEAT, HUMAN_SEAT])
        with connect(client, made["id"]) as session:
            ws = Socket(session)
            ws.opening()
            said = ws.until(lambda m: m["type"] == "error", timeout=5)
            assert "no message for 0.5 seconds" in said["message"]
            assert ws.until(lambda m: m["type"] == "closed", timeout=5)["code"] == 4408


def test_the_shared_count_of_games_made_lets_count_through_then_says_when_to_retry(
    store: Store,
) -> None:
    """`SharedRate` (the cap counted in the database, for several processes): `count`
    events a window per client, then the seconds until the oldest leaves the window; other
    clients are not affected, and an event that left the window frees its place."""
    from cubegames.server.limits import SharedRate

    moment = [1000.0]
    rate = SharedRate(store, count=3, window=60.0, clock=lambda: moment[0])
    for _ in range(3):
        assert rate.allow("198.51.100.7") is None
        moment[0] += 10.0
    assert rate.allow("198.51.100.7") == pytest.approx(30.0)  # the first left at 1060
    assert rate.allow("203.0.113.9") is None
    moment[0] = 1060.5
    assert rate.allow("198.51.100.7") is None
    assert rate.allow("198.51.100.7") == pytest.approx(9.5)  # the second leaves at 1070


def test_the_guards_refusals_are_worded_from_the_catalogs(client: TestClient) -> None:
    """A body too large or too deep is refused before any route, in the request's language
    with the refusal's code and parameters, as every refusal of the API (it was English
    only, with no code)."""
    ja = {"Accept-Language": "ja", "Content-Type": "application/json"}
    large = client.post("/api/records", content=b"x" * 2_000_000, headers=ja)
    assert large.status_code == 413
    assert large.json() == {
        "detail": "送られた内容が大きすぎます（1,100,000バイトまで）",
        "code": "error-body-large",
        "args": {"bytes": 1_100_000},
    }
    deep = client.post("/api/games?lang=ja", content="[" * 5000 + "]" * 5000, headers=ja)
    assert deep.status_code == 400
    assert deep.json()["code"] == "error-body-deep" and deep.json()["args"] == {"levels": 32}
    assert "段まで" in deep.json()["detail"]
    english = client.post("/api/games", content="[" * 5000 + "]" * 5000)
    assert english.json()["detail"] == "the request nests too deep: at most 32 levels"
