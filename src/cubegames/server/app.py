"""The web app: `create_app(db_url)` builds it (FastAPI, run by uvicorn).

Pages (one HTML page; its script picks the screen from the path):
`/` start page and list of games, `/play/{id}` a game (seat tokens in the URL fragment,
`#t=TOKEN,TOKEN`, so they never reach server logs), `/replay/{id}` step through a game.

REST, all JSON:

- `GET /api/catalog`: the games, their options, the bot presets;
- `POST /api/games`: make a game (`CreateGame`); the answer holds each human seat's token;
- `GET /api/games?status=&limit=`: the latest games;
- `GET /api/games/{id}`: one game: seats, status, result, its moves in words;
- `GET /api/games/{id}/record`: the record file (a finished game, or with `?token=` for
  every human seat);
- `GET /api/games/{id}/replay?ply=&seat=&token=`: the drawing after move `ply`, seen by a
  spectator, or by a seat (once the game is over, or with that seat's token);
- `POST /api/records`: load a record file; the answer is the new game and its tokens.

Websocket `/ws/games/{id}`: the first message says who the page is (`{"type": "auth",
"token": ...}`, null for a spectator); messages in `protocol` and docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

import cubegames
from cubegames.render import web
from cubegames.server.bots import BotRunner
from cubegames.server.catalog import build, catalog
from cubegames.server.protocol import (
    AUTH_TIMEOUT,
    BURST,
    MAX_RECORD,
    RATE,
    AuthMessage,
    Connection,
    CreateGame,
    MoveMessage,
    ProtocolError,
    Throttle,
    error,
    parse_client,
    read_record,
)
from cubegames.server.records import load_record, to_record
from cubegames.server.rooms import (
    Peer,
    Refused,
    Room,
    RoomError,
    Rooms,
    close_quietly,
    replay,
)
from cubegames.server.storage import (
    FINISHED,
    HUMAN,
    PLAYING,
    GameInfo,
    NewSeat,
    Store,
    Unstorable,
    default_url,
    iso,
)

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("cubegames.server")

#: at start, the bots of up to this many of the latest unfinished games resume playing
RESUME_AT_START = 200

#: websocket close codes (4000-4999 are the application's own)
NO_GAME = 4404
BAD_TOKEN = 4403
BROKEN_GAME = 4500
NO_AUTH = 4401


class NoCacheStatic(StaticFiles):
    """Static files that the browser checks again on every load (a new version of the
    app shows at once; unchanged files cost a 304)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def _seats_json(info: GameInfo) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name} for s in info.seats]


