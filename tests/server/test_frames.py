"""The lobby's frames, built once and written to every watcher (`frames`): uvicorn's
protocol as `cubegames serve` runs it writes a frame only to a connection open for it,
and otherwise the page gets the text through ASGI as before; through a real server, with
permessage-deflate negotiated as a browser does, a watcher reads the list (compressed, sent
through ASGI) and each patch (one uncompressed frame) alike, and a game's websocket beside
it is compressed as before."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.server import ServerState

from cubegames.server.frames import EXTENSION, Protocol, frame, writer_of
from cubegames.server.rooms import Peer
from tests.server.security.test_slow import served  # noqa: F401 (the fixture)

INVITED = {"kind": "human", "invite": True}


def test_a_frame_is_the_text_unmasked_and_uncompressed() -> None:
    text = json.dumps({"type": "lobby-patch", "version": 2, "removed": ["abc"]})
    built = frame(text)
    assert built[0] == 0x81  # FIN, no RSV bit (uncompressed), a text frame
    assert built[1] == len(text)  # no mask bit, a short length
    assert built[2:] == text.encode()
    long = "é" * 40_000
    assert frame(long)[:2] == bytes([0x81, 127])  # a 64-bit length
    assert struct.unpack("!Q", frame(long)[2:10])[0] == len(long.encode())


class Transport:
    """What uvicorn's protocol writes to."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("10.0.0.1", 5000), "sockname": ("127.0.0.1", 80)}.get(name)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    b"Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n"
)
#: a client's close frame (masked with a zero mask), code 1000
CLOSE = bytes([0x88, 0x82, 0, 0, 0, 0]) + struct.pack("!H", 1000)


@pytest.mark.anyio
async def test_a_frame_is_written_only_to_a_connection_open_for_it() -> None:
    """Before the app accepts, over the transport's high-water mark, after the page sent
    its close: no frame is written (the writer says so); while open, it is written as is,
    after what was sent before it."""
    accepted = asyncio.Event()
    writers: list[Any] = []

    async def endpoint(websocket: WebSocket) -> None:
        writers.append(writer_of(websocket.scope))
        await websocket.accept()
        await websocket.send_text("hello")
        accepted.set()
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    config = uvicorn.Config(app, ws=Protocol, log_level="warning")
    config.load()
    protocol = Protocol(config, ServerState(), {}, asyncio.get_running_loop())
    transport = Transport()
    protocol.connection_made(transport)  # type: ignore[arg-type]
    built = frame('{"type": "lobby-patch"}')
    assert protocol.write_frame(built) is False  # no handshake yet
    protocol.data_received(HANDSHAKE)
    await asyncio.wait_for(accepted.wait(), 5)
    assert writers == [protocol.write_frame]
    assert b"permessage-deflate" in bytes(transport.written)  # negotiated
    before = len(transport.written)
    assert protocol.write_frame(built) is True
    assert bytes(transport.written[before:]) == built  # as built, after the hello
    protocol.pause_writing()
    assert protocol.write_frame(built) is False
    protocol.resume_writing()
    assert protocol.write_frame(built) is True
    protocol.data_received(CLOSE)
    assert protocol.write_frame(built) is False
    await asyncio.sleep(0)
    protocol.connection_lost(None)
    assert protocol.write_frame(built) is False


class Page:
    """A socket as `Peer` holds it: its scope, and the texts sent through ASGI."""

    def __init__(self, writer: Any = None) -> None:
        self.scope = {"extensions": {EXTENSION: writer} if writer else {}}
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


def test_a_peer_writes_the_frame_where_it_can_and_sends_the_text_otherwise() -> None:
    written: list[bytes] = []
    open_ = Page(lambda data: written.append(data) is None)
    full = Page(lambda _data: False)
    plain = Page()
    for page in (open_, full, plain):
        assert Peer(page, None).post_frame(b"frame", "text")  # type: ignore[arg-type]
    assert written == [b"frame"] and open_.sent == []
    assert full.sent == plain.sent == ["text"]


class Reader:
    """A websocket's messages from the server, read off its socket: whether each was
    compressed, and its text (inflated with the connection's one context, kept from
    message to message as permessage-deflate does)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.inflate = zlib.decompressobj(-zlib.MAX_WBITS)
        self.buffer = b""

    def _take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            assert chunk, "the server closed the connection"
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def read(self, count: int) -> list[tuple[bool, str]]:
        found: list[tuple[bool, str]] = []
        while len(found) < count:
            head = self._take(2)
            assert head[0] & 0x0F == 0x1 and head[0] & 0x80, head  # one whole text frame
            assert not head[1] & 0x80  # a server's frames are not masked
            size = head[1] & 0x7F
            if size == 126:
                size = struct.unpack("!H", self._take(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self._take(8))[0]
            payload = self._take(size)
            compressed = bool(head[0] & 0x40)
            if compressed:
                payload = self.inflate.decompress(payload + b"\x00\x00\xff\xff")
            found.append((compressed, payload.decode()))
        return found


def _upgrade(address: tuple[str, int], path: str) -> socket.socket:
    sock = socket.create_connection(address, timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {address[0]}:{address[1]}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    assert b"permessage-deflate" in head.lower()
    return sock


@pytest.fixture
def watching(served: tuple[str, int]) -> Iterator[socket.socket]:  # noqa: F811
    sock = _upgrade(served, "/ws/lobby")
    try:
        yield sock
    finally:
        sock.close()


@pytest.mark.slow
def test_through_uvicorn_a_watcher_reads_the_list_then_each_patch_as_one_plain_frame(
    served: tuple[str, int],  # noqa: F811
    watching: socket.socket,
) -> None:
    url = f"http://{served[0]}:{served[1]}"
    lobby = Reader(watching)
    [(compressed, text)] = lobby.read(1)
    first = json.loads(text)
    assert first["type"] == "lobby" and compressed  # through ASGI, compressed
    made = httpx.post(
        f"{url}/api/games",
        json={"game": "cubes", "seats": [{"kind": "human"}, INVITED], "public": True},
    ).json()
    [(compressed, text)] = lobby.read(1)
    patch = json.loads(text)
    assert not compressed  # the frame built once for every watcher
    assert patch["type"] == "lobby-patch" and patch["version"] == first["version"] + 1
    assert [a["table"]["id"] for a in patch["added"]] == [made["id"]]
    # the page's next messages through ASGI are compressed, on the same context
    watching.sendall(_masked(json.dumps({"type": "sync"})))
    watching.sendall(_masked(json.dumps({"type": "ping"})))
    (synced, whole), (_, pong) = lobby.read(2)
    assert synced and json.loads(whole)["version"] == patch["version"]
    assert made["id"] in [t["id"] for t in json.loads(whole)["tables"]]
    assert json.loads(pong) == {"type": "pong"}
    joined = httpx.post(f"{url}/api/games/{made['id']}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    [(compressed, text)] = lobby.read(1)
    assert not compressed and json.loads(text)["removed"] == [made["id"]]
    # a game's websocket beside it is compressed as before
    game = _upgrade(served, f"/ws/games/{made['id']}")
    try:
        game.sendall(_masked(json.dumps({"type": "auth", "token": None})))
        messages = Reader(game).read(2)
        assert all(compressed for compressed, _ in messages)
        assert json.loads(messages[0][1])["type"] == "hello"
    finally:
        game.close()


def _masked(text: str) -> bytes:
    """A client's text frame (a client masks its frames)."""
    data = text.encode()
    mask = os.urandom(4)
    assert len(data) < 126
    return (
        bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    )
