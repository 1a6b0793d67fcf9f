"""The lobby's and the chat's routes:

- `GET /api/lobby`: the open public tables (`lobby`), as the lobby's websocket sends them;
- `POST /api/games/{id}/join` (`{"name": ...}`): take a free seat of a public table; the
  answer is the seat's credential, as a claimed invitation's;
- `POST /api/quickplay` (`{"game", "players", "clock", "name", "avoid"}`): join a waiting
  public table of that game, player count and time control, or open one that others see;
- `POST /api/games/{id}/chat/spectators` (`{"open": false}`, with the host's credential):
  close (or open again) the table's spectators' chat;
- `/ws/lobby`: a page watching the lobby, sent the list whole once, then a patch for each
  change (`lobby`); it may ping, and ask for the whole list again (`{"type": "sync"}`).

Joins count against the same caps as invitations claimed (`Limits.seat_changes_per_client`
and `_per_game`); a table opened by quick play against the games one address may make a
minute; the lobby's websockets against the same caps as the games' (per address, and
`max_connections` in all).
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from cubegames.server import clocks
from cubegames.server.accounts import current_user, guest_name
from cubegames.server.api import Parts, load, open_table, rate_limited, seat_change_allowed
from cubegames.server.catalog import build
from cubegames.server.context import Server, bearer, client_of
from cubegames.server.i18n import Said
from cubegames.server.lobby import QuickPlay, same_settings
from cubegames.server.protocol import MAX_DEPTH, MAX_MESSAGE, ProtocolError, error, too_deep
from cubegames.server.rooms import Peer
from cubegames.server.storage import FINISHED, HUMAN, NewSeat, Unstorable
from cubegames.server.websocket import Inbox, guarded

router = APIRouter()

#: the most tables a quick-play request may ask to pass over (those it sits at already)
MAX_AVOID = 50


class JoinTable(BaseModel):
    """Take a free seat of a public table, under a name (or none)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(max_length=40)] | None = None


class QuickPlayBody(BaseModel):
    """A quick game: which game, how many players, which time control (`clocks.parse`),
    and the tables to pass over (those this browser sits at already)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: Annotated[str, Field(max_length=32)]
    players: Annotated[int, Field(ge=1, le=20)] | None = None
    clock: Any = None
    name: Annotated[str, Field(max_length=40)] | None = None
    avoid: Annotated[list[Annotated[str, Field(max_length=24)]], Field(max_length=MAX_AVOID)] = []


class SpectatorsChat(BaseModel):
    """Open or close a table's spectators' chat."""

    model_config = ConfigDict(extra="forbid")

    open: StrictBool


@router.get("/api/lobby")
async def lobby_tables(server: Parts) -> dict[str, Any]:
    """The open public tables, the oldest first."""
    found = await server.lobby.open_tables()
    # an entry may read the host's rating from the database: off the event loop
    tables = await asyncio.to_thread(lambda: [server.lobby.entry(t) for t in found])
    return {"tables": tables}


async def _seated(server: Server, game_id: str, seat: int, name: str | None) -> None:
    """A person took `seat` from the lobby: every page of the table, on every process, is
    told; the chat says so; the lobby reads its list again."""
    room = server.rooms.rooms.get(game_id)
    if room is not None:
        await room.seat_changed(seat, "claimed", name)
    event: dict[str, Any] = {"kind": "seat", "game": game_id, "seat": seat, "how": "claimed"}
    if name is not None:
        event["name"] = name
    await asyncio.to_thread(server.bus.publish, event)
    await server.chats.system(game_id, "joined", seat=seat)
    server.lobby.changed()


async def _joiner(request: Request, name: str | None) -> tuple[str | None, int | None]:
    """Who sits down from the lobby: a signed-in player by their account's name (the seat
    bound to the account), a guest by a name checked as every guest's (`guest_name`:
    no bot's name, no account's, nothing invisible)."""
    user = await current_user(request)
    if user is not None:
        return user.name, user.id
    given = (name or "").strip()
    return (await guest_name(request, given) if given else None), None


async def _join(
    server: Server, game_id: str, name: str | None, user_id: int | None = None
) -> tuple[int, str] | None:
    try:
        return await asyncio.to_thread(server.store.join, game_id, name, user_id)
    except Unstorable as exc:
        raise HTTPException(400, str(exc)) from None


@router.post("/api/games/{game_id}/join")
async def join_table(
    game_id: str, body: JoinTable, request: Request, server: Parts
) -> dict[str, Any]:
    """Take a free seat of a public table: the answer is the seat's own credential."""
    await seat_change_allowed(server, request, game_id)
    info = await load(server, game_id)
    if not info.public:
        raise Said(403, "error-not-public")
    if info.status == FINISHED:
        raise Said(409, "error-game-over")
    name, user_id = await _joiner(request, body.name)
    if info.rated and user_id is None:
        raise Said(403, "error-rated-claim-signed-out")
    if info.rated and any(s.user_id == user_id for s in info.seats):
        raise Said(409, "error-rated-twice")
    joined = await _join(server, game_id, name, user_id)
    if joined is None:
        raise Said(409, "error-table-full")
    seat, credential = joined
    await _seated(server, game_id, seat, name)
    return {"id": game_id, "game": info.game, "seat": seat, "token": credential}


