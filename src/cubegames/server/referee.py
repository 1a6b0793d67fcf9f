"""Games that end without a move: out of time, resigned, aborted; and seats handed to the
bot. The referee of one server process acts for the games whose lease it holds (`lease`),
so with `--workers N` one process, never two, times a game out.

- **Out of time** (`check_clocks`, every `Limits.clock_check_seconds`): the games whose
  stored deadline has passed (`Store.due`) are read again (a move saved just in time
  counts); in a 2-seat game the other seat wins, with more seats the late seat is handed
  to the greedy bot (BGA's "zombie": it plays on, so the game never ends early for the
  others) and the record says from which move (`seats.zombie_from`).
- **Resign** (`resign`, any time): in a 2-seat game the other seat wins; with more seats
  the seat goes to the bot as above.
- **Abort** (`abort`, before every person's seat has moved): the game ends with no winner.
- **Gone** (`claim`): a real-time player whose page has been gone on their own turn for
  longer than the grace (`TimeControl.grace`: lichess's 40 s scaled by the time control,
  at least 10 s) may be claimed against by another seat: the win (2 seats) or their seat
  handed to the bot. Until a claim, they may come back. Whether a page is open is asked of
  every process on the database (`presence`), so claims work with `--workers N`.
- **Take-backs across turns** (`ask_undo`, `answer_undo`): the request and its answers
  are counted in the database (`undoasks`), so the people may answer on any process.

A game that ends so is stored as finished with a `result` holding the scores as they
stood, the winners, `ended` (`time`, `resigned`, `gone`, `aborted`) and the seat it was
about;
every process's pages are told through the bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from cubegames.core import chance
from cubegames.server import undoasks
from cubegames.server.bots import BotRunner
from cubegames.server.bus import Bus
from cubegames.server.lease import Leases
from cubegames.server.presence import LocalPresence, Presence
from cubegames.server.rooms import Full, Refused, Room, RoomError, Rooms, UndoAsk
from cubegames.server.storage import HUMAN, Store
from cubegames.server.takeback import reveals, shows

log = logging.getLogger("cubegames.server")

#: the bot a seat is handed to (out of time, gone, resigned in a game of 3 or more)
ZOMBIE = "greedy"


class Referee:
    """Ends games without a move and hands seats to the bot (see the module)."""

    def __init__(
        self,
        store: Store,
        rooms: Rooms,
        runner: BotRunner,
        leases: Leases,
        bus: Bus,
        clock: Callable[[], datetime],
        presence: Presence | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.runner = runner
        self.leases = leases
        self.bus = bus
        self.clock = clock
        #: who has a page open, over every process on the database (`presence`)
        self.presence: Presence = presence or LocalPresence()
        #: says a system line at a table's chat (`chat.Chats.system`: the game, the kind,
        #: seats and counts); None: no chat
        self.said: Callable[..., Awaitable[None]] | None = None

    async def _say(self, game_id: str, kind: str, **params: Any) -> None:
        if self.said is not None:
            await self.said(game_id, kind, **params)

    # -- the clocks -----------------------------------------------------------------------

    async def check_clocks(self) -> list[str]:
        """Time out every game whose deadline has passed and whose lease this process
        holds or takes; the ids of the games timed out."""
        moment = self.clock().timestamp()
        done: list[str] = []
        for game_id in await asyncio.to_thread(self.store.due, moment):
            if not await self.leases.take(game_id):
                continue  # another process looks after this game
            try:
                room = await self.rooms.get(game_id)
            except (RoomError, Full) as exc:
                log.warning("game %s is not timed out: %s", game_id, exc)
                await self.leases.give(game_id)
                continue
            if room is None:
                await self.leases.give(game_id)
                continue
            try:
                async with room.lock:
                    with contextlib.suppress(RoomError):
                        await room.catch_up()
                    if await self._time_out(room):
                        done.append(game_id)
            except Refused as exc:  # another process was first: nothing more to do here
                log.info("game %s is not timed out: %s", game_id, exc)
            finally:
                if not self.runner.busy(room):
                    await self.leases.give(game_id)
                self.rooms.release(room, self.runner.busy(room))
        return done

    async def _time_out(self, room: Room) -> bool:
        """Time out the seat to move if its time is up (call with the lock held); else
        put the stored deadline right (it was from before a move saved meanwhile)."""
        at = self.clock()
        seat = room.clocks.running()
        if seat is None or not room.clocks.late(at.timestamp()):
            await asyncio.to_thread(
                self.store.set_deadline, room.id, None if room.over else room.clocks.deadline()
            )
            return False
        await self._lose(room, seat, "time", at)
        return True

    # -- asked by a seat ------------------------------------------------------------------

    async def resign(self, room: Room, seat: int) -> None:
        """`seat` resigns (Refused if the game is over or the seat is a bot's)."""
        async with room.lock:
            if room.over:
                raise Refused("the game is over", "over")
            if seat in room.bot_seats:
                raise Refused(f"seat {seat} is played by a bot", "bot-seat")
            await self._lose(room, seat, "resigned", self.clock())

    async def abort(self, room: Room, seat: int) -> None:
        """`seat` ends the game with no result: only before every person's seat has
        moved (Refused after, or when the game is over)."""
        async with room.lock:
            if room.over:
                raise Refused("the game is over", "over")
            people = {s.seat for s in room.seats if s.kind == HUMAN}
            moved = {p.seat for p in room.played}
            if people <= moved:
                raise Refused(
                    "every player has moved: the game can no longer be aborted "
                    "(you may resign instead)",
                    "abort-late",
                )
            result = {
                "scores": room.state.scores(),
                "winners": [],
                "ended": "aborted",
                "seat": seat,
            }
            await self._finish(room, result, self.clock())

    async def claim(self, room: Room, seat: int, outcome: str) -> None:
        """`seat` claims against the seat to move of a real-time game, gone (no page)
        for longer than the grace: `win` (a 2-seat game) or `bot` (its seat goes to the
        bot). Refused while the absent player may still come back."""
        async with room.lock:
            if room.over:
                raise Refused("the game is over", "over")
            if seat in room.bot_seats:
                raise Refused(f"seat {seat} is played by a bot", "bot-seat")
            control = room.clocks.control
            absent = room.clocks.running()
            if control.kind != "realtime" or absent is None or absent == seat:
                raise Refused(
                    "there is nothing to claim: only a real-time player who is gone on "
                    "their own turn can be claimed against",
                    "claim-none",
                )
            at = self.clock()
            gone = await self.presence.gone_for(room, absent, at.timestamp())
            grace = control.grace()
            if gone < grace:
                if gone == 0:
                    raise Refused(f"seat {absent} is here: there is nothing to claim", "claim-none")
                raise Refused(
                    f"seat {absent} may still come back: you can claim once they have been "
                    f"gone {grace:g} seconds ({grace - gone:.0f} more)",
                    "claim-early",
                )
            if outcome == "win":
                if room.game.players != 2:
                    raise Refused(
                        "with more than two players the game goes on: hand the seat to "
                        "the bot instead",
                        "claim-none",
                    )
                await self._lose(room, absent, "gone", at)
            else:
                await self._lose(room, absent, "gone", at, to_bot=True)

    async def undo(self, room: Room, seat: int) -> int:
        """Take back `seat`'s last move and the bots' replies since (BGA's policy, see
        `takeback`); the number of moves taken back. Refused (saying why) when the turn
        has passed to another person (then the others may agree: `ask_undo`), when a
        chance event or hidden information came out since, or when the game is over."""
        async with room.lock:
            first = self._undoable(room, seat)
            bots = room.bot_seats
            to_move = room.state.to_move
            if any(p.seat not in bots for p in room.played[first:]) or (
                to_move is not None and to_move != seat and to_move not in bots
            ):
                raise Refused(
                    "the turn has passed to another player: ask them to agree to take it back",
                    "undo-passed",
                )
            taken = await self._take_back(room, seat, first)
        self.runner.wake(room)
        return taken

    async def ask_undo(self, room: Room, seat: int) -> None:
        """`seat` asks the other people of the game to agree to take back its last move
        and every move since (each answers with `answer_undo`)."""
        async with room.lock:
            first = self._undoable(room, seat)
            others = {s.seat for s in room.seats if s.kind == HUMAN} - {seat}
            asking = UndoAsk(seat, first, room.ply, frozenset(others), frozenset())
            await asyncio.to_thread(undoasks.put, self.store, room.id, asking)
            room.asking = asking
            room.tell_undo("asked", seat)
            event = {"kind": "undo-ask", "game": room.id, "seat": seat, "first": first}
            event |= {"last": asking.last, "waiting": sorted(others)}
            await asyncio.to_thread(self.bus.publish, event)

    async def answer_undo(self, room: Room, seat: int, accept: bool) -> None:
        """`seat` agrees to (or declines) the take-back another seat asked for; once
        every other person agreed, the moves are taken back."""
        async with room.lock:
            with contextlib.suppress(RoomError):  # the answer counts in the stored game
                await room.catch_up()
            if room.over:
                room.asking = None
                raise Refused("nobody is asking to take a move back", "undo-none")
            bots = frozenset(room.bot_seats)
            if seat in bots:  # its player resigned or left: the bot has no say
                raise Refused(f"seat {seat} is played by a bot", "bot-seat")
            # counted in the database: the others may answer on other processes
            outcome, asking = await asyncio.to_thread(
                undoasks.answer, self.store, room.id, seat, accept, bots
            )
            if outcome == "none" or asking is None:
                room.asking = None
                raise Refused("nobody is asking to take a move back", "undo-none")
            if outcome == "not-yours":
                raise Refused("this request is not yours to answer", "undo-none")
            if outcome == "declined":
                await self._tell_request(room, seat, "declined", None)
                return
            if outcome == "agreed":
                await self._tell_request(room, seat, "agreed", asking)
                return
            room.asking = None
            self._chance_since(room, asking.first)
            await self._take_back(room, asking.seat, asking.first)
        self.runner.wake(room)

    def _undoable(self, room: Room, seat: int) -> int:
        """The first move `seat` would take back (its last one), checked: the game in play,
        a person's seat with a move, no chance since (call with the lock held)."""
        if room.over:
            raise Refused("the game is over", "over")
        if seat in room.bot_seats:
            raise Refused(f"seat {seat} is played by a bot", "bot-seat")
        if room.info.rated:
            raise Refused("a rated game's moves cannot be taken back", "undo-rated")
        most = self.runner.limits.takebacks_per_game
        if len(room.info.takebacks) >= most:
            raise Refused(
                f"this game has had {most} take-backs, the most a game may have", "undo-many"
            )
        mine = [p.ply for p in room.played if p.seat == seat]
        if not mine:
            raise Refused("you have no move to take back", "undo-none")
        self._chance_since(room, mine[-1])
        return mine[-1]

    def _chance_since(self, room: Room, first: int) -> None:
        """Refused if a move from `first` on drew on chance or hidden information, or was a
        bot's that showed a person what was hidden from them (`takeback.shows`)."""
        # dealt in the chance version the game was made with (a record or a game of an
        # older release deals otherwise: its moves would not replay on today's deal)
        state = chance.new_state(room.game, room.info.seed, room.info.chance)
        for p in room.played[: first - 1]:
            state.play(p.move, seat=p.seat)
        players = room.game.players
        bots = room.bot_seats
        people = [s.seat for s in room.seats if s.kind == HUMAN]
        for p in room.played[first - 1 :]:
            after = state.clone()
            after.play(p.move, seat=p.seat)
            if reveals(state, after, players):
                raise Refused(
                    "chance or a hidden piece came out since that move (a draw, a roll): "
                    "it can no longer be taken back",
                    "undo-chance",
                )
            if p.seat in bots and shows(state, after, people):
                # taken back, the bot's piece would be hidden again, and known: move
                # after move, a person would see its whole hand
                raise Refused(
                    f"the bot of seat {p.seat} has shown a piece of its hidden hand since "
                    "that move: it can no longer be taken back",
                    "undo-hidden",
                )
            state = after

    async def _take_back(self, room: Room, seat: int, first: int) -> int:
        """Take back moves `first` on (call with the lock held, checks made)."""
        at = self.clock()
        taken = await asyncio.to_thread(
            self.store.take_back, room.id, first, room.ply, seat, None, at
        )
        if taken is None:
            raise Refused("the game has moved on: look again", "stale")
        info = await asyncio.to_thread(self.store.load, room.id)
        if info is None:
            raise Refused("the game is gone", "storage")
        room.rewind(info)
        await asyncio.to_thread(self.store.set_deadline, room.id, room.clocks.deadline())
        # a bot thinking meanwhile finds the game changed, and thinks again if it is
        # still to move
        await asyncio.to_thread(
            self.bus.publish, {"kind": "undo", "game": room.id, "ply": first - 1}
        )
        await self._say(room.id, "takeback", seat=seat, count=len(taken))
        return len(taken)

    # -- the outcomes ---------------------------------------------------------------------

    async def _lose(
        self,
        room: Room,
        seat: int,
        how: str,
        at: datetime,
        to_bot: bool = False,
    ) -> None:
        """`seat` is out (`how`: time, resigned, gone): the other seat wins a 2-seat game
        (unless `to_bot`), a game played alone ends with no winner; with more seats the
        bot plays `seat` on (so that the game goes on for the others)."""
        if room.game.players <= 2 and not to_bot:
            result: dict[str, Any] = {
                "scores": room.state.scores(),
                "winners": [1 - seat] if room.game.players == 2 else [],
                "ended": how,
                "seat": seat,
            }
            await self._finish(room, result, at)
            return
        ply = room.ply + 1
        bots = room.clocks.bots | {seat}
        deadline = None if room.clocks.to_move in bots else room.clocks.deadline()
        handed = await asyncio.to_thread(self.store.zombify, room.id, seat, ply, ZOMBIE, deadline)
        if not handed:
            raise Refused(f"seat {seat} is played by a bot already", "bot-seat")
        room.hand_to_bot(seat, ZOMBIE, ply)
        await asyncio.to_thread(
            self.bus.publish,
            {
                "kind": "seat",
                "game": room.id,
                "seat": seat,
                "how": "zombie",
                "from": ply,
                "bot": ZOMBIE,
            },
        )
        await self._say(room.id, "zombie", seat=seat, how=how)
        await self._settle_undo(room, seat)
        self.runner.wake(room)

    async def _tell_request(
        self, room: Room, seat: int, event: str, asking: UndoAsk | None
    ) -> None:
        """The request stands as `asking` after `seat`'s answer or hand-over (None: it
        ended, `declined` or `withdrawn`): this room's pages are told `event`, the other
        processes the request's end or who has agreed so far."""
        room.asking = asking
        room.tell_undo(event, seat)
        said: dict[str, Any] = {"kind": "undo-answer", "game": room.id, "seat": seat}
        if asking is None:
            said["event"] = event
        else:
            said |= {"event": "agreed", "agreed": sorted(asking.agreed)}
        await asyncio.to_thread(self.bus.publish, said)

    async def _settle_undo(self, room: Room, seat: int) -> None:
        """`seat` was just handed to the bot (call with the lock held): a take-back it
        asked for is void, and one it was the last to answer is taken back, as nobody is
        left to answer it (else it would wait until the next move voids it)."""
        bots = frozenset(room.bot_seats)
        outcome, asking = await asyncio.to_thread(undoasks.settle, self.store, room.id, bots)
        if outcome == "none" or asking is None:
            room.asking = None
            return
        if outcome == "void":
            await self._tell_request(room, seat, "withdrawn", None)
            return
        if outcome == "waiting":
            await self._tell_request(room, seat, "waiting", asking)
            return
        room.asking = None
        try:
            self._chance_since(room, asking.first)
            await self._take_back(room, asking.seat, asking.first)
        except Refused as exc:  # nobody to tell but the pages: the request ends
            log.info("a take-back agreed by all in game %s was not made: %s", room.id, exc)
            room.tell_undo("withdrawn", seat)

    async def _finish(self, room: Room, result: dict[str, Any], at: datetime) -> None:
        if not await asyncio.to_thread(self.store.finish, room.id, result, room.ply, at):
            raise Refused("the game has ended already", "over")
        room.end(result)
        self.runner.cancel(room.id)
        await asyncio.to_thread(
            self.bus.publish, {"kind": "ended", "game": room.id, "result": result}
        )
        ended = result.get("ended")
        if isinstance(ended, str) and ended in ("time", "resigned", "gone", "aborted"):
            await self._say(room.id, ended, seat=result.get("seat"))

    async def check_forever(self, seconds: float, stopping: asyncio.Event) -> None:
        """`check_clocks` every `seconds` until `stopping` is set."""
        while not stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), seconds)
            if stopping.is_set():
                return
            try:
                await self.check_clocks()
            except Exception:  # the database may be away for a moment: try again later
                log.exception("the clocks could not be checked")


__all__ = ["ZOMBIE", "Referee"]
