"""The websocket endpoint `/ws/games/{id}`: a page's live connection to a game.

The first message says who the page is (`{"type": "auth", "token": ...}`, null for a
spectator); a credential never travels in the address. Then the page sends moves and
pings and gets the game's states, within the limits of `limits.Limits` (messages a
second, silence, connections per client). Messages: `protocol` and docs/protocol.md; a
connection the server ends is closed with one of the codes below and, where it can be
said, an `error` message saying why.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from cubegames.server.chat import ChatRefused
from cubegames.server.context import Server, client_of, server_of
from cubegames.server.hub import expired
from cubegames.server.i18n import language_of, say
from cubegames.server.protocol import (
    AUTH_TIMEOUT,
    MAX_TOKEN,
    AuthMessage,
    ChatMessage,
    ClaimMessage,
    Connection,
    EndMessage,
    MoveMessage,
    ProtocolError,
    ReadyMessage,
    Throttle,
    UndoMessage,
    error,
    parse_client,
)
from cubegames.server.rooms import Full, Peer, Refused, Room, RoomError, Watchdog, close_quietly

#: websocket close codes (4000-4999 are the application's own)
NO_GAME = 4404
BAD_TOKEN = 4403
BROKEN_GAME = 4500
NO_AUTH = 4401
TOO_MANY = 4429
IDLE = 4408
BAD_ORIGIN = 4003

router = APIRouter()
log = logging.getLogger("cubegames.server")


def same_origin(websocket: WebSocket) -> bool:
    """Whether a websocket comes from a page of this server (or from no page at all: a
    program sends no Origin)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


async def guarded(
    websocket: WebSocket, serve: Callable[[Server, WebSocket], Awaitable[None]]
) -> None:
    """Every websocket of the app (a game's, the lobby's) through the same door: refused
    (closed `BAD_ORIGIN`) from another site's page, and closed `TOO_MANY`, with a reason,
    over the server's `max_connections` or the address's `connections_per_client`;
    otherwise `serve(server, websocket)` runs, counted against both caps while it does."""
    if not same_origin(websocket):
        # a page of another site must not act with this browser's credentials
        await websocket.close(BAD_ORIGIN)
        return
    server = server_of(websocket)
    limits = server.limits
    if not server.all_sockets.take(""):
        await websocket.accept()
        busy = say(language_of(websocket), "error-busy-connections", count=limits.max_connections)
        await close_quietly(websocket, TOO_MANY, busy)
        return
    try:
        who = client_of(websocket)
        if not server.sockets.take(who):
            await websocket.accept()
            await close_quietly(
                websocket,
                TOO_MANY,
                f"too many connections from your address: at most "
                f"{limits.connections_per_client} at once",
            )
            return
        try:
            await serve(server, websocket)
        finally:
            server.sockets.give(who)
    finally:
        server.all_sockets.give("")


class Inbox:
    """A page's messages as a connection reads them, within the server's limits: a page
    silent for `limits.idle_seconds` is told so and closed (`IDLE`; the page pings every
    25 s), and messages over `limits.messages_per_second` (in bursts of `message_burst`)
    are not read, the page warned once in a while. One idle timer for the connection
    (`rooms.Watchdog`), not one per message. Use it as a context manager, in the task that
    reads the socket."""

    def __init__(self, server: Server, websocket: WebSocket, peer: Peer) -> None:
        self.websocket = websocket
        self.peer = peer
        self.limits = server.limits
        self.clock = server.clock
        self.throttle = Throttle(self.limits.messages_per_second, self.limits.message_burst)
        self.quiet = Watchdog(self.limits.idle_seconds)

    def __enter__(self) -> Inbox:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.quiet.close()

    async def next(self) -> MutableMapping[str, Any] | None:
        """The page's next message within the rate (its ASGI event, text or bytes), or None
        when the page is gone or was closed for its silence."""
        limits = self.limits
        while True:
            self.quiet.begin()
            try:
                message = await self.websocket.receive()
            except asyncio.CancelledError:
                if not self.quiet.expired():
                    raise
                await self.peer.send(
                    error(f"no message for {limits.idle_seconds:g} seconds", "closed")
                )
                await self.peer.flush()
                await close_quietly(self.websocket, IDLE)
                return None
            finally:
                self.quiet.end()
            if message["type"] == "websocket.disconnect":
                return None
            if not self.throttle.allow(self.clock()):
                if self.throttle.warn(self.clock()):
                    await self.peer.send(
                        error(
                            f"too many messages: at most {limits.messages_per_second:g} "
                            f"a second (bursts of {limits.message_burst}); the ones over "
                            "the limit were not read",
                            "slow-down",
                        )
                    )
                continue
            return message


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """A page's live connection to a game: as a seat or a spectator, said by the first
    message (`auth`); a token never travels in the address."""
    await guarded(websocket, lambda server, socket: _connection(server, socket, game_id))


