"""Bots playing their seats on the server.

When a bot's seat is to move, its room gets one task that asks the bot for a move, waits a
moment so people can follow, then plays the move through the room like any other: checked
by the engine, committed, then sent to every page. The task loops while bots are to move
and ends when a person is to move or the game is over.

Where a bot thinks:

- a search (every bot but `random`, which answers in microseconds) thinks in a **pool of
  processes** (`pool`, one per server process, sized by `pool_size`: one fewer than the
  machine's cores, at least one), at a lower scheduling priority than the web process
  (`nice` +10): a search never holds the web process's interpreter lock, and on a machine
  with no spare core the system still runs a person's move before a bot's search;
  as many searches at once as it has processes, a game with a person first (`Slots`);
- `random` thinks on a thread of the web process (a process hop would cost more than it);
- with `Limits.bot_processes = 0`, every bot thinks on a thread (a search then holds the
  interpreter lock, and a person's move waits behind it);
- with workers (`cubegames bots work`, PostgreSQL; `create_app(bot_workers=True)`), the
  turn is written to the database's queue and a worker on any machine thinks it
  (`worker`); the move comes back to this process, which plays it as its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
import itertools
import json
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import cubegames
from cubegames.bots.base import Bot
from cubegames.core.errors import IllegalMove
from cubegames.core.game import Move, State
from cubegames.core.phrase import Phrase, Seat
from cubegames.server.botqueue import BotQueue, Turn, new_token
from cubegames.server.lease import Leases, LocalLeases
from cubegames.server.limits import Clock, Limits, check_bot
from cubegames.server.protocol import error
from cubegames.server.rooms import Refused, Room, Taken
from cubegames.server.storage import HUMAN
from cubegames.server.thinking import lower_priority, think

log = logging.getLogger("cubegames.server")


def bot_seed(deal: int, seat: int) -> int:
    """The seed of the bot of `seat` in a game dealt from `deal`: a one-way hash of both
    (128 bits), so that a bot's own random choices, which the other seats watch, are not
    a function of the secret deal that could be run backwards (`deal + seat` was)."""
    digest = hashlib.blake2b(
        f"{deal}/{seat}".encode(), digest_size=16, person=b"cubegames-bot"
    ).digest()
    return int.from_bytes(digest, "big")


#: seconds between two looks at a request to the workers whose answer was not heard of
POLL = 5.0


class BotFailed(Exception):
    """A worker's bot could not move; `str()` says why."""


#: bots that answer at once, thought on a thread of the web process (a hop to another
#: process and back would cost more than their move)
QUICK = frozenset({"random"})


