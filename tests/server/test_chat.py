"""A table's chat: its players' and its spectators' channels, system lines in the same
stream, lengths and rates refused in one clear message with nothing changed, the host
closing the spectators' chat, history replayed on reconnect and bounded, and nothing
in it from hidden information."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi import FastAPI

from cubegames.server.app import create_app
from cubegames.server.chat import HISTORY, ChatRefused, clean
from cubegames.server.limits import Limits
from cubegames.server.storage import NewSeat, Store
from tests.server.helpers import HUMAN, Seconds, Socket, TestClient, bot, connect, make_game, token

INVITED = {"kind": "human", "invite": True}


@pytest.fixture
def clock() -> Seconds:
    return Seconds()


@pytest.fixture
def app(db_url: str, clock: Seconds) -> FastAPI:
    """The app on a clock the test moves (the chat's rates are measured on it)."""
    return create_app(db_url, bot_delay=0, clock=clock)


def chat_of(ws: Socket) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] == "chat")


def history_of(ws: Socket) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] == "chat-history")


def say(ws: Socket, text: Any) -> None:
    ws.send({"type": "chat", "text": text})


def test_players_chat_both_ways_and_spectators_apart(client: TestClient) -> None:
    made = make_game(client, "cubed", [{"kind": "human", "name": "Ana"}, HUMAN])
    with (
        connect(client, made["id"], token(made, 0)) as a,
        connect(client, made["id"], token(made, 1)) as b,
        connect(client, made["id"], None) as w,
    ):
        ana, bo, watcher = Socket(a), Socket(b), Socket(w)
        histories = []
        for ws in (ana, bo, watcher):
            ws.opening()
            histories.append(history_of(ws))
            assert histories[-1] | {"you": ""} == {
                "type": "chat-history",
                "lines": [],
                "spectators_open": True,
                "you": "",
            }
        # a spectator is told their own tag; a seat has none
        assert "you" not in histories[0] and "you" not in histories[1]
        tag = histories[2]["you"]
        assert re.fullmatch(r"[0-9a-f]{8}", tag)
        say(ana, "  good luck  ")
        for ws in (ana, bo):
            line = chat_of(ws)
            assert line["channel"] == "players" and line["seat"] == 0 and line["who"] == "Ana"
            assert line["text"] == "good luck"
        say(bo, "you too")
        assert chat_of(ana)["text"] == "you too"
        assert chat_of(bo)["seat"] == 1
        say(watcher, "nice opening")
        assert chat_of(watcher) | {"id": 0, "at": ""} == {
            "type": "chat",
            "id": 0,
            "channel": "spectators",
            "seat": None,
            "who": None,
            "text": "nice opening",
            "spectator": tag,
            "at": "",
        }
        # players never see the spectators' chat, spectators never the players'
        ana.send({"type": "ping"})
        heard = ana.transcript_until_pong()
        assert [m for m in heard if m["type"] == "chat"] == []
        assert "good luck" not in "".join(watcher.transcript)
    # a page connecting again is sent its channels' lines, oldest first
    with connect(client, made["id"], token(made, 1)) as b, connect(client, made["id"]) as w:
        bo, watcher = Socket(b), Socket(w)
        bo.opening()
        assert [line["text"] for line in history_of(bo)["lines"]] == ["good luck", "you too"]
        watcher.opening()
        assert [line["text"] for line in history_of(watcher)["lines"]] == ["nice opening"]


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("x" * 301, "chat-long", "at most 300 characters"),
        ("   ", "chat-blank", "blank"),
        ("a\u202eb", "chat-hidden", "U+202E"),
        ("zero\u200bwidth", "chat-hidden", "U+200B"),
        ("bell\x07", "chat-hidden", "U+0007"),
        ("nul\x00", "chat-hidden", "U+0000"),
        # invisible format characters beyond the bidi and zero-width ones: tag characters
        # spell a text no reader sees, a soft hyphen or a Hangul filler shows as nothing
        ("hi\U000e0070\U000e0077", "chat-hidden", "U+E0070"),
        ("soft\u00adhyphen", "chat-hidden", "U+00AD"),
        ("\u3164", "chat-hidden", "U+3164"),
        ("mongolian\u180e", "chat-hidden", "U+180E"),
        ("line\u2028break", "chat-hidden", "U+2028"),
        (12, "bad-message", "text"),
        (None, "bad-message", "text"),
        (["a"], "bad-message", "text"),
        (1e308, "bad-message", "text"),
    ],
)
def test_a_bad_chat_line_is_one_refusal_and_changes_nothing(
    client: TestClient, text: Any, code: str, words: str
) -> None:
    made = make_game(client, "cubes", [HUMAN, HUMAN])
    with (
        connect(client, made["id"], token(made, 0)) as a,
        connect(client, made["id"], token(made, 1)) as b,
    ):
        ana, bo = Socket(a), Socket(b)
        ana.opening()
        bo.opening()
        say(ana, text)
        refused = ana.error()
        assert refused["code"] == code and words in refused["message"]
        say(ana, "fine")  # the next line goes through, and is the only one told
        assert chat_of(bo)["text"] == "fine"
    with connect(client, made["id"], token(made, 1)) as b:
        bo = Socket(b)
        bo.opening()
        assert [line["text"] for line in history_of(bo)["lines"]] == ["fine"]