def create_app(db_url: str | None = None, *, bot_delay: float = 0.5) -> FastAPI:
    """The web app over the database at `db_url` (any SQLAlchemy URL; default: a SQLite
    file, see `storage.default_url`). Bots take at least `bot_delay` seconds a move.

    The database is opened (and its tables made) here, so a bad URL fails at once.
    """
    store = Store(db_url or default_url())
    executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cubegames-bot")
    runner = BotRunner(executor, bot_delay)
    rooms = Rooms(store, runner.attach)
    runner.on_idle = lambda room: rooms.release(room, busy=False)

    stopping = asyncio.Event()

    async def resume_bots() -> None:
        """After a (re)start, let the bots of unfinished games play on, watched or not: a
        game among bots finishes, and a bot to move in a game with people has its move
        ready when they come back."""
        playing = await asyncio.to_thread(store.summaries, PLAYING, RESUME_AT_START)
        for summary in playing:
            if stopping.is_set():
                return
            if not any(seat.kind == "bot" for seat in summary.seats):
                continue
            try:
                room = await rooms.get(summary.id)
            except RoomError as exc:
                log.warning("game %s is not resumed: %s", summary.id, exc)
                continue
            if room is not None:
                runner.wake(room)
                rooms.release(room, runner.busy(room))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        stopping.clear()
        resuming = asyncio.create_task(resume_bots(), name="resume bots")
        yield
        # not cancelled: a database call in a thread would run on after the store closed
        stopping.set()
        await asyncio.gather(resuming, return_exceptions=True)
        await runner.stop()
        executor.shutdown(wait=False, cancel_futures=True)
        store.close()

    app = FastAPI(title="cubegames", version=cubegames.__version__, lifespan=lifespan)
    app.state.store = store
    app.state.rooms = rooms
    app.state.runner = runner

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"] if p != "body")
        return JSONResponse({"detail": f"{where}: {first['msg']}"}, status_code=400)

    # -- pages -------------------------------------------------------------------------------

    app.mount("/static", NoCacheStatic(directory=STATIC), name="static")

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.get("/", include_in_schema=False)(page)
    app.get("/play/{game_id}", include_in_schema=False)(page)
    app.get("/replay/{game_id}", include_in_schema=False)(page)

    # -- REST ----------------------------------------------------------------------------------

    async def load(game_id: str) -> GameInfo:
        info = await asyncio.to_thread(store.load, game_id)
        if info is None:
            raise HTTPException(404, f"there is no game {game_id!r}")
        return info

    async def seats_of(game_id: str, tokens: list[str]) -> set[int]:
        found = set()
        for token in tokens[:20]:
            seat = await asyncio.to_thread(store.seat_of, game_id, token)
            if seat is None:
                raise HTTPException(403, "a token given does not open any seat of this game")
            found.add(seat)
        return found

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        """The games, their options and the bots on offer."""
        return catalog()

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateGame) -> dict[str, Any]:
        """Make a game; the answer holds the token of every human seat (shown only now)."""
        try:
            game = build(body.game, body.options)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        if len(body.seats) != game.players:
            raise HTTPException(
                400, f"this game has {game.players} seats; {len(body.seats)} were given"
            )
        seats: list[NewSeat] = []
        for i, seat in enumerate(body.seats):
            if seat.kind == "bot":
                spec = seat.bot or "random"
                try:
                    cubegames.bot(spec)
                except ValueError as exc:
                    raise HTTPException(400, f"seats.{i}: {exc}") from None
                seats.append(NewSeat("bot", spec, seat.name or None))
            else:
                seats.append(NewSeat(HUMAN, None, seat.name or None))
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        try:
            game_id, tokens = await asyncio.to_thread(
                store.create, body.game, game.options, seed, seats
            )
        except Unstorable as exc:
            raise HTTPException(400, str(exc)) from None
        return _created(game_id, body.game, seats, tokens, PLAYING)

    def _created(
        game_id: str, game: str, seats: list[NewSeat], tokens: list[str], status: str
    ) -> dict[str, Any]:
        return {
            "id": game_id,
            "game": game,
            "status": status,
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    **({"token": t} if s.kind == HUMAN else {}),
                }
                for i, (s, t) in enumerate(zip(seats, tokens, strict=True))
            ],
        }

    @app.get("/api/games")
    async def list_games(
        status: Annotated[str | None, Query(pattern="^(playing|finished)$")] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> list[dict[str, Any]]:
        """The latest games, newest first."""
        found = await asyncio.to_thread(store.summaries, status, limit)
        return [
            {
                "id": g.id,
                "game": g.game,
                "options": g.options,
                "status": g.status,
                "created": iso(g.created_at),
                "finished": iso(g.finished_at),
                "result": g.result,
                "moves": g.moves,
                "seats": [
                    {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name} for s in g.seats
                ],
            }
            for g in found
        ]

    @app.get("/api/games/{game_id}")
    async def game_detail(game_id: str) -> dict[str, Any]:
        """One game: its settings, seats, status and moves (in words a spectator may read;
        the notation too once the game is over)."""
        info = await load(game_id)
        game = build_trusted(info)
        over = info.status == FINISHED
        moves = []
        for m in info.moves:
            entry: dict[str, Any] = {
                "ply": m.ply,
                "seat": m.seat,
                "text": web.words(game, m.move, m.seat, None),
            }
            if over or web.visible(game, m.move, m.seat, None):
                entry["move"] = m.move
            moves.append(entry)
        return {
            "id": info.id,
            "game": info.game,
            "options": info.options,
            "players": game.players,
            "status": info.status,
            "created": iso(info.created_at),
            "finished": iso(info.finished_at),
            "result": info.result,
            "seats": _seats_json(info),
            "moves": moves,
            "seed": info.seed if over else None,
        }

    @app.get("/api/games/{game_id}/record")
    async def download_record(
        game_id: str, token: Annotated[list[str] | None, Query()] = None
    ) -> JSONResponse:
        """The game's record file. Before the game ends it would reveal hidden hands, so
        then it needs the tokens of all the human seats (say, a hot-seat table)."""
        info = await load(game_id)
        if info.status != FINISHED:
            humans = {s.seat for s in info.seats if s.kind == HUMAN}
            if not humans <= await seats_of(game_id, token or []):
                raise HTTPException(
                    403,
                    "the record tells every hidden piece, so it can be saved once the game is "
                    "over, or from a page that holds every player's seat",
                )
        filename = f"cubegames-{info.game}-{info.id}.json"
        return JSONResponse(
            to_record(info),
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay_step(
        game_id: str,
        ply: Annotated[int, Query(ge=0)] = 0,
        seat: Annotated[int | None, Query(ge=0)] = None,
        token: Annotated[str | None, Query()] = None,
    ) -> dict[str, Any]:
        """The table after move `ply`, seen by a spectator or by `seat` (a seat's view
        needs the game over, or that seat's token)."""
        info = await load(game_id)
        if seat is not None:
            if seat >= len(info.seats):
                raise HTTPException(400, f"there is no seat {seat}")
            allowed = info.status == FINISHED or (
                token is not None and await seats_of(game_id, [token]) == {seat}
            )
            if not allowed:
                raise HTTPException(403, "a seat's view of a game in play needs that seat's link")
        total = len(info.moves)
        ply = min(ply, total)
        try:
            game, state, played = await asyncio.to_thread(replay, info, ply)
        except RoomError as exc:
            raise HTTPException(409, str(exc)) from None
        view = state.public_view() if seat is None else state.view(seat)
        last = played[-1] if played else None
        said = web.tell(game, view) if web.tells(game) else None
        if said is None and last is not None:
            said = web.words(game, last.move, last.seat, seat)
        return {
            "ply": ply,
            "total": total,
            "seat": seat,
            "to_move": state.to_move,
            "over": state.is_over,
            "svg": web.draw(game, view, []),
            "said": said,
        }

    @app.post("/api/records", status_code=201)
    async def upload_record(request: Request) -> dict[str, Any]:
        """Load a record file (the request body): it is replayed through the engine and
        becomes a new game, with new links."""
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_RECORD:
                raise HTTPException(413, f"the file is too large: at most {MAX_RECORD} bytes")
        try:
            record = read_record(bytes(raw))
            loaded = await asyncio.to_thread(load_record, record)
        except ProtocolError as exc:
            raise HTTPException(400, str(exc)) from None
        try:
            game_id, tokens = await asyncio.to_thread(
                store.create,
                loaded.game,
                loaded.options,
                loaded.seed,
                loaded.seats,
                loaded.moves,
                loaded.result,
            )
        except Unstorable as exc:
            raise HTTPException(400, f"bad record: {exc}") from None
        status = FINISHED if loaded.result is not None else PLAYING
        return _created(game_id, loaded.game, loaded.seats, tokens, status)

    # -- the websocket -------------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        """A page's live connection to a game: as a seat or a spectator, said by the first
        message (`auth`); a token never travels in the address."""
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
            seat = await asyncio.to_thread(store.seat_of, game_id, token)
        try:
            room = await rooms.get(game_id)
        except RoomError as exc:
            await close_quietly(websocket, BROKEN_GAME, str(exc))
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
            await peer.send(room.state_message(seat))
            await room.presence()
            runner.wake(room)
            await _serve(room, peer, websocket)
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(peer)
            rooms.release(room, runner.busy(room))
            if room.peers:
                await room.presence()

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
                'the first message must be {"type": "auth", "token": ...} '
                "(token null for a spectator)"
            )
        return parsed.token

    async def _serve(room: Room, peer: Peer, websocket: WebSocket) -> None:
        throttle = Throttle()
        clock = asyncio.get_running_loop().time
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not throttle.allow(clock()):
                if throttle.warn(clock()):
                    await peer.send(
                        error(
                            f"too many messages: at most {RATE:g} a second (bursts of "
                            f"{BURST}); the ones over the limit were not read",
                            "slow-down",
                        )
                    )
                continue
            raw = message.get("text")
            try:
                parsed = parse_client(raw if raw is not None else message.get("bytes"))
            except ProtocolError as exc:
                await peer.send(error(str(exc)))
                continue
            if isinstance(parsed, AuthMessage):
                await peer.send(error("this connection has already said who it is", "auth"))
                continue
            if not isinstance(parsed, MoveMessage):
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
            try:
                await room.play(peer.seat, parsed.move, parsed.ply)
            except Refused as exc:
                await peer.send(error(str(exc), exc.code))

    return app


def build_trusted(info: GameInfo) -> Any:
    """The game of a stored row (its options were checked when it was made)."""
    return cubegames.make(info.game, **info.options)


__all__ = ["create_app"]