def pool_size(setting: int, workers: int = 1, cores: int | None = None) -> int:
    """Processes for the bots of one server process: `setting` (`Limits.bot_processes`)
    if it is 0 or more, else one fewer than the machine's `cores` shared by the `workers`
    server processes, at least one (a machine with no spare core still thinks apart from
    the web process, at a lower priority).

    >>> pool_size(3), pool_size(-1, cores=8), pool_size(-1, workers=2, cores=8)
    (3, 7, 3)
    >>> pool_size(-1, cores=1), pool_size(0)
    (1, 0)
    """
    if setting >= 0:
        return setting
    return max(1, ((cores if cores is not None else os.cpu_count() or 1) - 1) // workers)


_pools: dict[int, ProcessPoolExecutor] = {}
#: how many runners hold each pool (`pool`, `let_go`), by the pool's id
_holders: dict[int, int] = {}


def pool(size: int, fresh: bool = False) -> ProcessPoolExecutor:
    """This process's pool of `size` processes for the bots (made on first use, shared by
    every app of the process; its processes start as they are first needed), held for
    the caller until it lets it go (`let_go`). `fresh`: a new one, when the last broke
    (one of its processes was killed)."""
    made = _pools.get(size)
    if made is None or fresh:
        # spawned, not forked: a fork of a process running threads may inherit held locks
        made = ProcessPoolExecutor(
            max_workers=size,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=lower_priority,
        )
        _pools[size] = made
    _holders[id(made)] = _holders.get(id(made), 0) + 1
    return made


def let_go(held: ProcessPoolExecutor) -> None:
    """The caller no longer uses `held` (`pool`'s); the last to let a pool go shuts it
    down, waiting for its processes to end. A server stopped by SIGTERM must do so before
    it exits: uvicorn raises the signal again once the app has shut down, which ends the
    process before `concurrent.futures`' own clean-up at exit, and the pool's processes
    (and multiprocessing's resource tracker) lived on as orphans."""
    left = _holders.get(id(held), 0) - 1
    if left > 0:
        _holders[id(held)] = left
        return
    _holders.pop(id(held), None)
    for size, made in list(_pools.items()):
        if made is held:
            del _pools[size]
    held.shutdown(wait=True, cancel_futures=True)


class Slots:
    """At most `size` searches in the pool at once (`take`, then `give`). A search waiting
    for a slot of a game where a person plays goes before every search of games among
    bots, then first come, first served: a crowd of bot games never keeps a person
    waiting for their bot opponent's move longer than the searches already running."""

    def __init__(self, size: int) -> None:
        self.free = size
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    async def take(self, person: bool) -> None:
        """Wait for a slot (`person`: the game has a person in it)."""
        if self.free > 0 and not self._waiting:
            self.free -= 1
            return
        handed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if person else 1, next(self._order), handed))
        try:
            await handed
        except asyncio.CancelledError:
            if handed.done() and not handed.cancelled():  # handed a slot as it was cancelled
                self.give()
            raise

    def give(self) -> None:
        """A search is over: its slot goes to the first waiting search, if any."""
        while self._waiting:
            _, _, handed = heapq.heappop(self._waiting)
            if not handed.done():  # a search cancelled while it waited is skipped
                handed.set_result(None)
                return
        self.free += 1


def searches(spec: str) -> bool:
    """Whether the bot `spec` thinks long enough to be sent to another process."""
    return spec.partition(":")[0].strip() not in QUICK


