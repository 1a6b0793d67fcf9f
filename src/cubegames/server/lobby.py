"""The lobby: the public tables with a free seat, listed live to every page watching it.

A table is public when its host said so at creation (`CreateGame.public`); it is open (in
the lobby) while it is in play and one of its seats waits for a person (an invitation not
yet claimed), and anyone may take such a seat with one click (`Store.join`). Private
tables, the default, are reached by their invitation links only, as before.

Each process keeps the list (at most `MAX_TABLES`, oldest first) with a version number, and
tells its watchers (`/ws/lobby`) of a change as a patch: a page is sent the whole list once
(`{"type": "lobby", "version": v, "tables": [...]}`), then for each change only what
changed (`{"type": "lobby-patch", "version": v + 1, "removed": [ids], "changed": [tables],
"added": [{"at": index, "table": table}]}`, `lobby_patch`, applied by `apply_patch` and by
the page's static/lobbylist.js). A page whose version is not the one before a patch's
asks for the list again (`{"type": "sync"}`). Each change is encoded once, and built
once into a websocket frame that is written to every watcher's connection as it is
(`frames`: no ASGI send, framing or compression per watcher, where the server offers
it). The list is read again from the database when a table opens or fills here, when
another process says so through the bus (`{"kind": "lobby"}`), and every `REFRESH`
seconds while anyone watches (a table that ended or timed out leaves the list so).
Reads are coalesced: a burst of changes costs one or two reads, and a list that did not
change sends nothing.

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
from cubegames.server.frames import frame
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


def lobby_patch(
    old: list[dict[str, Any]], new: list[dict[str, Any]]
) -> dict[str, list[Any]] | None:
    """What turns the list `old` into `new` (`apply_patch(old, patch) == new`): the ids of
    the tables that left, the tables that stay but changed (whole), and the tables that
    came with their index in `new`. None if the tables in both lists are not in the same
    order in both (the list is then sent whole).

    >>> a, b, c = {"id": "a"}, {"id": "b"}, {"id": "c", "free": 1}
    >>> lobby_patch([a, b], [b, {"id": "c", "free": 1}, {"id": "d"}])
    {'removed': ['a'], 'changed': [], 'added': [{'at': 1, 'table': {'id': 'c', 'free': 1}}, \
{'at': 2, 'table': {'id': 'd'}}]}
    >>> lobby_patch([a, b], [b, a]) is None
    True
    """
    before = {table["id"]: table for table in old}
    after = {table["id"] for table in new}
    staying_old = [table["id"] for table in old if table["id"] in after]
    staying_new = [table["id"] for table in new if table["id"] in before]
    if staying_old != staying_new or len(before) != len(old) or len(after) != len(new):
        return None
    return {
        "removed": [table["id"] for table in old if table["id"] not in after],
        "changed": [t for t in new if t["id"] in before and t != before[t["id"]]],
        "added": [{"at": i, "table": t} for i, t in enumerate(new) if t["id"] not in before],
    }


def apply_patch(tables: list[dict[str, Any]], patch: dict[str, Any]) -> list[dict[str, Any]]:
    """The list `tables` after `patch` (a `lobby-patch` message or `lobby_patch`'s answer),
    as the page applies it: the removed tables go, the changed ones are replaced where they
    stand, the added ones go in at their indices, lowest first. ValueError if the patch
    does not fit the list (a page then asks for the whole list)."""
    removed = set(patch["removed"])
    held = {table["id"] for table in tables}
    if not removed <= held or any(t["id"] not in held for t in patch["changed"]):
        raise ValueError("the patch does not fit this list")
    changed = {table["id"]: table for table in patch["changed"]}
    out = [changed.get(t["id"], t) for t in tables if t["id"] not in removed]
    for added in sorted(patch["added"], key=lambda a: int(a["at"])):
        if added["table"]["id"] in held - removed or not 0 <= added["at"] <= len(out):
            raise ValueError("the patch does not fit this list")
        out.insert(added["at"], added["table"])
    return out


class Lobby:
    """The open public tables, and the pages watching them (see the module)."""

    def __init__(self, store: Store, bus: Bus, refresh: float = REFRESH) -> None:
        self.store = store
        self.bus = bus
        self.refresh_seconds = refresh
        self.watchers: set[Peer] = set()
        #: the list as last read (its entries), its version (one more at each change) and
        #: its JSON text as a whole list (made when a page asks for it)
        self.tables: list[dict[str, Any]] = []
        self.version = 0
        self._snapshot: str | None = None
        self._read_once = False
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

    def _entries(self) -> list[dict[str, Any]]:
        """The open public tables as the lobby lists them, read in one go (in a worker
        thread: one hop off the event loop, not two)."""
        found = self.store.summaries(PLAYING, MAX_TABLES, public=True, open_seats=True)
        return [self.entry(t) for t in reversed(found)]

    async def read(self) -> None:
        """Read the list again; if it changed, send every watcher the patch."""
        tables = await asyncio.to_thread(self._entries)
        self._read_once = True
        self.update(tables)

    def update(self, tables: list[dict[str, Any]]) -> None:
        """The list is now `tables`: if that is a change, a new version, and its patch (or
        the whole list, when the tables that stay changed order) encoded once and sent to
        every watcher."""
        patch = lobby_patch(self.tables, tables)
        if patch is not None and not (patch["removed"] or patch["changed"] or patch["added"]):
            return
        self.tables = tables
        self.version += 1
        self._snapshot = None
        if patch is None:
            text = self.snapshot()
        else:
            text = encode({"type": "lobby-patch", "version": self.version, **patch})
        built = frame(text)
        for peer in list(self.watchers):
            if not peer.post_frame(built, text):
                self.watchers.discard(peer)

    def snapshot(self) -> str:
        """The whole list as a page is sent it first (and when it asks again), as text."""
        if self._snapshot is None:
            self._snapshot = encode(
                {"type": "lobby", "version": self.version, "tables": self.tables}
            )
        return self._snapshot

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
        if not self._read_once:
            await self.read()
        self.watchers.add(peer)
        peer.post(self.snapshot())
        if self._ticking is None or self._ticking.done():
            self._ticking = asyncio.create_task(self._tick(), name="lobby refresh")

    def sync(self, peer: Peer) -> None:
        """A page asks for the whole list again (it missed a patch)."""
        peer.post(self.snapshot())

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


__all__ = [
    "MAX_TABLES",
    "REFRESH",
    "Lobby",
    "QuickPlay",
    "apply_patch",
    "lobby_patch",
    "same_settings",
]
