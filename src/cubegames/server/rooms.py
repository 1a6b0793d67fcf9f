"""Live games: each game being watched or played has a `Room` holding its state (rebuilt
from the stored moves), the pages connected to it, and its bots.

A move goes: lock the room → check seat, turn and the engine's rules on a copy of the
state → commit it to the database → only then swap the copy in and send every page its
own new view. A refused move changes nothing; a page that cannot be reached is dropped,
but the move it missed is already saved. One lock per room serialises moves, so two
clicks, two pages or a page and a bot can never both play move 12; across servers on one
database, the key (game, move number) does: the second server's move 12 is not saved
(`Taken`), its room catches up with the stored moves and checks the move again.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, cast

from fastapi import WebSocket
from sqlalchemy.exc import IntegrityError

from cubegames.core import chance
from cubegames.core.capabilities import LegalTexts, SharedViews, conforms
from cubegames.core.errors import UNREADABLE, IllegalMove, Refusal
from cubegames.core.game import Game, State
from cubegames.core.phrase import Phrase
from cubegames.core.registry import make
from cubegames.render import web
from cubegames.server.catalog import rules
from cubegames.server.clocks import Clocks, TimeControl
from cubegames.server.frames import Writer as FrameWriter
from cubegames.server.frames import writer_of
from cubegames.server.protocol import PROTOCOL, Connection, diff, encode, error
from cubegames.server.storage import (
    BOT,
    FINISHED,
    GameInfo,
    MoveInfo,
    NewMove,
    SeatInfo,
    Store,
    now,
)
from cubegames.server.writer import Writer

log = logging.getLogger("cubegames.server")

#: seconds a page gets to take one message before it is dropped
SEND_TIMEOUT = 5.0
#: messages waiting for a page that is slow to read before it is dropped
OUTBOX = 64
#: log entries sent with each state (the newest ones)
LOG_LENGTH = 400
#: seconds the end of a round stays on every screen, at most, before the next round starts
#: without the players who have not pressed "Next round" (docs/protocol.md, `ready`)
ROUND_PAUSE = 20.0
#: seconds the next round waits, with several processes on one database, to hear from
#: the others which of their pages look at the round's end (`Room.heard_pause`), even
#: when no page of this process does (a process running only the game's bots); the bus
#: delivers in milliseconds, so this only bounds a bus that is slow or away
PAUSE_NEWS = 2.0


def rounds_done(state: State[Any]) -> int:
    """Rounds a state has finished (CUBED's `past_rounds`, STAKD's `round_winners`, CUBES's
    `past_sets`; 0 for a game played in one go)."""
    for name in ("past_rounds", "round_winners", "past_sets"):
        done = getattr(state, name, None)
        if done is not None:
            return len(done)
    return 0


@dataclass
class RoundPause:
    """The end of a round being looked at: the next round waits for `waiting` (seats of
    people with a page open when the round ended) until `until` on the room's clock."""

    round: int
    waiting: set[int]
    until: float
    #: with several processes: the next round waits at least until then for the other
    #: processes to say which of their pages look (`PAUSE_NEWS`); 0 with one process
    news_until: float = 0.0
    #: seats whose players said `ready` (here or on another process): news of them
    #: looking that comes late does not put them back into `waiting`
    ready: set[int] = field(default_factory=set)

    def over(self, now: float) -> bool:
        """Whether the next round may start: everyone ready (and the other processes had
        the time to speak), or the countdown over."""
        return now >= self.until or (not self.waiting and now >= self.news_until)

    def message(self, now: float) -> dict[str, Any]:
        """What a state message says of it: the round that ended, who the next waits for,
        and the seconds left at most."""
        left = max(0.0, self.until - now)
        return {"round": self.round, "waiting": sorted(self.waiting), "seconds": round(left, 1)}


