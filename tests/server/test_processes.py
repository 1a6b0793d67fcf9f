"""Several server processes on one PostgreSQL database: a game's moves stay in one order
when two processes take moves for it at once, a move reaches pages on another process, a
game's bots play in one process only, and the games of a process killed with SIGKILL play
on in another."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from cubegames.server import rooms
from cubegames.server.app import create_app
from cubegames.server.limits import Limits
from cubegames.server.rooms import replay
from cubegames.server.storage import Store
from tests.server.helpers import Seconds, Socket, TestClient, bot, connect, make_game
from tests.server.live import Page, Served

# real server processes on PostgreSQL, started and killed: minutes on a busy machine
pytestmark = pytest.mark.slow

HUMAN = {"kind": "human"}


@pytest.fixture
def backend() -> str:
    """Every test here runs on PostgreSQL (skipped, saying why, where there is none)."""
    return "postgresql"


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[Served, Served]]:
    """Two `cubegames serve` processes on one database."""
    first = Served(db_url)
    try:
        second = Served(db_url)
    except BaseException:
        first.stop()
        raise
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def _state(page: Page, ply: int) -> dict[str, Any]:
    """The page's state at move `ply` or later; a `stale` refusal on the way (a move that
    lost its race) is expected, any other refusal fails the test."""
    return page.state(ply, timeout=15, expected=("stale",))


def test_moves_sent_to_two_processes_at_once_keep_one_order(
    two: tuple[Served, Served], db_url: str
) -> None:
    """Each seat has a page on both processes, and both pages of the seat to move send a
    move for the same move number at the same moment: one is saved, the other refused as
    stale, and every page of both processes ends on the same game."""
    a, b = two
    made = a.make_game("unstackable", [HUMAN, HUMAN])
    tokens = [seat["token"] for seat in made["seats"]]
    pages = {
        (server, seat): server.page(made["id"], tokens[seat])
        for server in (a, b)
        for seat in (0, 1)
    }
    latest = {key: _state(page, 0) for key, page in pages.items()}
    rounds = 8
    for ply in range(rounds):
        seat = latest[a, 0]["to_move"]
        legal = latest[a, seat]["legal"]
        pages[a, seat].move(legal[0], ply)
        pages[b, seat].move(legal[-1], ply)
        latest = {key: _state(page, ply + 1) for key, page in pages.items()}
        assert {m["ply"] for m in latest.values()} == {ply + 1}
    for seat in (0, 1):
        assert latest[a, seat]["view"] == latest[b, seat]["view"]
    store = Store(db_url)
    try:
        info = store.load(made["id"])
    finally:
        store.close()
    assert info is not None and [m.ply for m in info.moves] == list(range(1, rounds + 1))
    _game, state, _played = replay(info)  # the stored order replays through the engine
    assert state.view(0) == latest[a, 0]["view"]
    for page in pages.values():
        page.close()


def test_a_move_reaches_the_pages_of_another_process(two: tuple[Served, Served]) -> None:
    a, b = two
    made = a.make_game("unstackable", [HUMAN, HUMAN])
    mover = a.page(made["id"], made["seats"][0]["token"])
    other = b.page(made["id"], made["seats"][1]["token"])
    watcher = b.page(made["id"], None)
    first = mover.state(0)
    other.state(0)
    watcher.state(0)
    mover.move(first["legal"][0], 0)
    started = time.monotonic()
    mover.state(1)
    seen = other.state(1)
    watched = watcher.state(1)
    assert time.monotonic() - started < 5
    assert seen["to_move"] == 1 and seen["legal"] and watched["legal"] == []
    # and back: the other process's move reaches the first
    other.move(seen["legal"][0], 1)
    assert mover.state(2)["to_move"] == 0
    for page in (mover, other, watcher):
        page.close()


def test_a_move_saved_while_another_process_loads_the_game_still_reaches_it(
    db_url: str,
) -> None:
    """A page opens a game on the second process; while that process is still loading
    the game (its moves already read), the first process saves a move and announces it.
    The news must wait for the load, not be dropped because the room is not live yet:
    otherwise the second process's room stays a move behind for ever and its page never
    sees the move (found under load: "no message for 10 s" with two processes)."""
    one_app = create_app(db_url, bot_delay=0)
    two_app = create_app(db_url, bot_delay=0)
    with TestClient(one_app) as one, TestClient(two_app) as two:
        made = make_game(one, "cubes", [HUMAN, HUMAN])
        reading, go_on, heard = threading.Event(), threading.Event(), threading.Event()
        store, bus = two_app.state.server.store, two_app.state.server.bus
        read, hand_over = store.load, bus._hand_over

        def slow_load(game_id: str) -> Any:
            info = read(game_id)
            reading.set()
            go_on.wait(10)
            return info

        def hand_over_noted(*args: Any) -> None:
            hand_over(*args)
            heard.set()

        store.load, bus._hand_over = slow_load, hand_over_noted
        with connect(one, made["id"], made["seats"][0]["token"]) as a:
            mover = Socket(a)
            _, first = mover.opening()
            with connect(two, made["id"], made["seats"][1]["token"]) as b:
                other = Socket(b)
                assert reading.wait(10)  # the second process has read the game at move 0
                mover.move(first["legal"][0], 0)
                mover.state(1)
                assert heard.wait(10)  # ... and has heard of move 1 meanwhile
                time.sleep(0.2)
                go_on.set()
                _, shown = other.opening()
                if shown["ply"] == 0:
                    shown = other.state(1)
                assert shown["ply"] == 1 and shown["to_move"] == 1


def _play_on(pages: dict[int, Socket], latest: dict[str, Any], moves: int) -> dict[str, Any]:
    """Play `moves` first legal moves through `pages` (a page per seat), each waited for."""
    for _ in range(moves):
        ply, seat = latest["ply"], latest["to_move"]
        shown = pages[seat].held
        assert shown is not None
        pages[seat].move(shown["legal"][0], ply)
        for page in pages.values():
            latest = page.state(ply + 1)
    return latest


def _plies_told(page: Socket, last: int) -> list[int]:
    """The move numbers of the states `page` is sent, in order, up to move `last`."""
    told: list[int] = []
    while not told or told[-1] < last:
        message = page.receive()
        if message["type"] == "state":
            told.append(message["ply"])
    return told


def _news_counter(bus: Any) -> list[int]:
    """Counts, in its one item, the events of other processes that `bus` hears."""
    heard = [0]
    hand_over = bus._hand_over

    def counted(loop: Any, deliver: Any, payload: str) -> None:
        hand_over(loop, deliver, payload)
        origin, _, body = payload.partition(" ")
        if origin != bus.origin:
            heard[0] += len(json.loads(body))

    bus._hand_over = counted
    return heard


def _lose_first_news(bus: Any) -> list[str]:
    """Has `bus` drop the first notification from another process; the list gets it."""
    hand_over, lost = bus._hand_over, list[str]()

    def lose_the_first(loop: Any, deliver: Any, payload: str) -> None:
        if not lost and not payload.startswith(bus.origin + " "):
            lost.append(payload)
            return
        hand_over(loop, deliver, payload)

    bus._hand_over = lose_the_first
    return lost


@dataclass
class Watched:
    """A game played on one app (`pages`, a page per seat) and watched from another app
    on the same database (`watcher`, seat 1's second page), every page past its opening."""

    one_app: Any
    two_app: Any
    two: TestClient
    game_id: str
    pages: dict[int, Socket]
    watcher: Socket
    #: the state after the openings, as seat 0's page holds it
    latest: dict[str, Any]

    @property
    def room(self) -> Any:
        """The watching app's room of the game."""
        return self.two_app.state.server.rooms.rooms[self.game_id]


@contextlib.contextmanager
def _watched(db_url: str, game: str, options: dict[str, Any] | None = None) -> Iterator[Watched]:
    one_app = create_app(db_url, bot_delay=0)
    two_app = create_app(db_url, bot_delay=0)
    with TestClient(one_app) as one, TestClient(two_app) as two:
        made = make_game(one, game, [HUMAN, HUMAN], options)
        game_id, tokens = made["id"], [seat["token"] for seat in made["seats"]]
        with (
            connect(one, game_id, tokens[0]) as a,
            connect(one, game_id, tokens[1]) as b,
            connect(two, game_id, tokens[1]) as c,
        ):
            pages, watcher = {0: Socket(a), 1: Socket(b)}, Socket(c)
            latest = pages[0].opening()[1]
            pages[1].opening()
            watcher.opening()
            yield Watched(one_app, two_app, two, game_id, pages, watcher, latest)


def test_news_for_a_busy_room_waits_then_applies_in_order(db_url: str) -> None:
    """While the second process's room of a game is busy (its lock held, as while a move
    of its own is being saved), news of three moves made on the first process is kept, in
    order; once the room is free its page is told each of the three moves, in order."""
    with _watched(db_url, "unstackable") as w:
        heard = _news_counter(w.two_app.state.server.bus)
        room = w.room
        assert w.two.portal is not None
        w.two.portal.call(room.lock.acquire)
        _play_on(w.pages, w.latest, 3)
        deadline = time.monotonic() + 10
        while heard[0] < 3:
            assert time.monotonic() < deadline, "the second process heard nothing"
            time.sleep(0.01)
        time.sleep(0.2)
        assert room.ply == 0  # held while the room is busy ...
        w.two.portal.call(room.lock.release)
        assert _plies_told(w.watcher, 3) == [1, 2, 3]  # ... then told, each in order
        assert [p.ply for p in room.played] == [1, 2, 3]
        stored = w.one_app.state.server.store.load(w.game_id)
        assert room.state.to_dict() == replay(stored)[1].to_dict()


def test_a_lost_notification_is_made_good_by_the_next(db_url: str) -> None:
    """A notification that never arrives (dropped here on purpose) leaves a gap: the next
    move's news finds the room a move short, reads the missing move from the database,
    and the page on the second process is told both."""
    with _watched(db_url, "cubed", {"rounds": 1}) as w:
        dropped = _lose_first_news(w.two_app.state.server.bus)
        _play_on(w.pages, w.latest, 2)
        told = _plies_told(w.watcher, 2)
        assert dropped and told[-1] == 2
        assert [p.ply for p in w.room.played] == [1, 2]


def test_news_that_cannot_be_read_for_a_moment_is_read_with_the_next(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A gap in the news (a notification lost) sends the second process to the database
    for the missing move; if that read fails (the database away for a moment), it is
    logged, and the game's next news reads again: its page is told every move."""
    with _watched(db_url, "unstackable") as w:
        store = w.two_app.state.server.store
        read, failed = store.moves_after, list[int]()

        def away_once(game: str, ply: int) -> Any:
            if not failed:
                failed.append(ply)
                raise OSError("the database went away")
            return read(game, ply)

        _lose_first_news(w.two_app.state.server.bus)
        store.moves_after = away_once
        _play_on(w.pages, w.latest, 3)
        told = _plies_told(w.watcher, 3)
        assert failed == [0] and told[-1] == 3
        assert [p.ply for p in w.room.played] == [1, 2, 3]
    assert "could not be taken in" in caplog.text


def test_news_one_game_cannot_take_does_not_lose_the_news_of_others(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A notification's events are taken in one by one: an event whose room fails
    unexpectedly is logged, and the next event, of another game, still reaches its page."""
    one_app = create_app(db_url, bot_delay=0)
    two_app = create_app(db_url, bot_delay=0)
    bus, heard = two_app.state.server.bus, {}
    start = bus.start

    def noted(deliver: Any, on_reconnect: Any) -> None:
        heard["deliver"] = deliver
        start(deliver, on_reconnect)

    bus.start = noted
    with TestClient(one_app) as one, TestClient(two_app) as two:
        made = [make_game(one, "unstackable", [HUMAN, HUMAN]) for _ in range(2)]
        with (
            connect(two, made[0]["id"], made[0]["seats"][1]["token"]) as a,
            connect(two, made[1]["id"], made[1]["seats"][1]["token"]) as b,
        ):
            broken, watcher = Socket(a), Socket(b)
            broken.opening()
            watcher.opening()
            rooms = two_app.state.server.rooms.rooms
            bad, good = rooms[made[0]["id"]], rooms[made[1]["id"]]

            def fails(_known: Any) -> None:
                raise RuntimeError("something unforeseen")

            bad.hear = fails
            move = good.state.legal_texts()[0]
            events = [
                {"kind": "move", "game": game["id"], "ply": 1, "seat": 0, "move": move}
                for game in made
            ]
            assert two.portal is not None
            two.portal.call(heard["deliver"], events)
            assert watcher.state(1)["ply"] == 1
            assert good.ply == 1 and bad.ply == 0
    assert "something unforeseen" in caplog.text


def test_a_games_bots_play_in_one_process_only(db_url: str) -> None:
    """Two servers with the same bot game live (a spectator on each): one holds the game's
    lease and plays every bot move; the other's spectator sees them all too."""
    apps = [create_app(db_url, bot_delay=0.02) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as other:
        made = make_game(one, "unstackable", [bot("random"), bot("random")])
        with connect(one, made["id"]) as s1, connect(other, made["id"]) as s2:
            watchers = [Socket(s1), Socket(s2)]
            last = [w.until(lambda m: m["type"] == "state" and m["over"]) for w in watchers]
        played = [app.state.server.runner.played for app in apps]
        total = len(one.get(f"/api/games/{made['id']}").json()["moves"])
    assert last[0]["ply"] == last[1]["ply"] == total > 0
    assert sorted(played) == [0, total]


def test_a_killed_processs_bot_games_play_on_in_another(db_url: str) -> None:
    """A process running a game's bots is killed (SIGKILL): after its lease expires the
    other process takes the game over, and it goes on from the last stored move."""
    quick = ("--limit", "lease_seconds=2")
    a = Served(db_url, *quick)
    b = Served(db_url, *quick)
    try:
        made = a.make_game("unstackable", [bot("random"), bot("random")])
        watcher = a.page(made["id"], None)  # wakes the bots in process a
        seen = watcher.state(3)
        a.kill()
        detail = f"{b.url}/api/games/{made['id']}"
        before = httpx.get(detail, timeout=10).json()["moves"]
        assert len(before) >= seen["ply"]
        deadline = time.monotonic() + 20
        after = before
        while time.monotonic() < deadline and len(after) <= len(before) + 2:
            time.sleep(0.5)
            after = httpx.get(detail, timeout=10).json()["moves"]
        assert len(after) > len(before) + 2, "process b did not take the game over"
        assert after[: len(before)] == before
        assert [m["ply"] for m in after] == list(range(1, len(after) + 1))
    finally:
        a.kill()
        b.stop()


def test_serve_with_workers_runs_that_many_processes_on_one_address(db_url: str) -> None:
    server = Served(db_url, "--workers", "2")
    try:
        deadline = time.monotonic() + 30
        while len(_workers(server.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_workers(server.process.pid)) == 2
        made = server.make_game("unstackable", [HUMAN, HUMAN])
        # pages land on either process: each sees the other's moves
        pages = [server.page(made["id"], seat["token"]) for seat in made["seats"]]
        latest = [page.state(0) for page in pages]
        for ply in range(6):
            seat = latest[0]["to_move"]
            pages[seat].move(latest[seat]["legal"][0], ply)
            latest = [page.state(ply + 1) for page in pages]
        for page in pages:
            page.close()
    finally:
        server.stop()


def _workers(pid: int) -> list[str]:
    """The worker processes uvicorn started (not multiprocessing's resource tracker)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    found = []
    for child in children:
        with contextlib.suppress(OSError):
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"spawn_main" in command and b"resource_tracker" not in command:
                found.append(child)
    return found


def test_games_made_per_client_are_capped_over_every_process(db_url: str) -> None:
    """The cap on games a client makes a minute is counted in the database: two servers
    on it together allow it once, not once each."""
    limits = Limits(games_per_minute=3)
    apps = [create_app(db_url, bot_delay=0, limits=limits, workers=2) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as other:
        make_game(one, "unstackable", [HUMAN, HUMAN])
        make_game(other, "unstackable", [HUMAN, HUMAN])
        make_game(one, "unstackable", [HUMAN, HUMAN])
        for client in (other, one):
            over = client.post("/api/games", json={"game": "cubed", "seats": [HUMAN] * 2})
            assert over.status_code == 429 and "at most 3 a minute" in over.json()["detail"]
            assert 1 <= int(over.headers["retry-after"]) <= 60


def test_each_of_n_workers_takes_its_share_of_the_in_memory_caps(db_url: str) -> None:
    """Connections per client and live games are counted in each process: with 2 workers
    each allows half, so the two together never exceed the cap."""
    limits = Limits(connections_per_client=4, max_rooms=2)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits, workers=2)) as client:
        made = [make_game(client, "unstackable", [HUMAN, HUMAN]) for _ in range(2)]
        with connect(client, made[0]["id"]) as a, connect(client, made[0]["id"]) as b:
            Socket(a).opening()
            Socket(b).opening()
            with connect(client, made[0]["id"]) as c:
                assert "at most 4 at once" in Socket(c).receive()["message"]
        with connect(client, made[0]["id"]) as a:
            Socket(a).opening()
            with connect(client, made[1]["id"]) as b:
                assert "1 games are live" in Socket(b).receive()["message"]


def test_a_bot_on_another_process_waits_for_the_end_of_a_round_to_be_seen(db_url: str) -> None:
    """Issue #23 with several processes: a person looks at the end of a CUBED round on
    one process while the game's bots run on another that has no page of a seat (only a
    spectator's). The bot to start round 2 waits there too, past that process's wait for
    news, until the person's page says `ready`; then it plays."""
    clock = Seconds()
    one_app = create_app(db_url, bot_delay=0, pause_clock=clock)
    two_app = create_app(db_url, bot_delay=0, pause_clock=clock)
    with TestClient(one_app) as one, TestClient(two_app) as two:
        made = make_game(one, "cubed", [HUMAN, bot("random")], {"rounds": 2}, seed=5)
        game_id = made["id"]
        assert two.portal is not None
        # the game's bots play on the second process: it holds the game's lease
        assert two.portal.call(two_app.state.server.leases.take, game_id)
        with (
            connect(two, game_id) as w,
            connect(one, game_id, made["seats"][0]["token"]) as p,
        ):
            Socket(w).opening()
            page = Socket(p)
            _, state = page.opening()
            for _ in range(600):
                if state["pause"] is not None:
                    break
                if state["to_move"] == 0 and state["legal"]:
                    # draw rather than lay: the bot empties its hand first, wins the
                    # round and starts the next
                    legal = state["legal"]
                    page.move(next((m for m in legal if "@" not in m), legal[0]), state["ply"])
                state = page.state()
            assert state["pause"] is not None and state["pause"]["waiting"] == [0]
            ended = state["ply"]
            assert state["to_move"] == 1  # the bot starts round 2
            room = two_app.state.server.rooms.rooms[game_id]
            runner = two_app.state.server.runner
            deadline = time.monotonic() + 10
            while two.portal.call(lambda: room.pause is None or room.pause.waiting != {0}):
                assert time.monotonic() < deadline, "the bots' process never held the round"
                time.sleep(0.01)
            clock.now += rooms.PAUSE_NEWS + 1  # its wait for news is over; the countdown not
            two.portal.call(room.tick)
            assert two.portal.call(room.paused) and not runner.busy(room)
            assert len(one.get(f"/api/games/{game_id}").json()["moves"]) == ended
            page.send({"type": "ready"})
            after = page.until(lambda m: m["type"] == "state" and m["ply"] > ended)
            assert after["pause"] is None and after["log"][-1]["seat"] == 1
            assert runner.played > 0 and one_app.state.server.runner.played == 0
