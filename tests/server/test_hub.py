"""The hub on its own (no app, no websocket): news from other processes applied to the
live rooms at once or in order behind a busy room, moves missing between read from the
database, the leases tended (a lost game's bots stopped, a dead process's games taken
over) and the bots of unfinished games resumed at start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

import cubegames
from cubegames.server.app import build
from cubegames.server.context import Server
from cubegames.server.limits import Limits
from cubegames.server.storage import BOT, HUMAN, GameRow, NewSeat, Store, now
from tests.server.helpers import BOTH

pytestmark = [pytest.mark.anyio, BOTH]


class FakeLeases:
    """Leases as the test says: which games another process took, which are orphans,
    and whether this process wins a take."""

    owner = "here"
    seconds = 3600.0  # never due by itself: the tests call `tend_leases`

    def __init__(self) -> None:
        self.lost: set[str] = set()
        self.orphaned: list[str] = []
        self.wins = True
        self.taken: list[str] = []
        self.given: list[str] = []
        #: the loop's time at each renewal
        self.rounds: list[float] = []

    async def take(self, game_id: str) -> bool:
        self.taken.append(game_id)
        return self.wins

    async def give(self, game_id: str) -> None:
        self.given.append(game_id)

    async def renew(self) -> set[str]:
        self.rounds.append(asyncio.get_running_loop().time())
        lost, self.lost = self.lost, set()
        return lost

    async def orphans(self) -> list[str]:
        found, self.orphaned = self.orphaned, []
        return found


@pytest.fixture
def leases() -> FakeLeases:
    return FakeLeases()


@pytest.fixture
async def server(db_url: str, leases: FakeLeases) -> AsyncIterator[Server]:
    """An app's parts (not started: the tests drive the hub by hand), bots answering at
    once, with leases the test controls."""
    parts = build(db_url, 0.0, Limits(), 1)
    parts.leases = parts.runner.leases = parts.hub.leases = leases
    try:
        yield parts
    finally:
        await parts.hub.stop()
        await parts.runner.stop()
        parts.bus.stop()
        parts.executor.shutdown(wait=False, cancel_futures=True)
        parts.writer.close()
        parts.store.close()


def _game(store: Store, game: str = "unstackable", seats: tuple[str, ...] = (HUMAN, HUMAN)) -> str:
    made = cubegames.make(game)
    game_id, _tokens = store.create(
        game, made.options, 5, [NewSeat(k, "random" if k == BOT else None) for k in seats]
    )
    return game_id


def _moves(game: str, count: int, seed: int = 5) -> list[tuple[int, str]]:
    """The first `count` moves of a game from `seed`, each as (seat, notation)."""
    state = cubegames.make(game).new_state(seed=seed)
    moves = []
    for _ in range(count):
        seat = state.to_move
        assert seat is not None
        move = str(state.legal_moves()[0])
        state.play(move)
        moves.append((seat, move))
    return moves


def _news(game_id: str, ply: int, seat: int, move: str) -> dict[str, Any]:
    return {"kind": "move", "game": game_id, "ply": ply, "seat": seat, "move": move}


async def test_a_move_of_an_idle_live_room_is_played_at_once(server: Server) -> None:
    game_id = _game(server.store)
    room = await server.rooms.get(game_id)
    assert room is not None
    ((seat, move),) = _moves("unstackable", 1)
    server.hub.hear([_news(game_id, 1, seat, move)])
    assert room.ply == 1 and not server.hub.held  # no task, no wait


async def test_news_of_a_game_not_live_here_is_dropped(server: Server) -> None:
    game_id = _game(server.store)
    ((seat, move),) = _moves("unstackable", 1)
    server.hub.hear([_news(game_id, 1, seat, move)])
    assert not server.hub.held and game_id not in server.rooms.rooms


async def test_news_of_a_busy_room_waits_and_later_news_keeps_its_order(server: Server) -> None:
    game_id = _game(server.store)
    room = await server.rooms.get(game_id)
    assert room is not None
    moves = _moves("unstackable", 3)
    async with room.lock:  # a page's move is being saved
        server.hub.hear([_news(game_id, 1, *moves[0])])
        server.hub.hear([_news(game_id, 2, *moves[1]), _news(game_id, 3, *moves[2])])
        assert room.ply == 0 and game_id in server.hub.held
    await server.hub.settled()
    assert room.ply == 3 and [p.move for p in room.played] == [m for _, m in moves]
    assert not server.hub.held


async def test_moves_missing_before_the_news_are_read_from_the_database(server: Server) -> None:
    game_id = _game(server.store)
    room = await server.rooms.get(game_id)
    assert room is not None
    moves = _moves("unstackable", 3)
    for ply, (seat, move) in enumerate(moves, 1):
        server.store.add_move(game_id, ply, seat, move, None)
    server.hub.hear([_news(game_id, 3, *moves[2])])  # the notifications of 1 and 2 were lost
    assert room.ply == 0
    await server.hub.settled()
    assert room.ply == 3


async def test_news_that_does_not_replay_changes_nothing_and_loses_no_later_news(
    server: Server,
) -> None:
    game_id = _game(server.store)
    room = await server.rooms.get(game_id)
    assert room is not None
    ((seat, move),) = _moves("unstackable", 1)
    server.hub.hear([_news(game_id, 1, seat, "no such move"), {"kind": "move", "game": game_id}])
    assert room.ply == 0
    server.hub.hear([_news(game_id, 1, seat, move)])
    assert room.ply == 1


async def test_a_reissued_seat_is_told_to_its_room(server: Server) -> None:
    game_id = _game(server.store)
    room = await server.rooms.get(game_id)
    assert room is not None
    server.hub.hear([{"kind": "seat", "game": game_id, "seat": 1, "how": "reissued"}])
    await server.hub.settled()
    assert room.seats[1].invited and room.seats[1].reissued == 1
    assert not room.seats[0].invited


async def test_after_the_bus_was_away_every_live_room_catches_up(server: Server) -> None:
    first, second = _game(server.store), _game(server.store)
    rooms = [await server.rooms.get(first), await server.rooms.get(second)]
    for ply, (seat, move) in enumerate(_moves("unstackable", 2), 1):
        server.store.add_move(first, ply, seat, move, None)
    await server.hub.catch_up_all()
    assert [r.ply for r in rooms if r is not None] == [2, 0]


async def test_a_lost_lease_stops_the_games_bots(server: Server, leases: FakeLeases) -> None:
    game_id = _game(server.store, seats=(BOT, BOT))
    room = await server.rooms.get(game_id)
    assert room is not None
    runner = server.runner
    runner.delay = 3600.0  # the bot has thought and waits to move: the lease goes meanwhile
    runner.wake(room)
    assert runner.busy(room)
    leases.lost = {game_id}
    await server.hub.tend_leases()
    await asyncio.sleep(0)  # the cancelled task ends
    assert not runner.busy(room) and room.ply == 0


async def test_the_games_of_a_dead_process_are_taken_over_and_played_on(
    server: Server, leases: FakeLeases
) -> None:
    game_id = _game(server.store, seats=(BOT, BOT))
    leases.orphaned = [game_id]
    await server.hub.tend_leases()
    assert leases.taken[0] == game_id
    room = server.rooms.rooms.get(game_id)
    assert room is not None and server.runner.busy(room)
    while server.runner.busy(room):  # bots among themselves play the game to its end
        await asyncio.wait([server.runner.tasks[game_id]])
    assert room.state.is_over
    info = server.store.load(game_id)
    assert info is not None and info.status == "finished"


async def test_a_game_another_process_took_first_is_left_alone(
    server: Server, leases: FakeLeases
) -> None:
    game_id = _game(server.store, seats=(BOT, BOT))
    leases.orphaned, leases.wins = [game_id], False
    await server.hub.tend_leases()
    assert game_id not in server.rooms.rooms


async def test_at_start_the_bots_of_unfinished_games_play_on_but_not_abandoned_ones(
    server: Server,
) -> None:
    people = _game(server.store)
    bots = _game(server.store, seats=(BOT, BOT))
    old = _game(server.store, seats=(BOT, BOT))
    with server.store.engine.begin() as connection:
        connection.execute(
            update(GameRow).where(GameRow.id == old).values(created_at=now() - timedelta(days=31))
        )
    await server.hub.resume_bots()
    assert people not in server.rooms.rooms  # no bot: nothing to do
    assert old not in server.rooms.rooms  # abandoned: let go
    room = server.rooms.rooms.get(bots)
    assert room is not None and server.runner.busy(room)


@pytest.mark.virtual_time
async def test_the_leases_are_tended_every_third_of_their_term_until_the_hub_stops(
    server: Server, leases: FakeLeases
) -> None:
    leases.seconds = 30.0
    began = asyncio.get_running_loop().time()
    server.hub.start(server.bus)
    await asyncio.sleep(35)  # virtual seconds
    await server.hub.stop()
    assert [round(t - began) for t in leases.rounds] == [10, 20, 30]
    await asyncio.sleep(60)
    assert len(leases.rounds) == 3  # none after the stop


async def test_stopping_ends_the_background_tasks_at_once(server: Server) -> None:
    server.hub.start(server.bus)
    await asyncio.sleep(0)
    async with asyncio.timeout(5):  # the lease round is an hour away: stop does not wait for it
        await server.hub.stop()
    assert not server.hub._tasks