async def _connection(server: Server, websocket: WebSocket, game_id: str) -> None:
    rooms, runner, limits = server.rooms, server.runner, server.limits
    if "token" in websocket.query_params:
        await websocket.accept()
        await close_quietly(
            websocket,
            BAD_TOKEN,
            "a token never goes in the address: send it in the first message "
            '({"type": "auth", "token": ...})',
        )
        return
    await websocket.accept()
    try:
        token = await _authenticate(websocket)
    except (ProtocolError, TimeoutError) as exc:
        reason = (
            f"no auth message within {AUTH_TIMEOUT:g} seconds"
            if isinstance(exc, TimeoutError)
            else str(exc)
        )
        await close_quietly(websocket, NO_AUTH, reason)
        return
    except WebSocketDisconnect:
        return
    seat = None
    if token is not None:
        seat = await asyncio.to_thread(server.store.seat_of, game_id, token)
    try:
        room = await rooms.get(game_id)
    except RoomError as exc:
        log.warning("game %s cannot be opened: %s", game_id, exc)
        await close_quietly(websocket, BROKEN_GAME, exc.told)
        return
    except Full as exc:
        await close_quietly(websocket, TOO_MANY, str(exc))
        return
    if room is None:
        await close_quietly(websocket, NO_GAME, f"there is no game {game_id!r}")
        return
    if token is not None and seat is None:
        await close_quietly(
            websocket, BAD_TOKEN, "this credential does not open any seat of this game"
        )
        rooms.release(room, runner.busy(room))
        return
    peer = Peer(websocket, seat)
    room.join(peer)
    try:
        await peer.send(room.hello(seat))
        await peer.send(peer.update(room.state_message(room.viewer(seat))))
        speaker = await _speaker(websocket)
        await peer.send(await server.chats.history(room, seat, speaker))
        await room.presence()
        if not expired(room.info, limits, room):
            runner.wake(room)
        await _serve(server, room, peer, websocket, speaker)
    except WebSocketDisconnect:
        pass
    except Exception as exc:  # a plug-in's own code failing (its legal_moves, its view)
        # is logged whole; the page is told its kind only, as its words may name a hidden part
        log.exception("game %s failed", game_id)
        await close_quietly(websocket, BROKEN_GAME, f"the game failed: {type(exc).__name__}")
    finally:
        room.leave(peer)
        server.chats.forget(peer)
        rooms.release(room, runner.busy(room))
        if room.peers:
            await room.presence()


async def _speaker(websocket: WebSocket) -> str:
    """Who a page is, for a spectator's chat tag (`chat.Chats.spectator_tag`): its account
    when the browser is signed in (its session cookie), else the browser's own guest id
    (`accounts.guest_of`), else (a program, a browser that keeps no cookie) its address."""
    from cubegames.server.accounts import COOKIE, accounts_of_app, guest_of

    session = websocket.cookies.get(COOKIE)
    if session and len(session) <= MAX_TOKEN:
        user = await asyncio.to_thread(accounts_of_app(websocket.app).user_of, session)
        if user is not None:
            return f"account:{user.id}"
    guest = guest_of(websocket.cookies)
    if guest is not None:
        return f"guest:{guest}"
    return f"address:{client_of(websocket)}"


async def _authenticate(websocket: WebSocket) -> str | None:
    """The credential of the connection's first message (None: a spectator);
    ProtocolError if that message is not an `auth`, TimeoutError if none comes."""
    async with asyncio.timeout(AUTH_TIMEOUT):
        message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    raw = message.get("text")
    parsed = parse_client(raw if raw is not None else message.get("bytes"))
    if not isinstance(parsed, AuthMessage):
        raise ProtocolError(
            'the first message must be {"type": "auth", "token": ...} (token null for a spectator)'
        )
    return parsed.token


async def _serve(
    server: Server, room: Room, peer: Peer, websocket: WebSocket, speaker: str
) -> None:
    limits = server.limits
    with Inbox(server, websocket, peer) as inbox:
        while True:
            message = await inbox.next()
            if message is None:
                return
            raw = message.get("text")
            try:
                parsed = parse_client(raw if raw is not None else message.get("bytes"))
            except ProtocolError as exc:
                await peer.send(error(str(exc)))
                continue
            if isinstance(parsed, AuthMessage):
                await peer.send(error("this connection has already said who it is", "auth"))
                continue
            if isinstance(parsed, ChatMessage):
                try:
                    await server.chats.say(room, peer, parsed.text, client_of(websocket), speaker)
                except ChatRefused as exc:
                    await peer.send(error(str(exc), exc.code))
                continue
            if isinstance(parsed, ReadyMessage):
                if peer.seat is not None:
                    room.ready(peer.seat)
                continue
            if not isinstance(parsed, MoveMessage | EndMessage | ClaimMessage | UndoMessage):
                room.tick()  # a pause after a round whose time is over ends
                await peer.send({"type": "pong"})
                continue
            if peer.state is Connection.SPECTATOR or peer.seat is None:
                await peer.send(
                    error(
                        "a spectator cannot move: open the game with a seat's link to play",
                        "spectator",
                    )
                )
                continue
            if isinstance(parsed, EndMessage | ClaimMessage | UndoMessage):
                try:
                    if isinstance(parsed, UndoMessage):
                        if parsed.type == "undo-ask":
                            await server.referee.ask_undo(room, peer.seat)
                        else:
                            accept = parsed.type == "undo-accept"
                            await server.referee.answer_undo(room, peer.seat, accept)
                    elif isinstance(parsed, ClaimMessage):
                        await server.referee.claim(room, peer.seat, parsed.outcome)
                    elif parsed.type == "undo":
                        await server.referee.undo(room, peer.seat)
                    elif parsed.type == "resign":
                        await server.referee.resign(room, peer.seat)
                    else:
                        await server.referee.abort(room, peer.seat)
                except Refused as exc:
                    await peer.send(error(str(exc), exc.code))
                continue
            if expired(room.info, limits, room):
                await peer.send(
                    error(
                        f"this game was abandoned: no move for {limits.expire_days:g} days",
                        "abandoned",
                    )
                )
                continue
            try:
                await room.play(peer.seat, parsed.move, parsed.ply)
            except Refused as exc:
                await peer.send(error(str(exc), exc.code, exc.refusal))


__all__ = ["Inbox", "guarded", "router", "same_origin"]
