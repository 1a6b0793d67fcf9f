"""One websocket frame built once and written to many sockets (the lobby's changes).

The lobby tells a change to every page watching it, the same text to each (`lobby`). Sent
through ASGI, each of those sends goes through Starlette's and uvicorn's send path, the
websockets library's framing and, with permessage-deflate, a compression of its own per
socket: about 35-45 µs of the server's CPU for each page (benchmarks/README.md, "The lobby
under load"). A text frame from the server is not masked, so an uncompressed frame is the
same bytes for every socket: `frame` builds it once (with the websockets library), and
`Protocol`, uvicorn's sans-I/O websocket protocol (the one `cubegames serve` runs), lets
the app write such a frame straight to a connection's transport (`writer_of`).

permessage-deflate allows a message to go uncompressed (RFC 7692, section 6: the RSV1 bit
says whether a message is compressed), and a compressed message's context takeover only
concerns the compressed messages, so a frame written this way leaves the connection's
compression of its other messages as it was. A frame is written only where the connection
is open, its handshake done, no close sent or received, and its transport not over its
high-water mark; otherwise the writer answers False and the app sends the text through
ASGI as before (which waits for the page, in the order of everything sent to it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State

#: the key of a connection's frame writer in its ASGI scope's `extensions`
EXTENSION = "cubegames.frames"

#: writes a built frame to one connection; False if it cannot take one now
Writer = Callable[[bytes], bool]


def frame(text: str) -> bytes:
    """`text` as one unmasked, uncompressed text frame, as a server sends it."""
    return Frame(Opcode.TEXT, text.encode("utf-8")).serialize(mask=False)


def writer_of(scope: Any) -> Writer | None:
    """The frame writer of a websocket's ASGI scope, or None where the server does not
    offer one (another server, the test client)."""
    extensions = scope.get("extensions") or {}
    found = extensions.get(EXTENSION)
    return found if callable(found) else None


class Protocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol, offering the app a frame writer
    (`EXTENSION` in the scope's extensions) besides the usual ASGI send."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the app's task runs later and sees the writer
            scope["extensions"][EXTENSION] = self.write_frame

    def write_frame(self, data: bytes) -> bool:
        """Write a built frame (`frame`) to this connection now; False (nothing written)
        if it is not open for it or its transport is full."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or self.conn.state is not State.OPEN
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(data)
        return True


__all__ = ["EXTENSION", "Protocol", "Writer", "frame", "writer_of"]
