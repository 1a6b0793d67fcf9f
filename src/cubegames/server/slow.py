"""Slow clients: uvicorn's HTTP protocol (h11) with a time limit on the request head.

uvicorn closes an idle keep-alive connection (`timeout_keep_alive`), but a connection that
opens and then sends its request line and headers a byte at a time is held for ever, one
socket and one slot of `limit_concurrency` each: a few hundred such clients shut everyone
else out. `HeadTimeoutH11` gives every request head `HEAD_TIMEOUT` seconds from the moment
the connection opens (or the previous response ends), then closes the connection.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

#: seconds a client has to send a whole request head (request line and headers)
HEAD_TIMEOUT = 10.0


class HeadTimeoutH11(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is too slow."""

    head_timeout = HEAD_TIMEOUT
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.head_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # the head is in: the app has the request

    def handle_websocket_upgrade(self, event: object) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)  # type: ignore[arg-type]

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head gets its own time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
