"""What one server lets a stranger spend: the bounds on bot settings, request sizes,
connections, games and rooms (`Limits`, one per server), and the checks and counters that
apply them.

Every bound answers with one clear refusal: 400 for a setting out of bounds, 413 for a
body too large, 429 (with Retry-After) for a client or a server over its caps.

When several processes serve one database (`cubegames serve --workers N`):

- games made per client per minute are counted in the database (`SharedRate`, the
  `creations` table) on PostgreSQL, so the cap holds for the sum over every process; a
  process alone (SQLite) counts in memory (`RateLimit`); `GameRate` picks one;
- open websockets per client and live games per server are counted in each process's
  memory, and with `--workers N` each process takes `1/N` of the cap (`share`), so the sum
  over the processes never exceeds it. The kernel hands each new connection to any
  process, so a client may be refused slightly before the whole cap when its connections
  land unevenly: the cap is never exceeded, at worst reached early.

Every counter over time takes its clock (`clock=`, seconds that only go forward), so a
test moves time instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from sqlalchemy import delete, func, insert, select, text

from cubegames.bots import bot_classes, parse_spec
from cubegames.core.phrase import Phrase, Worded
from cubegames.server.storage import CreationRow, Store

#: a clock: seconds, only going forward
Clock = Callable[[], float]

#: the settings `Limits.changed` also takes as 0 (`--limit bot_processes=0`: threads)
MAY_BE_ZERO = frozenset({"bot_processes"})


@dataclass(frozen=True)
class Limits:
    """The per-server settings (`create_app(limits=...)`)."""

    #: the most seconds a bot may think for one move
    bot_seconds: float = 5.0
    #: the most search iterations a bot may take for one move (mcts)
    bot_iterations: int = 20_000
    #: the deepest search a bot may be asked for (alphabeta)
    bot_depth: int = 10
    #: the largest endgame an alphabeta bot solves exactly (its default)
    bot_exact: int = 24
    #: the largest request body read, in bytes (a record file is at most 1 MB)
    max_body: int = 1_100_000
    #: games one client (address) may make in a minute
    games_per_minute: int = 20
    #: public tables one client (address) may have waiting for players at once (the lobby
    #: is not to be filled with one stranger's tables)
    open_tables_per_client: int = 5
    #: websocket connections one client (address) may hold open at once
    connections_per_client: int = 16
    #: invitations claimed (or tried) and seats reissued by one client (address) a minute
    seat_changes_per_client: int = 30
    #: ... and in one game a minute, whoever asks (a host cannot throw a friend out of a
    #: seat over and over, nor can guessers try invitations without end)
    seat_changes_per_game: int = 20
    #: games live in memory at once on this server (watched, played or with a bot thinking)
    max_rooms: int = 500
    #: seconds a websocket may stay silent (the page pings every 25 s) before it is closed
    idle_seconds: float = 120.0
    #: an unfinished game with no move for this many days is abandoned: its bots are not
    #: resumed at start and nobody can move in it any more (it stays readable)
    expire_days: float = 30.0
    #: messages a websocket may send a second on average (`protocol.Throttle`) ...
    messages_per_second: float = 10.0
    #: ... in bursts of up to this many
    message_burst: int = 30
    #: connections and requests one server serves at once; beyond, it answers 503 (and
    #: closes a new websocket with 4429)
    max_connections: int = 1000
    #: seconds a process's hold on a game's bots lasts unrenewed (PostgreSQL; `lease`):
    #: after a process dies, its games' bots play on elsewhere within about this long
    lease_seconds: float = 10.0
    #: the longest real-time bank a table may be made with, in minutes (`clocks.parse`)
    clock_max_minutes: float = 180.0
    #: the largest real-time increment, in seconds a move
    clock_max_increment: float = 60.0
    #: seconds between two looks for games whose deadline has passed (`referee`)
    clock_check_seconds: float = 1.0
    #: failed sign-ins to one account name in 15 minutes (`accounts`), from anywhere ...
    signins_per_account: int = 10
    #: ... and from one address, to any names
    signins_per_client: int = 30
    #: accounts made from one address in an hour
    signups_per_client: int = 10
    #: chat lines one connection may send: this many a second on average (`chat`) ...
    chat_per_second: float = 0.5
    #: ... in bursts of up to this many
    chat_burst: int = 5
    #: chat lines one client (address) may send a minute, over all its connections
    chat_per_minute: int = 40
    #: processes the bots' searches think in (`thinking.think`), apart from the web process;
    #: -1 (the default): one fewer than the machine's cores, shared by `--workers`, at least
    #: one (`bots.pool_size`); 0: threads of the web process (a search then holds its
    #: interpreter lock, and a person's move waits behind it)
    bot_processes: int = -1
    #: moves taken back in one game, over all its seats (each take-back is kept, and told
    #: in every state: a move and a take-back over and over must not grow them without end)
    takebacks_per_game: int = 100
    #: seconds between two reads of the lobby's list while anyone watches it (a table's
    #: change is told at once, here and through the bus: this catches tables that ended)
    lobby_refresh_seconds: float = 5.0

    def changed(self, settings: Iterable[str]) -> Limits:
        """These limits with `NAME=VALUE` settings applied (`cubegames serve --limit`);
        ValueError naming the problem for an unknown name or a value that is not a
        positive number.

        >>> Limits().changed(["max_rooms=2000", "bot_seconds=1.5"]).max_rooms
        2000
        """
        kinds = {f.name: f.type for f in fields(self)}
        new: dict[str, Any] = {}
        for setting in settings:
            name, equals, value = setting.partition("=")
            name = name.strip().replace("-", "_")
            if not equals or name not in kinds:
                raise ValueError(
                    f"{setting!r}: expected NAME=VALUE with NAME one of {', '.join(kinds)}"
                )
            convert = int if kinds[name] in (int, "int") else float
            try:
                number = convert(value)
            except ValueError:
                raise ValueError(f"{setting!r}: {value!r} is not a number") from None
            if name in MAY_BE_ZERO and number == 0:
                new[name] = number
                continue
            if not math.isfinite(number) or number <= 0:
                raise ValueError(f"{setting!r}: must be a positive number")
            new[name] = number
        return replace(self, **new)


def check_bot(spec: str, game: str, limits: Limits) -> str:
    """`spec` if the bot plays `game` with settings within `limits`, else ValueError
    naming the problem (an unknown bot or parameter, a bot that does not play this game,
    a number that is not finite or is over the server's bound)."""
    name, params = parse_spec(spec)
    classes = bot_classes()
    cls = classes.get(name)
    if cls is None:
        raise Worded(
            "error-bot-unknown",
            f"unknown bot {name!r}; choose from {', '.join(classes)}",
            bot=name,
            bots=", ".join(classes),
        )
    if not cls.can_play(game):
        raise Worded(
            "error-bot-game",
            f"bot {name!r} plays {', '.join(cls.games() or ())} only, not {game}",
            bot=name,
            games=", ".join(cls.games() or ()),
            game=game,
        )
    if "seed" in params:
        raise Worded(
            "error-bot-seed",
            f"bot {spec!r}: the server picks the bot's seed; give no seed",
            bot=spec,
        )
    for key, value in params.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise Worded(
                "error-bot-finite",
                f"bot {spec!r}: {key} must be a finite number",
                bot=spec,
                key=key,
            )
    bounds: dict[str, float] = {
        "seconds": limits.bot_seconds,
        "iterations": limits.bot_iterations,
        "depth": limits.bot_depth,
        "exact": limits.bot_exact,
    }
    for key, high in bounds.items():
        value = params.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > high:
            raise Worded(
                "error-bot-bound",
                f"bot {spec!r}: {key} is at most {high:g} on this server",
                bot=spec,
                key=key,
                high=high,
            )
    try:
        made = cls(0, **params)
    except (TypeError, ValueError) as exc:
        why: str | Phrase = exc.phrase if isinstance(exc, Worded) else str(exc)
        raise Worded("error-bot-settings", f"bot {spec!r}: {exc}", bot=spec, reason=why) from None
    if not made.plays(game):
        raise Worded(
            "error-bot-game-only",
            f"bot {spec!r} does not play {game}",
            bot=spec,
            game=game,
        )
    return spec


def share(cap: int, workers: int) -> int:
    """One process's part of `cap` among `workers` processes (at least 1).

    >>> share(16, 1), share(16, 3), share(1, 4)
    (16, 5, 1)
    """
    return max(1, cap // workers)


class RateLimit:
    """At most `count` events per `window` seconds for each key (a moving window), in
    this process's memory, on `clock`.

    >>> moment = [0.0]
    >>> rate = RateLimit(2, window=60.0, clock=lambda: moment[0])
    >>> rate.allow("a"), rate.allow("a"), rate.allow("a"), rate.allow("b")
    (None, None, 60.0, None)
    >>> moment[0] = 60.0
    >>> rate.allow("a")
    """

    def __init__(self, count: int, window: float = 60.0, clock: Clock = time.monotonic) -> None:
        self.count = count
        self.window = window
        self.clock = clock
        self.seen: dict[str, deque[float]] = defaultdict(deque)
        #: when the table was last pruned of quiet clients
        self._pruned = -math.inf

    def allow(self, key: str) -> float | None:
        """None if one more event of `key` is allowed now (and count it), else the
        seconds to wait."""
        wait = self.wait(key)
        if wait is None:
            self.seen[key].append(self.clock())
        return wait

    def wait(self, key: str) -> float | None:
        """None if one more event of `key` would be allowed now (counting nothing), else
        the seconds to wait."""
        moment = self.clock()
        times = self.seen[key]
        while times and times[0] <= moment - self.window:
            times.popleft()
        if len(times) >= self.count:
            return times[0] + self.window - moment
        if len(self.seen) > 10_000 and moment - self._pruned >= 1.0:
            # forget quiet clients so the table stays small (once a second at most: many
            # clients at once must not make every event walk the whole table); a client's
            # times are dropped only when it comes back, so one that never does is quiet
            # once its newest time has left the window
            self._pruned = moment
            quiet = moment - self.window
            for other in [k for k, v in self.seen.items() if not v or v[-1] <= quiet]:
                del self.seen[other]
        return None


class SharedRate:
    """At most `count` events per `window` seconds for each key, counted in the database
    (every process on it sees the same count). One client's check and count are one
    transaction under a lock on that client (PostgreSQL's advisory lock), so two
    processes cannot both let through the last allowed event."""

    def __init__(
        self, store: Store, count: int, window: float = 60.0, clock: Clock = time.time
    ) -> None:
        self.store = store
        self.count = count
        self.window = window
        #: seconds since the epoch (every process's clock counts alike)
        self.clock = clock

    def allow(self, key: str) -> float | None:
        """None if one more event of `key` is allowed now (and count it), else the seconds
        to wait. Blocks on the database: call it from a worker thread."""
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        client = digest.hex()
        moment = self.clock()
        with self.store.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                lock = int.from_bytes(digest[:8], "big", signed=True)
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock})
            connection.execute(delete(CreationRow).where(CreationRow.at <= moment - self.window))
            # how many are in the window and when the oldest leaves it: two numbers, not
            # every row (a raised cap, as in benchmarks/web_load.py, made that thousands)
            made, oldest = connection.execute(
                select(func.count(), func.min(CreationRow.at)).where(CreationRow.client == client)
            ).one()
            if made >= self.count:
                return max(0.0, oldest + self.window - moment)
            connection.execute(insert(CreationRow).values(client=client, at=moment))
        return None