class Refused(Exception):
    """A move or request the room turns down; `str()` is the reason, `code` its kind, and
    for a move the rules refuse (`illegal`) `refusal` the rules' reason as data."""

    def __init__(self, message: str, code: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.refusal = refusal


class Taken(Refused):
    """The move number was taken by another server first (the room is behind)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "stale")


class RoomError(Exception):
    """A stored game that cannot be rebuilt (its moves no longer replay). `str()` names
    the move and the engine's reason, for the server's log; `told` is what a page or a
    program may be told, which names neither (a move's notation, or the reason, may name
    a piece of a hidden hand: a kept draw, a bot's placement)."""

    def __init__(self, message: str, told: str | None = None) -> None:
        super().__init__(message)
        self.told = told if told is not None else message


class Full(Exception):
    """The server holds as many live games as it may; `str()` says so."""


@dataclass(frozen=True)
class Played:
    """A move in the room's history: its number, seat and notation, and what it did as
    anyone may know it (CUBES tells what a roll did; None for other games)."""

    ply: int
    seat: int
    move: str
    note: str | None
    #: the round it was played in (1 for a game played in one go)
    round: int = 1
    #: when it was played (None: not known, as in a replay of a record)
    at: datetime | None = None
    #: the seat had no other legal move (a timed game's clock does not charge it)
    forced: bool = False
    #: `note` as a phrase of the catalogs (`[key, params]`: the page words it), or None
    note_say: list[Any] | None = None


@dataclass(frozen=True)
class UndoAsk:
    """A seat asks the others to agree to take back moves `first` to `last`: the people
    it waits for, and those who agreed so far."""

    seat: int
    first: int
    last: int
    waiting: frozenset[int]
    agreed: frozenset[int]


def forced(state: State[Any]) -> bool:
    """Whether the seat to move has exactly one legal move, and everyone can know it: a
    seat that sees something the others do not (a hidden hand) is never counted forced,
    since a clock that did not run would tell the others that nothing in its hand fits."""
    seat = state.to_move
    if seat is None:
        return False
    mine = {k: v for k, v in state.view(seat).items() if k != "seat"}
    public = {k: v for k, v in state.public_view().items() if k != "seat"}
    if mine != public:
        return False
    if conforms(state, LegalTexts):  # written without making the moves
        return len(cast(LegalTexts, state).legal_texts()) == 1
    return len(state.legal_moves()) == 1


def result_of(state: State[Any]) -> dict[str, Any]:
    """The end of a game: each seat's score and the winners."""
    return {"scores": state.scores(), "winners": state.winners()}


def replay(info: GameInfo, upto: int | None = None) -> tuple[Game[Any], State[Any], list[Played]]:
    """The game of `info` rebuilt through the engine, move by move, up to move `upto`
    (all of them by default), dealt in the chance version it was made with. RoomError
    names the first move that no longer replays."""
    try:
        game = make(info.game, **info.options)
        state = chance.new_state(game, info.seed, info.chance)
    except (ValueError, TypeError) as exc:
        raise RoomError(f"game {info.id} cannot be set up: {exc}") from None
    played: list[Played] = []
    tells = web.tells(game)
    timed = TimeControl.from_json(info.time_control).timed
    for m in info.moves[:upto] if upto is not None else info.moves:
        round_ = rounds_done(state) + 1
        only = timed and forced(state)
        try:
            state.play(m.move, seat=m.seat)
        except IllegalMove as exc:
            raise RoomError(
                f"move {m.ply} ({m.move}) of game {info.id} no longer replays: {exc}",
                f"move {m.ply} of game {info.id} no longer replays",
            ) from None
        note, note_say = web.telling(game, state.public_view()) if tells else (None, None)
        played.append(Played(m.ply, m.seat, m.move, note, round_, m.played_at, only, note_say))
    return game, state, played


def bots_at(seats: tuple[SeatInfo, ...], ply: int) -> frozenset[int]:
    """The seats played by a bot at move `ply` (a seat handed to the bot counts from
    the move it was handed over at)."""
    return frozenset(
        s.seat for s in seats if s.kind == BOT and (s.zombie_from is None or s.zombie_from <= ply)
    )


def run_clocks(info: GameInfo, players: int, played: list[Played], to_move: int | None) -> Clocks:
    """The clocks of a game as its stored moves ran them (`clocks`); `to_move` is the
    seat to move after the last of `played`."""
    control = TimeControl.from_json(info.time_control)
    first = played[0].seat if played else to_move
    clocks = Clocks.start(
        control, players, info.created_at.timestamp(), first, bots_at(info.seats, 1)
    )
    for i, p in enumerate(played):
        following = played[i + 1].seat if i + 1 < len(played) else to_move
        clocks.bots = bots_at(info.seats, p.ply)
        at = p.at.timestamp() if p.at is not None else clocks.since
        clocks.after(p.seat, at, p.forced, following)
    clocks.bots = bots_at(info.seats, len(played) + 1)
    return clocks


class Watchdog:
    """A time limit on each of a task's waits of one kind (for a page's next message, for
    a send to a page), as `asyncio.timeout` gives, but for a wait that comes back over and
    over in a busy loop: `asyncio.timeout` arms and cancels a timer per wait, this arms at
    most one per `seconds`. Mark each wait with `begin()` and `end()`; a wait still running
    `seconds` after its `begin()` has its task cancelled, and `expired()`, asked where the
    `CancelledError` is caught, is True for that cancellation (and takes it back)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None, "a Watchdog watches the task that makes it"
        self._task = task
        self._since: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._fired = False

    def begin(self) -> None:
        """A wait starts now."""
        self._since = self._loop.time()
        if self._timer is None:
            self._timer = self._loop.call_at(self._since + self.seconds, self._check)

    def end(self) -> None:
        """The wait is over (in time)."""
        self._since = None

    def _check(self) -> None:
        self._timer = None
        if self._since is None:
            return  # no wait running: the next `begin` arms the timer again
        due = self._since + self.seconds
        if self._loop.time() >= due:
            self._fired = True
            self._task.cancel()
        else:  # a later wait than the one the timer was armed for
            self._timer = self._loop.call_at(due, self._check)

    def expired(self) -> bool:
        """Whether the `CancelledError` being handled is this watchdog's (a wait that
        ran out of time) and nobody else's; if so it is taken back (`Task.uncancel`)."""
        if not self._fired:
            return False
        self._fired = False
        return self._task.uncancel() == 0

    def close(self) -> None:
        """Stop watching."""
        self._since = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


async def _finish(sending: Coroutine[Any, Any, Any], waiting: Any) -> None:
    """Run the rest of the coroutine `sending`, which was started by hand and stopped at
    `waiting` (what it yielded: the future it waits for, None for a bare yield) as a task
    would run it: each time what it waits for is done, it goes on; a cancellation of the
    task running this, or a failure of what it waited for, is raised inside it."""
    while True:
        try:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                # taken, as a task takes what a coroutine yields (a future still marked
                # as yielded refuses a second await: "await wasn't used with future")
                waiting._asyncio_future_blocking = False
                await waiting
        except BaseException as exc:  # handed to the coroutine, as a task does
            try:
                waiting = sending.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting = sending.send(None)
            except StopIteration:
                return


class Peer:
    """One connected page: its websocket, its seat (None: a spectator) and its state.

    Sending never waits on the page: a page that stops reading cannot hold up a room
    (whose lock is held while a move is told) nor the other pages. A message is handed to
    the socket at once, by a plain call, when nothing is waiting before it; a send
    finishes there unless the socket's buffer is full (the page reads slowly), and then
    it is finished by a writer task of the peer's own, with the messages posted
    meanwhile queued after it, in order. A page that falls `OUTBOX` messages behind, or
    takes more than `SEND_TIMEOUT` seconds over one, is dropped. (A task and a queue hop
    for every message cost the server about a tenth of its CPU a move.)"""

    def __init__(self, socket: WebSocket, seat: int | None) -> None:
        self.socket = socket
        self.seat = seat
        self.state = Connection.SPECTATOR if seat is None else Connection.SEATED
        self._outbox: collections.deque[str] = collections.deque()
        #: the task finishing a send that could not finish at once (None: no send waits)
        self._writer: asyncio.Task[None] | None = None
        #: the last state this page was sent (without its log): patches are made against it
        self.shown: dict[str, Any] | None = None
        #: the connection's frame writer (`frames.writer_of`), looked up at first use
        self._frames: FrameWriter | None = None
        self._frames_known = False

    def update(self, message: dict[str, Any]) -> dict[str, Any]:
        """What to send this page so that it holds the state `message`: the whole of it
        the first time, afterwards a `patch` of what changed and the log's new entries."""
        doc = {k: v for k, v in message.items() if k not in ("type", "log")}
        before, self.shown = self.shown, doc
        if before is None:
            return message
        seen = before["ply"]
        log_entries = message["log"]
        first = len(log_entries)
        while first > 0 and log_entries[first - 1]["ply"] > seen:  # the newest are last
            first -= 1
        return {
            "type": "patch",
            "ply": doc["ply"],
            "from": seen,
            "ops": diff(before, doc),
            "log": log_entries[first:],
        }

    async def send(self, message: dict[str, Any] | str) -> bool:
        """Send one message, or its JSON text (`encode`), without waiting on the page;
        False (and the peer closed) if the page cannot take it."""
        return self.post(message)

    def post(self, message: dict[str, Any] | str) -> bool:
        """`send`, as a plain call (no coroutine to run for each page of a broadcast)."""
        if self.state is Connection.CLOSED:
            return False
        text = message if isinstance(message, str) else encode(message)
        if self._writer is not None:  # a send is under way: this one goes after it
            if len(self._outbox) >= OUTBOX:
                self.close()
                return False
            self._outbox.append(text)
            return True
        sending = self.socket.send_text(text)
        try:
            waiting = sending.send(None)
        except StopIteration:
            return True  # sent
        except Exception:  # a gone page may fail in many ways; the move is saved
            self.close()
            return False
        self._writer = asyncio.create_task(self._write(sending, waiting), name="page writer")
        return True

    def post_frame(self, frame: bytes, text: str) -> bool:
        """`post` of `text` whose frame (`frames.frame(text)`) was built once for many
        pages: written straight to the connection where the server offers that
        (`frames.writer_of`) and nothing waits to be sent before it, else posted."""
        if self._writer is None and self.state is not Connection.CLOSED:
            if not self._frames_known:
                self._frames = writer_of(getattr(self.socket, "scope", None) or {})
                self._frames_known = True
            write = self._frames
            if write is not None and write(frame):
                return True
        return self.post(text)

    async def _write(self, sending: Coroutine[Any, Any, Any] | None, waiting: Any) -> None:
        """Finish `sending` (stopped at `waiting`), then send what was queued after it."""
        slow = Watchdog(SEND_TIMEOUT)
        try:
            while True:
                slow.begin()
                try:
                    if sending is not None:
                        await _finish(sending, waiting)
                        sending = None
                    else:
                        await self.socket.send_text(self._outbox.popleft())
                except asyncio.CancelledError:
                    if not slow.expired():
                        raise
                    self.close()  # more than SEND_TIMEOUT over one message
                    return
                except Exception:  # a gone page may fail in many ways; the move is saved
                    self.close()
                    return
                finally:
                    slow.end()
                if not self._outbox:
                    return
        finally:
            slow.close()
            if self._writer is asyncio.current_task():
                self._writer = None

    async def flush(self) -> None:
        """Wait until every message posted went out (or the page was dropped)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.sleep(0.01)

    def close(self) -> None:
        """Stop sending to this page (its socket is closed if it still can be)."""
        if self.state is not Connection.CLOSED:
            self.state = Connection.CLOSED
        self._outbox.clear()
        writer = self._writer
        if writer is not None and not writer.done() and writer is not asyncio.current_task():
            writer.cancel()


class Room:
    """One live game."""

    def __init__(
        self,
        info: GameInfo,
        game: Game[Any],
        state: State[Any],
        played: list[Played],
        store: Store,
        writer: Writer | None = None,
        clock: Callable[[], datetime] = now,
        pause_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.id = info.id
        #: the server's clock (injectable: the tests' is a fake)
        self.clock = clock
        #: the clock of the pause after a round (`RoundPause`), injectable for tests
        self.pause_clock = pause_clock
        self.pause: RoundPause | None = None
        #: with several processes on one database: tells the others of a pause's seats
        #: (`{"kind": "pause", ...}`) and of a seat's `ready` (`{"kind": "ready", ...}`),
        #: which they take in with `heard_pause` and `heard_ready`; None with one process
        self.announce: Callable[[dict[str, Any]], None] | None = None
        #: the last pause that ended (news of it that comes late is checked against it)
        self._ended_pause: RoundPause | None = None
        self._rounds = rounds_done(state)
        #: commits moves in batches (None: one transaction per move, in a thread)
        self.writer = writer
        self.info = info
        self.game = game
        self.state = state
        #: how many times the position changed (a move, here or from another process, or
        #: a take-back): a bot that thought on an older position thinks again, even when
        #: a take-back and another move brought the game back to the same `ply`
        self.changes = 0
        self.played = played
        self.store = store
        self.seats: tuple[SeatInfo, ...] = info.seats
        #: the time control and the clocks it runs (`clocks`)
        self.clocks = run_clocks(info, game.players, played, state.to_move)
        #: the result of a game ended by no move (out of time, resigned, aborted), else None
        self.ended: dict[str, Any] | None = (
            info.result if info.status == FINISHED and not state.is_over else None
        )
        #: a take-back asked of the other people, while they answer (as this process
        #: knows it; the database's `undo_asks` counts the answers)
        self.asking: UndoAsk | None = None
        #: called when a seat is handed to the bot (the bot runner makes its bot)
        self.on_seats: Callable[[Room], None] | None = None
        #: called when a seat's first page here opens (True) or its last closes (False):
        #: other processes learn who is gone (`presence`)
        self.on_presence: Callable[[Room, int, bool], None] | None = None
        self.lock = asyncio.Lock()
        self.peers: set[Peer] = set()
        #: set by the bot runner: called after every move so bots can answer
        self.on_move: Callable[[Room], None] | None = None
        self.trouble: str | None = None
        #: the same as a phrase of the catalogs (`[key, params]`), for the page to word
        self.trouble_say: list[Any] | None = None
        #: when the game last moved (or was made), for the expiry of abandoned games
        self.last_active = info.moves[-1].played_at if info.moves else info.created_at
        #: when the room was loaded, and since when each seat has had no page here (a
        #: real-time player gone on their turn longer than the grace may be claimed against)
        self.loaded_at = clock().timestamp()
        self.away_since: dict[int, float] = {}
        #: every move's log entry as each viewer may read it, and its notation (None where
        #: it is secret from the viewer), made once
        self._entries: dict[int | None, list[dict[str, Any]]] = {}
        self._notations: dict[int | None, list[str | None]] = {}
        #: every move's notation, in order (kept up with `played`, for framed words)
        self._moves: list[str] = []
        #: the last move's phrase as sent (`ply`, phrase, `said`): viewers whose phrase is
        #: the same (most are: a seat is named by number) share one
        self._last_said: tuple[int, Phrase, list[Any]] | None = None
        self._hints: tuple[int, dict[str, Any] | None] | None = None
        self._tells = web.tells(game)
        #: parts of views shared from one message to the next, for games whose state
        #: can (`view_sharing`: CUBED's table entries); never changed once made
        self._shared: dict[Any, Any] = {}

    @property
    def ply(self) -> int:
        """Moves played so far."""
        return len(self.played)

    @property
    def over(self) -> bool:
        """Whether the game has ended (by its rules, or out of time, resigned, aborted)."""
        return self.state.is_over or self.ended is not None

    @property
    def to_move(self) -> int | None:
        """The seat to move, None once the game has ended."""
        return None if self.ended is not None else self.state.to_move

    def result(self) -> dict[str, Any] | None:
        """The game's result (None while it is played)."""
        if self.ended is not None:
            return self.ended
        return result_of(self.state) if self.state.is_over else None

    @property
    def bot_seats(self) -> set[int]:
        """Seats played by bots."""
        return {s.seat for s in self.seats if s.kind == BOT}

    def viewer(self, seat: int | None) -> int | None:
        """Whose view a page of `seat` is shown: the seat's own, or None (a spectator's)
        once the seat was handed to the bot (its player resigned, ran out of time or was
        claimed against): the seat's hand is the bot's from then on, and its player's old
        page or credential must not follow it."""
        if seat is None or all(s.zombie_from is None for s in self.seats if s.seat == seat):
            return seat
        return None

    def online(self) -> list[int]:
        """Seats with at least one page connected."""
        return sorted({p.seat for p in self.peers if p.seat is not None})

    # -- what a page is sent ----------------------------------------------------------------

    def hello(self, seat: int | None) -> dict[str, Any]:
        """The first message of a connection: who it is, and the game's fixed facts."""
        return {
            "type": "hello",
            "game_id": self.id,
            "game": self.game.id,
            "options": self.game.options,
            "players": self.game.players,
            "protocol": PROTOCOL,
            "seat": seat,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "invited": s.invited,
                    "reissued": s.reissued,
                    # a person's seat the bot plays from this move on (None: never)
                    "zombie_from": s.zombie_from,
                }
                for s in self.seats
            ],
            "info": web.info(self.game),
            "rules": rules(self.game.id, self.game.options),
            # its maker picked the deal and may know every hand (the page says so)
            "deal_picked": self.info.deal_picked,
            "public": self.info.public,
            # its seats are accounts' and go back to them by signing in, never reissued
            "rated": self.info.rated,
            # whether a seat may ever take a move back here: never at a rated table, nor in
            # a game whose every move is chance (the page then offers no take-back)
            "takebacks": type(self.game).info.takebacks and not self.info.rated,
        }

    def log_for(self, viewer: int | None) -> list[dict[str, Any]]:
        """The moves so far, in words `viewer` may read (newest `LOG_LENGTH`), each with
        its notation when `viewer` may read that too (else None)."""
        entries = self._entries.setdefault(viewer, [])
        if len(entries) < len(self.played):  # the moves since this viewer last asked
            notations = self._notations.setdefault(viewer, [])
            # a framed game's words need the moves before the one they tell
            so_far = self.moves() if web.framed(self.game) else []
            for p in self.played[len(entries) :]:
                earlier = so_far[: p.ply - 1]
                text, phrase = web.worded(self.game, p.move, p.seat, viewer, earlier)
                seen = web.visible(self.game, p.move, p.seat, viewer)
                notation = p.move if seen else None  # for the page's hover, when not secret
                entry: dict[str, Any] = {"ply": p.ply, "seat": p.seat, "text": text, "note": p.note}
                entry["move"] = notation
                # the words as the catalogs' phrases, which the page words in its language
                entry["say"] = self._said(p.ply, phrase)
                entry["note_say"] = p.note_say
                if p.round > 1:  # the round it was played in, from the second on
                    entry["round"] = p.round
                entries.append(entry)
                notations.append(notation)
        return entries[-LOG_LENGTH:]

    def moves(self) -> list[str]:
        """Every move's notation so far, in order (the room's own list: do not change it)."""
        moves = self._moves
        if len(moves) != len(self.played):
            if len(moves) > len(self.played):  # moves were taken back
                moves.clear()
            moves.extend(p.move for p in self.played[len(moves) :])
        return moves

    def _said(self, ply: int, phrase: Phrase | None) -> list[Any] | None:
        """`web.said(phrase)` for the move `ply`, one list for every viewer given the same
        phrase (its English may differ: "You" for its own seat), made once."""
        if phrase is None:
            return None
        last = self._last_said
        if (
            last is not None
            and last[0] == ply
            and last[1].key == phrase.key
            and last[1].params == phrase.params
        ):
            return last[2]
        said = web.said(phrase)
        assert said is not None
        self._last_said = (ply, phrase, said)
        return said

    def hints(self) -> dict[str, Any] | None:
        """What the page needs besides the view to draw the game (`web.hints`), made once
        a move: hints are drawn from the public part of the view, alike for every seat."""
        if self._hints is None or self._hints[0] != self.ply:
            hints = web.state_hints(self.game, self.state)
            if web.framed(self.game):
                hints = {**(hints or {}), **web.history_hints(self.game, self.moves())}
            self._hints = (self.ply, hints)
        return self._hints[1]

    def last_for(self, viewer: int | None) -> dict[str, Any] | None:
        """The last move as `viewer` may know it: its number, seat, notation (None when
        it is secret from `viewer`) and words."""
        if not self.played:
            return None
        p = self.played[-1]
        self.log_for(viewer)  # brings this viewer's entries up to date
        entry = self._entries[viewer][-1]
        return {
            "ply": p.ply,
            "seat": p.seat,
            "move": self._notations[viewer][-1],
            "text": entry["text"],
            "say": entry["say"],
        }

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """Everything a seat's page shows, made from `view(seat)` alone (the public view
        for a spectator); legal moves only go to the seat to move. No drawing: the page
        draws the game from `view`, `legal`, `last` and `hints`."""
        state = self.state
        if seat is None:
            view = state.public_view()
        else:
            if conforms(state, SharedViews):
                view = cast(SharedViews, state).view_sharing(seat, self._shared)
            else:
                view = state.view(seat)
        legal: list[str] = []
        # none while the end of a round is looked at: they come when the next round starts
        if seat is not None and self.to_move == seat and self.pause is None:
            if conforms(state, LegalTexts):  # written without making the moves
                legal = cast(LegalTexts, state).legal_texts()
            else:
                legal = [str(m) for m in state.legal_moves()]
        log_entries = self.log_for(seat)
        said, say = web.telling(self.game, view) if self._tells else (None, None)
        if said is None and log_entries:
            said, say = log_entries[-1]["text"], log_entries[-1]["say"]
        return {
            "type": "state",
            "game_id": self.id,
            "ply": self.ply,
            "seat": seat,
            "to_move": self.to_move,
            "over": self.over,
            "view": view,
            "legal": legal,
            "last": self.last_for(seat),
            "hints": self.hints(),
            "said": said,
            "say": say,
            "log": log_entries,
            "result": self.result(),
            "online": self.online(),
            "trouble": self.trouble,
            "trouble_say": self.trouble_say,
            # told while it waits for someone (not while it only waits for other processes'
            # news, a second or two in which nothing is to be done)
            "pause": (
                self.pause.message(self.pause_clock())
                if self.pause is not None and self.pause.waiting
                else None
            ),
            # (the server's clock read only for a game with a time control)
            "clock": (
                self.clocks.message(self.clock().timestamp()) if self.clocks.control.timed else None
            ),
            "takebacks": [
                {"ply": t.ply, "seat": t.seat, "moves": len(t.moves)} for t in self.info.takebacks
            ],
        }

    async def broadcast(self) -> None:
        """Send every page its own new state; drop pages that cannot take it."""
        self.send_states()

    def send_states(self) -> None:
        """`broadcast` as a plain call (it never waits: a page that cannot take its
        message at once gets it from its writer task, or is dropped)."""
        cache: dict[int | None, dict[str, Any]] = {}
        # pages of one seat that were shown the same state get the same update, made
        # once and encoded once (a crowd of spectators costs one diff, not one each)
        told: dict[tuple[int | None, int], tuple[Any, Any, str]] = {}
        peers = list(self.peers)
        outgoing: list[str] = []
        for peer in peers:
            viewer = self.viewer(peer.seat)
            if viewer not in cache:
                cache[viewer] = self.state_message(viewer)
            before = peer.shown
            key = (viewer, id(before))
            same = told.get(key) if before is not None else None
            if same is not None:
                peer.shown, text = same[1], same[2]
            else:
                text = encode(peer.update(cache[viewer]))
                if before is not None:  # `before` kept alive with its id
                    told[key] = (before, peer.shown, text)
            outgoing.append(text)
        for peer, text in zip(peers, outgoing, strict=True):
            if not peer.post(text) or peer.state is Connection.CLOSED:
                self.peers.discard(peer)

    async def tell_all(self, message: dict[str, Any]) -> None:
        """Send the same message to every page."""
        text = encode(message)
        for peer in list(self.peers):
            peer.post(text)

    # -- moves ------------------------------------------------------------------------------

    async def play(self, seat: int, text: str, ply: int | None = None) -> None:
        """Play `text` for `seat`, as a page asked; Refused says why not."""
        while True:
            async with self.lock:
                state = self.state
                if ply is not None and ply != self.ply:
                    raise Refused(
                        f"the game has moved on: your page showed move {ply}, it is now at "
                        f"move {self.ply}; look again and retry",
                        "stale",
                    )
                if self.to_move is None:
                    raise Refused("the game is over", "over")
                if seat in self.bot_seats:
                    raise Refused(f"seat {seat} is played by a bot", "bot-seat")
                if seat != state.to_move:
                    raise Refused(f"it is not your turn: seat {state.to_move} is to move", "turn")
                if self.paused():
                    raise Refused(
                        "the next round starts when everyone has seen the end of this one",
                        "paused",
                    )
                if self.clocks.late(self.clock().timestamp()):
                    raise Refused(
                        "your time ran out before this move arrived: it was not played", "late"
                    )
                trial = state.clone()
                try:
                    move = self.game.parse_move(text)
                    trial.play(move, seat=seat)
                except IllegalMove as exc:
                    raise Refused(str(exc), "illegal", exc.refusal) from None
                except Exception:  # a plug-in's rules may fail on text they did not expect
                    # (a KeyError from its parse_move): refused, in words that tell nothing
                    # of the game; the rules' own error goes to the operator's log
                    log.exception("game %s: the rules failed on the move %r", self.id, text)
                    unread = Refusal(UNREADABLE, "this move cannot be read")
                    raise Refused(str(unread), "illegal", unread) from None
                try:
                    await self.commit(trial, seat, str(move))
                except Taken as exc:
                    # another server played this move number first: catch up with it and
                    # check the move again against the game as it now is
                    if not await self.catch_up():
                        raise Refused(f"{exc}, but it cannot be read; reload", "storage") from None
                    continue
            break
        if self.on_move is not None:
            self.on_move(self)

    async def commit(self, trial: State[Any], seat: int, move: str) -> None:
        """Save the move that led to `trial`, then make `trial` the room's state and tell
        everyone. Call with the lock held. If saving fails nothing changes: Taken if
        another server saved this move number first, Refused for any other failure."""
        ply = self.ply + 1
        result = result_of(trial) if trial.is_over else None
        at = self.clock()
        only = self.clocks.control.timed and forced(self.state)
        clocks = self.clocks_after(seat, at, only, trial.to_move)
        new = NewMove(self.id, ply, seat, move, result, at, clocks.control.timed, clocks.deadline())
        try:
            if self.writer is not None:
                await self.writer.write(new)
            else:
                await asyncio.to_thread(self.store.add_moves, [new])
        except IntegrityError:
            raise Taken(f"move {ply} of game {self.id} was played elsewhere first") from None
        except Exception as exc:
            log.exception("game %s: move %d could not be saved", self.id, ply)
            raise Refused(
                f"the move could not be saved ({type(exc).__name__}); reload the page", "storage"
            ) from None
        self._advance(trial, seat, move, at, only, clocks)
        self.send_states()

    def clocks_after(self, seat: int, at: datetime, only: bool, to_move: int | None) -> Clocks:
        """The clocks once `seat` has played a move at `at` (`only`: a forced one) and
        `to_move` is to move; the room's are not changed."""
        clocks = self.clocks.copy()
        clocks.after(seat, at.timestamp(), only, to_move)
        return clocks

    def _advance(
        self,
        trial: State[Any],
        seat: int,
        move: str,
        at: datetime,
        only: bool,
        clocks: Clocks,
    ) -> None:
        note, note_say = (
            web.telling(self.game, trial.public_view()) if self._tells else (None, None)
        )
        # a move after a round's end (another process's, its pause over first) starts the
        # next round here too
        self.pause = None
        self.last_active = at
        self.state = trial
        self.changes += 1
        self.clocks = clocks
        self.asking = None  # a move made: a take-back asked before it is void
        self.played.append(
            Played(self.ply + 1, seat, move, note, self._rounds + 1, at, only, note_say)
        )
        done = rounds_done(trial)
        if done > self._rounds and not trial.is_over:
            self._pause_after(done)
        self._rounds = done

    # -- the end of a round, looked at before the next starts ------------------------------

    def _pause_after(self, round_: int) -> None:
        """Hold the next round for the people whose pages are open (a bot waits, a person
        to move first is refused) until each has said `ready` or `ROUND_PAUSE` is over.
        With several processes (`announce`), the other processes are told which seats
        look here, and the round waits `PAUSE_NEWS` to hear theirs, even with no page
        here: the game's bots may run in a process with no page at all."""
        waiting = {p.seat for p in self.peers if p.seat is not None} - self.bot_seats
        shared = self.announce is not None and any(s.kind != BOT for s in self.seats)
        if not waiting and not shared:
            return
        now = self.pause_clock()
        news = now + PAUSE_NEWS if shared else 0.0
        self.pause = RoundPause(round_, waiting, now + ROUND_PAUSE, news)
        if self.announce is not None and waiting:
            told = {"kind": "pause", "game": self.id, "round": round_, "seats": sorted(waiting)}
            self.announce(told)
        with contextlib.suppress(RuntimeError):  # no loop: replaying, nothing to wake
            loop = asyncio.get_running_loop()
            loop.call_later(ROUND_PAUSE + 0.05, self.tick)
            if shared:
                loop.call_later(PAUSE_NEWS + 0.05, self.tick)

    def paused(self) -> bool:
        """Whether the next round is still held (a pause that ran out ends here)."""
        self.tick()
        return self.pause is not None

    def ready(self, seat: int) -> None:
        """`seat`'s player has seen the end of the round; the last one starts the next.
        The other processes are told (`announce`)."""
        pause = self.pause
        if pause is not None:
            if self.announce is not None and seat in pause.waiting:
                told = {"kind": "ready", "game": self.id, "round": pause.round, "seat": seat}
                self.announce(told)
            self._readied(seat)
        self.tick()

    def _readied(self, seat: int) -> None:
        assert self.pause is not None
        self.pause.waiting.discard(seat)
        self.pause.ready.add(seat)
        if self.pause.waiting:
            self.send_states()  # every page learns who the next round waits for

    def heard_pause(self, round_: int, seats: set[int]) -> None:
        """Another process holds the next round for its pages of `seats`: hold it here
        too (its bots wait, its people to move are refused) until they are ready. News of
        a round whose next one has begun here changes nothing."""
        seats = seats - self.bot_seats
        if self.over or not seats or not self.played or self.played[-1].round != round_:
            return
        if rounds_done(self.state) != round_:
            return
        pause = self.pause
        if pause is None:
            # the news came after this process's wait for it (the bus was slow): the
            # round has not begun here yet, so it is held from now, for those not ready
            ended = self._ended_pause
            if ended is not None and ended.round == round_:
                seats -= ended.ready
            if not seats:
                return
            now = self.pause_clock()
            self.pause = RoundPause(round_, seats, now + ROUND_PAUSE)
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_later(ROUND_PAUSE + 0.05, self.tick)
        elif pause.round == round_:
            pause.waiting |= seats - pause.ready
        self.send_states()

    def heard_ready(self, round_: int, seat: int) -> None:
        """A page on another process said `ready` for `seat` after round `round_`."""
        if self.pause is not None and self.pause.round == round_:
            self._readied(seat)
        self.tick()

    def tick(self) -> None:
        """End the pause if everyone is ready or its time is over: pages are told, bots
        woken."""
        pause = self.pause
        if pause is None or not pause.over(self.pause_clock()):
            return
        self.pause = None
        self._ended_pause = pause
        self.send_states()
        if self.on_move is not None:
            self.on_move(self)

    async def catch_up(self, known: MoveInfo | None = None) -> bool:
        """Take in the moves another server saved (call with the lock held): `known`, the
        next move as its server announced it, or else every stored move after ours (or,
        with none after ours and fewer stored than ours, the game as another server took
        moves back). Each is checked by the engine; True (and every page told) if the game
        moved on."""
        if known is not None and known.ply <= self.ply:
            return False
        if known is not None and known.ply == self.ply + 1:
            found = [known]
        else:
            found = await asyncio.to_thread(self.store.moves_after, self.id, self.ply)
        for m in found:
            if m.ply == self.ply + 1:
                self.take(m)
        if not found:
            if known is None:
                # nothing after ours: another process may have taken moves back (its news
                # is on its way), so that a move of ours followed no stored move (0014)
                info = await asyncio.to_thread(self.store.load, self.id)
                if info is not None and len(info.moves) < self.ply:
                    self.rewind(info)
                    return True
            return False
        self.send_states()
        return True

    def hear(self, known: MoveInfo) -> bool | None:
        """Take in `known`, the next move as another server announced it, if that needs no
        waiting (call with nobody holding the lock): True if the game moved on (every
        page told), False if the room has that move already, None if moves between are
        missing (`catch_up` reads them from the database)."""
        if known.ply <= self.ply:
            return False
        if known.ply != self.ply + 1:
            return None
        self.take(known)
        self.send_states()
        return True

    def take(self, m: MoveInfo) -> None:
        """Play `m`, the room's next move as another server saved it, checked by the
        engine (RoomError if it does not replay); pages are told by the caller."""
        trial = self.state.clone()
        only = self.clocks.control.timed and forced(self.state)
        try:
            trial.play(m.move, seat=m.seat)
        except IllegalMove as exc:
            raise RoomError(
                f"move {m.ply} ({m.move}) of game {self.id} does not replay: {exc}",
                f"move {m.ply} of game {self.id} does not replay",
            ) from None
        clocks = self.clocks_after(m.seat, m.played_at, only, trial.to_move)
        self._advance(trial, m.seat, m.move, m.played_at, only, clocks)

    # -- moves taken back -----------------------------------------------------------------

    def tell_undo(self, event: str, seat: int) -> None:
        """Tell every page how a take-back request stands: `asked` (by `seat`), `agreed`
        or `declined` (by `seat`), `waiting` (`seat` was handed to the bot: the request no
        longer waits for it) or `withdrawn` (its asker, `seat`, was handed to the bot)."""
        asking = self.asking
        message: dict[str, Any] = {"type": "undo", "event": event, "seat": seat}
        if asking is not None:
            message["asker"] = asking.seat
            message["moves"] = asking.last - asking.first + 1
            message["waiting"] = sorted(asking.waiting - asking.agreed - self.bot_seats)
        text = encode(message)
        for peer in list(self.peers):
            peer.post(text)

    def rewind(self, info: GameInfo) -> None:
        """Moves were taken back: the game as `info` (read after the take-back) has it.
        Every page is sent a whole new state (its log loses the moves taken back, and
        `takebacks` says where they were)."""
        game, state, played = replay(info)
        self.info = info
        self.state = state
        self.changes += 1
        self.played = played
        self.asking = None
        self.seats = info.seats
        self.clocks = run_clocks(info, game.players, played, state.to_move)
        self._entries.clear()
        self._notations.clear()
        self._moves.clear()
        self._last_said = None
        self._hints = None
        for peer in self.peers:
            peer.shown = None  # a whole state, not a patch: the move number went back
        self.send_states()

    # -- games that end without a move ---------------------------------------------------

    def end(self, result: dict[str, Any]) -> None:
        """The game ended by no move (`result` says how: out of time, resigned, aborted),
        as stored already; every page is told."""
        if self.over:
            return
        self.ended = result
        # the clocks stop as they stand (a seat out of time shows 0:00)
        self.clocks.banks = self.clocks.left(self.clock().timestamp())
        self.clocks.to_move = None
        self.send_states()

    def hand_to_bot(self, seat: int, bot: str, ply: int) -> None:
        """A person's `seat` is played by `bot` from move `ply` on (as stored already);
        every page is told, and the bot runner makes the seat's bot (`on_seats`). A
        round's end no longer waits for the seat (the last one waited for starts the
        next round)."""
        self.seats = tuple(
            replace(s, kind=BOT, bot=bot, zombie_from=ply) if s.seat == seat else s
            for s in self.seats
        )
        self.clocks.bots = bots_at(self.seats, ply)
        if self.on_seats is not None:
            self.on_seats(self)
        text = encode({"type": "seat", "seat": seat, "event": "zombie", "from": ply, "bot": bot})
        for peer in list(self.peers):
            peer.post(text)
        if self.pause is not None:  # a bot does not look at the round's end
            self.pause.waiting.discard(seat)
            self.pause.ready.add(seat)
        self.send_states()
        self.tick()

    # -- pages coming and going ---------------------------------------------------------

    def join(self, peer: Peer) -> None:
        """A page connected."""
        seat = peer.seat
        first = seat is not None and not any(p.seat == seat for p in self.peers)
        self.peers.add(peer)
        if seat is not None:
            self.away_since.pop(seat, None)
            if first and self.on_presence is not None:
                self.on_presence(self, seat, True)

    def leave(self, peer: Peer) -> None:
        """A page went away."""
        peer.close()
        present = peer in self.peers
        self.peers.discard(peer)
        seat = peer.seat
        if seat is not None and not any(p.seat == seat for p in self.peers):
            self.away_since[seat] = self.clock().timestamp()
            if present and self.on_presence is not None:
                self.on_presence(self, seat, False)

    def away(self, seat: int, at: float) -> float:
        """Seconds that `seat` has had no page connected here, at `at` (0: it has one);
        a seat not seen since the room was loaded counts from the load."""
        if any(p.seat == seat for p in self.peers):
            return 0.0
        return max(0.0, at - self.away_since.get(seat, self.loaded_at))

    async def seat_changed(self, seat: int, how: str, name: str | None = None) -> None:
        """Tell every page that `seat` was `claimed` by its invitation (or taken from the
        lobby, by a person called `name`) or `reissued` by the host; on `reissued`, the
        pages that held the seat lose it (told why, then closed)."""
        self.seats = tuple(
            SeatInfo(
                s.seat,
                s.kind,
                s.bot,
                name if name is not None else s.name,
                how == "reissued",
                s.reissued + (how == "reissued"),
            )
            if s.seat == seat
            else s
            for s in self.seats
        )
        told: dict[str, Any] = {"type": "seat", "seat": seat, "event": how}
        if name is not None:
            told["name"] = name
        await self.tell_all(told)
        if how != "reissued":
            return
        for peer in [p for p in self.peers if p.seat == seat]:
            await peer.send(
                error(f"the host reissued seat {seat}: this page no longer holds it", "reissued")
            )
            await peer.flush()
            self.leave(peer)
            with contextlib.suppress(Exception):
                await peer.socket.close(4403)

    async def presence(self) -> None:
        """Tell every page which seats are online."""
        await self.tell_all({"type": "presence", "online": self.online()})


