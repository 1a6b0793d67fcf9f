"""The end of a round is looked at before the next starts: a room holds the next round for
the people with a page open until each has said `ready` or `ROUND_PAUSE` is over on the
room's clock (injected here, so nothing sleeps); bots wait too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cubegames.server import rooms
from cubegames.server.bots import BotRunner
from cubegames.server.rooms import Peer, Refused, Room, replay, rounds_done
from cubegames.server.storage import HUMAN, NewSeat, Store
from tests.server.helpers import Seconds


class Page:
    """A page that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, message: str) -> None:
        self.sent.append(json.loads(message))


def _room(store: Store, clock: Seconds, game_id: str | None = None) -> Room:
    """A room of a new two-round CUBED game (or of the stored game `game_id`)."""
    if game_id is None:
        seats = [NewSeat(HUMAN), NewSeat(HUMAN)]
        game_id, _tokens = store.create("cubed", {"players": 2, "rounds": 2}, 7, seats)
    info = store.load(game_id)
    assert info is not None
    built, state, played = replay(info)
    return Room(info, built, state, played, store, pause_clock=clock)


async def _to_round_end(room: Room) -> None:
    """Play the first legal move of whoever is to move until round 1 is over."""
    while rounds_done(room.state) == 0:
        seat = room.state.to_move
        assert seat is not None
        await room.play(seat, str(room.state.legal_moves()[0]), room.ply)


async def _seen_by_seat_0_only(room: Room) -> None:
    """Both seats watch from a page; round 1 is played out, and seat 0 has seen its end."""
    room.join(Peer(Page(), 0))
    room.join(Peer(Page(), 1))
    await _to_round_end(room)
    room.ready(0)


@pytest.mark.anyio
async def test_the_next_round_waits_until_every_player_has_seen_the_end(store: Store) -> None:
    clock = Seconds(100.0)
    room = _room(store, clock)
    pages = [Page(), Page()]

    async def game() -> None:
        for seat, page in enumerate(pages):
            room.join(Peer(page, seat))
        await _to_round_end(room)
        assert room.pause is not None and room.pause.waiting == {0, 1}
        seat = room.state.to_move
        assert seat is not None
        move = str(room.state.legal_moves()[0])
        with pytest.raises(Refused) as refused:
            await room.play(seat, move, room.ply)
        assert refused.value.code == "paused"
        room.ready(0)
        assert room.paused()  # one player still looks
        room.ready(1)
        assert not room.paused()
        await room.play(seat, move, room.ply)  # round 2 is on

    await game()


@pytest.mark.anyio
async def test_the_pages_are_told_of_the_pause_and_of_its_end(store: Store) -> None:
    clock = Seconds(100.0)
    room = _room(store, clock)
    page = Page()

    async def game() -> None:
        peer = Peer(page, 0)
        room.join(peer)
        await _to_round_end(room)
        await peer.flush()
        told = room.state_message(0)["pause"]
        assert told == {"round": 1, "waiting": [0], "seconds": rooms.ROUND_PAUSE}
        mover = room.state.to_move
        assert mover is not None
        assert room.state_message(mover)["legal"] == []  # nothing to play while it is looked at
        room.ready(0)
        await peer.flush()
        assert room.state_message(0)["pause"] is None
        assert room.state_message(mover)["legal"]

    await game()
    patches = [m for m in page.sent if m["type"] == "patch"]
    assert any(["=", ["pause"], None] in p["ops"] for p in patches), patches[-1]


@pytest.mark.anyio
async def test_the_countdown_starts_the_next_round_without_a_player_who_looks_away(
    store: Store,
) -> None:
    clock = Seconds(100.0)
    room = _room(store, clock)

    async def game() -> None:
        await _seen_by_seat_0_only(room)
        clock.now += rooms.ROUND_PAUSE - 1
        assert room.paused()
        clock.now += 1
        assert not room.paused()
        seat = room.state.to_move
        assert seat is not None
        await room.play(seat, str(room.state.legal_moves()[0]), room.ply)

    await game()


@pytest.mark.anyio
async def test_nobody_watching_means_no_pause(store: Store) -> None:
    room = _room(store, Seconds(100.0))
    await _to_round_end(room)
    assert room.pause is None