class GameRate:
    """Games made per client: `limits.games_per_minute`, counted in the database when
    other processes may share it (PostgreSQL), else in this process's memory."""

    def __init__(self, store: Store, count: int, clock: Clock | None = None) -> None:
        self.count = count
        self.shared = (
            SharedRate(store, count, clock=clock or time.time)
            if store.engine.dialect.name == "postgresql"
            else None
        )
        self.here = RateLimit(count, clock=clock or time.monotonic)

    async def allow(self, key: str) -> float | None:
        """None if `key` may make one more game now (and count it), else the seconds to
        wait."""
        if self.shared is not None:
            return await asyncio.to_thread(self.shared.allow, key)
        return self.here.allow(key)


class SeatChanges:
    """Claims of invitations and reissues of seats: at most `per_client` a minute from
    one address and `per_game` a minute in one game, counted in this process's memory
    (with `--workers N` each process takes `1/N` of each, `share`)."""

    def __init__(self, per_client: int, per_game: int, clock: Clock = time.monotonic) -> None:
        self.clients = RateLimit(per_client, clock=clock)
        self.games = RateLimit(per_game, clock=clock)

    def allow(self, client: str, game_id: str) -> tuple[str, float] | None:
        """None if `client` may change a seat of `game_id` now (and count it for both),
        else which cap holds (`"client"` or `"game"`) and the seconds to wait."""
        for which, rate, key in (("client", self.clients, client), ("game", self.games, game_id)):
            wait = rate.wait(key)
            if wait is not None:
                return which, wait
        self.clients.allow(client)
        self.games.allow(game_id)
        return None


class Counter:
    """Open things (connections) per key, with a cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: dict[str, int] = defaultdict(int)

    def take(self, key: str) -> bool:
        """Count one more for `key`; False (nothing counted) if it is at its cap."""
        if self.open[key] >= self.cap:
            return False
        self.open[key] += 1
        return True

    def give(self, key: str) -> None:
        """One of `key`'s closed."""
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]


__all__ = [
    "Clock",
    "Counter",
    "GameRate",
    "Limits",
    "RateLimit",
    "SeatChanges",
    "SharedRate",
    "check_bot",
    "share",
]
