"""The bus between server processes on PostgreSQL (LISTEN/NOTIFY): a batch of moves goes
out as few notifications as fit PostgreSQL's payload limit and arrives whole and in order;
a process drops its own notifications unparsed; garbage on the channel is ignored.

Each `PostgresBus` here stands for a process: its own name, its own listening connection.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import event, text

from cubegames.server import bus as bus_module
from cubegames.server.bus import PAYLOAD_LIMIT, Event, PostgresBus
from cubegames.server.storage import MOVE_LENGTH, NewMove, Store

#: a character JSON escapes as a surrogate pair: 12 bytes, the most any character takes
WIDEST = "\U0010ffff"


@pytest.fixture
def backend() -> str:
    """Every test here runs on PostgreSQL (skipped, saying why, where there is none)."""
    return "postgresql"


#: the last event a test sends: PostgreSQL delivers a channel's notifications in commit
#: order, so once it is heard, everything sent before it has been heard too (no waiting
#: "long enough" to see that nothing more comes)
END = {"kind": "seat", "game": "end-of-test", "seat": 0, "how": "claimed"}


class Ear:
    """What a listening bus handed to its event loop, and how often it listened again."""

    def __init__(self) -> None:
        self.heard: list[Event] = []
        self.reconnects = 0
        self._news = asyncio.Event()

    def deliver(self, events: list[Event]) -> None:
        self.heard.extend(events)
        self._news.set()

    async def on_reconnect(self) -> None:
        self.reconnects += 1

    async def until(self, done: Callable[[], bool], timeout: float = 10) -> None:
        """Wait for deliveries until `done()` (TimeoutError after `timeout` seconds)."""
        async with asyncio.timeout(timeout):
            while not done():
                self._news.clear()
                await self._news.wait()

    async def end(self, sender: PostgresBus) -> None:
        """Have `sender` (not this ear's own bus) publish `END`, and wait for it."""
        await asyncio.to_thread(sender.publish, END)
        await self.until(lambda: END in self.heard)


@pytest.fixture
def notified(store: Store) -> Iterator[list[list[str]]]:
    """The payloads of each `pg_notify` statement run on `store`'s engine."""
    statements: list[list[str]] = []

    def note(_c: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        if "pg_notify" in statement:
            statements.append(parameters["payloads"].split("\n"))

    event.listen(store.engine, "before_cursor_execute", note)
    yield statements
    event.remove(store.engine, "before_cursor_execute", note)


def _event(move: NewMove) -> Event:
    return {
        "kind": "move",
        "game": move.game_id,
        "ply": move.ply,
        "seat": move.seat,
        "move": move.move,
    }


@pytest.mark.anyio
async def test_a_big_batch_reaches_another_process_whole_and_in_order_in_a_few_notifications(
    store: Store, notified: list[list[str]]
) -> None:
    sender, listener = PostgresBus(store), PostgresBus(store)
    moves = [NewMove(f"game{i % 7}", i // 7 + 1, i % 2, f"move {i} é") for i in range(600)]
    # the largest event there can be: the longest move and game id, every character the
    # widest JSON makes
    moves.insert(300, NewMove(WIDEST * 24, 2**31 - 1, 1, WIDEST * MOVE_LENGTH))
    seat = {"kind": "seat", "game": "game3", "seat": 1, "how": "claimed"}
    expected = [*map(_event, moves), seat]
    sent, heard_by_sender = Ear(), Ear()
    elsewhere = Store(store.url)  # the end is not counted among the sender's notifications
    closer = PostgresBus(elsewhere)
    listener.start(sent.deliver, sent.on_reconnect)
    sender.start(heard_by_sender.deliver, heard_by_sender.on_reconnect)
    try:
        with store.engine.begin() as connection:
            sender.announce(connection, moves)
        await asyncio.to_thread(sender.publish, seat)
        await sent.end(closer)
        await heard_by_sender.until(lambda: END in heard_by_sender.heard)
    finally:
        listener.stop()
        sender.stop()
        elsewhere.close()
    assert sent.heard == [*expected, END]  # each event once, in order
    assert heard_by_sender.heard == [END]  # none of its own
    assert sent.reconnects == 0
    batch, published = notified
    assert len(batch) >= 5 and len(published) == 1  # about 40 KB of moves: one statement
    for payload in [*batch, published[0]]:
        assert len(payload.encode("utf-8")) < PAYLOAD_LIMIT
        origin, _, body = payload.partition(" ")
        assert origin == sender.origin and isinstance(json.loads(body), list)
    # the payloads are filled: only the last of the batch has room for the next event
    sizes = [len(p) for p in batch]
    assert min(sizes[:-1]) > PAYLOAD_LIMIT - 3000


def test_the_largest_event_fits_a_notification_alone(store: Store) -> None:
    bus = PostgresBus(store)
    largest = _event(NewMove(WIDEST * 24, 2**31 - 1, 1, WIDEST * MOVE_LENGTH))
    (payload,) = bus.payloads([largest])
    assert 12 * MOVE_LENGTH < len(payload.encode("utf-8")) < PAYLOAD_LIMIT
    with pytest.raises(ValueError, match="too long to notify"):
        bus.payloads([{**largest, "move": WIDEST * (PAYLOAD_LIMIT // 12)}])
    assert bus.payloads([]) == []


@pytest.mark.anyio
async def test_a_process_drops_its_own_notifications_without_parsing_them(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    own, other = PostgresBus(store), PostgresBus(store)
    parsed: list[str] = []

    def loads(body: str) -> Any:
        if threading.current_thread().name == "cubegames-bus":
            parsed.append(body)
        return json.loads(body)

    monkeypatch.setattr(bus_module, "json", SimpleNamespace(loads=loads))
    ear = Ear()
    mine = {"kind": "seat", "game": "g", "seat": 0, "how": "reissued"}
    theirs = {"kind": "seat", "game": "g", "seat": 1, "how": "claimed"}

    own.start(ear.deliver, ear.on_reconnect)
    try:
        with store.engine.begin() as connection:
            own.announce(connection, [NewMove("g", 1, 0, "roll")])
        await asyncio.to_thread(own.publish, mine)
        await asyncio.to_thread(other.publish, theirs)
        await ear.end(other)
    finally:
        own.stop()
    assert ear.heard == [theirs, END]
    assert len(parsed) == 2  # the other process's notifications only


@pytest.mark.anyio
async def test_garbage_on_the_channel_is_ignored_and_the_listener_hears_on(store: Store) -> None:
    """Another program may notify on the channel: whatever it sends is dropped, and the
    listener neither stops nor reconnects."""
    listener, sender = PostgresBus(store), PostgresBus(store)
    garbage = [
        "",
        " ",
        "garbage",
        f"{sender.origin}",  # a name and nothing else
        "x {",
        'x {"kind": "move", "game": "g", "ply": 1, "seat": 0, "move": "roll"}',  # not a list
        "x [1, 2]",
        'x [{"kind": "seat"}, 3]',  # not a list of objects only
        'x "text"',
        "x null",
        "x " + "[" * 5000,  # too deep for Python's parser
        "x \\ud800",
    ]
    good = {"kind": "seat", "game": "g", "seat": 1, "how": "claimed"}
    ear = Ear()

    listener.start(ear.deliver, ear.on_reconnect)
    try:
        with store.engine.begin() as connection:
            for payload in garbage:
                connection.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": listener.channel, "payload": payload},
                )
        await asyncio.to_thread(sender.publish, good)
        await ear.end(sender)
    finally:
        listener.stop()
    assert ear.heard == [good, END]
    assert ear.reconnects == 0


@pytest.mark.anyio
async def test_the_writer_saves_ends_and_announces_a_batch_in_one_statement_or_not_at_all(
    store: Store,
) -> None:
    """On PostgreSQL the group-commit writer saves a batch, marks the games it ends and
    sends its news in one autocommit statement: all of it, in order, or (a move number
    taken) none of it: no move kept, no game ended, nothing heard."""
    from sqlalchemy.exc import IntegrityError

    from cubegames.server.storage import FINISHED, HUMAN, NewSeat
    from cubegames.server.writer import Writer

    games = [store.create("cubes", {}, i, [NewSeat(HUMAN), NewSeat(HUMAN)])[0] for i in range(3)]
    sender, listener = PostgresBus(store), PostgresBus(store)
    ended = {"winners": [1], "scores": [0, 5]}
    batch = [NewMove(g, 1, 0, "roll") for g in games]
    batch.append(NewMove(games[1], 2, 1, "stop", ended))
    bad = [NewMove(games[0], 2, 1, "roll"), NewMove(games[2], 2, 1, "stop", ended)]
    sent = Ear()
    outcomes: list[BaseException | None] = []

    listener.start(sent.deliver, sent.on_reconnect)
    writer = Writer(store, sender.news)
    try:
        await asyncio.gather(*(writer.write(m) for m in batch))  # queued together
        store.add_move(games[2], 2, 1, "roll", None)  # another process saved game 2's move 2
        for move in bad:
            try:
                await writer.write(move)
                outcomes.append(None)
            except IntegrityError as exc:
                outcomes.append(exc)
        await sent.end(sender)
    finally:
        writer.close()
        listener.stop()
    assert sent.heard[: len(batch)] == [_event(m) for m in batch]
    assert outcomes[0] is None and isinstance(outcomes[1], IntegrityError)
    assert sent.heard[len(batch) :] == [_event(bad[0]), END]  # the refused move was not told
    info = {g: store.load(g) for g in games}
    assert [m.move for m in info[games[0]].moves] == ["roll", "roll"]  # type: ignore[union-attr]
    assert [m.move for m in info[games[2]].moves] == ["roll", "roll"]  # type: ignore[union-attr]
    assert info[games[1]].status == FINISHED and info[games[1]].result == ended  # type: ignore[union-attr]
    assert info[games[2]].status != FINISHED  # type: ignore[union-attr]
