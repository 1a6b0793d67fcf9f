"""Live rooms: a move is saved before it is sent, and stored moves are replayed through the
engine, never trusted; on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from cubegames.server.protocol import Connection
from cubegames.server.rooms import Peer, Refused, Room, RoomError, Rooms, replay
from cubegames.server.storage import HUMAN, NewSeat, Store
from tests.server.helpers import BOTH, Socket, TestClient, connect

pytestmark = BOTH


class GonePage:
    """A page whose connection broke: every send fails."""

    async def send_text(self, message: str) -> None:
        raise ConnectionResetError("the page went away")


def _room(store: Store, game: str, options: dict[str, Any]) -> Room:
    game_id, _tokens = store.create(game, options, 3, [NewSeat(HUMAN), NewSeat(HUMAN)])
    info = store.load(game_id)
    assert info is not None
    built, state, played = replay(info)
    return Room(info, built, state, played, store)


@pytest.mark.anyio
async def test_a_page_that_cannot_be_reached_loses_no_move(store: Store) -> None:
    room = _room(store, "cubes", {"players": 2})
    gone = Peer(GonePage(), 1)  # stands in for a broken socket
    room.join(gone)
    await room.play(0, "roll")
    await gone.flush()
    info = store.load(room.id)
    assert info is not None and [m.move for m in info.moves] == ["roll"]
    assert room.ply == 1 and gone.state is Connection.CLOSED


@pytest.mark.anyio
async def test_a_room_let_go_while_another_page_waited_for_it_is_not_handed_out(
    store: Store,
) -> None:
    """Two asked for a game at once and shared its load; the first let it go at once
    (as the bots' resumption at start does with a game whose bot is not to move) before
    the second, still waiting, got it. The second must get the room that is live, never
    the one let go: a page in a room no longer kept would be alone there (its moves not
    seen by later pages, its bots detached)."""
    game_id, _tokens = store.create("unstackable", {}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])
    rooms = Rooms(store, lambda _room: None)

    async def first() -> Room | None:
        room = await rooms.get(game_id)
        assert room is not None
        rooms.release(room, busy=False)  # nobody in it yet: let go
        return room

    let_go, second = await asyncio.gather(first(), rooms.get(game_id))
    assert second is not None and let_go is not None
    assert rooms.rooms.get(game_id) is second


@pytest.mark.anyio
async def test_a_refused_move_is_not_saved(store: Store) -> None:
    room = _room(store, "unstackable", {})
    with pytest.raises(Refused) as refused:
        await room.play(0, "K@0,0,3")
    assert refused.value.code == "illegal"
    info = store.load(room.id)
    assert info is not None and info.moves == () and room.ply == 0


def test_stored_moves_are_replayed_through_the_engine(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, _tokens = store.create("unstackable", {}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])
    # a row written behind the app's back, breaking the rules (a floating cube)
    store.add_move(game_id, 1, 0, "K@2,2,2", None)
    info = store.load(game_id)
    assert info is not None
    with pytest.raises(RoomError) as broken:
        replay(info)
    # anyone who opens the game is told `told`: the move (maybe a secret one) and the
    # rules' reason are for the server's log only
    assert re.fullmatch(r"move 1 of game .* no longer replays", broken.value.told)
    assert "move 1 (K@2,2,2) of game" in str(broken.value)


def test_a_game_that_no_longer_replays_is_told_not_shown(client: TestClient) -> None:
    store: Store = client.app.state.server.store
    game_id, _tokens = store.create("unstackable", {}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])
    store.add_move(game_id, 1, 0, "K@2,2,2", None)
    with connect(client, game_id) as session:
        ws = Socket(session)
        said = ws.receive()
        closed = ws.receive()
    assert said["type"] == "error" and "no longer replays" in said["message"]
    assert closed == {"type": "closed", "code": 4500}