@router.post("/api/quickplay")
async def quick_play(body: QuickPlayBody, request: Request, server: Parts) -> dict[str, Any]:
    """Sit at a waiting public table of this game, player count and time control (the
    oldest that fits), or open one that others see. `joined` says which."""
    options: dict[str, Any] = {} if body.players is None else {"players": body.players}
    try:
        game = build(body.game, options)
        control = clocks.parse(
            body.clock,
            max_minutes=server.limits.clock_max_minutes,
            max_increment=server.limits.clock_max_increment,
        )
    except ValueError as exc:  # worded in the request's language, as POST /api/games does
        raise Said.of(400, exc, game=body.game) from None
    name, user_id = await _joiner(request, body.name)
    asked = QuickPlay(body.game, game.options, control.to_json(), name)
    avoid = set(body.avoid)
    for table in await server.lobby.open_tables():
        if table.id in avoid or not same_settings(table, asked):
            continue
        if not server.lobby.fits(table, asked):
            continue
        if table.rated and (user_id is None or any(s.user_id == user_id for s in table.seats)):
            continue  # a rated table seats accounts, each once
        await seat_change_allowed(server, request, table.id)
        joined = await _join(server, table.id, name, user_id)
        if joined is None:
            continue  # filled meanwhile: the next one
        seat, credential = joined
        await _seated(server, table.id, seat, name)
        return {
            "joined": True,
            "id": table.id,
            "game": table.game,
            "seat": seat,
            "token": credential,
        }
    await rate_limited(server, request)
    seats = [NewSeat(HUMAN, None, name, user_id=user_id)] + [
        NewSeat(HUMAN, None, None, invited=True) for _ in range(game.players - 1)
    ]
    made = await open_table(server, game, seats, control, public=True, client=client_of(request))
    # the free seats are for whoever comes from the lobby: their invitations are not told
    for seat in made["seats"]:
        seat.pop("invite", None)
    return {"joined": False, **made}


@router.post("/api/games/{game_id}/chat/spectators")
async def spectators_chat(
    game_id: str, body: SpectatorsChat, request: Request, server: Parts
) -> dict[str, Any]:
    """The host closes (or opens again) the table's spectators' chat."""
    await load(server, game_id)
    token = bearer(request)
    if token is None or not await asyncio.to_thread(server.store.is_host, game_id, token):
        raise Said(403, "error-only-host-chat")
    await server.chats.set_spectators(game_id, body.open)
    return {"id": game_id, "spectators_open": body.open}


# -- the lobby's websocket ----------------------------------------------------------------


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """A page watching the lobby: sent `{"type": "lobby", "version", "tables": [...]}` now
    and a `lobby-patch` whenever the list changes; it may send pings and syncs only. The
    same door as a game's websocket (`websocket.guarded`: origin, caps)."""
    await guarded(websocket, _watch)


def read_lobby_message(raw: str | bytes | None) -> str:
    """A lobby page's message, a ping or a sync (its type); ProtocolError naming the
    problem."""
    if raw is None or isinstance(raw, bytes):
        raise ProtocolError("binary frames are not read: send text holding a JSON object")
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE:
        raise ProtocolError(f"message too long: {size} bytes, at most {MAX_MESSAGE}")
    if too_deep(raw):
        raise ProtocolError(f"message nested too deep: at most {MAX_DEPTH} levels")
    try:
        data = json.loads(raw)
    except ValueError:
        raise ProtocolError('not JSON: send a JSON object with a "type"') from None
    if not isinstance(data, dict) or data.get("type") not in ("ping", "sync") or len(data) != 1:
        raise ProtocolError(
            'the lobby takes only {"type": "ping"} and {"type": "sync"}: join a table with '
            "POST /api/games/{id}/join or /api/quickplay"
        )
    kind: str = data["type"]
    return kind


async def _watch(server: Server, websocket: WebSocket) -> None:
    await websocket.accept()
    peer = Peer(websocket, None)
    try:
        await server.lobby.watch(peer)
        with Inbox(server, websocket, peer) as inbox:
            while (message := await inbox.next()) is not None:
                try:
                    kind = read_lobby_message(message.get("text", message.get("bytes")))
                except ProtocolError as exc:
                    await peer.send(error(str(exc)))
                    continue
                if kind == "sync":
                    server.lobby.sync(peer)
                else:
                    await peer.send({"type": "pong"})
    except WebSocketDisconnect:
        pass
    finally:
        server.lobby.leave(peer)


__all__ = ["router"]
