"""The hub: what one server process does for games beyond answering its own pages.

Several processes may serve one database (`cubegames serve --workers N` on PostgreSQL).
Each keeps the live games its pages use (`rooms.Rooms`), and the hub keeps them true to
the database and to each other:

- **news** (`hear`): another process saved a move or changed a seat, and the bus
  (`bus.Bus`) hands the event over. A move of a live room that nobody is using is played
  and told at once; anything else (a room being loaded or locked, moves missing between,
  a seat event) waits in a task of its own, behind the earlier news of the same game, so
  each game's news applies in order. When the bus lost its connection for a while, every
  live room reads what it missed (`catch_up_all`);
- **leases** (`tend_leases`, every `leases.seconds / 3` while started): a game's bots play
  only in the process holding its lease (`lease`); the hub renews this process's leases,
  stops the bots of a game whose lease another process took, and takes over (`adopt`) the
  games whose process died;
- **resumption** (`resume_bots`, once at start): the bots of unfinished games play on;
- **round pauses**: a process whose pages look at the end of a round tells the others
  (`pause`, then each seat's `ready`), so the next round waits everywhere, the game's
  bots included, wherever they run (`Room.heard_pause`, `Room.heard_ready`).

Its state is its own attributes (`held`, `stopping`, the background tasks); it is started
and stopped by the app's lifespan (`start`, `stop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from cubegames.server.bots import BotRunner
from cubegames.server.bus import Announcer, Bus, Event
from cubegames.server.lease import Leases
from cubegames.server.limits import Limits
from cubegames.server.referee import Referee
from cubegames.server.rooms import Full, Room, RoomError, Rooms, UndoAsk
from cubegames.server.storage import FINISHED, PLAYING, GameInfo, MoveInfo, Store, now

log = logging.getLogger("cubegames.server")

#: at start, the bots of up to this many of the latest unfinished games resume playing
RESUME_AT_START = 200


def move_in(event: Event) -> MoveInfo:
    """The move another process announced in a `move` event (KeyError, TypeError or
    ValueError if the event is not one)."""
    at = event.get("at")
    played = datetime.fromtimestamp(float(at), UTC) if at is not None else now()
    return MoveInfo(int(event["ply"]), int(event["seat"]), str(event["move"]), played)


def expired(info: GameInfo, limits: Limits, room: Room | None = None) -> bool:
    """Whether an unfinished game has had no move for `limits.expire_days` (abandoned)."""
    if room is not None:
        over, last = room.state.is_over, room.last_active
    else:
        over = info.status == FINISHED
        last = info.moves[-1].played_at if info.moves else info.created_at
    return not over and now() - last > timedelta(days=limits.expire_days)


class Hub:
    """One process's coordination of its live games with the database and the other
    processes (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        rooms: Rooms,
        runner: BotRunner,
        leases: Leases,
        limits: Limits,
        referee: Referee | None = None,
        announcer: Announcer | None = None,
    ) -> None:
        self.store = store
        #: tells the other processes of this process's round pauses (None: no others)
        self.announcer = announcer
        #: times games out (None: no clocks are checked, as in some tests)
        self.referee = referee
        self.rooms = rooms
        self.runner = runner
        self.leases = leases
        self.limits = limits
        #: news of games that had to wait (for a load, a busy room or moves to read), by
        #: game: later news of the same game waits behind it
        self.held: dict[str, asyncio.Task[None]] = {}
        #: set while the process stops: the background tasks end
        self.stopping = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        #: the other parts' news, by kind (`lobby`, `chat`...): each event of that kind
        #: is handed to its listener on the loop, at once
        self.listeners: dict[str, Callable[[Event], None]] = {}

    # -- start and stop ---------------------------------------------------------------

    def start(self, bus: Bus) -> None:
        """Listen to the bus, resume the bots of unfinished games, and tend the leases
        (call on the running loop)."""
        self.stopping.clear()
        bus.start(self.hear, self.catch_up_all)
        self._tasks = [
            asyncio.create_task(self.resume_bots(), name="resume bots"),
            asyncio.create_task(self.keep_leases(), name="keep leases"),
        ]
        if self.referee is not None:
            checking = self.referee.check_forever(self.limits.clock_check_seconds, self.stopping)
            self._tasks.append(asyncio.create_task(checking, name="check clocks"))

    async def stop(self) -> None:
        """End the background tasks (not cancelled: a database call in a thread would run
        on after the store closed)."""
        self.stopping.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        if self.announcer is not None:
            await asyncio.to_thread(self.announcer.close)

    async def give_back(self) -> None:
        """Give back the lease of every live game (the process is stopping): the other
        processes may take these games at once."""
        for room in list(self.rooms.rooms.values()):
            await self.leases.give(room.id)

    # -- news from other processes --------------------------------------------------------

    def hear(self, events: list[Event]) -> None:
        """Other processes saved moves or changed seats (one notification's events, in
        order, handed to the loop at once). A move of a live room that nobody is using is
        played and told here and now; anything else waits in a task of its own."""
        for event in events:
            listener = self.listeners.get(str(event.get("kind")))
            if listener is not None:  # news for another part (the lobby, the chat)
                try:
                    listener(event)
                except Exception:
                    log.exception("news from another process could not be taken in: %r", event)
                continue
            game_id = str(event.get("game"))
            kind = event.get("kind")
            if kind == "bot":  # a worker answered a bot's turn (`botqueue`)
                self.runner.answered(str(event.get("token")))
                continue
            if kind == "turn":  # a bot's turn for the workers: nothing for a server
                continue
            try:
                if game_id not in self.held and self.hear_at_once(game_id, event):
                    continue
            except Exception:  # one event's trouble must not lose the others
                log.exception("game %s: news from another process could not be taken in", game_id)
                continue
            task = asyncio.create_task(self.hear_later(event, self.held.get(game_id)))
            self.held[game_id] = task
            task.add_done_callback(functools.partial(self._forget, game_id))

    def _forget(self, game_id: str, done: asyncio.Task[None]) -> None:
        if self.held.get(game_id) is done:
            del self.held[game_id]

    def hear_at_once(self, game_id: str, event: Event) -> bool:
        """Apply a move's news if nothing needs waiting for; False if it must wait."""
        if event.get("kind") != "move" or self.rooms.loading(game_id):
            return False
        room = self.rooms.rooms.get(game_id)
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

    async def hear_later(self, event: Event, after: asyncio.Task[None] | None) -> None:
        """Apply news that must wait, after the game's news before it (`after`)."""
        if after is not None:
            await asyncio.wait([after])
        room = await self.rooms.live(str(event.get("game")))
        if room is None:
            return
        try:
            if event.get("kind") == "move":
                async with room.lock:
                    moved = await room.catch_up(move_in(event))
                if moved and room.on_move is not None:
                    room.on_move(room)
            elif event.get("kind") == "seat" and event.get("how") in ("claimed", "reissued"):
                name = event.get("name")
                await room.seat_changed(
                    int(event["seat"]), str(event["how"]), name if isinstance(name, str) else None
                )
            elif event.get("kind") == "seat" and event.get("how") == "zombie":
                async with room.lock:
                    room.hand_to_bot(int(event["seat"]), str(event["bot"]), int(event["from"]))
            elif event.get("kind") == "undo":
                info = await asyncio.to_thread(self.store.load, room.id)
                if info is not None:
                    async with room.lock:
                        # `catch_up` may have read this take-back already (a move of ours
                        # that followed no stored move): the pages have that state
                        known = len(room.info.takebacks) >= len(info.takebacks)
                        if not (known and room.ply == len(info.moves)):
                            room.rewind(info)
            elif event.get("kind") == "undo-ask":
                asking = UndoAsk(
                    int(event["seat"]),
                    int(event["first"]),
                    int(event["last"]),
                    frozenset(int(s) for s in event["waiting"]),
                    frozenset(),
                )
                async with room.lock:
                    room.asking = asking
                    room.tell_undo("asked", asking.seat)
            elif event.get("kind") == "undo-answer":
                async with room.lock:
                    if event.get("event") in ("declined", "withdrawn"):
                        room.asking = None
                        room.tell_undo(str(event["event"]), int(event["seat"]))
                    elif room.asking is not None:
                        agreed = frozenset(int(s) for s in event["agreed"])
                        room.asking = replace(room.asking, agreed=agreed)
                        room.tell_undo("agreed", int(event["seat"]))
            elif event.get("kind") == "pause":
                room.heard_pause(int(event["round"]), {int(seat) for seat in event["seats"]})
            elif event.get("kind") == "ready":
                room.heard_ready(int(event["round"]), int(event["seat"]))
            elif event.get("kind") == "ended" and isinstance(event.get("result"), dict):
                async with room.lock:
                    room.end(event["result"])
                self.runner.cancel(room.id)
        except (KeyError, TypeError, ValueError, RoomError) as exc:
            log.warning("game %s: an event from another process did not apply: %s", room.id, exc)
        except Exception:  # the database away for a moment: the game's next news reads again
            log.exception("game %s: news from another process could not be taken in", room.id)

    async def settled(self) -> None:
        """Wait until every held news has been applied."""
        while self.held:
            await asyncio.wait(list(self.held.values()))

    async def catch_up_all(self) -> None:
        """The bus lost its connection for a moment: have every live room catch up, and
        every request to the bots' workers look for its answer."""
        self.runner.recheck()
        for room in list(self.rooms.rooms.values()):
            async with room.lock:
                with contextlib.suppress(RoomError):
                    await room.catch_up()

    # -- leases ---------------------------------------------------------------------------

    async def keep_leases(self) -> None:
        """`tend_leases` every `leases.seconds / 3` until the hub stops."""
        while not self.stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), self.leases.seconds / 3)
            if self.stopping.is_set():
                return
            try:
                await self.tend_leases()
            except Exception:  # the database may be away for a moment: try again later
                log.exception("the bot leases could not be renewed")

    async def tend_leases(self) -> None:
        """Renew this process's bot leases, stop the bots of the games whose lease
        another process took, and take over the games of processes that died."""
        for game_id in await self.leases.renew():
            self.runner.cancel(game_id)
        if self.referee is not None:
            await self.referee.presence.renew()
        for game_id in await self.leases.orphans():
            await self.adopt(game_id)

    async def adopt(self, game_id: str) -> None:
        """Let the bots of a game whose process died play on here."""
        if not await self.leases.take(game_id):
            return  # another process was quicker
        try:
            room = await self.rooms.get(game_id)
        except (RoomError, Full) as exc:
            log.warning("game %s is not taken over: %s", game_id, exc)
            room = None
        if room is None:
            await self.leases.give(game_id)
            return
        async with room.lock:
            await room.catch_up()
        if not expired(room.info, self.limits, room):
            self.runner.wake(room)
        if not self.runner.busy(room):
            await self.leases.give(game_id)
        self.rooms.release(room, self.runner.busy(room))

    # -- resumption -----------------------------------------------------------------------

    async def play_unwatched(self, game_id: str) -> None:
        """Let the bots of a game among bots, just made, play it out whether or not a page
        opens it (a page opening a game wakes its bots; a game with no person in it had
        none to wait for). Rooms all taken: it plays when it is opened, or at the next
        start."""
        await self._wake_bots(game_id, "does not start yet")

    async def resume_bots(self) -> None:
        """After a (re)start, let the bots of unfinished games play on, watched or not: a
        game among bots finishes, and a bot to move in a game with people has its move
        ready when they come back."""
        playing = await asyncio.to_thread(self.store.summaries, PLAYING, RESUME_AT_START)
        for summary in playing:
            if self.stopping.is_set():
                return
            if any(seat.kind == "bot" for seat in summary.seats):
                await self._wake_bots(summary.id, "is not resumed")

    async def _wake_bots(self, game_id: str, not_now: str) -> None:
        """Open a stored game's room and let its bots move, unless it cannot be opened,
        is in trouble or was abandoned (logged: "game X `not_now`: why")."""
        try:
            room = await self.rooms.get(game_id)
        except (RoomError, Full) as exc:
            log.warning("game %s %s: %s", game_id, not_now, exc)
            return
        if room is None:
            return
        if room.trouble is not None or expired(room.info, self.limits):
            log.warning("game %s %s: %s", game_id, not_now, room.trouble or "abandoned")
            self.rooms.release(room, busy=False)
            return
        self.runner.wake(room)
        self.rooms.release(room, self.runner.busy(room))


__all__ = ["RESUME_AT_START", "Hub", "expired", "move_in"]
