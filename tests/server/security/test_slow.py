"""Slow and stuck clients: a real uvicorn (as `cubegames serve` runs it) on 127.0.0.1 tried
with raw sockets, and a page that stops reading; and a slow bot that must not hold up the
bots of other games."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cubegames.server import rooms
from cubegames.server.app import create_app
from cubegames.server.limits import Limits
from cubegames.server.protocol import Connection
from cubegames.server.rooms import OUTBOX, Peer, Room, replay
from cubegames.server.storage import HUMAN, NewSeat, Store
from tests.server.helpers import Socket, TestClient, bot, connect, make_game

SERVE = """
import sys
from cubegames.server import guard
from cubegames.server.app import create_app
from cubegames.server.cli import run
guard.HeadTimeoutH11.head_timeout = 1.0
run(create_app(sys.argv[1], bot_delay=0), "127.0.0.1", int(sys.argv[2]))
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """`cli.run` serving the app on a free loopback port (head timeout cut to 1 s)."""
    db = tmp_path_factory.mktemp("slow") / "games.sqlite3"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, f"sqlite:///{db}", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"},
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1).is_success:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            pytest.fail("the server did not start")
        yield "127.0.0.1", port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (reading whatever it says)."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if sock.recv(4096) == b"":
                return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return False


@pytest.mark.slow
def test_a_client_that_never_finishes_its_headers_is_closed(served: tuple[str, int]) -> None:
    with socket.create_connection(served, timeout=5) as sock:
        sock.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        assert closed_within(sock, 5.0)


@pytest.mark.slow
def test_a_client_that_trickles_its_headers_is_closed(served: tuple[str, int]) -> None:
    with socket.create_connection(served, timeout=5) as sock:
        sock.sendall(b"GET /api/catalog HTTP/1.1\r\n")
        start = time.monotonic()
        closed = False
        for _ in range(30):  # a byte every 0.2 s keeps no idle timer from firing
            try:
                sock.sendall(b"X")
            except OSError:
                closed = True
                break
            time.sleep(0.2)
            if time.monotonic() - start > 5:
                break
        assert closed or closed_within(sock, 1.0)


@pytest.mark.slow
def test_a_connection_that_sends_nothing_is_closed(served: tuple[str, int]) -> None:
    with socket.create_connection(served, timeout=5) as sock:
        assert closed_within(sock, 5.0)


@pytest.mark.slow
def test_an_oversized_head_is_refused(served: tuple[str, int]) -> None:
    with socket.create_connection(served, timeout=5) as sock:
        # 40 KB of headers, still unfinished: refused at once, not buffered until the end
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000)
        sock.settimeout(0.8)  # before the head timeout (1 s) could be what answers
        answer = sock.recv(4096)
    assert answer.startswith((b"HTTP/1.1 400", b"HTTP/1.1 431")), answer[:40]


@pytest.mark.slow
def test_a_normal_request_still_works(served: tuple[str, int]) -> None:
    host, port = served
    answer = httpx.get(f"http://{host}:{port}/api/catalog", timeout=5)
    assert answer.status_code == 200


class StuckPage:
    """A page that stopped reading: a send never completes."""

    async def send_text(self, message: str) -> None:
        await asyncio.Event().wait()


class Page:
    def __init__(self) -> None:
        self.got: list[Any] = []

    async def send_text(self, message: str) -> None:
        self.got.append(json.loads(message))


