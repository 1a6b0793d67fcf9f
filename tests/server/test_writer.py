"""Group commit: moves of many games arriving while one batch is written go together in
the next transaction; a move whose number is taken fails alone."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from cubegames.server.storage import HUMAN, NewMove, NewSeat, Store
from cubegames.server.writer import Writer
from tests.server.helpers import BOTH


class SlowDisk(Store):
    """A store whose transactions take 50 ms each (a slow sync), counting them."""

    transactions = 0

    def add_moves_on(
        self,
        connection: Connection,
        moves: Sequence[NewMove],
        during: Callable[[Connection], None] | None = None,
    ) -> None:
        self.transactions += 1
        time.sleep(0.05)
        super().add_moves_on(connection, moves, during)

    def add_moves_at_once(
        self, driver: Any, moves: Sequence[NewMove], news: tuple[str, str] | None = None
    ) -> None:
        self.transactions += 1
        time.sleep(0.05)
        super().add_moves_at_once(driver, moves, news)


@pytest.mark.anyio
@BOTH
async def test_moves_arriving_together_share_transactions_and_a_taken_one_fails_alone(
    db_url: str,
) -> None:
    store = SlowDisk(db_url)
    games = [store.create("cubes", {}, i, [NewSeat(HUMAN), NewSeat(HUMAN)])[0] for i in range(20)]
    writer = Writer(store)
    moves = [NewMove(g, ply, (ply - 1) % 2, "roll") for ply in (1, 2, 3) for g in games]
    taken = NewMove(games[0], 1, 0, "stop")  # move 1 of game 0 is in the batch already

    async def write_all() -> list[BaseException | None]:
        return await asyncio.gather(
            *(writer.write(m) for m in [*moves, taken]), return_exceptions=True
        )

    try:
        outcomes = await write_all()
    finally:
        writer.close()
    assert outcomes[:-1] == [None] * len(moves)
    assert isinstance(outcomes[-1], IntegrityError)
    for game in games:
        info = store.load(game)
        assert info is not None and [m.move for m in info.moves] == ["roll"] * 3
    # 61 moves: a first batch, then the rest together; that batch fails on the taken move
    # and is written again one move at a time
    assert writer.written == len(moves) and writer.batches <= 3
    store.close()


@pytest.mark.anyio
@BOTH
async def test_a_batch_with_a_taken_move_keeps_nothing_and_the_writer_stores_the_rest(
    db_url: str,
) -> None:
    store = Store(db_url)
    games = [store.create("cubes", {}, i, [NewSeat(HUMAN), NewSeat(HUMAN)])[0] for i in range(6)]
    store.add_move(games[2], 1, 0, "roll", None)  # another server was quicker
    batch = [
        *(NewMove(g, 1, 0, "stop" if g == games[2] else "roll") for g in games),
        *(NewMove(g, 2, 1, "roll") for g in games),
    ]
    with pytest.raises(IntegrityError):
        store.add_moves(batch)
    stored = {g: [m.move for m in info.moves] for g in games if (info := store.load(g))}
    assert stored == {g: ["roll"] if g == games[2] else [] for g in games}

    writer = Writer(store)

    async def write_all() -> list[BaseException | None]:
        return await asyncio.gather(*(writer.write(m) for m in batch), return_exceptions=True)

    try:
        outcomes = await write_all()
    finally:
        writer.close()
    assert [type(o) for o in outcomes] == [
        IntegrityError if m == batch[2] else type(None) for m in batch
    ]
    stored = {g: [m.move for m in info.moves] for g in games if (info := store.load(g))}
    assert stored == {g: ["roll", "roll"] for g in games}
    assert writer.written == len(batch) - 1
    store.close()


@pytest.mark.anyio
@BOTH
async def test_a_closed_writer_starts_again_on_the_next_move(db_url: str) -> None:
    store = Store(db_url)
    game, _ = store.create("cubes", {}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])
    writer = Writer(store)
    await writer.write(NewMove(game, 1, 0, "roll"))
    writer.close()
    await writer.write(NewMove(game, 2, 1, "roll"))
    writer.close()
    info = store.load(game)
    assert info is not None and len(info.moves) == 2
    with pytest.raises(IntegrityError):
        await writer.write(NewMove(game, 2, 1, "roll"))
    writer.close()
    store.close()


@pytest.mark.anyio
async def test_closing_as_the_first_write_starts_the_checkpoints_does_not_wait_on_it(
    tmp_path: Path,
) -> None:
    """`close` joins the threads holding the lock that starts them; a thread whose first
    write was just then starting the checkpoints took the same lock, and each waited for
    the other until the join gave up after 30 s (a server stopped right after a first move)."""
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    game, _ = store.create("cubes", {}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])
    engine, connecting, go = store.engine, threading.Event(), threading.Event()

    class HeldConnect:  # the writer thread's first connect waits until `close` runs
        def __getattr__(self, name: str) -> Any:
            return getattr(engine, name)

        def connect(self) -> Connection:
            connecting.set()
            go.wait(timeout=60)
            return engine.connect()

    store.engine = HeldConnect()  # type: ignore[assignment]
    writer = Writer(store)
    written = asyncio.ensure_future(writer.write(NewMove(game, 1, 0, "roll")))
    assert await asyncio.to_thread(connecting.wait, 60)
    closing_holds_the_lock = threading.Event()
    plain = writer._starting

    class Noted:  # tells when `close` has taken the lock
        def __enter__(self) -> None:
            plain.acquire()
            closing_holds_the_lock.set()

        def __exit__(self, *exc: object) -> None:
            plain.release()

    writer._starting = Noted()  # type: ignore[assignment]
    closing = threading.Thread(target=writer.close)
    closing.start()
    assert await asyncio.to_thread(closing_holds_the_lock.wait, 60)
    go.set()
    await asyncio.to_thread(closing.join, 20)
    assert not closing.is_alive(), "close waited on the thread that waited on close"
    await written  # the move was written before the thread stopped
    store.engine = engine
    info = store.load(game)
    assert info is not None and len(info.moves) == 1
    store.close()


@pytest.mark.anyio
async def test_sqlite_checkpoints_are_the_checkpoint_threads_not_a_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite the writer's commits never copy the log back into the database (that
    stalled whole batches); a thread of its own does, and once the writer is closed every
    frame of the log is in the database."""
    used: list[Connection] = []  # the writer thread's own connection, as it commits
    plain = Store.add_moves_on

    def noted(self: Store, connection: Connection, *args: Any, **kwargs: Any) -> None:
        used.append(connection)
        plain(self, connection, *args, **kwargs)

    monkeypatch.setattr(Store, "add_moves_on", noted)
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    games = [store.create("cubes", {}, i, [NewSeat(HUMAN), NewSeat(HUMAN)])[0] for i in range(30)]
    writer = Writer(store)

    async def write_all() -> None:
        for ply in range(1, 4):
            await asyncio.gather(
                *(writer.write(NewMove(g, ply, (ply - 1) % 2, "roll")) for g in games)
            )

    await write_all()
    assert used and all(c is used[0] for c in used)  # one connection, kept
    connection = used[0]
    assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    checkpoints = writer._checkpoints
    assert checkpoints is not None
    writer.close()
    assert checkpoints.done >= 1 and writer._checkpoints is None
    with store.engine.connect() as fresh:
        busy, frames, copied = fresh.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
    assert busy == 0 and frames == copied  # nothing was left in the log to copy
    info = store.load(games[-1])
    assert info is not None and len(info.moves) == 3
    store.close()


