"""The lobby's patches: after any sequence of changes, a watcher that applied every patch
(in Python, `lobby.apply_patch`, and as the page does, static/lobbylist.js under Node)
holds exactly the server's list; a patch out of step makes the page ask for the whole
list again; each change is encoded once for every watcher; the websocket sends the list
once, then patches, and the whole list again on `sync`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubegames.server.frames import frame
from cubegames.server.lobby import Lobby, apply_patch, lobby_patch
from tests.server import test_page_modules as page_modules
from tests.server.helpers import HUMAN, Socket, TestClient

STATIC = Path(__file__).resolve().parents[2] / "src" / "cubegames" / "server" / "static"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
INVITED = {"kind": "human", "invite": True}

#: a list of the lobby: tables drawn from ids "t0".."t7", each with a field that changes
#: (its free seats) and a name, in any order (the server's order is by age, but a patch
#: must also cope with a list whose order changed: it is then sent whole)
TABLE_LISTS = st.lists(
    st.builds(
        lambda i, free, name: {"id": f"t{i}", "free": free, "host": {"name": name}},
        st.integers(0, 7),
        st.integers(0, 3),
        st.sampled_from(["Ana", "Bo", None]),
    ),
    max_size=8,
    unique_by=lambda t: t["id"],
)


@given(st.lists(TABLE_LISTS, max_size=12))
@settings(max_examples=300, deadline=None)
def test_patches_rebuild_the_servers_list_after_any_changes(
    lists: list[list[dict[str, Any]]],
) -> None:
    held: list[dict[str, Any]] = []
    for tables in lists:
        patch = lobby_patch(held, tables)
        if patch is None:  # the staying tables changed order: the list goes whole
            staying = {t["id"] for t in tables}
            assert [t["id"] for t in held if t["id"] in staying] != [
                t["id"] for t in tables if t["id"] in {h["id"] for h in held}
            ]
            held = tables
            continue
        held = apply_patch(held, patch)
        assert held == tables
        # only what changed travels
        assert {t["id"] for t in patch["changed"]} | {a["table"]["id"] for a in patch["added"]} <= {
            t["id"] for t in tables
        }


def test_a_patch_that_does_not_fit_is_refused() -> None:
    a, b = {"id": "a"}, {"id": "b"}
    for patch in (
        {"removed": ["zz"], "changed": [], "added": []},
        {"removed": [], "changed": [{"id": "zz"}], "added": []},
        {"removed": [], "changed": [], "added": [{"at": 5, "table": {"id": "c"}}]},
        {"removed": [], "changed": [], "added": [{"at": 0, "table": b}]},
    ):
        with pytest.raises(ValueError, match="does not fit"):
            apply_patch([a, b], patch)


class Recorder:
    """A watcher that keeps what it is sent (as `rooms.Peer.post` and `post_frame` take
    it: the text, and the frame built from it)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.frames: list[bytes | None] = []

    def post(self, message: str) -> bool:
        self.sent.append(message)
        self.frames.append(None)
        return True

    def post_frame(self, frame: bytes, text: str) -> bool:
        self.sent.append(text)
        self.frames.append(frame)
        return True

    def close(self) -> None:
        pass


def _lobby_with(watchers: list[Recorder]) -> Lobby:
    lobby = Lobby(cast(Any, None), cast(Any, None))
    lobby.watchers.update(cast(Any, watchers))
    return lobby


@given(st.lists(TABLE_LISTS, max_size=10))
@settings(max_examples=100, deadline=None)
def test_each_change_is_encoded_once_and_sent_to_every_watcher(
    lists: list[list[dict[str, Any]]],
) -> None:
    watchers = [Recorder() for _ in range(3)]
    lobby = _lobby_with(watchers)
    versions = [lobby.version]
    for tables in lists:
        lobby.update(tables)
        versions.append(lobby.version)
    sent = watchers[0].sent
    # one text per change, the very same object for every watcher (encoded once), and
    # one websocket frame of it, the same bytes object for every watcher (built once)
    assert len(sent) == len(set(versions)) - 1
    for other in watchers[1:]:
        assert all(x is y for x, y in zip(other.sent, sent, strict=True))
        assert all(x is y for x, y in zip(other.frames, watchers[0].frames, strict=True))
    assert watchers[0].frames == [frame(text) for text in sent]
    held: list[dict[str, Any]] = []
    version = 0
    for text in sent:
        message = json.loads(text)
        assert message["version"] == version + 1
        version = message["version"]
        held = message["tables"] if message["type"] == "lobby" else apply_patch(held, message)
    assert held == lobby.tables == (lists[-1] if lists and sent else held)
    assert json.loads(lobby.snapshot()) == {
        "type": "lobby",
        "version": lobby.version,
        "tables": lobby.tables,
    }


