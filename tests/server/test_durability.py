"""A move is acknowledged only once it is committed: a real server, killed with SIGKILL
right after acknowledging a move, has kept every move it acknowledged (on SQLite, in the
file's write-ahead log; on PostgreSQL, by the writer's one-statement transactions)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

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


def _group(pgid: int) -> list[int]:
    """The processes of process group `pgid` that are alive (zombies left out)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the processes from /proc")
def test_a_server_stopped_with_sigterm_leaves_no_process_behind(tmp_path: Path) -> None:
    """A search bot thinks in the server's pool of processes; uvicorn raises SIGTERM again
    once the app has shut down, which ended the server before Python's own clean-up of the
    pool, and its processes (and multiprocessing's resource tracker) lived on as orphans,
    for hours after a CI run. The app's shutdown now ends them itself."""
    server = Served(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        made = server.make_game("cubed", [HUMAN, {"kind": "bot", "bot": "mcts:iterations=30"}])
        page = server.page(made["id"], made["seats"][0]["token"])
        state = page.state()
        page.move(state["legal"][0], ply=state["ply"])
        page.state(ply=state["ply"] + 2)  # the bot's search has answered
        page.close()
        group = server.process.pid  # the server leads a process group of its own
        assert len(_group(group)) >= 2, "the search ran in no process of the pool"
        server.process.terminate()
        assert server.process.wait(timeout=30) is not None
        deadline = time.monotonic() + 20  # the pool's processes end as the server exits
        while _group(group) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _group(group) == []
    finally:
        server.stop()