@pytest.mark.anyio
async def test_a_bot_does_not_start_the_next_round_while_it_is_looked_at(store: Store) -> None:
    clock = Seconds(100.0)
    room = _room(store, clock)

    async def game() -> None:
        room.join(Peer(Page(), 0))
        await _to_round_end(room)
        room.seats = tuple(
            s if s.seat == 0 else type(s)(s.seat, "bot", "random", None) for s in room.seats
        )
        runner = BotRunner(executor=None, delay=0)
        runner.bots[room.id] = {1: None}
        woken: list[Room] = []
        room.on_move = woken.append
        assert room.state.to_move == 1  # this deal's round 2 starts with the bot
        runner.wake(room)
        assert not runner.busy(room)  # no bot task while the round's end is looked at
        room.ready(0)
        assert woken == [room]  # the end of the pause wakes the bots

    await game()


# -- several processes on one database (`serve --workers N`): the bus carries the pause --


def _shared_room(store: Store, clock: Seconds, told: list[dict[str, Any]]) -> Room:
    """A room of a process that has others beside it: what it announces goes to `told`."""
    room = _room(store, clock)
    room.announce = told.append
    return room


@pytest.mark.anyio
async def test_a_pause_and_each_ready_are_told_to_the_other_processes(store: Store) -> None:
    clock = Seconds(100.0)
    told: list[dict[str, Any]] = []
    room = _shared_room(store, clock, told)

    async def game() -> None:
        room.join(Peer(Page(), 0))
        await _to_round_end(room)
        assert told == [{"kind": "pause", "game": room.id, "round": 1, "seats": [0]}]
        room.ready(0)
        assert told[-1] == {"kind": "ready", "game": room.id, "round": 1, "seat": 0}
        room.ready(0)  # said twice: told once
        assert len(told) == 2

    await game()


@pytest.mark.anyio
async def test_a_process_with_no_page_holds_its_bots_until_the_others_pages_are_ready(
    store: Store,
) -> None:
    """The game's bots run in a process where no page looks at the round's end: the next
    round waits `PAUSE_NEWS` to hear whether a page elsewhere does; the news that one
    does holds it (past that wait) until that page is ready, then the bots are woken."""
    clock = Seconds(100.0)
    told: list[dict[str, Any]] = []
    room = _shared_room(store, clock, told)
    woken: list[Room] = []

    async def game() -> None:
        await _to_round_end(room)
        room.on_move = woken.append
        assert room.paused() and told == []  # waits to hear from the others
        assert room.state_message(0)["pause"] is None  # nobody here to wait for
        room.heard_pause(1, {0})
        clock.now += rooms.PAUSE_NEWS + 1
        assert room.paused() and room.state_message(0)["pause"]["waiting"] == [0]
        room.heard_ready(2, 0)  # another round's word changes nothing
        assert room.paused() and woken == []
        room.heard_ready(1, 0)
        assert not room.paused() and woken == [room]
        room.heard_pause(1, {0})  # late news of a seat that said ready: nothing
        assert room.pause is None

    await game()


@pytest.mark.anyio
async def test_without_news_from_the_others_the_round_starts_after_their_wait(
    store: Store,
) -> None:
    clock = Seconds(100.0)
    room = _shared_room(store, clock, [])

    async def game() -> None:
        await _to_round_end(room)
        assert room.paused()
        clock.now += rooms.PAUSE_NEWS
        assert not room.paused()

    await game()


@pytest.mark.anyio
async def test_a_move_of_the_next_round_from_another_process_ends_the_pause_here(
    store: Store,
) -> None:
    clock = Seconds(100.0)
    room = _shared_room(store, clock, [])

    async def game() -> None:
        room.join(Peer(Page(), 0))
        await _to_round_end(room)
        assert room.paused()
        other = _room(store, clock, room.id)  # another process's room: no pause there
        seat = other.state.to_move
        assert seat is not None and other.pause is None
        await other.play(seat, str(other.state.legal_moves()[0]), other.ply)
        stored = store.load(room.id)
        assert stored is not None
        assert room.hear(stored.moves[-1])
        assert room.pause is None and room.ply == other.ply

    await game()


@pytest.mark.anyio
async def test_a_seat_handed_to_the_bot_at_the_round_end_is_no_longer_waited_for(
    store: Store,
) -> None:
    """Seat 0 has seen the end and said so; seat 1 resigns (or is claimed against) while
    the end is shown: its seat goes to the bot, which does not look, so the next round
    starts at once instead of at the end of the countdown."""
    clock = Seconds(100.0)
    room = _room(store, clock)

    async def game() -> None:
        await _seen_by_seat_0_only(room)
        assert room.paused()
        room.hand_to_bot(1, "greedy", room.ply + 1)
        assert not room.paused()
        assert room.pause is None and clock.now == 100.0

    await game()
