"""Which server process runs a game's bots: a lease in the database, renewed while held.

With several processes on one database (`cubegames serve --workers N`), a game may be live
in more than one of them, and each would otherwise have its bots answer every move. Before
a process's bots think for a game they take the game's lease: a row of `leases` naming the
process, valid for `seconds`. Taking it is one statement that succeeds only if the row is
missing, is this process's, or has expired, so two processes can never both hold it. The
holder renews its leases every `seconds / 3` and gives a lease back when the game leaves
its memory.

A process that dies (even by `kill -9`) renews nothing: its leases expire, and every other
process looks for expired leases every `seconds / 3`, takes them and lets the game's bots
play on from the stored moves. Nothing is lost: a move counts once it is stored, and a bot
move that was being thought about is simply thought again.

A process that stalls longer than its lease (it should not: the event loop never waits on
a bot) may find its lease taken; it then stops that game's bots. Even then a move number
is saved once only (the moves' key), so a game can never fork.

`LocalLeases` is for a single process (SQLite): every lease is its own, with no database
round trip.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Protocol

from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from cubegames.server.limits import Clock
from cubegames.server.storage import LeaseRow, Store

#: seconds a lease lasts without renewal
SECONDS = 10.0


class Leases(Protocol):
    """What the bot runner needs of leases."""

    owner: str
    seconds: float

    async def take(self, game_id: str) -> bool:
        """Whether this process holds (now) the game's lease."""

    async def give(self, game_id: str) -> None:
        """Give the game's lease back (another process may take it at once)."""

    async def renew(self) -> set[str]:
        """Renew every lease held; the games whose lease another process took."""

    async def orphans(self) -> list[str]:
        """Games whose lease has expired: their process died."""


class LocalLeases:
    """One process: every game's lease is its own."""

    def __init__(self) -> None:
        self.owner = "local"
        self.seconds = SECONDS

    async def take(self, game_id: str) -> bool:
        """Always."""
        return True

    async def give(self, game_id: str) -> None:
        """Nothing to give."""

    async def renew(self) -> set[str]:
        """Nothing is ever lost."""
        return set()

    async def orphans(self) -> list[str]:
        """Nothing is ever orphaned."""
        return []


class DatabaseLeases:
    """Leases in the `leases` table, held by this process (`owner`, random)."""

    def __init__(self, store: Store, seconds: float = SECONDS, clock: Clock = time.time) -> None:
        self.store = store
        self.seconds = seconds
        #: seconds since the epoch (every process's clock counts alike)
        self.clock = clock
        self.owner = secrets.token_hex(8)
        self.held: set[str] = set()

    async def take(self, game_id: str) -> bool:
        """Whether this process holds the game's lease: already, or taken now."""
        if game_id in self.held:
            return True
        taken = await asyncio.to_thread(self._take, game_id)
        if taken:
            self.held.add(game_id)
        return taken

    def _take(self, game_id: str) -> bool:
        moment = self.clock()
        dialect = self.store.engine.dialect.name
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        statement = insert(LeaseRow).values(
            game_id=game_id, owner=self.owner, expires=moment + self.seconds
        )
        statement = statement.on_conflict_do_update(
            index_elements=[LeaseRow.game_id],
            set_={"owner": statement.excluded.owner, "expires": statement.excluded.expires},
            where=or_(LeaseRow.owner == self.owner, LeaseRow.expires < moment),
        )
        with self.store.engine.begin() as connection:
            holder = connection.execute(statement.returning(LeaseRow.owner)).scalar()
        return holder == self.owner

    async def give(self, game_id: str) -> None:
        """Delete the game's lease if it is still this process's."""
        if game_id not in self.held:
            return
        self.held.discard(game_id)
        await asyncio.to_thread(self._give, game_id)

    def _give(self, game_id: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(
                delete(LeaseRow).where(LeaseRow.game_id == game_id, LeaseRow.owner == self.owner)
            )

    async def renew(self) -> set[str]:
        """Push back the expiry of every lease held; the games whose lease was lost."""
        if not self.held:
            return set()
        held = set(self.held)
        kept = await asyncio.to_thread(self._renew, held)
        lost = held - kept
        self.held -= lost
        return lost

    def _renew(self, held: set[str]) -> set[str]:
        with self.store.engine.begin() as connection:
            connection.execute(
                update(LeaseRow)
                .where(LeaseRow.owner == self.owner, LeaseRow.game_id.in_(held))
                .values(expires=self.clock() + self.seconds)
            )
            found = connection.execute(
                select(LeaseRow.game_id).where(
                    LeaseRow.owner == self.owner, LeaseRow.game_id.in_(held)
                )
            ).scalars()
            return set(found)

    async def orphans(self) -> list[str]:
        """Games whose lease expired (at most 100 at a time, the longest expired first)."""
        return await asyncio.to_thread(self._orphans)

    def _orphans(self) -> list[str]:
        with self.store.engine.connect() as connection:
            found = connection.execute(
                select(LeaseRow.game_id)
                .where(LeaseRow.expires < self.clock())
                .order_by(LeaseRow.expires)
                .limit(100)
            ).scalars()
            return list(found)


def make_leases(store: Store, seconds: float = SECONDS) -> Leases:
    """Leases in the database on PostgreSQL (several processes may share it), else local."""
    if store.engine.dialect.name == "postgresql":
        return DatabaseLeases(store, seconds)
    return LocalLeases()


__all__ = ["SECONDS", "DatabaseLeases", "Leases", "LocalLeases", "make_leases"]