@pytest.mark.anyio
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_on_postgresql_a_batch_need_not_wait_for_the_one_before_it_to_be_synced(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two writer threads on PostgreSQL: a batch of one game is saved while the batch of
    another is still in the database (each statement here waits until the other has
    begun: with one thread only, the first would wait for ever); both are kept."""
    store = Store(db_url)
    games = [store.create("cubes", {}, i, [NewSeat(HUMAN), NewSeat(HUMAN)])[0] for i in range(2)]
    both = threading.Barrier(2, timeout=10)
    plain = Store.add_moves_at_once

    def meeting(self: Store, driver: Any, moves: Sequence[NewMove], news: Any = None) -> None:
        both.wait()  # BrokenBarrierError unless two statements are under way at once
        plain(self, driver, moves, news)

    monkeypatch.setattr(Store, "add_moves_at_once", meeting)
    writer = Writer(store)

    async def two_games() -> None:
        first = asyncio.ensure_future(writer.write(NewMove(games[0], 1, 0, "roll")))
        await asyncio.sleep(0.2)  # the first batch is waiting in the database
        await writer.write(NewMove(games[1], 1, 0, "roll"))
        await first

    try:
        await two_games()
    finally:
        writer.close()
    for game in games:
        info = store.load(game)
        assert info is not None and [m.move for m in info.moves] == ["roll"]
    store.close()


@pytest.mark.anyio
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_on_postgresql_moves_written_one_at_a_time_are_saved_announced_and_checked(
    db_url: str,
) -> None:
    """The writer's usual batch, a single move, goes by a statement of its own (no
    arrays): it is saved and announced in one transaction; a taken move number fails and
    announces nothing; a single move that ends its game also marks the game finished."""
    from cubegames.server.bus import PostgresBus

    store = Store(db_url)
    bus = PostgresBus(store)
    game = store.create("cubes", {}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])[0]
    writer = Writer(store, news=bus.news)
    raw = store.engine.raw_connection()
    ear: Any = raw.driver_connection
    ear.autocommit = True
    ear.execute(f'LISTEN "{bus.channel}"')
    result = {"scores": [3.0, 1.0], "winners": [0]}

    async def one_at_a_time() -> BaseException | None:
        await writer.write(NewMove(game, 1, 0, "roll"))
        await writer.write(NewMove(game, 2, 1, "roll"))
        taken = await asyncio.gather(
            writer.write(NewMove(game, 2, 0, "stop")), return_exceptions=True
        )
        await writer.write(NewMove(game, 3, 0, "stop", result))
        return taken[0]

    try:
        taken = await one_at_a_time()
        heard = [n.payload for n in ear.notifies(timeout=2, stop_after=3)]
    finally:
        writer.close()
        raw.close()
    assert isinstance(taken, IntegrityError)
    info = store.load(game)
    assert info is not None
    assert [(m.ply, m.seat, m.move) for m in info.moves] == [
        (1, 0, "roll"),
        (2, 1, "roll"),
        (3, 0, "stop"),
    ]
    assert info.status == "finished" and info.result == result
    announced = [event for payload in heard for event in json.loads(payload.partition(" ")[2])]
    assert [(e["ply"], e["move"]) for e in announced] == [(1, "roll"), (2, "roll"), (3, "stop")]
    store.close()
