"""Bots' searches think in a pool of processes by default, apart from the web process and
at a lower priority; `random` and `--limit bot_processes=0` think on threads."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import pytest

from cubegames.server import bots, thinking
from cubegames.server.app import create_app
from cubegames.server.limits import Limits
from tests.server.helpers import Socket, TestClient, bot, connect, make_game

LIMITS = Limits(clock_check_seconds=3600.0)


def _play_out(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    """Watch a game among bots to its end; the game as the API gives it."""
    with connect(client, made["id"], None) as session:
        ws = Socket(session)
        ws.opening()
        ws.until(lambda m: m["type"] == "state" and m["over"], timeout=120)
    game: dict[str, Any] = client.get(f"/api/games/{made['id']}").json()
    return game


def test_the_pool_is_on_by_default_and_sized_for_the_machine() -> None:
    assert Limits().bot_processes == -1
    assert bots.pool_size(-1) == max(1, (os.cpu_count() or 1) - 1)
    assert bots.pool_size(-1, workers=2, cores=2) == 1  # no spare core: still a process
    app = create_app("sqlite://", limits=LIMITS)
    runner = app.state.server.runner
    assert runner.pool_size == bots.pool_size(-1) >= 1
    assert runner.processes is None  # started at the first search, not before


def test_bot_processes_0_thinks_on_threads() -> None:
    limits = Limits().changed(["bot_processes=0"])
    assert limits.bot_processes == 0
    app = create_app("sqlite://", limits=limits)
    assert app.state.server.runner.pool_size == 0
    with pytest.raises(ValueError, match="positive"):
        Limits().changed(["max_rooms=0"])  # only the pool may be set to none


def test_the_pools_processes_run_behind_the_web_process() -> None:
    """A pool process is scheduled at a lower priority (nice +10): on a machine with no
    spare core the system runs the web process's work first."""
    mine = os.nice(0)
    theirs = bots.pool(1).submit(os.nice, 0).result(timeout=60)
    assert theirs == min(19, mine + thinking.NICE)


def test_searches_think_in_the_pool_and_random_on_a_thread(db_url: str) -> None:
    """A game of `random` against `greedy`: each greedy move is thought in the pool, each
    random move on a thread; the game is the same move for move as with threads alone
    (the bot goes to the pool and comes back with its random state moved on)."""
    games, elsewhere = [], []
    for processes in (1, 0):
        limits = Limits(bot_processes=processes, clock_check_seconds=3600.0)
        with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as client:
            made = make_game(client, "unstackable", [bot("random"), bot("greedy")], seed=11)
            games.append(_play_out(client, made))
            runner = client.app.state.server.runner  # type: ignore[attr-defined]
            elsewhere.append(runner.elsewhere)
            assert runner.processes is (bots.pool(1) if processes else None)
    greedy = [m for m in games[0]["moves"] if m["seat"] == 1]
    assert elsewhere == [len(greedy), 0] and greedy
    assert [m["move"] for m in games[0]["moves"]] == [m["move"] for m in games[1]["moves"]]
    assert games[0]["result"] == games[1]["result"]


def test_a_killed_pool_process_is_replaced(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A pool process killed (the OOM killer, an operator) breaks the pool: the next bot
    move starts a new pool and the game plays on to its end."""
    size = 1
    victim = bots.pool(size).submit(os.getpid).result(timeout=60)
    os.kill(victim, signal.SIGKILL)
    limits = Limits(bot_processes=size, clock_check_seconds=3600.0)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits)) as client:
        made = make_game(client, "unstackable", [bot("greedy"), bot("greedy")])
        game = _play_out(client, made)
    assert game["result"] is not None and "starting a new one" in caplog.text
    assert bots.pool(size).submit(os.getpid).result(timeout=60) != victim


@pytest.mark.anyio
async def test_a_game_with_a_person_gets_the_next_process_before_games_among_bots() -> None:
    """One process, busy: two games among bots wait for it, then a game with a person
    (and one whose search was cancelled while it waited). As searches end, the person's
    game goes first, then the bot games in order; the cancelled one is skipped."""
    slots = bots.Slots(1)
    await slots.take(False)  # a search runs
    order: list[str] = []

    async def search(name: str, person: bool) -> None:
        await slots.take(person)
        order.append(name)

    waiting = [
        asyncio.create_task(search(name, person))
        for name, person in (("bots A", False), ("bots B", False), ("gone", True), ("person", True))
    ]
    await asyncio.sleep(0)  # every search is waiting now
    waiting[2].cancel()
    for _ in range(3):
        slots.give()  # the running search ends; the next one runs
        await asyncio.sleep(0)
    assert order == ["person", "bots A", "bots B"] and waiting[2].cancelled()
    slots.give()
    assert slots.free == 1