def test_garbage_chat_messages_are_refused(client: TestClient) -> None:
    made = make_game(client, "cubes", [HUMAN, HUMAN])
    with connect(client, made["id"], token(made, 0)) as a:
        ana = Socket(a)
        ana.opening()
        for raw in (
            '{"type": "chat", "text": NaN}',
            '{"type": "chat", "text": "hi", "channel": "spectators"}',
            '{"type": "chat"}',
            '{"type": "chat", "text": "' + "y" * 3000 + '"}',
        ):
            ana.send_text(raw)
            assert ana.error()["code"] == "bad-message"
        ana.send({"type": "ping"})
        assert [m for m in ana.transcript_until_pong() if m["type"] == "chat"] == []


def test_a_flood_is_held_by_the_connections_rate(client: TestClient, clock: Seconds) -> None:
    made = make_game(client, "cubes", [HUMAN, HUMAN])
    burst = Limits().chat_burst
    with (
        connect(client, made["id"], token(made, 0)) as a,
        connect(client, made["id"], token(made, 1)) as b,
    ):
        ana, bo = Socket(a), Socket(b)
        ana.opening()
        bo.opening()
        for i in range(burst):
            say(ana, f"line {i}")
            assert chat_of(bo)["text"] == f"line {i}"
        say(ana, "one too many")
        refused = ana.error()
        assert refused["code"] == "chat-slow" and "too many chat lines" in refused["message"]
        clock.now += 2.0  # one line's worth of time (0.5 a second)
        say(ana, "later")
        assert chat_of(bo)["text"] == "later"
    with connect(client, made["id"], token(made, 1)) as b:
        bo = Socket(b)
        bo.opening()
        assert "one too many" not in [line["text"] for line in history_of(bo)["lines"]]


def test_an_address_has_a_cap_over_all_its_connections(db_url: str, clock: Seconds) -> None:
    limits = Limits(chat_per_minute=3, chat_burst=10)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits, clock=clock)) as client:
        made = make_game(client, "cubes", [HUMAN, HUMAN])
        with (
            connect(client, made["id"], token(made, 0)) as a,
            connect(client, made["id"], token(made, 1)) as b,
        ):
            ana, bo = Socket(a), Socket(b)
            ana.opening()
            bo.opening()
            for i, ws in enumerate((ana, bo, ana)):
                say(ws, f"hello {i}")
                ws.until(lambda m, i=i: m["type"] == "chat" and m["text"] == f"hello {i}")
            say(bo, "again")
            assert "a minute" in bo.error()["message"]
            clock.now += 61
            say(bo, "again")
            assert bo.until(lambda m: m["type"] == "chat" and m["text"] == "again")