class Rooms:
    """The live rooms, made on demand from the database and let go when nobody is in
    them and no bot is thinking.

    A game among bots plays on with nobody watching, holding its room; so that such games
    (a stranger may make them by the score) never keep a person's game out, a server
    whose rooms are all taken lets one of them go (`stop` ends its bots) to load another:
    it plays on when someone opens it again, or at the next start."""

    def __init__(
        self,
        store: Store,
        setup: Callable[[Room], None],
        max_rooms: int = 500,
        writer: Writer | None = None,
        teardown: Callable[[Room], None] | None = None,
        clock: Callable[[], datetime] = now,
        pause_clock: Callable[[], float] = time.monotonic,
        announce: Callable[[dict[str, Any]], None] | None = None,
        stop: Callable[[Room], None] | None = None,
    ) -> None:
        self.store = store
        #: stops the bots of a room let go to make room for another (`_make_room`)
        self.stop = stop
        #: the clock of the pauses after a round, and how rooms tell other processes of
        #: them (`Room.announce`), handed to every room
        self.pause_clock = pause_clock
        self.announce = announce
        #: the server's clock, handed to every room
        self.clock = clock
        self.writer = writer
        #: called with each room let go
        self.teardown = teardown
        self.setup = setup
        self.max_rooms = max_rooms
        self.rooms: dict[str, Room] = {}
        #: games being loaded: each is loaded once, and games load side by side
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    async def get(self, game_id: str) -> Room | None:
        """The room of a game (rebuilt from its moves if needed), or None if there is no
        such game. RoomError if it no longer replays, Full if the server holds as many
        live games as it may."""
        while True:
            room = self.rooms.get(game_id)
            if room is not None:
                return room
            loading = self._loading.get(game_id)
            if loading is None:
                return await self._load_once(game_id)
            # another page asked first: share its load; but the one who asked first runs
            # on before this wakes and may let the room go meanwhile (the bots' resumption
            # at start does, for a game whose bot is not to move): then look again, so a
            # page never joins a room that is no longer kept
            shared = await asyncio.shield(loading)
            if shared is None or self.rooms.get(game_id) is shared:
                return shared

    def loading(self, game_id: str) -> bool:
        """True while the game's room is being loaded."""
        return game_id in self._loading

    async def live(self, game_id: str) -> Room | None:
        """The game's room if it is live here, once any load of it under way has ended
        (None if it is not live). Another process's news of a game must wait for a load
        under way: the load may have read the game before that move was saved, and a
        room that missed a move would never show it (its pages would wait for ever)."""
        loading = self._loading.get(game_id)
        if loading is not None:
            await asyncio.wait([loading])  # however it ends; a failed load leaves no room
        return self.rooms.get(game_id)

    async def _load_once(self, game_id: str) -> Room | None:
        """Load a game's room, as the one load that others asking meanwhile share."""
        if len(self.rooms) + len(self._loading) >= self.max_rooms and not self._make_room():
            raise Full(f"the server is busy: {self.max_rooms} games are live; try again later")
        loading = asyncio.get_running_loop().create_future()
        self._loading[game_id] = loading
        try:
            room = await self._load(game_id)
        except asyncio.CancelledError:
            loading.cancel()
            raise
        except Exception as exc:
            loading.set_exception(exc)
            loading.exception()  # retrieved: a load nobody else waited for is not news
            raise
        finally:
            del self._loading[game_id]
        loading.set_result(room)
        return room

    async def _load(self, game_id: str) -> Room | None:
        info = await asyncio.to_thread(self.store.load, game_id)
        if info is None:
            return None
        game, state, played = await asyncio.to_thread(replay, info)
        room = Room(
            info, game, state, played, self.store, self.writer, self.clock, self.pause_clock
        )
        room.announce = self.announce
        self.setup(room)
        self.rooms[game_id] = room
        return room

    def _make_room(self) -> bool:
        """Let go of a game among bots that nobody watches here (its bots stopped), the
        one that moved least lately; False if there is none."""
        idle = [
            room
            for room in self.rooms.values()
            if not room.peers and not room.over and all(s.kind == BOT for s in room.seats)
        ]
        if not idle:
            return False
        room = min(idle, key=lambda r: r.last_active)
        if self.stop is not None:
            self.stop(room)
        del self.rooms[room.id]
        if self.teardown is not None:
            self.teardown(room)
        return True

    def release(self, room: Room, busy: bool) -> None:
        """Forget an empty room (it is rebuilt from the database when needed again)."""
        if not room.peers and not busy and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            if self.teardown is not None:
                self.teardown(room)


async def close_quietly(socket: WebSocket, code: int, message: str | None = None) -> None:
    """Send a last error (if any) and close, ignoring a page that is already gone."""
    with contextlib.suppress(Exception):
        if message is not None:
            await socket.send_json(error(message, "closed"))
        await socket.close(code)


__all__ = [
    "Full",
    "Peer",
    "Played",
    "Refused",
    "Room",
    "RoomError",
    "Rooms",
    "Taken",
    "UndoAsk",
    "Watchdog",
    "close_quietly",
    "replay",
    "result_of",
]
