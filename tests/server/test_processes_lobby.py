"""The lobby and the chat across two server processes on one PostgreSQL database: a table
opened on one process reaches the lobby watched on the other through the bus (the
periodic read is set out of reach), a seat taken there leaves both lists, and a chat line
said on one process reaches a page on the other, and is replayed to it on reconnect."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from tests.server.live import Page, Served

# real server processes on PostgreSQL: minutes on a busy machine
pytestmark = pytest.mark.slow

HUMAN = {"kind": "human"}
INVITED = {"kind": "human", "invite": True}
#: the lobby's own periodic read out of the way: only the bus can tell the other process
SLOW_READS = ("--limit", "lobby_refresh_seconds=3600")


@pytest.fixture
def backend() -> str:
    """Every test here runs on PostgreSQL (skipped, saying why, where there is none)."""
    return "postgresql"


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[Served, Served]]:
    first = Served(db_url, *SLOW_READS)
    try:
        second = Served(db_url, *SLOW_READS)
    except BaseException:
        first.stop()
        raise
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def watch(server: Served) -> ClientConnection:
    return ws_connect(f"ws://127.0.0.1:{server.port}/ws/lobby", open_timeout=15)


def until(
    socket: ClientConnection | Page, test: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    while True:
        raw = socket.receive() if isinstance(socket, Page) else json.loads(socket.recv(timeout=15))
        if test(raw):
            return raw


def test_the_lobby_follows_tables_opened_and_filled_on_another_process(
    two: tuple[Served, Served],
) -> None:
    a, b = two
    with watch(a) as on_a, watch(b) as on_b:
        for socket in (on_a, on_b):
            assert until(socket, lambda m: m["type"] == "lobby")["tables"] == []
        body = {"game": "cubed", "seats": [HUMAN, INVITED], "public": True}
        made = httpx.post(f"{a.url}/api/games", json=body, timeout=10).json()
        for socket in (on_a, on_b):
            listed = until(socket, lambda m: m["type"] == "lobby-patch" and m["added"] != [])
            assert [a["table"]["id"] for a in listed["added"]] == [made["id"]]
        joined = httpx.post(f"{b.url}/api/games/{made['id']}/join", json={"name": "Bo"}, timeout=10)
        assert joined.status_code == 200, joined.text
        for socket in (on_a, on_b):
            gone = until(socket, lambda m: m["type"] == "lobby-patch" and m["removed"] != [])
            assert gone["removed"] == [made["id"]]


def test_a_chat_line_reaches_a_page_on_another_process(two: tuple[Served, Served]) -> None:
    a, b = two
    made = a.make_game("cubes", [HUMAN, HUMAN])
    ana = a.page(made["id"], made["seats"][0]["token"])
    bo = b.page(made["id"], made["seats"][1]["token"])
    watcher = b.page(made["id"], None)
    for page in (ana, bo, watcher):
        until(page, lambda m: m["type"] == "chat-history")
    ana.socket.send(json.dumps({"type": "chat", "text": "hello from a"}))
    line = until(bo, lambda m: m["type"] == "chat")
    assert line["text"] == "hello from a" and line["seat"] == 0
    # the host closes the spectators' chat on a: the watcher on b is told, and refused
    host = {"Authorization": f"Bearer {made['host']}"}
    closed = httpx.post(
        f"{a.url}/api/games/{made['id']}/chat/spectators", json={"open": False}, headers=host
    )
    assert closed.status_code == 200
    assert until(watcher, lambda m: m["type"] == "chat-spectators") == {
        "type": "chat-spectators",
        "open": False,
    }
    watcher.socket.send(json.dumps({"type": "chat", "text": "hi?"}))
    assert until(watcher, lambda m: m["type"] == "error")["code"] == "chat-closed"
    for page in (ana, bo, watcher):
        page.close()
    again = b.page(made["id"], made["seats"][1]["token"])
    history = until(again, lambda m: m["type"] == "chat-history")
    assert [line.get("text") for line in history["lines"]][:1] == ["hello from a"]
    assert history["lines"][-1]["system"] == "closed"
    again.close()
