"""A move is acknowledged only once it is committed: a real server, killed with SIGKILL
right after acknowledging a move, has kept every move it acknowledged (on SQLite, in the
file's write-ahead log; on PostgreSQL, by the writer's one-statement transactions)."""

from __future__ import annotations

import sqlite3

import pytest

from cubegames.server.storage import Store
from tests.server.helpers import BOTH
from tests.server.live import Served

HUMAN = {"kind": "human"}


@BOTH
@pytest.mark.slow
def test_every_acknowledged_move_survives_kill_9(db_url: str, backend: str) -> None:
    url = db_url
    server = Served(url)
    acknowledged: list[str] = []
    try:
        made = server.make_game("unstackable", [HUMAN, HUMAN])
        pages = [server.page(made["id"], seat["token"]) for seat in made["seats"]]
        latest = [page.state() for page in pages]
        while len(acknowledged) < 24 and latest[0]["to_move"] is not None:
            mover = latest[0]["to_move"]
            move = latest[mover]["legal"][0]
            pages[mover].move(move, ply=len(acknowledged))
            # the mover's new state is the acknowledgement: the move is saved by then
            latest[mover] = pages[mover].state(ply=len(acknowledged) + 1)
            acknowledged.append(move)
            other = 1 - mover
            latest[other] = pages[other].state(ply=len(acknowledged))
    finally:
        server.kill()  # at once after the last acknowledgement, no shutdown of any kind
    assert len(acknowledged) >= 10
    if backend == "sqlite":
        # the file is in write-ahead-log mode, and the log is replayed on opening
        with sqlite3.connect(url.removeprefix("sqlite:///")) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store = Store(url)
    try:
        info = store.load(made["id"])
    finally:
        store.close()
    assert info is not None
    assert [m.move for m in info.moves] == acknowledged
