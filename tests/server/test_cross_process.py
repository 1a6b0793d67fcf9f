"""Claims against a gone player and take-back requests between people, with their pages
on two server processes over one PostgreSQL database (as `serve --workers 2`): presence
is asked of every process (`presence`), a request's answers are counted in the database
(`undoasks`) and told on the bus. The server's clock is a fake one: no test sleeps."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import select

from cubegames.server.app import create_app
from cubegames.server.clocks import TimeControl
from cubegames.server.limits import Limits
from cubegames.server.presence import FORGET, DatabasePresence
from cubegames.server.storage import NewSeat, PresenceRow, Store
from tests.server.helpers import HUMAN, FakeClock, Socket, TestClient, connect, make_game, token

LIMITS = Limits(clock_check_seconds=3600.0)
GRACE = TimeControl.realtime(3, 2).grace()


@pytest.fixture
def backend() -> str:
    return "postgresql"


@pytest.fixture
def two(db_url: str, clock: FakeClock) -> Iterator[tuple[TestClient, TestClient]]:
    """Two server processes' apps on one database, on one clock."""
    apps = [create_app(db_url, bot_delay=0, limits=LIMITS, now=clock) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as other:
        yield one, other


def _timed(client: TestClient) -> dict[str, Any]:
    response = client.post(
        "/api/games",
        json={
            "game": "unstackable",
            "seats": [HUMAN, HUMAN],
            "seed": 7,
            "clock": {"kind": "realtime", "preset": "3+2"},
        },
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def _play(pages: dict[int, Socket], state: dict[str, Any], until_seat: int) -> dict[str, Any]:
    """Play first legal moves until `until_seat` is to move (each page follows)."""
    while state["to_move"] != until_seat or state["ply"] < 2:
        seat, ply = state["to_move"], state["ply"]
        held = pages[seat].held
        assert held is not None
        pages[seat].move(held["legal"][0], ply)
        for page in pages.values():
            state = page.state(ply + 1)
    return state


def _settled(client: TestClient) -> None:
    """Every presence change the app noted is written, and its rows renewed (as its hub
    does every few seconds of the real clock, which the fake one outruns)."""
    presence = client.app.state.server.referee.presence  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(presence.flush)
    client.portal.call(presence.renew)


def _no_page_of(client: TestClient, game_id: str, seat: int) -> bool:
    """Whether the app has no page of `seat` open (its room may be gone with them)."""
    room = client.app.state.server.rooms.rooms.get(game_id)  # type: ignore[attr-defined]
    return room is None or not any(p.seat == seat for p in room.peers)


def _until(test: Any, what: str) -> None:
    """Wait for the app's own loop to do what the test cannot see (a page's close)."""
    deadline = time.monotonic() + 15
    while not test():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


def test_a_player_on_another_process_is_not_gone_and_one_gone_everywhere_is(
    two: tuple[TestClient, TestClient], clock: FakeClock
) -> None:
    """Seat 0's page is on the first process, seat 1's on the second. Past the grace,
    seat 1 cannot claim against seat 0 while its page is open there (the second process
    has never seen it); once it closes and the grace passes, the claim wins; a return
    before the claim (on the first process again) stops it."""
    one, other = two
    made = _timed(one)
    with connect(other, made["id"], token(made, 1)) as claimant:
        pages = {1: Socket(claimant)}
        with connect(one, made["id"], token(made, 0)) as absent:
            pages[0] = Socket(absent)
            state = pages[0].opening()[1]
            pages[1].opening()
            _play(pages, state, until_seat=0)  # seat 0's clock runs
            clock.advance(GRACE + 5)
            _settled(one)
            pages[1].send({"type": "claim", "outcome": "win"})
            refused = pages[1].error()
            assert refused["code"] == "claim-none" and "seat 0 is here" in refused["message"]
        _until(lambda: _no_page_of(one, made["id"], 0), "seat 0's page closed")
        _settled(one)
        clock.advance(GRACE - 1)
        pages[1].send({"type": "claim", "outcome": "win"})
        assert pages[1].error()["code"] == "claim-early"
        clock.advance(2)
        with connect(one, made["id"], token(made, 0)) as back:  # back just in time
            Socket(back).opening()
            clock.advance(GRACE + 5)
            _settled(one)
            pages[1].send({"type": "claim", "outcome": "win"})
            assert pages[1].error()["code"] == "claim-none"
        _until(lambda: _no_page_of(one, made["id"], 0), "seat 0's page closed")
        _settled(one)
        clock.advance(GRACE + 1)
        pages[1].send({"type": "claim", "outcome": "win"})
        over = pages[1].until(lambda m: m["type"] == "state" and m["over"])
    assert over["result"]["winners"] == [1] and over["result"]["ended"] == "gone"


def test_a_take_back_asked_on_one_process_is_answered_on_the_other(
    two: tuple[TestClient, TestClient],
) -> None:
    one, other = two
    made = make_game(one, "unstackable", [HUMAN, HUMAN])
    with (
        connect(one, made["id"], token(made, 0)) as a,
        connect(other, made["id"], token(made, 1)) as b,
    ):
        pages = {0: Socket(a), 1: Socket(b)}
        state = pages[0].opening()[1]
        pages[1].opening()
        state = _play(pages, state, until_seat=1)
        last = max(e["ply"] for e in state["log"] if e["seat"] == 0)
        pages[0].send({"type": "undo-ask"})
        asked = pages[1].until(lambda m: m["type"] == "undo")
        assert (asked["event"], asked["asker"], asked["waiting"]) == ("asked", 0, [1])
        pages[1].send({"type": "undo-decline"})
        declined = pages[0].until(lambda m: m["type"] == "undo" and m["event"] != "asked")
        assert (declined["event"], declined["seat"]) == ("declined", 1)
        pages[1].send({"type": "undo-accept"})  # nothing is asked any more
        assert pages[1].error()["code"] == "undo-none"
        pages[0].send({"type": "undo-ask"})
        pages[1].until(lambda m: m["type"] == "undo" and m["event"] == "asked")
        pages[1].send({"type": "undo-accept"})
        back = pages[0].until(lambda m: m["type"] == "state" and m["ply"] == last - 1)
        seen = pages[1].until(lambda m: m["type"] == "state" and m["ply"] == last - 1)
    assert back["to_move"] == 0 and back["takebacks"][0]["seat"] == 0
    assert seen["takebacks"] == back["takebacks"]


def test_agreements_given_on_two_processes_are_counted_together(
    two: tuple[TestClient, TestClient],
) -> None:
    """Three people: seat 0 asks on the first process, seat 1 agrees there and seat 2 on
    the second; the moves are taken back once both have agreed, not before."""
    one, other = two
    made = make_game(one, "stakd", [HUMAN, HUMAN, HUMAN], {"players": 3})
    with (
        connect(one, made["id"], token(made, 0)) as a,
        connect(one, made["id"], token(made, 1)) as b,
        connect(other, made["id"], token(made, 2)) as c,
    ):
        pages = {0: Socket(a), 1: Socket(b), 2: Socket(c)}
        state = pages[0].opening()[1]
        pages[1].opening()
        pages[2].opening()
        state = _play(pages, state, until_seat=1)
        pages[0].send({"type": "undo-ask"})
        for seat in (1, 2):
            pages[seat].until(lambda m: m["type"] == "undo" and m["event"] == "asked")
        pages[2].send({"type": "undo-accept"})
        agreed = pages[1].until(lambda m: m["type"] == "undo")
        assert (agreed["event"], agreed["seat"], agreed["waiting"]) == ("agreed", 2, [1])
        pages[1].send({"type": "undo-accept"})
        back = pages[2].until(lambda m: m["type"] == "state" and m["ply"] < state["ply"])
    assert back["takebacks"][0]["seat"] == 0


def test_a_page_open_on_a_process_that_died_counts_gone_from_its_last_renewal(
    two: tuple[TestClient, TestClient], clock: FakeClock
) -> None:
    """The first process dies with seat 0's page open (it renews nothing any more): past
    its rows' expiry the seat counts gone since their last renewal, and can be claimed
    against once the grace has passed from then."""
    one, other = two
    made = _timed(one)
    with (
        connect(one, made["id"], token(made, 0)) as a,
        connect(other, made["id"], token(made, 1)) as b,
    ):
        pages = {0: Socket(a), 1: Socket(b)}
        state = pages[0].opening()[1]
        pages[1].opening()
        _play(pages, state, until_seat=0)
        _settled(one)  # the last renewal: then the first process "dies"
        assert LIMITS.lease_seconds < GRACE - 1  # its rows have expired by then
        clock.advance(GRACE - 1)
        pages[1].send({"type": "claim", "outcome": "win"})
        assert pages[1].error()["code"] == "claim-early"
        clock.advance(2)
        pages[1].send({"type": "claim", "outcome": "win"})
        over = pages[1].until(lambda m: m["type"] == "state" and m["over"])
    assert over["result"]["ended"] == "gone"


def _run(step: Coroutine[Any, Any, Any]) -> Any:
    """`asyncio.run(step)` in a thread of its own: a browser test's Playwright may have left
    its event loop marked running in this worker's main thread."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, step).result()


def test_presence_rows_are_renewed_while_a_page_is_open_and_forgotten_a_day_after(
    store: Store, clock: FakeClock
) -> None:
    """A process renews the rows of its open pages only; a seat gone for a day has its
    row deleted (the table does not grow with every game a process ever served)."""
    game_id, _ = store.create("unstackable", {}, 7, [NewSeat("human")] * 2)
    presence = DatabasePresence(store, "p1", 10.0, clock)

    class Seen:
        id = game_id

    async def note() -> None:
        presence.changed(Seen(), 0, True)  # type: ignore[arg-type]
        presence.changed(Seen(), 1, False)  # type: ignore[arg-type]
        await presence.flush()

    def rows() -> dict[int, tuple[bool, float]]:
        with store.engine.connect() as connection:
            found = connection.execute(select(PresenceRow)).all()
        return {r.seat: (r.here, r.expires) for r in found}

    start = clock().timestamp()
    _run(note())
    clock.advance(5)
    _run(presence.renew())
    assert rows() == {0: (True, start + 15), 1: (False, start + 10)}
    clock.advance(FORGET + 10)  # a day after seat 1's row was last written
    _run(presence.renew())
    assert rows() == {0: (True, start + 15 + FORGET + 10)}