class BotRunner:
    """Runs the bot seats of every room; `delay` is the least time a bot move takes, in
    seconds, so a person sees one move after the other."""

    def __init__(
        self,
        executor: Executor,
        delay: float,
        on_idle: Callable[[Room], None] | None = None,
        limits: Limits | None = None,
        leases: Leases | None = None,
        pool_size: int = 0,
        queue: BotQueue | None = None,
        wall: Clock = time.time,
        poll: float = POLL,
    ) -> None:
        self.limits = limits or Limits()
        self.executor = executor
        #: the pool of processes the searches think in (`pool`; None, with `pool_size`
        #: 0: threads of `executor`, which share this process's interpreter lock with
        #: the event loop)
        self.pool_size = pool_size
        #: made at the first search (a server that never runs one starts no processes),
        #: let go by `stop`
        self.processes: ProcessPoolExecutor | None = None
        #: the pool's processes, handed to games with a person first (`Slots`)
        self.slots = Slots(max(1, pool_size))
        #: the database's queue of bot turns, when `cubegames bots work` workers think
        #: for this server (None: the bots think here)
        self.queue = queue
        #: requests waiting for a worker's answer, by token (set by `answered`)
        self.answers: dict[str, asyncio.Future[None]] = {}
        #: seconds since the epoch (a turn's time in the queue)
        self.wall = wall
        #: seconds between two looks at a request's row (its notification may be lost)
        self.poll = poll
        self.delay = delay
        self.on_idle = on_idle
        #: a game's bots play only in the process holding its lease (`lease`)
        self.leases: Leases = leases or LocalLeases()
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.bots: dict[str, dict[int, Bot]] = {}
        #: bot moves this runner saved
        self.played = 0
        #: bot moves thought in the pool of processes
        self.elsewhere = 0
        self._giving: set[asyncio.Task[None]] = set()

    def attach(self, room: Room) -> None:
        """Make the room's bots and have the room wake the runner after each move. A bot
        the server would not accept today (a stored or loaded game from before a limit, or
        one that does not play the game) is not made: the room says why, and its game
        waits instead of hanging the server."""
        bots: dict[int, Bot] = {}
        for seat in room.seats:
            if seat.kind != "bot" or seat.bot is None:
                continue
            try:
                check_bot(seat.bot, room.game.id, self.limits)
                bots[seat.seat] = cubegames.bot(seat.bot, seed=bot_seed(room.info.seed, seat.seat))
            except ValueError as exc:
                room.trouble = f"the bot of seat {seat.seat} cannot play: {exc}"
                room.trouble_say = Phrase(
                    "trouble-bot-cannot-play", {"who": Seat(seat.seat)}, room.trouble
                ).said()
        self.bots[room.id] = bots
        room.on_move = self.wake
        room.on_seats = self.attach  # a seat handed to the bot: make its bot

    def busy(self, room: Room) -> bool:
        """Whether a bot of this room is thinking or about to move."""
        task = self.tasks.get(room.id)
        return task is not None and not task.done()

    def wake(self, room: Room) -> None:
        """Start the room's bot task if a bot is to move and none is running."""
        seat = room.to_move
        if seat is None or seat not in self.bots.get(room.id, {}) or self.busy(room):
            return
        if room.pause is not None:  # the end of a round is looked at: the room wakes us after
            return
        self.tasks[room.id] = asyncio.create_task(self._run(room), name=f"bots {room.id}")

    def detach(self, room: Room) -> None:
        """The room left this process's memory: forget its bots, give its lease back."""
        self.bots.pop(room.id, None)
        giving = asyncio.create_task(self.leases.give(room.id), name=f"give {room.id}")
        self._giving.add(giving)
        giving.add_done_callback(self._giving.discard)

    def cancel(self, game_id: str) -> None:
        """Stop a game's bots here (its lease went to another process)."""
        task = self.tasks.get(game_id)
        if task is not None and not task.done():
            task.cancel()

    async def _run(self, room: Room) -> None:
        loop = asyncio.get_running_loop()
        bots = self.bots.get(room.id, {})
        try:
            if not await self.leases.take(room.id):
                return  # another process runs this game's bots
            while True:
                async with room.lock:
                    seat = room.to_move
                    bots = self.bots.get(room.id, {})  # made again when a seat is handed over
                    if seat is None or seat not in bots or room.paused():
                        return
                    snapshot = room.state.clone()
                    ply = room.ply
                    changes = room.changes
                started = loop.time()
                try:
                    if self.queue is not None:
                        move = await self._ask_workers(room, seat, ply)
                        if move is None:
                            continue  # the request was dropped: look at the game again
                    else:
                        move = await self._think(room, seat, bots, snapshot)
                except Exception as exc:
                    log.exception("game %s: the bot of seat %d failed", room.id, seat)
                    # an exception's words may name what the bot holds: the pages are told
                    # its kind only (a worker's failure is worded for them already)
                    why = str(exc) if isinstance(exc, BotFailed) else type(exc).__name__
                    await self._fail(
                        room,
                        Phrase("trouble-bot-failed", {"who": Seat(seat)}),
                        f"the bot of seat {seat} failed: {why}",
                    )
                    return
                rest = self.delay - (loop.time() - started)
                if rest > 0:
                    await asyncio.sleep(rest)
                async with room.lock:
                    if room.changes != changes or room.to_move != seat:
                        # the game changed while the bot thought (a move, or a take-back
                        # and another move back to the same ply): think again
                        continue
                    if room.paused():
                        return
                    trial = room.state.clone()
                    try:
                        trial.play(move, seat=seat)
                    except IllegalMove as exc:
                        # the move and the rules' reason would show the bot's hand to
                        # every page: they go to the log only
                        log.error(
                            "game %s: the bot of seat %d tried %s: %s", room.id, seat, move, exc
                        )
                        await self._fail(
                            room,
                            Phrase("trouble-bot-refused", {"who": Seat(seat)}),
                            f"the bot of seat {seat} chose a move the rules refuse",
                        )
                        return
                    try:
                        await room.commit(trial, seat, str(move))
                        self.played += 1
                    except Taken as exc:  # another server moved first: catch up, think again
                        if not await room.catch_up():
                            lost = Phrase("trouble-bot-lost", {"who": Seat(seat)})
                            await self._fail(room, lost, f"{exc}, but it cannot be read")
                            return
                        continue
                    except Refused as exc:
                        lost = Phrase("trouble-bot-lost", {"who": Seat(seat)})
                        await self._fail(room, lost, str(exc))
                        return
        finally:
            if self.tasks.get(room.id) is asyncio.current_task():
                del self.tasks[room.id]
                if self.on_idle is not None:
                    self.on_idle(room)

    async def _think(
        self, room: Room, seat: int, bots: dict[int, Bot], snapshot: State[Any]
    ) -> Move:
        """The move of `seat`'s bot in `snapshot`: thought in the pool of processes (a
        search) or on a thread (`random`, or with no pool)."""
        loop = asyncio.get_running_loop()
        spec = room.seats[seat].bot or ""
        if self.pool_size == 0 or self.queue is not None or not searches(spec):
            chosen: Move = await loop.run_in_executor(self.executor, bots[seat].choose, snapshot)
            return chosen
        for attempt in (1, 2):
            if self.processes is None:
                self.processes = pool(self.pool_size)
            await self.slots.take(any(s.kind == HUMAN for s in room.seats))
            try:  # in another process: the bot goes there and comes back
                text, bots[seat] = await loop.run_in_executor(
                    self.processes,
                    think,
                    bots[seat],
                    room.game.id,
                    json.dumps(room.game.options),
                    snapshot.to_dict(),
                )
            except BrokenProcessPool:  # a pool process was killed: a new pool, once
                if attempt == 2:
                    raise
                log.warning("the bots' pool of processes broke; starting a new one")
                broken, self.processes = self.processes, pool(self.pool_size, fresh=True)
                await asyncio.to_thread(let_go, broken)
                continue
            finally:
                self.slots.give()
            self.elsewhere += 1
            parsed: Move = room.game.parse_move(text)
            return parsed
        raise AssertionError("unreachable")

    async def _ask_workers(self, room: Room, seat: int, ply: int) -> Move | None:
        """The move of `seat`'s bot after move `ply`, thought by a `cubegames bots work`
        worker (`botqueue`); None if the request was dropped (a worker found the game
        moved on) or replaced. BotFailed if the worker's bot failed."""
        assert self.queue is not None
        queue = self.queue
        loop = asyncio.get_running_loop()
        person = any(s.kind == HUMAN for s in room.seats)
        turn = Turn(room.id, new_token(), ply, seat, room.seats[seat].bot or "", person)
        heard = loop.create_future()
        self.answers[turn.token] = heard
        try:
            await asyncio.to_thread(queue.post, turn, self.wall())
            while True:
                # the worker's notification wakes this; a poll makes good a lost one
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(heard), self.poll)
                answer = await asyncio.to_thread(queue.answer_of, room.id, turn.token)
                if answer is None:
                    return None
                if answer.failure is not None:
                    raise BotFailed(answer.failure)
                if answer.move is not None:
                    self.elsewhere += 1
                    parsed: Move = room.game.parse_move(answer.move)
                    return parsed
                if heard.done():
                    heard = loop.create_future()
                    self.answers[turn.token] = heard
        finally:
            self.answers.pop(turn.token, None)
            dropping = asyncio.create_task(
                asyncio.to_thread(queue.drop, room.id, turn.token), name=f"drop {room.id}"
            )
            self._giving.add(dropping)
            dropping.add_done_callback(self._giving.discard)

    def answered(self, token: str) -> None:
        """A worker answered request `token` (the bus's `bot` event): its task reads it."""
        heard = self.answers.get(token)
        if heard is not None and not heard.done():
            heard.set_result(None)

    def recheck(self) -> None:
        """Have every request waiting for a worker read its answer (the bus was away: a
        notification may have been missed)."""
        for token in list(self.answers):
            self.answered(token)

    async def _fail(self, room: Room, trouble: Phrase, message: str) -> None:
        """The room's bot cannot play on: every page is told, in `message` (English, for
        programs) and as `trouble` (a phrase of the catalogs, for the page to word)."""
        room.trouble = message
        room.trouble_say = trouble.said()
        await room.tell_all(error(message, "bot"))

    async def stop(self) -> None:
        """Cancel every bot task (a search already running in a thread finishes there
        and is thrown away)."""
        tasks = [t for t in self.tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self._giving, return_exceptions=True)
        self.tasks.clear()
        if self.processes is not None:
            held, self.processes = self.processes, None
            await asyncio.to_thread(let_go, held)
