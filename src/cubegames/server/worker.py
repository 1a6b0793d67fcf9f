"""`cubegames bots work`: a worker that thinks the bots' moves of the servers on one
PostgreSQL database, on this machine or any other (`Worker`).

Run as many as you like, wherever the database can be reached; each takes bot turns from
the queue (`botqueue`): it claims the oldest turn nobody holds, rebuilds the position from
the stored moves (never trusting anything else), checks the turn still fits the game (the
same number of moves, the seat to move is that bot's), thinks in a pool of `jobs`
processes (`thinking.think`, at a lower priority), and writes the move back. The server
process holding the game's lease plays it through the room, checked by the engine like
any move, so each game keeps one writer. While it thinks, the worker renews its claims
every third of `claim_seconds`; a worker that dies renews nothing, and its turns go to
another worker once the claims expire.

The bot of a turn is made for that turn, seeded by a one-way hash of the game's secret
deal, the seat and the move number (`turn_seed`): the same position asks the same bot
for the same move on any worker, and the seed tells a watcher nothing of the deal.

A worker wakes on the bus's `turn` notifications and also looks every `poll` seconds (a
notification sent while it was reconnecting is made good).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import cubegames
from cubegames.bots.base import Bot
from cubegames.server import bots, thinking
from cubegames.server.botqueue import CLAIM_SECONDS, BotQueue, Turn
from cubegames.server.bus import Event, PostgresBus
from cubegames.server.limits import Clock, Limits, check_bot
from cubegames.server.rooms import RoomError, replay
from cubegames.server.storage import BOT, FINISHED, Store

log = logging.getLogger("cubegames.worker")

#: seconds between two looks at the queue when no notification came
POLL = 2.0

#: what a worker needs to think a turn: the bot, the game id, its options (JSON) and the
#: position (`to_dict`)
Work = tuple[Bot, str, str, dict[str, Any]]


def turn_seed(deal: int, seat: int, ply: int) -> int:
    """The seed of the bot that thinks `seat`'s move after move `ply` of the game dealt
    from `deal`: a one-way hash of the three (128 bits)."""
    digest = hashlib.blake2b(
        f"{deal}/{seat}/{ply}".encode(), digest_size=16, person=b"cubegames-turn"
    ).digest()
    return int.from_bytes(digest, "big")


class Worker:
    """Takes bot turns from the database, thinks them and answers (see the module)."""

    def __init__(
        self,
        store: Store,
        bus: PostgresBus | None = None,
        jobs: int = 1,
        limits: Limits | None = None,
        clock: Clock = time.time,
        claim_seconds: float = CLAIM_SECONDS,
        poll: float = POLL,
    ) -> None:
        self.store = store
        self.bus = bus
        self.queue = BotQueue(store, bus.notify if bus is not None else None)
        self.jobs = jobs
        self.limits = limits or Limits()
        #: seconds since the epoch (the claims' times; tests move a fake one)
        self.clock = clock
        self.claim_seconds = claim_seconds
        self.poll = poll
        #: this worker's name in the claims
        self.owner = secrets.token_hex(8)
        #: turns being thought, by token
        self.thinking: dict[str, Turn] = {}
        #: turns answered with a move
        self.answered = 0

    # -- one turn ---------------------------------------------------------------------------

    def prepare(self, turn: Turn) -> Work | str | None:
        """What to think for `turn`, read from the database: None if the turn no longer
        fits its game (it moved on, ended, or the seat is no longer that bot's), a
        sentence if the bot cannot play it (answered as the bot's failure)."""
        info = self.store.load(turn.game_id)
        if info is None or info.status == FINISHED or len(info.moves) != turn.ply:
            return None
        seats = {s.seat: s for s in info.seats}
        seat = seats.get(turn.seat)
        if seat is None or seat.kind != BOT or seat.bot != turn.bot:
            return None
        try:
            _game, state, _played = replay(info)
        except RoomError as exc:
            log.warning("game %s: %s", turn.game_id, exc)
            return exc.told
        if state.to_move != turn.seat:
            return None
        try:
            check_bot(turn.bot, info.game, self.limits)
            bot = cubegames.bot(turn.bot, seed=turn_seed(info.seed, turn.seat, turn.ply))
        except ValueError as exc:
            return f"the bot of seat {turn.seat} cannot play: {exc}"
        return bot, info.game, json.dumps(info.options), state.to_dict()

    def claim(self) -> Turn | None:
        """Claim the oldest turn nobody holds (None: there is none)."""
        turn = self.queue.claim(self.owner, self.clock(), self.claim_seconds)
        if turn is not None:
            self.thinking[turn.token] = turn
        return turn

    def finish(self, turn: Turn, move: str | None, failure: str | None = None) -> None:
        """Answer `turn` (a move, a failure, or neither: the turn no longer fits, and is
        dropped so that its server looks at the game again)."""
        self.thinking.pop(turn.token, None)
        if move is None and failure is None:
            self.queue.skip(turn)
            return
        if self.queue.answer(turn, move, failure) and move is not None:
            self.answered += 1

    def once(self) -> bool:
        """Claim one turn and think it here and now (no pool); False if there was none."""
        turn = self.claim()
        if turn is None:
            return False
        work = self.prepare(turn)
        if work is None or isinstance(work, str):
            self.finish(turn, None, work)
            return True
        try:
            move, _bot = thinking.think(*work)
        except Exception as exc:
            log.exception("game %s: the bot of seat %d failed", turn.game_id, turn.seat)
            # the exception's kind only: its words may name what the bot holds, and every
            # page of the game is told the failure
            self.finish(turn, None, type(exc).__name__)
            return True
        self.finish(turn, move)
        return True

    def renew(self) -> None:
        """Push back the claims of the turns being thought."""
        held = self.queue.renew(self.owner, set(self.thinking), self.clock(), self.claim_seconds)
        for token in set(self.thinking) - held:  # another worker took it: its answer counts
            log.warning("the claim of a turn of game %s expired", self.thinking[token].game_id)

    # -- running --------------------------------------------------------------------------

    async def _work(self, turn: Turn, pool: Executor) -> None:
        loop = asyncio.get_running_loop()
        work = await asyncio.to_thread(self.prepare, turn)
        if work is None or isinstance(work, str):
            await asyncio.to_thread(self.finish, turn, None, work)
            return
        try:
            move, _bot = await loop.run_in_executor(pool, thinking.think, *work)
        except BrokenProcessPool:  # a thinking process was killed: another worker may try
            log.warning("the pool of processes broke; the turn is given back")
            self.thinking.pop(turn.token, None)
            await asyncio.to_thread(self.queue.release, self.owner)
            raise
        except Exception as exc:
            log.exception("game %s: the bot of seat %d failed", turn.game_id, turn.seat)
            # the exception's kind only, as in `once`
            await asyncio.to_thread(self.finish, turn, None, type(exc).__name__)
            return
        await asyncio.to_thread(self.finish, turn, move)

    async def run(self, stopping: asyncio.Event) -> None:
        """Take, think and answer turns until `stopping` is set, up to `jobs` at once;
        on the way out, give back the turns not answered."""
        wake = asyncio.Event()

        def heard(events: list[Event]) -> None:
            if any(event.get("kind") == "turn" for event in events):
                wake.set()

        async def reconnected() -> None:
            wake.set()

        if self.bus is not None:
            self.bus.start(heard, reconnected)
        pool = bots.pool(self.jobs)
        working: set[asyncio.Task[None]] = set()
        renewed = time.monotonic()
        try:
            while not stopping.is_set():
                wake.clear()
                while len(working) < self.jobs:
                    turn = await asyncio.to_thread(self.claim)
                    if turn is None:
                        break
                    task = asyncio.create_task(self._work(turn, pool), name=turn.game_id)
                    working.add(task)
                waits = [asyncio.ensure_future(wake.wait()), asyncio.ensure_future(stopping.wait())]
                await asyncio.wait(
                    [*waits, *working],
                    timeout=min(self.poll, self.claim_seconds / 3),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                for waiting in waits:
                    waiting.cancel()
                for task in [t for t in working if t.done()]:
                    working.discard(task)
                    if isinstance(task.exception(), BrokenProcessPool):
                        broken, pool = pool, bots.pool(self.jobs, fresh=True)
                        await asyncio.to_thread(bots.let_go, broken)
                if time.monotonic() - renewed >= self.claim_seconds / 3:
                    renewed = time.monotonic()
                    await asyncio.to_thread(self.renew)
        finally:
            for task in working:
                task.cancel()
            await asyncio.gather(*working, return_exceptions=True)
            await asyncio.to_thread(bots.let_go, pool)  # its processes end with the worker
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.queue.release, self.owner)
            if self.bus is not None:
                self.bus.stop()


__all__ = ["POLL", "Worker", "turn_seed"]