def test_the_host_closes_the_spectators_chat(client: TestClient) -> None:
    made = make_game(client, "cubes", [HUMAN, HUMAN])
    path = f"/api/games/{made['id']}/chat/spectators"
    with connect(client, made["id"], None) as w, connect(client, made["id"], token(made, 0)) as a:
        watcher, ana = Socket(w), Socket(a)
        watcher.opening()
        ana.opening()
        # only the host: not a seat's credential, not nobody, and garbage is refused
        assert client.post(path, json={"open": False}).status_code == 403
        seat = {"Authorization": f"Bearer {token(made, 0)}"}
        assert client.post(path, json={"open": False}, headers=seat).status_code == 403
        host = {"Authorization": f"Bearer {made['host']}"}
        for body in ({"open": "no"}, {"open": 0}, {}, {"open": False, "x": 1}):
            assert client.post(path, json=body, headers=host).status_code == 400
        say(watcher, "still open")
        assert chat_of(watcher)["text"] == "still open"
        assert client.post(path, json={"open": False}, headers=host).status_code == 200
        assert watcher.until(lambda m: m["type"] == "chat-spectators") == {
            "type": "chat-spectators",
            "open": False,
        }
        closed = chat_of(watcher)
        assert closed["system"] == "closed" and closed["channel"] == "table"
        assert chat_of(ana)["system"] == "closed"  # players see system lines too
        say(watcher, "hello?")
        refused = watcher.error()
        assert refused["code"] == "chat-closed"
        say(ana, "players still talk")
        assert chat_of(ana)["text"] == "players still talk"
    with connect(client, made["id"], None) as w:
        watcher = Socket(w)
        watcher.opening()
        assert history_of(watcher)["spectators_open"] is False


def test_a_spectators_tag_names_them_at_one_table_only_and_is_not_their_address(
    client: TestClient,
) -> None:
    """A spectator keeps their tag when they come back (so a mute holds), another table
    gives them another, and the tag is no hash of the address alone (a keyed HMAC)."""
    import hashlib

    first = make_game(client, "cubes", [HUMAN, HUMAN])
    second = make_game(client, "cubes", [HUMAN, HUMAN])
    tags = []
    for game_id in (first["id"], first["id"], second["id"]):
        with connect(client, game_id) as w:
            watcher = Socket(w)
            watcher.opening()
            tags.append(history_of(watcher)["you"])
            say(watcher, "hello")
            assert chat_of(watcher)["spectator"] == tags[-1]
    assert tags[0] == tags[1] != tags[2]
    address = "testclient"
    for game_id in (first["id"], second["id"]):
        for said in (address, f"{game_id}\x00address:{address}", f"{game_id}{address}"):
            assert hashlib.sha256(said.encode()).hexdigest()[:8] not in tags
    # the lines kept say who among the spectators said them
    with connect(client, first["id"]) as w:
        watcher = Socket(w)
        watcher.opening()
        assert [line["spectator"] for line in history_of(watcher)["lines"]] == tags[:2]
    # a player's lines carry no tag
    with connect(client, first["id"], token(first, 0)) as a:
        ana = Socket(a)
        ana.opening()
        history_of(ana)
        say(ana, "hi")
        assert "spectator" not in chat_of(ana)


