"""What one server lets a stranger spend: the bounds on bot settings, request sizes,
connections, games and rooms (`Limits`, one per server), and the checks that apply them.

Every bound answers with one clear refusal: 400 for a setting out of bounds, 413 for a
body too large, 429 (with Retry-After) for a client or a server over its caps.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from cubegames.bots import BOTS, parse_spec


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
    #: websocket connections one client (address) may hold open at once
    connections_per_client: int = 16
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
    #: connections and requests one server process serves at once; beyond, it answers 503
    max_connections: int = 1000
    #: seconds a process's hold on a game's bots lasts unrenewed (PostgreSQL; `lease`):
    #: after a process dies, its games' bots play on elsewhere within about this long
    lease_seconds: float = 10.0

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
            if not math.isfinite(number) or number <= 0:
                raise ValueError(f"{setting!r}: must be a positive number")
            new[name] = number
        return replace(self, **new)


def check_bot(spec: str, game: str, limits: Limits) -> str:
    """`spec` if the bot plays `game` with settings within `limits`, else ValueError
    naming the problem (an unknown bot or parameter, a bot that does not play this game,
    a number that is not finite or is over the server's bound)."""
    name, params = parse_spec(spec)
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    if cls.games is not None and game not in cls.games:
        raise ValueError(f"bot {name!r} plays {', '.join(cls.games)} only, not {game}")
    if "seed" in params:
        raise ValueError(f"bot {spec!r}: the server picks the bot's seed; give no seed")
    for key, value in params.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"bot {spec!r}: {key} must be a finite number")
    bounds: dict[str, float] = {
        "seconds": limits.bot_seconds,
        "iterations": limits.bot_iterations,
        "depth": limits.bot_depth,
        "exact": limits.bot_exact,
    }
    for key, high in bounds.items():
        value = params.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > high:
            raise ValueError(f"bot {spec!r}: {key} is at most {high:g} on this server")
    try:
        cls(0, **params)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bot {spec!r}: {exc}") from None
    return spec


class RateLimit:
    """At most `count` events per `window` seconds for each key (a sliding window)."""

    def __init__(self, count: int, window: float = 60.0) -> None:
        self.count = count
        self.window = window
        self.seen: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str, now: float | None = None) -> float | None:
        """None if one more event of `key` is allowed now (and count it), else the
        seconds to wait."""
        moment = time.monotonic() if now is None else now
        times = self.seen[key]
        while times and times[0] <= moment - self.window:
            times.popleft()
        if len(times) >= self.count:
            return times[0] + self.window - moment
        times.append(moment)
        if len(self.seen) > 10_000:  # forget quiet clients so the table stays small
            for other in [k for k, v in self.seen.items() if not v]:
                del self.seen[other]
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


__all__ = ["Counter", "Limits", "RateLimit", "check_bot"]
