"""Bots playing their seats on the server.

When a bot's seat is to move, its room gets one task that asks the bot for a move in a
worker thread (a search may take seconds; the event loop keeps serving pages meanwhile),
waits a moment so people can follow, then plays the move through the room like any other:
checked by the engine, committed, then sent to every page. The task loops while bots are
to move and ends when a person is to move or the game is over.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

import cubegames
from cubegames.bots.base import Bot
from cubegames.core.errors import IllegalMove
from cubegames.core.game import Game
from cubegames.server.lease import Leases, LocalLeases
from cubegames.server.limits import Limits, check_bot
from cubegames.server.protocol import error
from cubegames.server.rooms import Refused, Room, Taken

log = logging.getLogger("cubegames.server")


def bot_seed(deal: int, seat: int) -> int:
    """The seed of the bot of `seat` in a game dealt from `deal`: a one-way hash of both
    (128 bits), so that a bot's own random choices, which the other seats watch, are not
    a function of the secret deal that could be run backwards (`deal + seat` was)."""
    digest = hashlib.blake2b(
        f"{deal}/{seat}".encode(), digest_size=16, person=b"cubegames-bot"
    ).digest()
    return int.from_bytes(digest, "big")


@functools.lru_cache(maxsize=32)
def _game(game_id: str, options: str) -> Game[Any]:
    """A game, made once per worker process for each game id and options (JSON)."""
    return cubegames.make(game_id, **json.loads(options))


def think(bot: Bot, game_id: str, options: str, position: dict[str, Any]) -> tuple[str, Bot]:
    """A bot's move, thought in a worker process: the position comes as its `to_dict` (a
    state need not pickle) and the bot comes back with it, its own random state moved on.
    The bot decides from the view of the seat to move alone, as everywhere."""
    state = _game(game_id, options).state_from_dict(position)
    move = bot.choose(state)
    return str(move), bot


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
        processes: Executor | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.executor = executor
        #: a pool of processes the bots think in (None: threads of `executor`, which
        #: share this process's interpreter lock with the event loop)
        self.processes = processes
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
                started = loop.time()
                try:
                    if self.processes is None:
                        move = await loop.run_in_executor(
                            self.executor, bots[seat].choose, snapshot
                        )
                    else:  # in another process: the bot goes there and comes back
                        text, bots[seat] = await loop.run_in_executor(
                            self.processes,
                            think,
                            bots[seat],
                            room.game.id,
                            json.dumps(room.game.options),
                            snapshot.to_dict(),
                        )
                        move = room.game.parse_move(text)
                        self.elsewhere += 1
                except Exception as exc:
                    log.exception("game %s: the bot of seat %d failed", room.id, seat)
                    await self._fail(room, f"the bot of seat {seat} failed: {exc}")
                    return
                rest = self.delay - (loop.time() - started)
                if rest > 0:
                    await asyncio.sleep(rest)
                async with room.lock:
                    if room.ply != ply or room.to_move != seat:
                        continue  # the game changed while the bot thought: think again
                    if room.paused():
                        return
                    trial = room.state.clone()
                    try:
                        trial.play(move, seat=seat)
                    except IllegalMove as exc:
                        await self._fail(room, f"the bot of seat {seat} tried {move}: {exc}")
                        return
                    try:
                        await room.commit(trial, seat, str(move))
                        self.played += 1
                    except Taken as exc:  # another server moved first: catch up, think again
                        if not await room.catch_up():
                            await self._fail(room, f"{exc}, but it cannot be read")
                            return
                        continue
                    except Refused as exc:
                        await self._fail(room, str(exc))
                        return
        finally:
            if self.tasks.get(room.id) is asyncio.current_task():
                del self.tasks[room.id]
                if self.on_idle is not None:
                    self.on_idle(room)

    async def _fail(self, room: Room, message: str) -> None:
        room.trouble = message
        await room.tell_all(error(message, "bot"))

    async def stop(self) -> None:
        """Cancel every bot task (a search already running in a thread finishes there
        and is thrown away)."""
        tasks = [t for t in self.tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self._giving, return_exceptions=True)
        self.tasks.clear()
