"""News between server processes on one database: a move saved, a seat claimed or reissued.

A live game may have pages on several processes (`cubegames serve --workers N`); the
process that saves a move tells its own pages at once, and the others learn it here:

- `LocalBus`: one process (SQLite, or a single server on PostgreSQL): every page of a game
  is in this process's room, so there is nothing to carry;
- `PostgresBus`: PostgreSQL's LISTEN/NOTIFY. A move's notification is sent inside the
  transaction that saves it (`announce`, called by `writer.Writer`), so PostgreSQL delivers
  it exactly when the move is durable, and in commit order. A thread of each process
  listens on a connection of its own and hands each event to the event loop.

Why not Redis pub/sub: it is one more service to install, run and secure, for no gain
here: a notification costs one row in the commit that PostgreSQL makes anyway, and
reaches another process's pages in a few milliseconds (see benchmarks/README.md).

An event is a small JSON object: `{"kind": "move", "game": id, "ply": n, "seat": s,
"move": text}`, `{"kind": "seat", "game": id, "seat": s, "how": "claimed" |
"reissued"}`, or, after a round, `{"kind": "pause", "game": id, "round": r, "seats": [s,
...]}` (the next round waits for these seats' pages on the sending process) and
`{"kind": "ready", "game": id, "round": r, "seat": s}` (one of them has seen the end).
A notification's payload is the sending process's name, a space, then a JSON list of events
in the order they happened: `3f9a0c1b2d4e [{"kind":"move",...},...]`. The writer's batch of
moves (of many games) goes out as one such list, cut into as few notifications as
PostgreSQL's limit of 8,000 bytes a payload allows, all sent by one statement; a seat event
is a list of one. A process drops its own notifications by their first word, without parsing
them, and ignores a payload that is not such a list (another program may use the channel). A
payload's events reach the event loop as one call of `deliver` on the loop, in order. A
listener that loses its connection reconnects, then has every live room catch up from the
database (`on_reconnect`), so a move notified meanwhile is not missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from sqlalchemy import text
from sqlalchemy.engine import Connection

from cubegames.server.storage import NewMove, Store

log = logging.getLogger("cubegames.server")

Event = dict[str, Any]
Deliver = Callable[[list[Event]], None]
Reconnect = Callable[[], Coroutine[Any, Any, None]]

#: seconds between two attempts to listen again after the connection broke
RETRY = 1.0

#: PostgreSQL refuses a notification whose payload is this many bytes or more
PAYLOAD_LIMIT = 8000

#: events as compact JSON; escaping everything beyond ASCII (the default) makes a
#: payload's length in characters its length in bytes, in any server encoding. The largest
#: event, a move of `MOVE_LENGTH` characters each escaped as a surrogate pair (12 bytes)
#: in a game whose 24-character id is escaped alike, is under 3,000 bytes: one always fits
_encode = json.JSONEncoder(separators=(",", ":")).encode

#: one notification per payload, in the payloads' order, in one statement. The payloads
#: go as one text, a line each (their JSON holds no line break), split by the server: a
#: text array would be escaped by psycopg in Python, quote by quote
_NOTIFY = text(
    "SELECT pg_notify(:channel, payload) "
    "FROM unnest(string_to_array(CAST(:payloads AS TEXT), chr(10))) AS payload"
)


def _moved(moves: Sequence[NewMove]) -> list[Event]:
    """The events that tell of `moves`."""
    events: list[Event] = []
    for m in moves:
        event: Event = {"kind": "move", "game": m.game_id, "ply": m.ply, "seat": m.seat}
        event["move"] = m.move
        if m.at is not None:  # the time the clocks were run with (seconds since the epoch)
            event["at"] = m.at.timestamp()
        events.append(event)
    return events


class Bus(Protocol):
    """What the app needs of a bus."""

    #: this process's name in events (its own events come back and are ignored)
    origin: str

    def announce(self, connection: Connection, moves: Sequence[NewMove]) -> None:
        """Tell the other processes about `moves`, inside the transaction saving them."""

    def news(self, moves: Sequence[NewMove]) -> tuple[str, str] | None:
        """What tells the other processes about `moves`, for a statement that saves them
        and notifies at once (`Store.add_moves_at_once`): the channel and the payloads, a
        line each; None when there is nobody to tell."""

    def publish(self, event: Event) -> None:
        """Tell the other processes `event` now (call from a worker thread)."""

    def start(self, deliver: Deliver, on_reconnect: Reconnect) -> None:
        """Begin handing other processes' events to `deliver`, a notification's list at a
        time, called on the running loop."""

    def stop(self) -> None:
        """Stop listening."""


class LocalBus:
    """One process holds every page: nothing to tell anyone."""

    def __init__(self) -> None:
        self.origin = secrets.token_hex(6)

    def announce(self, connection: Connection, moves: Sequence[NewMove]) -> None:
        """Nothing to do."""

    def news(self, moves: Sequence[NewMove]) -> tuple[str, str] | None:
        """Nobody to tell."""
        return None

    def publish(self, event: Event) -> None:
        """Nothing to do."""

    def start(self, deliver: Deliver, on_reconnect: Reconnect) -> None:
        """Nothing to do."""

    def stop(self) -> None:
        """Nothing to do."""


class PostgresBus:
    """LISTEN/NOTIFY on a channel named after the database schema the store works in (so
    servers of different schemas on one database do not hear each other)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.origin = secrets.token_hex(6)
        with store.engine.connect() as connection:
            schema = connection.execute(text("SELECT current_schema()")).scalar_one()
        self.channel = f"cubegames_{schema}"[:63]
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def payloads(self, events: Sequence[Event]) -> list[str]:
        """`events` as notification payloads: this process's name, a space and a JSON
        list of events, as many events to a payload as fit under `PAYLOAD_LIMIT` bytes,
        in order."""
        head = f"{self.origin} ["
        done: list[str] = []
        parts: list[str] = []
        size = len(head) + 1  # with the closing bracket
        for event in events:
            part = _encode(event)
            if parts and size + 1 + len(part) >= PAYLOAD_LIMIT:
                done.append(head + ",".join(parts) + "]")
                parts, size = [], len(head) + 1
            size += len(part) + (1 if parts else 0)
            if size >= PAYLOAD_LIMIT:
                raise ValueError(f"an event of {len(part)} bytes is too long to notify")
            parts.append(part)
        if parts:
            done.append(head + ",".join(parts) + "]")
        return done

    def announce(self, connection: Connection, moves: Sequence[NewMove]) -> None:
        """NOTIFY the moves inside their transaction: delivered when (and if) it commits."""
        self.notify(connection, _moved(moves))

    def news(self, moves: Sequence[NewMove]) -> tuple[str, str] | None:
        """The channel, and the payloads announcing `moves` a line each (JSON text has no
        line breaks): the group-commit writer saves and announces a batch in one
        statement (`Store.add_moves_at_once`)."""
        return self.channel, "\n".join(self.payloads(_moved(moves)))

    def publish(self, event: Event) -> None:
        """NOTIFY one event in a transaction of its own."""
        with self.store.engine.begin() as connection:
            self.notify(connection, [event])

    def notify(self, connection: Connection, events: Sequence[Event]) -> None:
        """NOTIFY `events` inside the transaction of `connection` (delivered if it
        commits)."""
        lines = "\n".join(self.payloads(events))
        connection.execute(_NOTIFY, {"channel": self.channel, "payloads": lines})

    def start(self, deliver: Deliver, on_reconnect: Reconnect) -> None:
        """Listen in a thread of this process; events go to `deliver` on this loop."""
        loop = asyncio.get_running_loop()
        self._stopping.clear()
        ready = threading.Event()
        self._thread = threading.Thread(
            target=self._listen,
            args=(loop, deliver, on_reconnect, ready),
            name="cubegames-bus",
            daemon=True,
        )
        self._thread.start()
        ready.wait(timeout=10)  # listening before the app serves: no event is missed

    def stop(self) -> None:
        """Stop the listening thread (within a second)."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _listen(
        self,
        loop: asyncio.AbstractEventLoop,
        deliver: Deliver,
        on_reconnect: Reconnect,
        ready: threading.Event,
    ) -> None:
        first = True
        while not self._stopping.is_set():
            try:
                raw = self.store.engine.raw_connection()
                connection: Any = raw.driver_connection
                raw.detach()  # this connection is the listener's alone, never pooled
                try:
                    connection.autocommit = True
                    connection.execute(f'LISTEN "{self.channel}"')
                    ready.set()
                    if not first:
                        asyncio.run_coroutine_threadsafe(on_reconnect(), loop)
                    first = False
                    while not self._stopping.is_set():
                        for note in connection.notifies(timeout=0.5):
                            self._hand_over(loop, deliver, note.payload)
                finally:
                    with contextlib.suppress(Exception):
                        raw.close()
            except Exception:
                if self._stopping.is_set():
                    return
                log.exception("the bus lost its connection; listening again in %gs", RETRY)
                self._stopping.wait(RETRY)

    def _hand_over(self, loop: asyncio.AbstractEventLoop, deliver: Deliver, payload: str) -> None:
        origin, _, body = payload.partition(" ")
        if origin == self.origin:  # this process's own: known here already
            return
        try:
            events = json.loads(body)
        except (ValueError, RecursionError):  # not ours: another program on the channel
            return
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            return
        try:  # the whole list in one wake-up of the loop, in order
            loop.call_soon_threadsafe(deliver, events)
        except RuntimeError:  # the loop closed: the app is stopping
            return


class Announcer:
    """Tells the other processes a room's events (`Room.announce`: a round's pause, a
    seat ready) from the event loop without waiting: each is published by one thread of
    its own, so they go out in the order they were made. A failure is logged (the
    countdown of the pause bounds what a lost event costs)."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cubegames-news")

    def __call__(self, event: Event) -> None:
        self._thread.submit(self._publish, event)

    def _publish(self, event: Event) -> None:
        try:
            self.bus.publish(event)
        except Exception:
            game, kind = event.get("game"), event.get("kind")
            log.exception("game %s: a %s event could not be told", game, kind)

    def close(self) -> None:
        """Send what is queued, then stop."""
        self._thread.shutdown(wait=True)


def make_bus(store: Store) -> Bus:
    """The bus for `store`'s database: LISTEN/NOTIFY on PostgreSQL, else none needed."""
    if store.engine.dialect.name == "postgresql":
        return PostgresBus(store)
    return LocalBus()


__all__ = ["Announcer", "Bus", "Event", "LocalBus", "PostgresBus", "make_bus"]
