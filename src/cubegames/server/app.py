"""The web app: `create_app(db_url)` builds it (FastAPI, run by uvicorn).

Pages (one HTML page; its script picks the screen from the path):
`/` start page and list of games, `/play/{id}` a game (seat tokens in the URL fragment,
`#t=TOKEN,TOKEN`, so they never reach server logs), `/replay/{id}` step through a game.

REST, all JSON but the rules:

- `GET /api/catalog`: the games, their options, the bot presets;
- `GET /api/rules/{game}`: the full rules of a game, as markdown (docs/rules/);
- `POST /api/games`: make a game (`CreateGame`); the answer holds each human seat's token;
- `GET /api/games?status=&limit=`: the latest games;
- `GET /api/games/{id}`: one game: seats, status, result, its moves in words;
- `GET /api/games/{id}/record`: the record file (a finished game, or with `?token=` for
  every human seat);
- `GET /api/games/{id}/replay?ply=&seat=`: the table after move `ply` (its view, the last
  move, and an SVG drawing for other programs), seen by a spectator, or by a seat (once
  the game is over, or with that seat's credential);
- `POST /api/records`: load a record file; the answer is the new game and its tokens.

Websocket `/ws/games/{id}`: the first message says who the page is (`{"type": "auth",
"token": ...}`, null for a spectator); messages in `protocol` and docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import gc
import json
import logging
import math
import os
import secrets
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

import cubegames
from cubegames import rulebook
from cubegames.render import web
from cubegames.server.bots import BotRunner
from cubegames.server.bus import make_bus
from cubegames.server.caps import SharedRate, share
from cubegames.server.catalog import build, catalog
from cubegames.server.guard import Guard
from cubegames.server.lease import make_leases
from cubegames.server.limits import Counter, Limits, RateLimit, check_bot
from cubegames.server.protocol import (
    AUTH_TIMEOUT,
    MAX_RECORD,
    MAX_SEED,
    MAX_TOKEN,
    AuthMessage,
    ClaimSeat,
    Connection,
    CreateGame,
    MoveMessage,
    ProtocolError,
    ReadyMessage,
    Throttle,
    error,
    parse_client,
    read_record,
)
from cubegames.server.records import load_record, to_record
from cubegames.server.replays import Replays
from cubegames.server.rooms import (
    Full,
    Peer,
    Refused,
    Room,
    RoomError,
    Rooms,
    Watchdog,
    close_quietly,
    result_of,
)
from cubegames.server.storage import (
    FINISHED,
    HUMAN,
    PLAYING,
    GameInfo,
    GameSummary,
    MoveInfo,
    NewSeat,
    Store,
    Unstorable,
    default_url,
    iso,
    new_token,
    now,
)
from cubegames.server.writer import Writer

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("cubegames.server")

#: at start, the bots of up to this many of the latest unfinished games resume playing
RESUME_AT_START = 200

#: websocket close codes (4000-4999 are the application's own)
NO_GAME = 4404
BAD_TOKEN = 4403
BROKEN_GAME = 4500
NO_AUTH = 4401
TOO_MANY = 4429
IDLE = 4408
BAD_ORIGIN = 4003

#: the bits of a deal the server makes
SEED_BITS = 128


class NoCacheStatic(StaticFiles):
    """Static files that the browser checks again on every load (a new version of the
    app shows at once; unchanged files cost a 304)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def _seats_json(info: GameInfo | GameSummary) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "bot": s.bot,
            "name": s.name,
            "invited": s.invited,
            "reissued": s.reissued,
        }
        for s in info.seats
    ]


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.5,
    limits: Limits | None = None,
    workers: int = 1,
) -> FastAPI:
    """The web app over the database at `db_url` (any SQLAlchemy URL; default: a SQLite
    file, see `storage.default_url`). Bots take at least `bot_delay` seconds a move;
    `limits` bounds what a client may spend (`limits.Limits`), over all the `workers`
    processes serving the database (see `caps`).

    The database is opened (and its tables made) here, so a bad URL fails at once.
    """
    limits = limits or Limits()
    store = Store(db_url or default_url())
    # this process's part of the caps counted in memory (the sum over processes holds)
    max_rooms = share(limits.max_rooms, workers)
    # a thread for every room that may be live: a slow bot thinks in its own thread and
    # never waits behind another game's (each room has at most one bot thinking)
    executor = ThreadPoolExecutor(max_workers=max_rooms, thread_name_prefix="cubegames-bot")
    bus = make_bus(store)
    leases = make_leases(store, limits.lease_seconds)
    runner = BotRunner(executor, bot_delay, limits=limits, leases=leases)
    writer = Writer(store, bus.news)
    rooms = Rooms(store, runner.attach, max_rooms=max_rooms, writer=writer, teardown=runner.detach)
    replays = Replays()
    # games made per client: in the database when other processes may share it
    shared = store.engine.dialect.name == "postgresql"
    created = SharedRate(store, limits.games_per_minute) if shared else None
    created_here = RateLimit(limits.games_per_minute)
    sockets = Counter(share(limits.connections_per_client, workers))
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
            except (RoomError, Full) as exc:
                log.warning("game %s is not resumed: %s", summary.id, exc)
                continue
            if room is not None and (room.trouble is not None or expired(room.info, limits)):
                log.warning("game %s is not resumed: %s", summary.id, room.trouble or "abandoned")
                rooms.release(room, busy=False)
                continue
            if room is not None:
                runner.wake(room)
                rooms.release(room, runner.busy(room))

    #: news of games that had to wait (for a load, a busy room or moves to read): later
    #: news of the same game waits behind it, so each game's news applies in order
    held_news: dict[str, asyncio.Task[None]] = {}

    def hear(events: list[dict[str, Any]]) -> None:
        """Other processes saved moves or changed seats (one notification's events, in
        order, handed to the loop at once). A move of a live room that nobody is using is
        played and told here and now; anything else waits in a task of its own."""
        for event in events:
            game_id = str(event.get("game"))
            try:
                if game_id not in held_news and hear_at_once(game_id, event):
                    continue
            except Exception:  # one event's trouble must not lose the others
                log.exception("game %s: news from another process could not be taken in", game_id)
                continue
            task = asyncio.create_task(hear_later(event, held_news.get(game_id)))
            held_news[game_id] = task
            task.add_done_callback(functools.partial(forget_news, game_id))

    def forget_news(game_id: str, done: asyncio.Task[None]) -> None:
        if held_news.get(game_id) is done:
            del held_news[game_id]

    def hear_at_once(game_id: str, event: dict[str, Any]) -> bool:
        """Apply a move's news if nothing needs waiting for; False if it must wait."""
        if event.get("kind") != "move" or rooms.loading(game_id):
            return False
        room = rooms.rooms.get(game_id)
        if room is None:
            return True  # not live here: nobody to tell
        if room.lock.locked():
            return False
        try:
            moved = room.hear(move_in(event))
        except (KeyError, TypeError, ValueError, RoomError) as exc:
            log.warning("game %s: an event from another process did not apply: %s", room.id, exc)
            return True
        if moved is None:
            return False  # moves are missing between: read them, in a task
        if moved and room.on_move is not None:
            room.on_move(room)
        return True

    async def hear_later(event: dict[str, Any], after: asyncio.Task[None] | None) -> None:
        """Apply news that must wait, after the game's news before it."""
        if after is not None:
            await asyncio.wait([after])
        room = await rooms.live(str(event.get("game")))
        if room is None:
            return
        try:
            if event.get("kind") == "move":
                async with room.lock:
                    moved = await room.catch_up(move_in(event))
                if moved and room.on_move is not None:
                    room.on_move(room)
            elif event.get("kind") == "seat" and event.get("how") in ("claimed", "reissued"):
                await room.seat_changed(int(event["seat"]), str(event["how"]))
        except (KeyError, TypeError, ValueError, RoomError) as exc:
            log.warning("game %s: an event from another process did not apply: %s", room.id, exc)
        except Exception:  # the database away for a moment: the game's next news reads again
            log.exception("game %s: news from another process could not be taken in", room.id)

    async def heard_nothing_for_a_while() -> None:
        """The bus lost its connection for a moment: have every live room catch up."""
        for room in list(rooms.rooms.values()):
            async with room.lock:
                with contextlib.suppress(RoomError):
                    await room.catch_up()

    async def keep_leases() -> None:
        """Renew this process's bot leases; take over the games of processes that died."""
        while not stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), leases.seconds / 3)
            if stopping.is_set():
                return
            try:
                for game_id in await leases.renew():
                    runner.cancel(game_id)
                for game_id in await leases.orphans():
                    await adopt(game_id)
            except Exception:  # the database may be away for a moment: try again later
                log.exception("the bot leases could not be renewed")

    async def adopt(game_id: str) -> None:
        """Let the bots of a game whose process died play on here."""
        if not await leases.take(game_id):
            return  # another process was quicker
        try:
            room = await rooms.get(game_id)
        except (RoomError, Full) as exc:
            log.warning("game %s is not taken over: %s", game_id, exc)
            room = None
        if room is None:
            await leases.give(game_id)
            return
        async with room.lock:
            await room.catch_up()
        if not expired(room.info, limits, room):
            runner.wake(room)
        if not runner.busy(room):
            await leases.give(game_id)
        rooms.release(room, runner.busy(room))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        stopping.clear()
        bus.start(hear, heard_nothing_for_a_while)
        resuming = asyncio.create_task(resume_bots(), name="resume bots")
        leasing = asyncio.create_task(keep_leases(), name="keep leases")
        yield
        # not cancelled: a database call in a thread would run on after the store closed
        stopping.set()
        await asyncio.gather(resuming, leasing, return_exceptions=True)
        await runner.stop()
        bus.stop()
        for room in list(rooms.rooms.values()):
            await leases.give(room.id)  # the other processes may take these games at once
        executor.shutdown(wait=False, cancel_futures=True)
        writer.close()
        store.close()

    app = FastAPI(title="cubegames", version=cubegames.__version__, lifespan=lifespan)
    app.add_middleware(Guard, max_body=limits.max_body)
    app.state.store = store
    app.state.rooms = rooms
    app.state.runner = runner
    app.state.replays = replays
    app.state.writer = writer
    app.state.bus = bus
    app.state.leases = leases

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

    async def credential_seat(request: Request, game_id: str) -> int | None:
        """The seat the request's credential (`Authorization: Bearer ...`) opens, or None
        without one; 403 for a credential that opens nothing, 400 for one in the address."""
        if "token" in request.query_params:
            raise HTTPException(
                400, "a credential never goes in the address: send it as Authorization: Bearer"
            )
        token = bearer(request)
        if token is None:
            return None
        seat = await asyncio.to_thread(store.seat_of, game_id, token)
        if seat is None:
            raise HTTPException(403, "this credential does not open any seat of this game")
        return seat

    def client_of(request: Request | WebSocket) -> str:
        return request.client.host if request.client is not None else "unknown"

    async def rate_limited(request: Request) -> None:
        who = client_of(request)
        if created is not None:
            wait = await asyncio.to_thread(created.allow, who)
        else:
            wait = created_here.allow(who)
        if wait is not None:
            raise HTTPException(
                429,
                f"too many games made from your address: at most {limits.games_per_minute} "
                "a minute; try again shortly",
                headers={"Retry-After": str(math.ceil(wait))},
            )

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        """The games, their options and the bots on offer."""
        return catalog()

    @app.get("/api/rules/{game}", response_class=PlainTextResponse)
    async def get_rules(game: str) -> PlainTextResponse:
        """The full rules of a game, as markdown (docs/rules/<game>.md)."""
        try:
            page = rulebook.text(game)
        except ValueError as exc:
            raise HTTPException(404, str(exc)) from None
        return PlainTextResponse(page, media_type="text/markdown; charset=utf-8")

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        """Make a game; the answer holds the host's credential, the credential of each
        seat played here and the one-time invitation of each invited seat (shown only
        now)."""
        await rate_limited(request)
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
                    check_bot(spec, body.game, limits)
                except ValueError as exc:
                    raise HTTPException(400, f"seats.{i}: {exc}") from None
                seats.append(NewSeat("bot", spec, seat.name or None))
            else:
                seats.append(NewSeat(HUMAN, None, seat.name or None, invited=seat.invite))
        if body.seed is not None and any(s.invited for s in seats):
            raise HTTPException(
                400,
                "seed: a seed you pick is for games at one screen or among bots; a game "
                "with an invited player gets a secret deal",
            )
        # 128 bits from the operating system: a seat's own hand cannot identify the deal
        seed = body.seed if body.seed is not None else server_deal()
        host = new_token()
        try:
            game_id, tokens = await asyncio.to_thread(
                store.create, body.game, game.options, seed, seats, (), None, host
            )
        except Unstorable as exc:
            raise HTTPException(400, str(exc)) from None
        return _created(game_id, body.game, seats, tokens, PLAYING, host)

    def _created(
        game_id: str,
        game: str,
        seats: list[NewSeat],
        tokens: list[str],
        status: str,
        host: str,
    ) -> dict[str, Any]:
        def secret(s: NewSeat, t: str) -> dict[str, str]:
            if s.kind != HUMAN:
                return {}
            return {"invite": t} if s.invited else {"token": t}

        return {
            "id": game_id,
            "game": game,
            "status": status,
            "host": host,
            "seats": [
                {"seat": i, "kind": s.kind, "bot": s.bot, "name": s.name, **secret(s, t)}
                for i, (s, t) in enumerate(zip(seats, tokens, strict=True))
            ],
        }

    @app.post("/api/games/{game_id}/claim")
    async def claim_seat(game_id: str, body: ClaimSeat) -> dict[str, Any]:
        """Take the seat of a one-time invitation: the answer is the seat's own credential
        (kept by this browser); the invitation is spent."""
        await load(game_id)
        claimed = await asyncio.to_thread(store.claim, game_id, body.invite)
        if claimed is None:
            raise HTTPException(
                409,
                "this invitation has already been used, or is not one of this game's: "
                "if the seat is yours, ask the host to reissue it",
            )
        seat, credential = claimed
        room = rooms.rooms.get(game_id)
        if room is not None:
            await room.seat_changed(seat, "claimed")
        await asyncio.to_thread(
            bus.publish, {"kind": "seat", "game": game_id, "seat": seat, "how": "claimed"}
        )
        return {"id": game_id, "seat": seat, "token": credential}

    @app.post("/api/games/{game_id}/seats/{seat}/reissue")
    async def reissue_seat(game_id: str, seat: int, request: Request) -> dict[str, Any]:
        """The host gives a seat a new invitation (a player who lost their seat): the old
        credential opens nothing more, and every page of the game is told."""
        info = await load(game_id)
        token = bearer(request)
        if token is None or not await asyncio.to_thread(store.is_host, game_id, token):
            raise HTTPException(403, "only the host of this game can reissue a seat")
        if not 0 <= seat < len(info.seats) or info.seats[seat].kind != HUMAN:
            raise HTTPException(400, f"seat {seat} is not a person's seat of this game")
        if info.status == FINISHED:
            raise HTTPException(409, "the game is over")
        if picked(info.seed):
            raise HTTPException(
                409,
                "this game's deal was picked by its maker, who knows every hand: its seats "
                "stay at one screen and cannot be passed to anyone else",
            )
        invite = await asyncio.to_thread(store.reissue, game_id, seat)
        room = rooms.rooms.get(game_id)
        if room is not None:
            await room.seat_changed(seat, "reissued")
        await asyncio.to_thread(
            bus.publish, {"kind": "seat", "game": game_id, "seat": seat, "how": "reissued"}
        )
        return {"id": game_id, "seat": seat, "invite": invite}

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
                "seats": _seats_json(g),
            }
            for g in found
        ]

    @app.get("/api/games/{game_id}")
    async def game_detail(game_id: str) -> dict[str, Any]:
        """One game: its settings, seats, status and moves (in words a spectator may read;
        the notation too once the game is over), and the fixed facts its page draws with
        (`info`, as in the websocket's `hello`)."""
        info = await load(game_id)
        game = build_trusted(info)
        over = info.status == FINISHED
        moves = []
        notations = [m.move for m in info.moves]
        for m in info.moves:
            entry: dict[str, Any] = {
                "ply": m.ply,
                "seat": m.seat,
                "text": web.words(game, m.move, m.seat, None, notations[: m.ply - 1]),
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
            "info": web.info(game),
        }

    @app.get("/api/games/{game_id}/record")
    async def download_record(game_id: str, request: Request) -> JSONResponse:
        """The game's record file, seed and all, once the game is over. Before that a full
        record would tell every hidden piece: a seat (by its credential) gets its own view
        of the game so far instead, without the seed; anyone else is refused."""
        seat = await credential_seat(request, game_id)
        info = await load(game_id)
        filename = f"cubegames-{info.game}-{info.id}.json"
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        if info.status == FINISHED:
            return JSONResponse(to_record(info), headers=headers)
        if seat is None:
            raise HTTPException(
                403,
                "the record tells every hidden piece, so it can be saved once the game is "
                "over; a seat may save its own view of it with its credential",
            )
        return JSONResponse(seat_record(info, build_trusted(info), seat), headers=headers)

    @app.get("/api/games/{game_id}/replay")
    async def replay_step(
        game_id: str,
        request: Request,
        ply: Annotated[int, Query(ge=0)] = 0,
        seat: Annotated[int | None, Query(ge=0)] = None,
    ) -> dict[str, Any]:
        """The table after move `ply`, seen by a spectator or by `seat` (a seat's view
        needs the game over, or that seat's credential)."""
        mine = await credential_seat(request, game_id)
        info = await load(game_id)
        if seat is not None:
            if seat >= len(info.seats):
                raise HTTPException(400, f"there is no seat {seat}")
            if info.status != FINISHED and mine != seat:
                raise HTTPException(
                    403, "a seat's view of a game in play needs that seat's credential"
                )
        total = len(info.moves)
        ply = min(ply, total)
        try:
            game, state, played = await asyncio.to_thread(replays.at, info, ply)
        except RoomError as exc:
            raise HTTPException(409, str(exc)) from None
        view = state.public_view() if seat is None else state.view(seat)
        last = played[-1] if played else None
        said = web.tell(game, view) if web.tells(game) else None
        earlier = [p.move for p in played[:-1]]
        if said is None and last is not None:
            said = web.words(game, last.move, last.seat, seat, earlier)
        hints = web.hints(game, view)
        if web.framed(game):
            hints = {**(hints or {}), **web.history_hints(game, [p.move for p in played])}
        return {
            "ply": ply,
            "total": total,
            "seat": seat,
            "to_move": state.to_move,
            "over": state.is_over,
            "view": view,
            "hints": hints,
            "last": None
            if last is None
            else {
                "ply": last.ply,
                "seat": last.seat,
                "move": last.move if web.visible(game, last.move, last.seat, seat) else None,
                "text": web.words(game, last.move, last.seat, seat, earlier),
            },
            "result": result_of(state) if state.is_over else None,
            "svg": web.draw(game, view, []),
            "said": said,
        }

    @app.post("/api/records", status_code=201)
    async def upload_record(request: Request) -> dict[str, Any]:
        """Load a record file (the request body): it is replayed through the engine and
        becomes a new game whose people's seats are all played at the uploader's screen
        (the file tells every hand, so none of them may be passed to another person: the
        game has no host, and no seat can be reissued as an invitation)."""
        await rate_limited(request)
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_RECORD:
                raise HTTPException(413, f"the file is too large: at most {MAX_RECORD} bytes")
        try:
            record = read_record(bytes(raw))
            loaded = await asyncio.to_thread(load_record, record)
            for i, new_seat in enumerate(loaded.seats):
                if new_seat.bot is not None:
                    try:
                        check_bot(new_seat.bot, loaded.game, limits)
                    except ValueError as exc:
                        raise ProtocolError(f"bad record: seats.{i}: {exc}") from None
        except ProtocolError as exc:
            raise HTTPException(400, str(exc)) from None
        host = new_token()
        try:
            game_id, tokens = await asyncio.to_thread(
                store.create,
                loaded.game,
                loaded.options,
                loaded.seed,
                loaded.seats,
                loaded.moves,
                loaded.result,
                host,
            )
        except Unstorable as exc:
            raise HTTPException(400, f"bad record: {exc}") from None
        status = FINISHED if loaded.result is not None else PLAYING
        # Whoever holds a record file knows its deal: every hand and the bag. So a loaded
        # game is played at the uploader's screen only; it has no host who could invite
        # someone else into it (the host credential is kept by nobody).
        return {**_created(game_id, loaded.game, loaded.seats, tokens, status, host), "host": None}

    # -- the websocket -------------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        """A page's live connection to a game: as a seat or a spectator, said by the first
        message (`auth`); a token never travels in the address."""
        if not same_origin(websocket):
            # a page of another site must not act with this browser's credentials
            await websocket.close(BAD_ORIGIN)
            return
        who = client_of(websocket)
        if not sockets.take(who):
            await websocket.accept()
            await close_quietly(
                websocket,
                TOO_MANY,
                f"too many connections from your address: at most "
                f"{limits.connections_per_client} at once",
            )
            return
        try:
            await _connection(websocket, game_id)
        finally:
            sockets.give(who)

    async def _connection(websocket: WebSocket, game_id: str) -> None:
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
            await peer.send(peer.update(room.state_message(seat)))
            await room.presence()
            if not expired(room.info, limits, room):
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
        throttle = Throttle(limits.messages_per_second, limits.message_burst)
        clock = asyncio.get_running_loop().time
        quiet = Watchdog(limits.idle_seconds)  # one timer, not one per message
        try:
            while True:
                quiet.begin()
                try:
                    message = await websocket.receive()
                except asyncio.CancelledError:
                    if not quiet.expired():
                        raise
                    # the page pings every 25 s: silence this long is a page gone quiet
                    await peer.send(
                        error(f"no message for {limits.idle_seconds:g} seconds", "closed")
                    )
                    await peer.flush()
                    await close_quietly(websocket, IDLE)
                    return
                finally:
                    quiet.end()
                if message["type"] == "websocket.disconnect":
                    return
                if not throttle.allow(clock()):
                    if throttle.warn(clock()):
                        await peer.send(
                            error(
                                f"too many messages: at most {limits.messages_per_second:g} "
                                f"a second (bursts of {limits.message_burst}); the ones over "
                                "the limit were not read",
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
                if isinstance(parsed, ReadyMessage):
                    if peer.seat is not None:
                        room.ready(peer.seat)
                    continue
                if not isinstance(parsed, MoveMessage):
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
                    await peer.send(error(str(exc), exc.code))
        finally:
            quiet.close()

    return app


#: how `cubegames serve --workers N` tells each worker process its settings
DB_VARIABLE = "CUBEGAMES_DB"
LIMITS_VARIABLE = "CUBEGAMES_LIMITS"


WORKERS_VARIABLE = "CUBEGAMES_WORKERS"


def environment(db_url: str, limits: Limits, workers: int) -> dict[str, str]:
    """The environment variables `from_environment` reads back into this app."""
    return {
        DB_VARIABLE: db_url,
        LIMITS_VARIABLE: json.dumps(dataclasses.asdict(limits)),
        WORKERS_VARIABLE: str(workers),
    }


def from_environment() -> FastAPI:
    """The app of `environment(...)`: what each worker process of `cubegames serve
    --workers N` runs (uvicorn calls it in every process)."""
    limits = Limits(**json.loads(os.environ.get(LIMITS_VARIABLE, "{}")))
    workers = int(os.environ.get(WORKERS_VARIABLE, "1"))
    app = create_app(os.environ[DB_VARIABLE], limits=limits, workers=workers)
    quiet_gc()
    return app


#: container allocations (net) between two collections of the youngest generation (Python's
#: default is 700); a collection's pause grows with it (see `quiet_gc`)
GC_YOUNG = 2_000
#: collections of the youngest generation that make one of the middle one (Python's: 10)
GC_MIDDLE = 1_000
#: collections of the middle generation that may make a full one (Python's own rule also
#: waits until a quarter of the long-lived objects are new)
GC_OLD = 1_000


def quiet_gc() -> None:
    """Set the cyclic garbage collector for a long-lived server process.

    What is loaded at start (the web stack, the engines) is frozen out of every later
    collection. What a move leaves alive (the game's new state, each page's last message)
    lives about as long as a player thinks, so it outlives the young generation and most
    of it is freed later by reference counting, never by the collector; but every
    collection still walks all of it that is alive. A collection's pause is therefore about
    proportional to the objects made since the last one: with 20,000 allocations between
    young collections a pause was about 30 ms, with 2,000 about 4 ms (the same collector
    CPU a second, spread thin), and the middle generation, which holds every live game's
    recent objects, paused 30-50 ms whenever it was collected, so it is collected about
    every few minutes instead of every few seconds (`benchmarks/room_cpu.py --games 500
    --think 1` prints the pauses of each generation: Room.play's p99 went from 14-59 ms to
    6-11 ms). With Python's defaults a server with a few hundred live games spent about a
    tenth of its CPU in the collector and paused for up to 0.1-0.3 s."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, GC_MIDDLE, GC_OLD)


