"""The guards around the app against hostile or slow clients, before any route sees them.

- `Guard`, an ASGI middleware: every HTTP answer gets the security headers, and a request
  body is read at most `max_body` bytes (413 beyond, without reading the rest) within
  `BODY_TIMEOUT` seconds (408 beyond) and, when it is JSON, nested at most
  `protocol.MAX_DEPTH` deep (400 beyond, before any JSON parser sees it);
- `HeadTimeoutH11`, uvicorn's HTTP protocol (h11) with a time limit on the request head.
  uvicorn closes an idle keep-alive connection (`timeout_keep_alive`), but a connection
  that opens and then sends its request line and headers a byte at a time is held for
  ever, one socket and one slot of `limit_concurrency` each: a few hundred such clients
  shut everyone else out. `HeadTimeoutH11` gives every request head `HEAD_TIMEOUT` seconds
  from the moment the connection opens (or the previous response ends), then closes the
  connection.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from cubegames.core.phrase import Phrase
from cubegames.kit.words import say
from cubegames.server.i18n import language_of
from cubegames.server.protocol import MAX_DEPTH, too_deep

#: the page loads its scripts, styles and pictures from this server only, runs no inline
#: script, and may not be framed by another site (the drawings carry their own <style>,
#: so inline styles are allowed; inline scripts never are)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: seconds a client has to send a whole request body
BODY_TIMEOUT = 30.0
#: seconds a client has to send a whole request head (request line and headers)
HEAD_TIMEOUT = 10.0
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class Guard:
    """Security headers and request-body limits around `app`."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send_with_headers)
            return
        large = Phrase("error-body-large", {"bytes": self.max_body})
        headers = dict(scope.get("headers", []))
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(send_with_headers, scope, 413, large)
            return
        body = bytearray()
        more = True
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                while more:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body += message.get("body", b"")
                    more = message.get("more_body", False)
                    if len(body) > self.max_body:
                        await _refuse(send_with_headers, scope, 413, large)
                        return
        except TimeoutError:
            slow = Phrase("error-body-slow", {"seconds": round(BODY_TIMEOUT)})
            await _refuse(send_with_headers, scope, 408, slow)
            return
        if too_deep(bytes(body)):
            await _refuse(
                send_with_headers, scope, 400, Phrase("error-body-deep", {"levels": MAX_DEPTH})
            )
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


async def _refuse(send: Any, scope: Scope, status: int, refusal: Phrase) -> None:
    """Answer `status` with `refusal` (a message of the catalogs) worded in the request's
    language, with its code and parameters (as every refusal of the API)."""
    args = dict(refusal.params)
    detail = say(language_of(HTTPConnection(scope)), refusal.key, **args)
    payload = json.dumps({"detail": detail, "code": refusal.key, "args": args}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


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


__all__ = ["BODY_TIMEOUT", "HEAD_TIMEOUT", "Guard", "HeadTimeoutH11"]
