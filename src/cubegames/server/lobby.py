"""The lobby: the public tables with a free seat, listed live to every page watching it.

A table is public when its host said so at creation (`CreateGame.public`); it is open (in
the lobby) while it is in play and one of its seats waits for a person (an invitation not
yet claimed), and anyone may take such a seat with one click (`Store.join`). Private
tables, the default, are reached by their invitation links only, as before.

Each process keeps the list as one message (`{"type": "lobby", "tables": [...]}`, at most
`MAX_TABLES`, oldest first) and sends it whole to its watchers (`/ws/lobby`) whenever it
changes: it is read again from the database when a table opens or fills here, when another
process says so through the bus (`{"kind": "lobby"}`), and every `REFRESH` seconds while
anyone watches (a table that ended or timed out leaves the list so). Reads are coalesced: a
burst of changes costs one or two reads, and a list that did not change is not sent.

Ratings are another part's (accounts): `rating_of` gives the host's rating for a table
(None: none shown), and `fits` says whether a waiting table suits a quick-play request
(the hook for a rating window: by default every table with the same settings fits).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cubegames.server.bus import Bus
from cubegames.server.clocks import TimeControl
from cubegames.server.protocol import encode
from cubegames.server.rooms import Peer
from cubegames.server.storage import PLAYING, GameSummary, Store, iso

log = logging.getLogger("cubegames.server")

#: the most tables the lobby lists (the oldest waiting first)
MAX_TABLES = 100
#: seconds between two reads of the list while anyone watches
REFRESH = 5.0


@dataclass(frozen=True)
class QuickPlay:
    """A quick-play request: a game, its options (players among them) and a time control,
    and who asks (their name; `rating`, when the accounts part knows it)."""

    game: str
    options: dict[str, Any]
    time_control: dict[str, Any] | None
    name: str | None = None
    rating: float | None = None


def same_settings(table: GameSummary, asked: QuickPlay) -> bool:
    """Whether a table is the game, options and time control a quick-play request asks for."""
    control = TimeControl.from_json(table.time_control).to_json()
    wanted = TimeControl.from_json(asked.time_control).to_json()
    return table.game == asked.game and table.options == asked.options and control == wanted


class Lobby:
    """The open public tables, and the pages watching them (see the module)."""

    def __init__(self, store: Store, bus: Bus, refresh: float = REFRESH) -> None:
        self.store = store
        self.bus = bus
        self.refresh_seconds = refresh
        self.watchers: set[Peer] = set()
        #: the list as last read (its entries), and as sent (JSON text)
        self.tables: list[dict[str, Any]] = []
        self.text: str | None = None
        #: the host's rating of a table, for the list (None: not shown): `ratings.host_rating`
        #: (read in a thread with the list)
        self.rating_of: Callable[[GameSummary], Any] = lambda _table: None
        #: whether a table is rated
        self.rated: Callable[[GameSummary], bool] = lambda table: table.rated
        #: whether a waiting table suits a quick-play request beyond its settings (the
        #: hook for a rating window: by default every one does)
        self.fits: Callable[[GameSummary, QuickPlay], bool] = lambda _table, _asked: True
        self._again = False
        self._reading: asyncio.Task[None] | None = None
        self._ticking: asyncio.Task[None] | None = None

    # -- the list -------------------------------------------------------------------------

    def entry(self, table: GameSummary) -> dict[str, Any]:
        """A table as the lobby lists it."""
        host = table.host_seat
        return {
            "id": table.id,
            "game": table.game,
            "options": table.options,
            "players": len(table.seats),
            "free": sum(1 for s in table.seats if s.invited),
            "seats": [
                {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "free": s.invited}
                for s in table.seats
            ],
            "clock": TimeControl.from_json(table.time_control).to_json(),
            "rated": self.rated(table),
            "host": None
            if host is None or host >= len(table.seats)
            else {"seat": host, "name": table.seats[host].name},
            "host_rating": self.rating_of(table),
            "deal_picked": table.deal_picked,
            "created": iso(table.created_at),
        }

    async def open_tables(self) -> list[GameSummary]:
        """The open public tables, the oldest first."""
        found = await asyncio.to_thread(
            self.store.summaries, PLAYING, MAX_TABLES, public=True, open_seats=True
        )
        return list(reversed(found))

    async def read(self) -> None:
        """Read the list again; send it to every watcher if it changed."""
        found = await self.open_tables()
        tables = await asyncio.to_thread(lambda: [self.entry(t) for t in found])
        text = encode({"type": "lobby", "tables": tables})
        self.tables = tables
        if text == self.text:
            return
        self.text = text
        for peer in list(self.watchers):
            if not peer.post(text):
                self.watchers.discard(peer)

    def changed(self, tell_others: bool = True) -> None:
        """A table opened, filled or closed: read the list again soon (reads asked for
        meanwhile are one read), and tell the other processes (`tell_others`)."""
        self._again = True
        if self._reading is None or self._reading.done():
            self._reading = asyncio.create_task(self._read_while_asked(), name="lobby read")
        if tell_others:
            asyncio.get_running_loop().run_in_executor(None, self._publish)

    def _publish(self) -> None:
        try:
            self.bus.publish({"kind": "lobby"})
        except Exception:
            log.exception("the lobby's change could not be told to the other processes")

    def hear(self, _event: dict[str, Any]) -> None:
        """Another process changed a table: read the list again."""
        self.changed(tell_others=False)

    async def _read_while_asked(self) -> None:
        while self._again:
            self._again = False
            try:
                await self.read()
            except Exception:  # the database away for a moment: the next change reads again
                log.exception("the lobby could not be read")

    # -- its watchers ---------------------------------------------------------------------

    async def watch(self, peer: Peer) -> None:
        """A page watches the lobby: it is sent the list now and whenever it changes."""
        if self.text is None:
            await self.read()
        self.watchers.add(peer)
        assert self.text is not None
        peer.post(self.text)
        if self._ticking is None or self._ticking.done():
            self._ticking = asyncio.create_task(self._tick(), name="lobby refresh")

    def leave(self, peer: Peer) -> None:
        """A page stopped watching."""
        peer.close()
        self.watchers.discard(peer)

    async def _tick(self) -> None:
        """Read the list every `refresh_seconds` while anyone watches (tables that ended
        leave it)."""
        while self.watchers:
            await asyncio.sleep(self.refresh_seconds)
            if self.watchers:
                self.changed(tell_others=False)

    async def stop(self) -> None:
        """Stop reading (the app is stopping)."""
        for task in (self._ticking, self._reading):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


__all__ = ["MAX_TABLES", "REFRESH", "Lobby", "QuickPlay", "same_settings"]