def _in_node(answer: str, data: Any) -> Any:
    """`answer` worked out by Node over the page's lobby list module (`lobbylist.js`)."""
    imports = f"import * as l from {json.dumps((STATIC / 'lobbylist.js').as_uri())};"
    return page_modules._in_node(imports, answer, data)


#: the page's loop: apply each message; on null, note that it asked for the list again
PAGE = """input.map((messages) => {
  let held = l.emptyList();
  const lists = [];
  for (const m of messages) {
    const next = l.applyLobby(held, m);
    if (next === null) { lists.push("sync"); continue; }
    held = next;
    lists.push(held.tables);
  }
  return lists;
})"""


@needs_node
def test_the_page_holds_the_servers_list_after_every_message() -> None:
    rng_lists = [
        [[{"id": "a", "free": 1}], [{"id": "a", "free": 1}, {"id": "b", "free": 1}]],
        [[{"id": "a"}, {"id": "b"}], [{"id": "b"}], [{"id": "b", "x": 1}, {"id": "c"}], []],
        [[{"id": "a"}, {"id": "b"}], [{"id": "b"}, {"id": "a"}], [{"id": "a"}]],
        [
            [{"id": f"t{i}", "free": i % 2} for i in range(6)],
            [{"id": f"t{i}", "free": 1} for i in range(1, 7)],
            [{"id": "t9"}, {"id": "t3", "free": 0}, {"id": "t8"}],
        ],
    ]
    runs = []
    expected = []
    for lists in rng_lists:
        watcher = Recorder()
        lobby = _lobby_with([watcher])
        watcher.post(lobby.snapshot())  # as `Lobby.watch` sends it first
        for tables in lists:
            lobby.update(tables)
        runs.append([json.loads(text) for text in watcher.sent])
        expected.append([[], *[t for t in lists]])
    got = _in_node(PAGE, runs)
    for lists, seen in zip(expected, got, strict=True):
        assert seen == lists


@needs_node
def test_the_page_asks_for_the_whole_list_when_a_patch_is_missed_or_does_not_fit() -> None:
    first = {"type": "lobby", "version": 4, "tables": [{"id": "a"}]}
    skipped = {"type": "lobby-patch", "version": 6, "removed": ["a"], "changed": [], "added": []}
    unfit = {"type": "lobby-patch", "version": 5, "removed": ["zz"], "changed": [], "added": []}
    fits = {"type": "lobby-patch", "version": 5, "removed": [], "changed": [],
            "added": [{"at": 1, "table": {"id": "b"}}]}  # fmt: skip
    before = {"type": "lobby-patch", "version": 1, "removed": [], "changed": [], "added": []}
    got = _in_node(PAGE, [[first, skipped], [first, unfit], [first, fits], [before]])
    assert got == [
        [[{"id": "a"}], "sync"],
        [[{"id": "a"}], "sync"],
        [[{"id": "a"}], [{"id": "a"}, {"id": "b"}]],
        ["sync"],
    ]


def test_the_socket_sends_the_list_once_then_patches_and_the_list_on_sync(
    client: TestClient,
) -> None:
    def public(seats: list[dict[str, Any]]) -> dict[str, Any]:
        answer = client.post("/api/games", json={"game": "cubed", "seats": seats, "public": True})
        assert answer.status_code == 201, answer.text
        made: dict[str, Any] = answer.json()
        return made

    with client.websocket_connect("/ws/lobby") as session:
        watcher = Socket(session)
        first = watcher.receive()
        assert first["type"] == "lobby" and first["tables"] == []
        held, version = first["tables"], first["version"]
        made = [public([HUMAN, INVITED]) for _ in range(3)]
        client.post(f"/api/games/{made[1]['id']}/join", json={"name": "Bo"})
        server = client.get("/api/lobby").json()["tables"]
        assert [t["id"] for t in server] == [made[0]["id"], made[2]["id"]]
        while held != server:
            patch = watcher.until(lambda m: m["type"] == "lobby-patch")
            assert patch["version"] == version + 1
            version = patch["version"]
            held = apply_patch(held, patch)
        watcher.send({"type": "sync"})
        again = watcher.until(lambda m: m["type"] == "lobby")
        assert again == {"type": "lobby", "version": version, "tables": server}
