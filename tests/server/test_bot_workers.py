"""Bots thought by `cubegames bots work` workers from PostgreSQL's queue (`botqueue`,
`worker`): the server holding a game's lease posts the turn and plays the answer; a
worker that dies loses no turn (its claim expires, on a fake clock); two workers never
take one turn; a turn that no longer fits its game is dropped and thought again."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cubegames.cli import cli
from cubegames.server.app import create_app
from cubegames.server.botqueue import CLAIM_SECONDS, MAX_ATTEMPTS, BotQueue, Turn
from cubegames.server.bus import PostgresBus
from cubegames.server.limits import Limits
from cubegames.server.storage import BotTurnRow, NewSeat, Store
from cubegames.server.worker import Worker, turn_seed
from tests.server.helpers import HUMAN, Seconds, Socket, TestClient, bot, connect, make_game
from tests.server.live import Page, Served

LIMITS = Limits(clock_check_seconds=3600.0)


@pytest.fixture
def backend() -> str:
    """The queue is PostgreSQL's (skipped, saying why, where there is none)."""
    return "postgresql"


def _until(test: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    """Wait until `test()` (another thread's work: the app's loop), failing after
    `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


def _waiting(store: Store) -> int:
    """Bot turns in the queue."""
    with store.engine.connect() as connection:
        return len(connection.execute(BotTurnRow.__table__.select()).all())


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[TestClient, Store]]:
    """An app whose bots think on workers, and a store of the test's own."""
    app = create_app(db_url, bot_delay=0, limits=LIMITS, bot_workers=True)
    store = Store(db_url)
    try:
        with TestClient(app) as client:
            yield client, store
    finally:
        store.close()


def test_a_server_with_workers_thinks_no_bot_itself(served: tuple[TestClient, Store]) -> None:
    client, store = served
    server = client.app.state.server  # type: ignore[attr-defined]
    assert server.runner.queue is not None and server.runner.processes is None
    made = make_game(client, "unstackable", [HUMAN, bot("greedy")])
    with connect(client, made["id"], made["seats"][0]["token"]) as session:
        page = Socket(session)
        first = page.opening()[1]
        page.move(first["legal"][0], 0)
        page.state(1)
        _until(lambda: _waiting(store) == 1, "the turn is posted")
        worker = Worker(store)
        assert worker.once()
        shown = page.state(2)
    assert shown["to_move"] == 0 and worker.answered == 1
    assert server.runner.elsewhere == 1 and server.runner.played == 1
    _until(lambda: _waiting(store) == 0, "the answered turn is dropped")


def test_a_worker_that_dies_loses_no_turn(served: tuple[TestClient, Store]) -> None:
    """Worker A claims the turn and dies (it never answers nor renews): worker B finds
    nothing to take while A's claim stands, and takes the turn once it expires."""
    client, store = served
    clock = Seconds(1_800_000_000.0)
    made = make_game(client, "unstackable", [HUMAN, bot("greedy")])
    with connect(client, made["id"], made["seats"][0]["token"]) as session:
        page = Socket(session)
        first = page.opening()[1]
        page.move(first["legal"][0], 0)
        page.state(1)
        _until(lambda: _waiting(store) == 1, "the turn is posted")
        dead, alive = Worker(store, clock=clock), Worker(store, clock=clock)
        assert dead.claim() is not None
        assert not alive.once()
        clock.now += CLAIM_SECONDS - 1
        assert not alive.once()
        clock.now += 2
        assert alive.once()
        assert page.state(2)["to_move"] == 0
    assert alive.answered == 1


def test_renewed_claims_are_kept(store: Store) -> None:
    """A worker renewing its claim keeps the turn past the first claim's expiry."""
    made = _stored_game(store)
    queue = BotQueue(store)
    queue.post(Turn(made, "t1", 0, 0, "greedy"), 0.0)
    assert queue.claim("a", 100.0, 30.0) is not None
    assert queue.renew("a", {"t1"}, 120.0, 30.0) == {"t1"}
    assert queue.claim("b", 140.0, 30.0) is None  # held until 150
    assert queue.claim("b", 151.0, 30.0) is not None
    assert queue.renew("a", {"t1"}, 152.0, 30.0) == set()  # b holds it now


def _stored_game(store: Store, seats: int = 2) -> str:
    game_id, _tokens = store.create("unstackable", {}, 7, [NewSeat("bot", "greedy")] * seats)
    return game_id


def test_two_workers_never_take_one_turn_and_neither_waits(store: Store) -> None:
    """While a worker's claim is in flight (its row locked), another worker takes the
    next turn instead of waiting for the lock (SKIP LOCKED)."""
    first, second = _stored_game(store), _stored_game(store)
    queue = BotQueue(store)
    queue.post(Turn(first, "t1", 0, 0, "greedy"), 1.0)
    queue.post(Turn(second, "t2", 0, 0, "greedy"), 2.0)
    with store.engine.connect() as connection, connection.begin():
        connection.execute(
            BotTurnRow.__table__.select().where(BotTurnRow.token == "t1").with_for_update()
        ).one()
        taken = queue.claim("b", 10.0)
    assert taken is not None and taken.token == "t2"
    again = queue.claim("c", 10.0)
    assert again is not None and again.token == "t1"
    assert queue.claim("d", 10.0) is None


def test_a_turn_that_kills_every_worker_is_given_up(store: Store) -> None:
    game_id = _stored_game(store)
    queue = BotQueue(store)
    queue.post(Turn(game_id, "t1", 0, 0, "greedy"), 0.0)
    moment = 0.0
    for _ in range(MAX_ATTEMPTS):
        moment += CLAIM_SECONDS + 1
        assert queue.claim("w", moment) is not None  # each worker died thinking it
    moment += CLAIM_SECONDS + 1
    assert queue.claim("w", moment) is None
    answer = queue.answer_of(game_id, "t1")
    assert answer is not None and answer.move is None
    assert answer.failure is not None and "3 tries" in answer.failure


def test_the_first_answer_counts(store: Store) -> None:
    """A worker whose claim expired while it thought, and the worker that took the turn
    over, both answer: the first answer stands."""
    game_id = _stored_game(store)
    queue = BotQueue(store)
    queue.post(Turn(game_id, "t1", 0, 0, "greedy"), 0.0)
    slow = queue.claim("slow", 0.0)
    quick = queue.claim("quick", CLAIM_SECONDS + 1)
    assert slow is not None and quick is not None
    assert queue.answer(quick, "x1")
    assert not queue.answer(slow, "x2")
    answer = queue.answer_of(game_id, "t1")
    assert answer is not None and answer.move == "x1"


def test_a_turn_that_no_longer_fits_its_game_is_dropped(store: Store) -> None:
    """A turn asked at a move number the game has left (or for a seat that is not to
    move) is dropped unanswered: its server looks at the game again."""
    game_id = _stored_game(store)
    queue = BotQueue(store)
    queue.post(Turn(game_id, "t1", 3, 0, "greedy"), 0.0)  # the game is at move 0
    worker = Worker(store)
    assert worker.once() and worker.answered == 0
    assert queue.answer_of(game_id, "t1") is None
    queue.post(Turn(game_id, "t2", 0, 1, "greedy"), 0.0)  # seat 0 is to move
    assert worker.once() and queue.answer_of(game_id, "t2") is None


def test_a_bot_the_server_would_not_accept_fails_in_words(store: Store) -> None:
    game_id, _ = store.create("unstackable", {}, 7, [NewSeat("bot", "mcts:seconds=50")] * 2)
    queue = BotQueue(store)
    queue.post(Turn(game_id, "t1", 0, 0, "mcts:seconds=50"), 0.0)
    assert Worker(store).once()
    answer = queue.answer_of(game_id, "t1")
    assert answer is not None and answer.failure is not None
    assert "seconds is at most 5" in answer.failure


def test_the_bot_of_a_turn_is_seeded_from_the_deal_seat_and_move() -> None:
    assert turn_seed(7, 0, 3) == turn_seed(7, 0, 3)
    assert (
        len({turn_seed(7, 0, 3), turn_seed(7, 1, 3), turn_seed(7, 0, 4), turn_seed(8, 0, 3)}) == 4
    )


def test_workers_play_a_game_among_bots_to_its_end(db_url: str) -> None:
    """Two running workers (`Worker.run`: woken by the bus, thinking in a pool) and a
    server: a game among bots plays to its end, every bot move thought by a worker and
    played by the server; stopping the workers gives back nothing unanswered."""
    app = create_app(db_url, bot_delay=0, limits=LIMITS, bot_workers=True)
    stores = [Store(db_url) for _ in range(2)]
    workers = [Worker(s, PostgresBus(s), jobs=1) for s in stores]
    loops: list[asyncio.AbstractEventLoop] = []
    stops: list[asyncio.Event] = []
    ready = threading.Barrier(3)

    def running(worker: Worker) -> None:
        async def main() -> None:
            stopping = asyncio.Event()
            loops.append(asyncio.get_running_loop())
            stops.append(stopping)
            ready.wait()
            await worker.run(stopping)

        asyncio.run(main())

    threads = [threading.Thread(target=running, args=(w,)) for w in workers]
    for thread in threads:
        thread.start()
    ready.wait()
    try:
        with TestClient(app) as client:
            made = make_game(client, "unstackable", [bot("random"), bot("greedy")])
            with connect(client, made["id"]) as session:
                Socket(session).until(lambda m: m["type"] == "state" and m["over"], timeout=120)
            moves = client.get(f"/api/games/{made['id']}").json()["moves"]
            runner = client.app.state.server.runner  # type: ignore[attr-defined]
            assert runner.played == runner.elsewhere == len(moves) > 0
    finally:
        for loop, stopping in zip(loops, stops, strict=True):
            loop.call_soon_threadsafe(stopping.set)
        for thread in threads:
            thread.join(timeout=30)
        for s in stores:
            s.close()
    assert sum(w.answered for w in workers) == len(moves)


def test_bots_work_refuses_a_database_that_is_not_postgresql() -> None:
    result = CliRunner().invoke(cli, ["bots", "work", "--db", "sqlite:///games.sqlite3"])
    assert result.exit_code == 2 and "PostgreSQL" in result.output
    result = CliRunner().invoke(cli, ["bots", "work", "--help"])
    assert result.exit_code == 0 and "--jobs" in result.output
    result = CliRunner().invoke(cli, ["serve", "--bot-workers", "--db", "sqlite:///g.sqlite3"])
    assert result.exit_code == 2 and "--bot-workers needs PostgreSQL" in result.output


@pytest.mark.slow
def test_serve_with_bot_workers_and_a_worker_killed_then_another(
    db_url: str, tmp_path: Path
) -> None:
    """Real processes: `cubegames serve --workers 2 --bot-workers` and `cubegames bots
    work`. The bot answers the person's move through the worker; the worker is killed
    (SIGKILL) and the next bot turn waits until another worker starts, then is played;
    a worker stopped with SIGTERM says how many moves it made and exits 0."""
    server = Served(db_url, "--workers", "2", "--bot-workers")
    command = [sys.executable, "-m", "cubegames", "bots", "work", "--db", db_url]
    workers: list[subprocess.Popen[str]] = []

    def worker(name: str) -> subprocess.Popen[str]:
        with (tmp_path / name).open("w") as out:
            started = subprocess.Popen(  # its own group: killed with its spawned child
                command, stdout=out, stderr=subprocess.STDOUT, text=True, start_new_session=True
            )
        workers.append(started)
        return started

    def person_plays(page: Page, state: dict[str, Any]) -> dict[str, Any]:
        """The person's moves until the bot is to move."""
        while state["to_move"] == 0:
            page.move(state["legal"][0], state["ply"])
            state = page.state(state["ply"] + 1)
        return state

    def bot_plays(page: Page, state: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Every move of the bot's turn, thought by a worker."""
        while state["to_move"] == 1:
            state = page.state(state["ply"] + 1, timeout=timeout)
        return state

    try:
        made = server.make_game("unstackable", [HUMAN, bot("greedy")])
        page = server.page(made["id"], made["seats"][0]["token"])
        first = worker("first")
        state = person_plays(page, page.state(0))
        state = bot_plays(page, state, 60)  # answered through the worker
        os.killpg(first.pid, signal.SIGKILL)  # the worker and its pool's child, or it lives on
        first.wait(timeout=30)
        state = person_plays(page, state)
        with pytest.raises(TimeoutError):  # no worker: the bot waits
            page.state(state["ply"] + 1, timeout=2)
        second = worker("second")
        before = state["ply"]
        state = bot_plays(page, state, 60)
        assert state["to_move"] == 0
        second.terminate()
        assert second.wait(timeout=60) == 0
        said = (tmp_path / "second").read_text()
        assert f"stopped after {state['ply'] - before} moves" in said
        page.close()
    finally:
        for started in workers:
            if started.poll() is None:
                started.kill()
                started.wait(timeout=30)
            with contextlib.suppress(ProcessLookupError):  # a child left in its group
                os.killpg(started.pid, signal.SIGKILL)
        server.stop()


def test_turns_of_games_with_a_person_are_thought_first(store: Store) -> None:
    among_bots, with_person, later = (_stored_game(store) for _ in range(3))
    queue = BotQueue(store)
    queue.post(Turn(among_bots, "b", 0, 0, "greedy"), 1.0)
    queue.post(Turn(with_person, "p", 0, 1, "greedy", person=True), 2.0)
    queue.post(Turn(later, "c", 0, 0, "greedy"), 3.0)
    taken = [queue.claim("w", 10.0) for _ in range(3)]
    assert [t.token if t else None for t in taken] == ["p", "b", "c"]