def test_a_signed_in_spectator_is_tagged_by_account_not_by_address(db_url: str) -> None:
    """Two people watching from one address are told apart once signed in (so one may
    mute the other), and one account has one tag from any of its browsers."""
    from tests.server.accounting import browser, quick_app, sign_up

    app = quick_app(db_url)

    def tag_of(client: TestClient, game_id: str, session: str | None) -> str:
        headers = {"cookie": f"cubegames_session={session}"} if session else {}
        with client.websocket_connect(f"/ws/games/{game_id}", headers=headers) as w:
            w.send_json({"type": "auth", "token": None})
            watcher = Socket(w)
            watcher.opening()
            you: str = history_of(watcher)["you"]
            say(watcher, "hello")
            assert chat_of(watcher)["spectator"] == you
            return you

    with browser(app) as ada, browser(app) as bob, browser(app) as host:
        sign_up(ada, "ada")
        sign_up(bob, "bob")
        sessions = [c.cookies.get("cubegames_session") for c in (ada, bob)]
        made = make_game(host, "cubes", [HUMAN, HUMAN])
        guest = tag_of(host, made["id"], None)
        first = tag_of(ada, made["id"], sessions[0])
        assert first != guest != tag_of(bob, made["id"], sessions[1]) != first
        assert tag_of(host, made["id"], sessions[0]) == first  # ada's, from another browser
        assert tag_of(host, made["id"], "not-a-session") == guest


def test_two_guests_watching_from_one_address_have_tags_of_their_own(db_url: str) -> None:
    """Every page gives a browser its own guest id (a `Secure`, `HttpOnly`,
    `SameSite=Lax` cookie, given once): two guests watching one table from one address
    (one NAT) then have a tag each, kept when they come back, so a mute of one leaves the
    other; a tag is neither the guest id nor a plain hash of it; a cookie of another form
    (forged, or too long) counts for nothing (the address's tag)."""
    import hashlib

    from tests.server.accounting import browser, quick_app

    app = quick_app(db_url)

    def watch(client: TestClient, game_id: str, guest: str | None) -> Socket:
        headers = {"cookie": f"cubegames_guest={guest}"} if guest else {}
        return client.websocket_connect(f"/ws/games/{game_id}", headers=headers)

    def tag_and_line(client: TestClient, game_id: str, guest: str | None, text: str) -> str:
        with watch(client, game_id, guest) as w:
            w.send_json({"type": "auth", "token": None})
            watcher = Socket(w)
            watcher.opening()
            you: str = history_of(watcher)["you"]
            say(watcher, text)
            assert chat_of(watcher)["spectator"] == you
            return you

    with browser(app) as ana, browser(app) as bo, browser(app) as host:
        made = make_game(host, "cubes", [HUMAN, HUMAN])
        ids = []
        for guest in (ana, bo):
            page = guest.get(f"/play/{made['id']}")
            assert page.status_code == 200
            given = page.headers["set-cookie"]
            assert given.startswith("cubegames_guest=")
            for part in ("Secure", "HttpOnly", "SameSite=lax", "Path=/"):
                assert part in given, given
            assert page.headers["cache-control"] == "no-cache, private"  # no shared cache
            ids.append(guest.cookies.get("cubegames_guest"))
            assert "set-cookie" not in guest.get("/").headers  # kept, not given again
        assert len(set(ids)) == 2 and all(len(i) == 32 for i in ids)
        first = tag_and_line(ana, made["id"], ids[0], "hello from Ana")
        second = tag_and_line(bo, made["id"], ids[1], "hello from Bo")
        address = tag_and_line(host, made["id"], None, "hello from a program")
        assert len({first, second, address}) == 3
        assert tag_and_line(ana, made["id"], ids[0], "back again") == first
        for forged in ("x" * 31, "x" * 33, "." * 32, "a" * 5000):
            assert tag_and_line(host, made["id"], forged, "forged") == address
        for said in (ids[0], f"{made['id']}\x00guest:{ids[0]}", f"guest:{ids[0]}"):
            assert hashlib.sha256(said.encode()).hexdigest()[:8] != first
        assert first not in ids[0]
        # a spectator who mutes Ana's tag hides Ana's lines only (the page mutes by tag)
        with watch(host, made["id"], None) as w:
            w.send_json({"type": "auth", "token": None})
            watcher = Socket(w)
            watcher.opening()
            lines = history_of(watcher)["lines"]
        shown = [line["text"] for line in lines if line.get("spectator") != first]
        assert shown == ["hello from Bo", "hello from a program", *["forged"] * 4]


