"""Replays computed once: a game's moves are replayed through the engine one time, keeping
a copy of the position every `EVERY` moves, so stepping through a replay (or many visitors
watching one) costs at most `EVERY` moves a step instead of the whole game each time.

The cache holds the `GAMES` most recently replayed games; a game is keyed by its id and
its number of moves, so a move played since is a new entry, never a stale answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from cubegames.core.game import Game, State
from cubegames.server.rooms import Played, replay
from cubegames.server.storage import GameInfo

#: a position is kept every this many moves
EVERY = 32
#: games kept
GAMES = 32


class Replays:
    """The positions of recently replayed games (thread-safe: used from worker threads)."""

    def __init__(self, games: int = GAMES, every: int = EVERY) -> None:
        self.games = games
        self.every = every
        self._cache: OrderedDict[tuple[str, int], tuple[Game[Any], list[State[Any]], list[Played]]]
        self._cache = OrderedDict()
        self._lock = threading.Lock()
        #: full replays run (for tests: a cached game is replayed once)
        self.runs = 0

    def _entry(self, info: GameInfo) -> tuple[Game[Any], list[State[Any]], list[Played]]:
        key = (info.id, len(info.moves))
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                return found
        game, _, all_played = replay(info)  # checks every move (RoomError)
        state = game.new_state(seed=info.seed)
        marks = [state.clone()]
        for n, m in enumerate(info.moves, 1):
            state.play(m.move, seat=m.seat)
            if n % self.every == 0:
                marks.append(state.clone())
        self.runs += 1
        entry = (game, marks, all_played)
        with self._lock:
            self._cache[key] = entry
            while len(self._cache) > self.games:
                self._cache.popitem(last=False)
        return entry

    def at(self, info: GameInfo, ply: int) -> tuple[Game[Any], State[Any], list[Played]]:
        """Like `rooms.replay(info, ply)`, from the cache (RoomError as it gives)."""
        game, marks, played = self._entry(info)
        ply = min(ply, len(info.moves))
        base = ply // self.every
        state = marks[base].clone()
        for m in info.moves[base * self.every : ply]:
            state.play(m.move, seat=m.seat)
        return game, state, played[:ply]