def server_deal() -> int:
    """A deal the server makes: 128 bits from the operating system, never a number a
    person could pick (those are at most `MAX_SEED`), so `picked` tells them apart, and
    always 2**64 or more, the seeds from which the games key their hidden chance with all
    of the seed (CUBES' dice, CUBED's secret behind later deals)."""
    while True:
        seed = secrets.randbits(SEED_BITS)
        if seed >= 2**64:  # below it once in 2**64 draws: draw again
            return seed


def picked(seed: int) -> bool:
    """Whether a game's seed was picked by a person (who then knows every hand)."""
    return seed <= MAX_SEED


def bearer(request: Request) -> str | None:
    """The credential of `Authorization: Bearer ...`, or None."""
    header = request.headers.get("authorization", "")
    kind, _, value = header.partition(" ")
    if kind.lower() != "bearer" or not value.strip():
        return None
    return value.strip()[:MAX_TOKEN]


def same_origin(websocket: WebSocket) -> bool:
    """Whether a websocket comes from a page of this server (or from no page at all: a
    program sends no Origin)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


def move_in(event: dict[str, Any]) -> MoveInfo:
    """The move another process announced in a `move` event (KeyError, TypeError or
    ValueError if the event is not one)."""
    return MoveInfo(int(event["ply"]), int(event["seat"]), str(event["move"]), now())


def expired(info: GameInfo, limits: Limits, room: Room | None = None) -> bool:
    """Whether an unfinished game has had no move for `limits.expire_days` (abandoned)."""
    if room is not None:
        over, last = room.state.is_over, room.last_active
    else:
        over = info.status == FINISHED
        last = info.moves[-1].played_at if info.moves else info.created_at
    return not over and now() - last > timedelta(days=limits.expire_days)


def seat_record(info: GameInfo, game: Any, seat: int) -> dict[str, Any]:
    """The record of an unfinished game as `seat` may know it: no seed, each move in
    words (its notation only where `seat` may read it). It cannot be loaded back."""
    return {
        "format": "cubegames-seat-view",
        "version": 1,
        "id": info.id,
        "game": info.game,
        "options": info.options,
        "seat": seat,
        "seats": [{"kind": s.kind, "bot": s.bot, "name": s.name} for s in info.seats],
        "moves": [
            {
                "seat": m.seat,
                "text": web.words(game, m.move, m.seat, seat, [n.move for n in info.moves[:i]]),
                **({"move": m.move} if web.visible(game, m.move, m.seat, seat) else {}),
            }
            for i, m in enumerate(info.moves)
        ],
        "created": iso(info.created_at),
    }


def build_trusted(info: GameInfo) -> Any:
    """The game of a stored row (its options were checked when it was made)."""
    return cubegames.make(info.game, **info.options)


__all__ = ["create_app", "environment", "from_environment"]
