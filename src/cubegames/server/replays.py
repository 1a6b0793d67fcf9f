"""Replays computed once: a game's moves are replayed through the engine one time, keeping
a copy of the position every `EVERY` moves, so stepping through a replay (or many visitors
watching one) costs at most `EVERY` moves a step instead of the whole game each time. The
moves told in words to a spectator (`GET /api/games/{id}`) are likewise written once.

Work that takes long for a long game (a record may hold 20,000 moves) runs in a worker
thread, never on the event loop, and once however many ask at the same moment: the first
request computes, the others wait for its result (`step`, `told`).

The caches hold the `GAMES` most recently asked games, with at most `MOVES` moves among
them (the least recently asked go first); a game is keyed by its id, its number of
moves and of take-backs, so a move played (or taken back) since is a new entry, never a
stale answer.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from cubegames.core import chance
from cubegames.core.game import Game, State
from cubegames.render import web
from cubegames.server.rooms import Played, replay
from cubegames.server.storage import GameInfo

#: a position is kept every this many moves
EVERY = 32
#: games kept
GAMES = 32
#: moves kept over every game's entries (a long record must not take the memory of many)
MOVES = 200_000

T = TypeVar("T")
Entry = tuple[Game[Any], list[State[Any]], list[Played]]


class Replays:
    """The positions of recently replayed games, and their moves in a spectator's words
    (thread-safe: computed in worker threads)."""

    def __init__(self, games: int = GAMES, every: int = EVERY, moves: int = MOVES) -> None:
        self.games = games
        self.every = every
        self.moves = moves
        #: each entry and its weight (the moves it was made from, plus one)
        self._cache: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        #: computations under way, by key: later askers wait for them
        self._flights: dict[Hashable, asyncio.Future[Any]] = {}
        #: full replays run (for tests: a cached game is replayed once)
        self.runs = 0
        #: games whose moves were put in words (for tests, likewise)
        self.tellings = 0

    def _cached(self, key: Hashable, compute: Callable[[], T], weight: int) -> T:
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                found: T = self._cache[key][0]
                return found
        value = compute()
        with self._lock:
            if key not in self._cache:
                self._cache[key] = (value, weight)
                self._weight += weight
            # each game: its replay and its words
            while len(self._cache) > 1 and (
                len(self._cache) > self.games * 2 or self._weight > self.moves
            ):
                _key, (_value, gone) = self._cache.popitem(last=False)
                self._weight -= gone
        return value

    async def _once(self, key: Hashable, compute: Callable[[], T], weight: int) -> T:
        """`compute()`'s value, from the cache or computed in a worker thread, once for
        every asker meanwhile."""
        with self._lock:  # kept already: no thread needed
            if key in self._cache:
                self._cache.move_to_end(key)
                kept: T = self._cache[key][0]
                return kept
        flight = self._flights.get(key)
        if flight is None:
            work = asyncio.to_thread(self._cached, key, compute, weight)
            flight = asyncio.ensure_future(work)
            self._flights[key] = flight
            flight.add_done_callback(lambda _done: self._flights.pop(key, None))
        # shielded: one asker going away does not cancel the others' answer
        found: T = await asyncio.shield(flight)
        return found

    def _entry(self, info: GameInfo) -> Entry:
        key = ("replay", info.id, len(info.moves), len(info.takebacks))
        return self._cached(key, lambda: self._replay(info), len(info.moves) + 1)

    def _replay(self, info: GameInfo) -> Entry:
        game, _, all_played = replay(info)  # checks every move (RoomError)
        state = chance.new_state(game, info.seed, info.chance)
        marks = [state.clone()]
        for n, m in enumerate(info.moves, 1):
            state.play(m.move, seat=m.seat)
            if n % self.every == 0:
                marks.append(state.clone())
        self.runs += 1
        return game, marks, all_played

    def at(self, info: GameInfo, ply: int) -> tuple[Game[Any], State[Any], list[Played]]:
        """Like `rooms.replay(info, ply)`, from the cache (RoomError as it gives). Blocks:
        call it from a worker thread (or use `step`)."""
        game, marks, played = self._entry(info)
        ply = min(ply, len(info.moves))
        base = ply // self.every
        state = marks[base].clone()
        for m in info.moves[base * self.every : ply]:
            state.play(m.move, seat=m.seat)
        return game, state, played[:ply]

    async def step(self, info: GameInfo, ply: int) -> tuple[Game[Any], State[Any], list[Played]]:
        """`at(info, ply)` off the event loop; the game replayed once for all who ask."""
        key = ("replay", info.id, len(info.moves), len(info.takebacks))
        await self._once(key, lambda: self._replay(info), len(info.moves) + 1)
        return await asyncio.to_thread(self.at, info, ply)

    async def told(self, info: GameInfo, game: Game[Any], over: bool) -> list[dict[str, Any]]:
        """The game's moves as a spectator reads them (each in words, its notation too
        where a spectator may see it or the game is `over`), written once for all who
        ask, off the event loop."""

        def tell() -> list[dict[str, Any]]:
            moves = []
            notations = [m.move for m in info.moves]
            for m in info.moves:
                text, phrase = web.worded(game, m.move, m.seat, None, notations[: m.ply - 1])
                entry: dict[str, Any] = {
                    "ply": m.ply,
                    "seat": m.seat,
                    "text": text,
                    "say": web.said(phrase),
                }
                if over or web.visible(game, m.move, m.seat, None):
                    entry["move"] = m.move
                moves.append(entry)
            self.tellings += 1
            return moves

        key = ("told", info.id, len(info.moves), len(info.takebacks), over)
        return await self._once(key, tell, len(info.moves) + 1)