@pytest.mark.anyio
@pytest.mark.virtual_time
async def test_a_page_that_stops_reading_slows_nobody(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    game_id, _ = store.create("cubes", {"players": 2}, 3, [NewSeat(HUMAN), NewSeat(HUMAN)])
    info = store.load(game_id)
    assert info is not None
    built, state, played = replay(info)
    room = Room(info, built, state, played, store)
    stuck, fine = Peer(StuckPage(), 1), Peer(page := Page(), 0)  # type: ignore[arg-type]
    room.join(stuck)
    room.join(fine)
    # the move must not wait on the stuck page (up to its 5 s send timeout,
    # under the room's lock)
    loop = asyncio.get_running_loop()
    began = loop.time()
    await room.play(0, "roll")
    await fine.flush()
    assert loop.time() - began < 0.1  # virtual seconds: the stuck page's timeout is 5
    stuck.close()
    store.close()
    assert [m["ply"] for m in page.got] == [1]


class BlockedPage:
    """A page whose socket buffer is full until `free` is set: sends wait until then."""

    def __init__(self) -> None:
        self.free = asyncio.Event()
        self.got: list[str] = []

    async def send_text(self, message: str) -> None:
        await self.free.wait()
        self.got.append(message)


@pytest.mark.anyio
async def test_messages_wait_behind_a_send_that_cannot_finish_at_once_in_order() -> None:
    """A send that finishes at once goes out by a plain call (no task); one that has to
    wait is finished by the peer's writer task, the messages posted meanwhile after it,
    in the order posted; once all went out, sends are plain calls again."""
    page = BlockedPage()
    peer = Peer(page, 0)  # type: ignore[arg-type]
    assert peer.post("one") and peer.post("two") and peer.post("three")
    for _ in range(3):
        await asyncio.sleep(0)  # the writer task now waits on the page
    assert page.got == []  # nothing went yet: the first send waits for the buffer
    page.free.set()
    await asyncio.wait_for(peer.flush(), 1.0)
    assert peer._writer is None
    assert peer.post("four")  # the buffer is free: sent by the call itself
    assert page.got == ["one", "two", "three", "four"]
    assert peer._writer is None


@pytest.mark.anyio
async def test_a_page_that_falls_too_far_behind_is_dropped() -> None:
    peer = Peer(StuckPage(), 0)  # type: ignore[arg-type]
    taken = [peer.post(f"m{i}") for i in range(OUTBOX + 2)]
    await asyncio.sleep(0)
    # the first waits in the socket, OUTBOX more in the queue; the next one is too many
    assert taken == [True] * (OUTBOX + 1) + [False]
    assert peer.state is Connection.CLOSED


@pytest.mark.anyio
@pytest.mark.virtual_time
async def test_a_send_stuck_past_the_timeout_drops_the_page() -> None:
    fine = Page()
    stuck, other = Peer(StuckPage(), 0), Peer(fine, 1)  # type: ignore[arg-type]
    stuck.post('{"n": 1}')
    other.post('{"n": 1}')
    await asyncio.sleep(rooms.SEND_TIMEOUT - 0.1)
    assert stuck.state is not Connection.CLOSED  # not yet
    await asyncio.sleep(0.2)  # virtual seconds
    assert stuck.state is Connection.CLOSED and not stuck.post('{"n": 2}')
    assert other.state is not Connection.CLOSED


FLOOD = """
import asyncio, json, sys
from pathlib import Path
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from cubegames.server import rooms
from cubegames.server.cli import run
from cubegames.server.rooms import Peer

port, timeout, count, size, report = sys.argv[1:6]
rooms.SEND_TIMEOUT = float(timeout)

async def flood(websocket):
    await websocket.accept()
    peer = Peer(websocket, 0)
    waited = 0
    for i in range(int(count)):
        peer.post(json.dumps({"i": i, "pad": "x" * int(size)}))
        waited += peer._writer is not None
        await asyncio.sleep(0)
    await peer.flush()
    Path(report).write_text(json.dumps({"waited": waited, "state": peer.state.name}))
    await asyncio.sleep(30)

run(Starlette(routes=[WebSocketRoute("/flood", flood)]), "127.0.0.1", int(port))
"""
#: messages the flood sends, and their size: 12 MB, far more than a socket's buffers
FLOODED = (60, 200_000)


def _flooded_page(
    tmp_path: Path, send_timeout: float
) -> tuple[subprocess.Popen[bytes], socket.socket, Path]:
    """A server posting `FLOODED` messages through a `Peer` to a raw websocket page that
    has a small receive buffer and reads nothing yet; (server, page socket, report)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    report = tmp_path / "report.json"
    count, size = FLOODED
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            FLOOD,
            str(port),
            str(send_timeout),
            str(count),
            str(size),
            str(report),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while True:
        page = socket.socket()
        page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 * 1024)
        if page.connect_ex(("127.0.0.1", port)) == 0:
            break
        page.close()
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("the flood server did not start")
        time.sleep(0.1)
    page.sendall(
        b"GET /flood HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += page.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return process, page, report


def _text_frames(page: socket.socket, count: int) -> list[Any]:
    """Read `count` text frames (JSON) from the server, unmasked as servers send them."""
    buffer = bytearray()
    page.settimeout(10)

    def need(n: int) -> None:
        while len(buffer) < n:
            chunk = page.recv(1 << 20)
            if not chunk:
                raise EOFError("the server closed the connection")
            buffer.extend(chunk)

    found: list[Any] = []
    while len(found) < count:
        need(2)
        opcode, length, at = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
        if length == 126:
            need(4)
            length, at = int.from_bytes(buffer[2:4], "big"), 4
        elif length == 127:
            need(10)
            length, at = int.from_bytes(buffer[2:10], "big"), 10
        need(at + length)
        if opcode == 1:
            found.append(json.loads(bytes(buffer[at : at + length])))
        del buffer[: at + length]
    return found


def _wait_for(report: Path, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while not report.exists() or not report.read_text():
        if time.monotonic() > deadline:
            pytest.fail("the flood server did not finish")
        time.sleep(0.05)
    result: dict[str, Any] = json.loads(report.read_text())
    return result


@pytest.mark.slow
def test_a_real_socket_that_fills_up_gets_every_message_in_order_once_read(
    tmp_path: Path,
) -> None:
    """Through uvicorn (as `cubegames serve` runs it): a page that reads nothing for a
    while fills the socket's buffers, so the server's sends stop going out at once and
    the peer's writer task finishes them (uvicorn's own send coroutine, run on by hand);
    once the page reads, every message arrives, in order, and the page is kept."""
    process, page, report = _flooded_page(tmp_path, send_timeout=30.0)
    try:
        time.sleep(1.0)  # read nothing yet
        got = _text_frames(page, FLOODED[0])
        result = _wait_for(report, 10)
    finally:
        page.close()
        process.kill()
        process.wait(timeout=10)
    assert [m["i"] for m in got] == list(range(FLOODED[0]))
    assert result["state"] == "SEATED"
    assert result["waited"] > 0  # some sends did have to wait for the page


@pytest.mark.slow
def test_a_real_socket_that_never_reads_is_dropped_after_the_send_timeout(
    tmp_path: Path,
) -> None:
    process, page, report = _flooded_page(tmp_path, send_timeout=0.5)
    try:
        result = _wait_for(report, 10)  # the page reads nothing at all
    finally:
        page.close()
        process.kill()
        process.wait(timeout=10)
    assert result["waited"] > 0 and result["state"] == "CLOSED"


def test_a_slow_bot_does_not_hold_up_other_games_bots(db_url: str) -> None:
    """Three games whose bots think the longest allowed, then a quick game among bots:
    the quick game finishes while they think (with a shared pool of two threads it would
    wait for them)."""
    limits = Limits(bot_seconds=4.0)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as client:
        slow = [
            make_game(client, "cubed", [bot("mcts:seconds=4"), bot("mcts:seconds=4")])
            for _ in range(3)
        ]
        for made in slow:
            with connect(client, made["id"]) as session:
                Socket(session).opening()
        quick = make_game(client, "unstackable", [bot("random"), bot("random")])
        started = time.monotonic()
        with connect(client, quick["id"]) as session:
            Socket(session).until(lambda m: m["type"] == "state" and m["ply"] >= 3, timeout=3.5)
        assert time.monotonic() - started < 3.5
