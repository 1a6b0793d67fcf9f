"""Group commit: the moves of every game are written by one thread, many to a transaction.

A move is acknowledged (its page told, its bot woken) only once the transaction that holds
it has committed, so every acknowledged move survives a crash. Committing one move at a
time costs a disk sync per move; here the moves that arrive while one batch is being
synced wait for the next, so under load each sync carries many moves (of many games) and
an idle server still writes a lone move at once.

A batch that fails (a move number another server took first, a game deleted meanwhile) is
written again one move per transaction, so one bad move never costs the others theirs.

On SQLite the write-ahead log is copied back into the database file (a checkpoint) by a
thread of its own, about once a second, instead of by the commit that happens to fill the
log: that copy and its disk sync would otherwise sit inside one batch's commit, which every
move of the batch waits for (benchmarks/README.md, "Online play under load", has the
figures). A passive checkpoint never blocks the writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from cubegames.server.storage import NewMove, Store

log = logging.getLogger("cubegames.server")

#: the most moves in one transaction
MAX_BATCH = 512
#: writer threads on PostgreSQL, each with its own connection: while one batch waits for
#: the database's sync, the next is already on its way (SQLite has one writer at a time)
PG_LANES = 2
#: seconds between SQLite checkpoints (when moves were written meanwhile)
CHECKPOINT_EVERY = 1.0

#: PostgreSQL: what announces a batch's moves in the statement that saves them (`bus.Bus.news`)
News = Callable[[Sequence[NewMove]], "tuple[str, str] | None"]


@dataclass
class _Pending:
    move: NewMove
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


def _settle_all(done: list[tuple[_Pending, BaseException | None]]) -> None:
    """Settle a batch's moves on their event loop, in the batch's order."""
    for pending, failure in done:
        if pending.done.cancelled():
            continue
        if failure is None:
            pending.done.set_result(None)
        else:
            pending.done.set_exception(failure)


class Writer:
    """The thread that writes moves to `store`, a batch a transaction. On PostgreSQL a
    batch is saved, the games it ends marked and its `news` (the bus's, if given: the
    other processes' only way to hear of the moves) sent by one statement on a psycopg
    connection of the thread's own in autocommit mode (`Store.add_moves_at_once`): one
    round trip and little Python a batch; and `PG_LANES` threads take batches from the one
    queue, so a batch need not wait for the one before it to be synced. A game's moves
    still go one at a time (a room holds its lock until its move is committed), so they
    cannot pass each other. `batches` and `written` count what it did."""

    def __init__(self, store: Store, news: News | None = None) -> None:
        self.store = store
        self.news = news
        self.batches = 0
        self.written = 0
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        #: whether the threads run (a write checks this flag, not each thread, under no lock)
        self._running = False
        self._starting = threading.Lock()
        #: guards `_checkpoints`, apart from `_starting`: `close` joins the threads holding
        #: `_starting`, and a thread's first write starts the checkpoints
        self._checkpointing = threading.Lock()
        self._counting = threading.Lock()
        #: each thread's own connections, kept from one transaction to the next: the
        #: SQLAlchemy one (`connection`), and on PostgreSQL a psycopg one (`driver`)
        self._own = threading.local()
        self._checkpoints: Checkpoints | None = None

    @property
    def _connection(self) -> Connection | None:
        found: Connection | None = getattr(self._own, "connection", None)
        return found

    @_connection.setter
    def _connection(self, value: Connection | None) -> None:
        self._own.connection = value

    @property
    def _driver(self) -> Any:
        return getattr(self._own, "driver", None)

    @_driver.setter
    def _driver(self, value: Any) -> None:
        self._own.driver = value

    async def write(self, move: NewMove) -> None:
        """Return once `move` is committed; raise what the database raised if it could
        not be (IntegrityError: its move number is taken)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self._starting:  # started on first use (again after `close`)
            if not self._running:
                self._start()
            self._queue.put(_Pending(move, loop, done))
        await done

    def _start(self) -> None:
        """Start the threads if none runs (call with `_starting` held)."""
        if not any(thread.is_alive() for thread in self._threads):
            lanes = PG_LANES if self.store.engine.dialect.name == "postgresql" else 1
            self._threads = [
                threading.Thread(target=self._run, name="cubegames-writer", daemon=True)
                for _ in range(lanes)
            ]
            for thread in self._threads:
                thread.start()
        self._running = True

    def close(self) -> None:
        """Write what is queued, then stop the threads (and the checkpoints)."""
        with self._starting:
            running = [thread for thread in self._threads if thread.is_alive()]
            for _ in running:
                self._queue.put(None)  # one for each thread
            for thread in running:
                thread.join(timeout=30)
            self._running = False
            with self._checkpointing:
                if self._checkpoints is not None:
                    self._checkpoints.close()
                    self._checkpoints = None

    def _run(self) -> None:
        try:
            self._loop()
        finally:
            self._running = False  # the next write looks again (and starts what is gone)
            self._let_go()

    def _loop(self) -> None:
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
        with self._counting:
            self.batches += 1
            self.written += sum(o is None for o in outcomes)
        # one wake-up of each waiting event loop for the whole batch, not one a move
        settled: dict[asyncio.AbstractEventLoop, list[tuple[_Pending, BaseException | None]]]
        settled = {}
        for pending, outcome in zip(batch, outcomes, strict=True):
            settled.setdefault(pending.loop, []).append((pending, outcome))
        for loop, done in settled.items():
            # a closed event loop (RuntimeError) has nobody waiting any more
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle_all, done)

    def _store(self, moves: list[NewMove]) -> None:
        if self.store.engine.dialect.name == "postgresql":
            self._store_at_once(moves)
            return
        if self._connection is None:
            self._connection = self.store.engine.connect()
            if self._connection.dialect.name == "sqlite" and self.store.engine.url.database:
                # the checkpoints are the other thread's (see the module's docstring)
                self._connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
                self._connection.commit()
                with self._checkpointing:  # not `_starting`: `close` holds it, joining us
                    if self._checkpoints is None:
                        self._checkpoints = Checkpoints(self.store)
        try:
            self.store.add_moves_on(self._connection, moves)
            if self._checkpoints is not None:
                self._checkpoints.wanted.set()
        except Exception as exc:
            if not isinstance(exc, IntegrityError):
                self._let_go()  # it may be broken (the server went away): a new one next
            raise

    def _store_at_once(self, moves: list[NewMove]) -> None:
        if self._driver is None:
            raw = self.store.engine.raw_connection()
            try:
                driver: Any = raw.driver_connection
                raw.detach()  # the writer's alone, closed by `_let_go`, never pooled
                driver.autocommit = True  # a statement is its own transaction
            except Exception:
                raw.close()
                raise
            self._driver = driver.cursor()  # one cursor for every statement
        try:
            news = None if self.news is None else self.news(moves)
            self.store.add_moves_at_once(self._driver, moves, news)
        except Exception as exc:
            if not isinstance(exc, IntegrityError):
                self._let_go()  # it may be broken (the server went away): a new one next
            raise

    def _let_go(self) -> None:
        """Close the writer's connections (the SQLAlchemy one back to the engine's pool)."""
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None
        if self._driver is not None:
            with contextlib.suppress(Exception):
                self._driver.connection.close()
            self._driver = None


class Checkpoints:
    """A thread that checkpoints a SQLite database's log (`PRAGMA wal_checkpoint(PASSIVE)`)
    at most every `CHECKPOINT_EVERY` seconds while moves are being written."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.done = 0
        self.wanted = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cubegames-checkpoint", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Checkpoint once more if moves came since the last, then stop."""
        self._stop.set()
        self.wanted.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            self.wanted.wait()
            self.wanted.clear()
            self._checkpoint()
            if self._stop.wait(CHECKPOINT_EVERY):
                if self.wanted.is_set():
                    self._checkpoint()
                return

    def _checkpoint(self) -> None:
        try:
            with self.store.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
                connection.commit()
            self.done += 1
        except Exception:  # the next one will try again; a commit never waits on it
            log.exception("checkpointing the database's log failed")


__all__ = ["CHECKPOINT_EVERY", "MAX_BATCH", "PG_LANES", "Checkpoints", "News", "Writer"]
