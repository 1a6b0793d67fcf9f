"""Group commit: the moves of every game are written by one thread, many to a transaction.

A move is acknowledged (its page told, its bot woken) only once the transaction that holds
it has committed, so every acknowledged move survives a crash. Committing one move at a
time costs a disk sync per move; here the moves that arrive while one batch is being
synced wait for the next, so under load each sync carries many moves (of many games) and
an idle server still writes a lone move at once.

A batch that fails (a move number another server took first, a game deleted meanwhile) is
written again one move per transaction, so one bad move never costs the others theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy.engine import Connection

from cubegames.server.storage import NewMove, Store

log = logging.getLogger("cubegames.server")

#: the most moves in one transaction
MAX_BATCH = 512

#: called inside each batch's transaction with its moves, just before the commit
Announce = Callable[[Connection, Sequence[NewMove]], None]


@dataclass
class _Pending:
    move: NewMove
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


def _settle(done: asyncio.Future[None], failure: BaseException | None) -> None:
    if done.cancelled():
        return
    if failure is None:
        done.set_result(None)
    else:
        done.set_exception(failure)


class Writer:
    """The one thread that writes moves to `store`; `announce` (the bus) runs in each
    batch's transaction. `batches` and `written` count what it did."""

    def __init__(self, store: Store, announce: Announce | None = None) -> None:
        self.store = store
        self.announce = announce
        self.batches = 0
        self.written = 0
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    async def write(self, move: NewMove) -> None:
        """Return once `move` is committed; raise what the database raised if it could
        not be (IntegrityError: its move number is taken)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self._starting:  # started on first use (again after `close`)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="cubegames-writer", daemon=True
                )
                self._thread.start()
            self._queue.put(_Pending(move, loop, done))
        await done

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        with self._starting:
            thread = self._thread
            if thread is not None and thread.is_alive():
                self._queue.put(None)
                thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Pending]) -> None:
        outcomes: list[BaseException | None]
        try:
            self._store([p.move for p in batch])
            outcomes = [None] * len(batch)
        except Exception as exc:
            if len(batch) == 1:
                outcomes = [exc]
            else:  # find the bad move(s): each on its own
                outcomes = []
                for pending in batch:
                    try:
                        self._store([pending.move])
                        outcomes.append(None)
                    except Exception as single:
                        outcomes.append(single)
        self.batches += 1
        self.written += sum(o is None for o in outcomes)
        for pending, outcome in zip(batch, outcomes, strict=True):
            # a closed event loop (RuntimeError) has nobody waiting any more
            with contextlib.suppress(RuntimeError):
                pending.loop.call_soon_threadsafe(_settle, pending.done, outcome)

    def _store(self, moves: list[NewMove]) -> None:
        announce = self.announce
        during = None if announce is None else (lambda connection: announce(connection, moves))
        self.store.add_moves(moves, during)


__all__ = ["MAX_BATCH", "Announce", "Writer"]
