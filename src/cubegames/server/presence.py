"""Whether a player is gone, over every server process on one database.

A claim against a real-time player gone on their turn (`referee.Referee.claim`) needs to
know that no page of theirs is open anywhere. A room knows its own process's pages
(`Room.away`); with `--workers N` on PostgreSQL the player's page may be on another
process, so each process also writes, per game and seat, whether it has a page open and
since when (`presence` table, `DatabasePresence`):

- a seat's first page opening on a process, or its last page closing, marks the row
  (`changed`, called by the room); the writes go out in order, the latest state of each
  seat at a time, in a task of their own (a page never waits on the database);
- the process renews the rows of its open pages with its leases (`renew`, every third of
  `lease_seconds`), marks them all gone when it stops (`close`), and rows untouched for a
  day are deleted;
- `gone_for` asks every process's row: 0 if a page is open on a process that is alive;
  otherwise the time since the last page closed anywhere (for a process that died with
  a page open: since its last renewal). A seat never seen on any process counts from when
  this process loaded the game (as `Room.away`): a claim is never early.

`LocalPresence` (SQLite, one process): the room's own count is the whole truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql

from cubegames.server.rooms import Room
from cubegames.server.storage import PresenceRow, Store

log = logging.getLogger("cubegames.server")

#: seconds after which the rows of a process that died are deleted (long after any grace)
FORGET = 86_400.0


class Presence(Protocol):
    """What the referee and the rooms need of presence."""

    def changed(self, room: Room, seat: int, here: bool) -> None:
        """`seat`'s first page opened on this process (`here`), or its last one closed."""

    async def gone_for(self, room: Room, seat: int, at: float) -> float:
        """Seconds that `seat` has had no page open on any process, at `at` (0: it has)."""

    async def renew(self) -> None:
        """Renew this process's rows."""

    async def close(self) -> None:
        """This process stops: every page of its is gone."""


class LocalPresence:
    """One process: the room's own pages are all there is."""

    def changed(self, room: Room, seat: int, here: bool) -> None:
        """Nothing to tell anyone."""

    async def gone_for(self, room: Room, seat: int, at: float) -> float:
        """The room's own count (`Room.away`)."""
        return room.away(seat, at)

    async def renew(self) -> None:
        """Nothing to renew."""

    async def close(self) -> None:
        """Nothing to close."""


class DatabasePresence:
    """Every process's pages, in the `presence` table (see the module)."""

    def __init__(
        self, store: Store, owner: str, seconds: float, clock: Callable[[], datetime]
    ) -> None:
        self.store = store
        #: this process's name (its leases' owner)
        self.owner = owner
        self.seconds = seconds
        self.clock = clock
        #: seats whose state changed and is not written yet: (game, seat) -> (here, since)
        self._dirty: dict[tuple[str, int], tuple[bool, float]] = {}
        self._writing: asyncio.Task[None] | None = None

    def changed(self, room: Room, seat: int, here: bool) -> None:
        """Note the change; a task writes it (the latest state of each seat, in order)."""
        self._dirty[room.id, seat] = (here, self.clock().timestamp())
        if self._writing is None or self._writing.done():
            with contextlib.suppress(RuntimeError):  # no loop: nothing is served
                self._writing = asyncio.get_running_loop().create_task(
                    self._write(), name="presence"
                )

    async def _write(self) -> None:
        while self._dirty:
            batch, self._dirty = self._dirty, {}
            try:
                await asyncio.to_thread(self._put, batch)
            except Exception:  # the database away for a moment: the next change retries
                log.exception("presence could not be written")
                for key, value in batch.items():
                    self._dirty.setdefault(key, value)
                return

    def _put(self, batch: dict[tuple[str, int], tuple[bool, float]]) -> None:
        expires = self.clock().timestamp() + self.seconds
        with self.store.engine.begin() as connection:
            for (game_id, seat), (here, since) in batch.items():
                values = {"here": here, "since": since, "expires": expires}
                statement = postgresql.insert(PresenceRow).values(
                    game_id=game_id, seat=seat, owner=self.owner, **values
                )
                connection.execute(
                    statement.on_conflict_do_update(
                        index_elements=[PresenceRow.game_id, PresenceRow.seat, PresenceRow.owner],
                        set_=values,
                    )
                )

    async def flush(self) -> None:
        """Wait until every change noted so far is written."""
        while self._writing is not None and not self._writing.done():
            await asyncio.wait([self._writing])
        if self._dirty:
            await self._write()

    async def gone_for(self, room: Room, seat: int, at: float) -> float:
        """Seconds since `seat` last had a page open on any live process (0: it has)."""
        await self.flush()
        rows = await asyncio.to_thread(self._rows, room.id, seat)
        if not rows:
            return room.away(seat, at)
        left = []
        for here, since, expires in rows:
            if here and expires >= at:
                return 0.0
            # a page still open on a process that died: gone since its last renewal
            left.append(since if not here else expires - self.seconds)
        return max(0.0, at - max(left))

    def _rows(self, game_id: str, seat: int) -> list[tuple[bool, float, float]]:
        with self.store.engine.connect() as connection:
            found = connection.execute(
                select(PresenceRow.here, PresenceRow.since, PresenceRow.expires).where(
                    PresenceRow.game_id == game_id, PresenceRow.seat == seat
                )
            ).all()
        return [(row.here, row.since, row.expires) for row in found]

    async def renew(self) -> None:
        """Push back the expiry of this process's open pages' rows; forget the rows of
        seats gone for a day (a seat with no row counts from when a process loaded the
        game: a claim is then later, never earlier)."""
        await asyncio.to_thread(self._renew)

    def _renew(self) -> None:
        moment = self.clock().timestamp()
        with self.store.engine.begin() as connection:
            # a seat gone from here is told by its `since`, which needs no renewal
            connection.execute(
                update(PresenceRow)
                .where(PresenceRow.owner == self.owner, PresenceRow.here.is_(True))
                .values(expires=moment + self.seconds)
            )
            # rows of seats gone for a day, and of processes dead for a day
            connection.execute(delete(PresenceRow).where(PresenceRow.expires < moment - FORGET))

    async def close(self) -> None:
        """Mark every page of this process gone (now)."""
        await self.flush()
        moment = self.clock().timestamp()

        def gone() -> None:
            with self.store.engine.begin() as connection:
                connection.execute(
                    update(PresenceRow)
                    .where(PresenceRow.owner == self.owner, PresenceRow.here.is_(True))
                    .values(here=False, since=moment)
                )

        await asyncio.to_thread(gone)


def make_presence(
    store: Store, owner: str, seconds: float, clock: Callable[[], datetime]
) -> Presence:
    """Presence over every process on PostgreSQL, else the rooms' own."""
    if store.engine.dialect.name == "postgresql":
        return DatabasePresence(store, owner, seconds, clock)
    return LocalPresence()


__all__ = ["DatabasePresence", "LocalPresence", "Presence", "make_presence"]