def test_the_processes_of_one_server_give_a_spectator_one_tag(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`serve --workers N` hands its processes one secret (process.environment): two apps
    on it tag a spectator alike; apps with secrets of their own do not."""
    from cubegames.server.chat import SECRET_VARIABLE
    from cubegames.server.process import environment

    shared = environment(db_url, Limits(), 2)[SECRET_VARIABLE]
    assert len(bytes.fromhex(shared)) == 32
    assert environment(db_url, Limits(), 2)[SECRET_VARIABLE] != shared
    monkeypatch.setenv(SECRET_VARIABLE, shared)
    one, two = (create_app(db_url, bot_delay=0).state.server.chats for _ in range(2))
    assert one.spectator_tag("g1", "10.0.0.1") == two.spectator_tag("g1", "10.0.0.1")
    monkeypatch.delenv(SECRET_VARIABLE)
    three = create_app(db_url, bot_delay=0).state.server.chats
    assert three.spectator_tag("g1", "10.0.0.1") != one.spectator_tag("g1", "10.0.0.1")


def test_a_chat_refusal_reaches_the_page_as_a_code_its_catalogs_word() -> None:
    """Every refusal of a chat line has a code whose words (`refusal-CODE`) are in both
    catalogs and take nothing from the server's English (no variable)."""
    from cubegames.server.i18n import bundle

    codes = ["chat", "chat-blank", "chat-long", "chat-hidden", "chat-slow", "chat-closed"]
    for text, code in (("  ", "chat-blank"), ("x" * 301, "chat-long"), ("a\u2066", "chat-hidden")):
        with pytest.raises(ChatRefused) as refused:
            clean(text)
        assert refused.value.code == code
    for lang in ("en", "ja"):
        for code in codes:
            message = bundle(lang).get_message(f"refusal-{code}")
            assert message is not None and message.value is not None, (lang, code)
            said, errors = bundle(lang).format_pattern(message.value, {})
            assert errors == [] and said, (lang, code)
            if lang == "ja":
                assert not re.search(r"[A-Za-z]", said), said


def test_a_script_in_a_line_comes_back_as_plain_text(client: TestClient) -> None:
    """The server carries a line as JSON text, never as markup: the page makes a text node
    of it (test_browser_lobby checks the page shows the tags as text)."""
    made = make_game(client, "cubes", [HUMAN, HUMAN])
    evil = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    with connect(client, made["id"], token(made, 0)) as a:
        ana = Socket(a)
        ana.opening()
        say(ana, evil)
        assert chat_of(ana)["text"] == evil


def test_system_lines_say_who_joined_took_back_and_resigned(client: TestClient) -> None:
    made = make_game(client, "unstackable", [HUMAN, bot("greedy")])
    with connect(client, made["id"], token(made, 0)) as a:
        ana = Socket(a)
        _, state = ana.opening()
        history_of(ana)
        ana.move(state["legal"][0], 0)
        ana.state(ply=2)  # the bot answered
        ana.send({"type": "undo"})
        took = chat_of(ana)
        assert took["system"] == "takeback" and took["params"] == {"seat": 0, "count": 2}
        ana.send({"type": "resign"})
        resigned = chat_of(ana)
        assert resigned["system"] == "resigned" and resigned["params"] == {"seat": 0}


def test_the_chat_of_a_cubed_game_never_carries_a_hand(client: TestClient, db_url: str) -> None:
    """Every chat message any page of a CUBED game is sent (lines, system lines, history)
    holds no piece and no move's notation: only what people typed, seats and counts."""
    answer = client.post(
        "/api/games",
        json={"game": "cubed", "seats": [HUMAN, INVITED, bot("greedy")], "options": {"players": 3}},
    )
    made = answer.json()
    claimed = client.post(
        f"/api/games/{made['id']}/claim", json={"invite": made["seats"][1]["invite"]}
    ).json()
    with (
        connect(client, made["id"], token(made, 0)) as a,
        connect(client, made["id"], claimed["token"]) as b,
        connect(client, made["id"], None) as w,
    ):
        pages = [Socket(a), Socket(b), Socket(w)]
        for ws in pages:
            ws.opening()
            history_of(ws)
        state = pages[0].held
        assert state is not None
        draw = next(m for m in state["legal"] if m == "draw")
        pages[0].move(draw, 0)
        pages[0].state(ply=1)
        say(pages[0], "i drew one")
        say(pages[1], "good for you")
        say(pages[2], "watching")
        pages[1].send({"type": "resign"})  # three seats: a bot plays on for seat 1
        for ws in pages[:2]:
            ws.until(lambda m: m["type"] == "chat" and m.get("system") == "zombie")
        pages[2].until(lambda m: m["type"] == "chat" and m.get("system") == "zombie")
    with connect(client, made["id"], token(made, 0)) as again:
        ws = Socket(again)
        ws.opening()
        pages.append(ws)
        history_of(ws)
    told = [
        m
        for ws in pages
        for m in map(json.loads, ws.transcript)
        if m["type"] in ("chat", "chat-history", "chat-spectators")
    ]
    assert len(told) > 8
    store = Store(db_url)
    try:
        info = store.load(made["id"])
    finally:
        store.close()
    assert info is not None
    text = json.dumps(told)
    assert re.search(r"[A-Z]{3}", text) is None  # no piece, in any rotation
    assert "@" not in text and "draw" not in text.replace("i drew", "")
    for message in told:
        for line in message.get("lines", [message]):
            if "system" in line:
                assert set(line["params"]) <= {"seat", "count", "how"}


def test_history_is_bounded_per_channel(store: Store) -> None:
    game_id, _ = store.create("cubes", {}, 1, [NewSeat("human"), NewSeat("human")])
    for i in range(7):
        store.add_chat(game_id, "players", seat=0, said=f"p{i}", keep=5)
    store.add_chat(game_id, "table", system="joined", params={"seat": 1}, keep=5)
    kept = store.chat(game_id, ["players", "table"])
    assert [line.text for line in kept if line.text] == ["p2", "p3", "p4", "p5", "p6"]
    assert [line.system for line in kept] == [None] * 5 + ["joined"]
    assert HISTORY == 200


def test_clean_refuses_in_words() -> None:
    assert clean(" café ") == "café"
    with pytest.raises(ChatRefused, match="blank"):
        clean("\t\n ")
    with pytest.raises(ChatRefused, match=re.escape("U+2066")):
        clean("isolate\u2066x")


def test_a_timeout_is_a_system_line(db_url: str) -> None:
    from tests.server.helpers import FakeClock
    from tests.server.test_clocks import LIMITS, _server

    now = FakeClock()
    with TestClient(create_app(db_url, bot_delay=0, limits=LIMITS, now=now)) as client:
        body = {
            "game": "unstackable",
            "seats": [HUMAN, HUMAN],
            "clock": {"kind": "realtime", "preset": "3+2"},
        }
        made = client.post("/api/games", json=body).json()
        with (
            connect(client, made["id"], token(made, 0)) as a,
            connect(client, made["id"], token(made, 1)) as b,
        ):
            pages = [Socket(a), Socket(b)]
            for ws in pages:
                ws.opening()
                history_of(ws)
            for ply in range(4):  # each seat's clock runs from its second move
                state = pages[0].held
                assert state is not None
                mover = pages[state["to_move"]]
                held = mover.held
                assert held is not None
                mover.move(held["legal"][0], ply)
                for ws in pages:
                    ws.state(ply=ply + 1)
            now.advance(400)
            server = _server(client)
            assert client.portal.call(server.referee.check_clocks) == [made["id"]]
            line = chat_of(pages[1])
            assert line["system"] == "time" and set(line["params"]) == {"seat"}
