"""The web app: `create_app(db_url)` builds it (FastAPI, run by uvicorn).

Its parts, one module each: the page (`pages`), the REST API (`api`), the websocket of a
game (`websocket`), the live games (`rooms`) and their bots (`bots`), the coordination
with other processes on the same database (`hub`, over `bus` and `lease`), the database
(`storage`, its schema upgraded by `migrations`) and its group-commit writer (`writer`),
the limits on what a client may spend (`limits`) and the guards in front of it all
(`guard`). docs/server.md draws how they fit; docs/protocol.md is the websocket protocol.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import datetime

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

import cubegames
from cubegames.server import (
    accounts,
    api,
    pages,
    players,
    ratings,
    tables,
    tutorials,
    websocket,
)
from cubegames.server.api import server_deal
from cubegames.server.botqueue import BotQueue
from cubegames.server.bots import BotRunner, pool_size
from cubegames.server.bus import Announcer, LocalBus, PostgresBus, make_bus
from cubegames.server.chat import Chats
from cubegames.server.context import Server
from cubegames.server.guard import Guard
from cubegames.server.hub import Hub
from cubegames.server.i18n import Said, invalid, refused, said
from cubegames.server.lease import make_leases
from cubegames.server.limits import Clock, Counter, GameRate, Limits, SeatChanges, share
from cubegames.server.lobby import Lobby
from cubegames.server.presence import make_presence
from cubegames.server.referee import Referee
from cubegames.server.replays import Replays
from cubegames.server.rooms import Room, Rooms
from cubegames.server.storage import Store, default_url
from cubegames.server.storage import now as wall_clock
from cubegames.server.writer import Writer


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.5,
    limits: Limits | None = None,
    workers: int = 1,
    clock: Clock | None = None,
    now: Callable[[], datetime] = wall_clock,
    bot_workers: bool = False,
    pause_clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The web app over the database at `db_url` (any SQLAlchemy URL; default: a SQLite
    file, see `storage.default_url`). Bots take at least `bot_delay` seconds a move;
    `limits` bounds what a client may spend (`limits.Limits`), over all the `workers`
    processes serving the database. The rates (games made, invitations claimed and seats
    reissued, a page's messages) are measured on `clock` (seconds; by default the
    system's monotonic clock, or for the count shared by processes on PostgreSQL, the
    time since the epoch). `now` is the server's wall clock, on which the games' time
    controls run (the tests give a fake one). With `bot_workers` (PostgreSQL only) the
    bots think in `cubegames bots work` workers instead of this process (`botqueue`).
    `pause_clock` (seconds) times the pause after a round (`rooms.ROUND_PAUSE`).

    The database is opened (and its schema brought up to date) here, so a bad URL fails
    at once.
    """
    server = build(
        db_url or default_url(),
        bot_delay,
        limits or Limits(),
        workers,
        clock,
        now,
        bot_workers,
        pause_clock,
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        server.hub.start(server.bus)
        yield
        await server.lobby.stop()
        await server.hub.stop()
        await server.runner.stop()
        server.bus.stop()
        await server.hub.give_back()
        with contextlib.suppress(Exception):  # the database may be gone already
            await server.referee.presence.close()
        server.executor.shutdown(wait=False, cancel_futures=True)
        server.writer.close()
        server.store.close()

    app = FastAPI(title="cubegames", version=cubegames.__version__, lifespan=lifespan)
    users = accounts.Accounts(
        server.store,
        per_account=server.limits.signins_per_account,
        per_client=server.limits.signins_per_client,
        signups_per_client=server.limits.signups_per_client,
        workers=workers,
        clock=clock or time.monotonic,
        wall=lambda: now().timestamp(),
        # sign-in attempts are counted in the database by every process: seconds since
        # the epoch, which every process counts alike
        attempts_clock=clock or time.time,
    )
    app.add_middleware(Guard, max_body=server.limits.max_body)
    # the CSRF check is the outermost: a request it refuses has its body never read
    app.add_middleware(accounts.CsrfGuard, accounts=users)
    app.state.server = server
    app.state.accounts = users
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(Said, said)
    app.add_exception_handler(StarletteHTTPException, refused)
    app.mount("/static", pages.static_files(), name="static")
    app.include_router(pages.router)
    app.include_router(api.router)
    app.include_router(accounts.router)
    app.include_router(players.router)
    app.include_router(tutorials.router)
    app.include_router(websocket.router)
    app.include_router(tables.router)
    return app


def build(
    db_url: str,
    bot_delay: float,
    limits: Limits,
    workers: int,
    clock: Clock | None = None,
    now: Callable[[], datetime] = wall_clock,
    bot_workers: bool = False,
    pause_clock: Callable[[], float] = time.monotonic,
) -> Server:
    """The app's parts over the database at `db_url` (ValueError if `bot_workers` is
    asked for on a database other than PostgreSQL)."""
    store = Store(db_url)
    if bot_workers and store.engine.dialect.name != "postgresql":
        store.close()
        raise ValueError("bots on workers need PostgreSQL: a SQLite file is one process's")
    # this process's part of the caps counted in memory (the sum over processes holds)
    max_rooms = share(limits.max_rooms, workers)
    # a thread for every room that may be live: a slow bot thinks in its own thread and
    # never waits behind another game's (each room has at most one bot thinking)
    executor = ThreadPoolExecutor(max_workers=max_rooms, thread_name_prefix="cubegames-bot")
    bus = make_bus(store)
    leases = make_leases(store, limits.lease_seconds)
    runner = BotRunner(
        executor,
        bot_delay,
        limits=limits,
        leases=leases,
        pool_size=pool_size(limits.bot_processes, workers),
        queue=BotQueue(store, bus.notify) if isinstance(bus, PostgresBus) and bot_workers else None,
    )
    writer = Writer(store, bus.news)
    presence = make_presence(store, leases.owner, limits.lease_seconds, now)

    def setup(room: Room) -> None:
        runner.attach(room)
        room.on_presence = presence.changed

    # with other processes on the database, a round's pause is told to them
    announcer = None if isinstance(bus, LocalBus) else Announcer(bus)
    rooms = Rooms(
        store,
        setup,
        max_rooms=max_rooms,
        writer=writer,
        teardown=runner.detach,
        clock=now,
        pause_clock=pause_clock,
        announce=announcer,
        stop=lambda room: runner.cancel(room.id),
    )
    referee = Referee(store, rooms, runner, leases, bus, now, presence)
    runner.on_idle = lambda room: rooms.release(room, busy=False)
    hub = Hub(store, rooms, runner, leases, limits, referee, announcer)
    lobby = Lobby(store, bus, limits.lobby_refresh_seconds)
    lobby.rating_of = functools.partial(ratings.host_rating, store)
    chats = Chats(store, rooms, bus, limits, clock or time.monotonic, workers)
    referee.said = chats.system
    hub.listeners.update({"lobby": lobby.hear, "chat": chats.hear, "chat-spectators": chats.hear})
    return Server(
        store=store,
        limits=limits,
        rooms=rooms,
        runner=runner,
        writer=writer,
        bus=bus,
        leases=leases,
        hub=hub,
        referee=referee,
        now=now,
        replays=Replays(),
        executor=executor,
        games_made=GameRate(store, limits.games_per_minute, clock),
        sockets=Counter(share(limits.connections_per_client, workers)),
        all_sockets=Counter(share(limits.max_connections, workers)),
        seat_changes=SeatChanges(
            share(limits.seat_changes_per_client, workers),
            share(limits.seat_changes_per_game, workers),
            clock or time.monotonic,
        ),
        clock=clock or time.monotonic,
        lobby=lobby,
        chats=chats,
    )


__all__ = ["build", "create_app", "server_deal"]
