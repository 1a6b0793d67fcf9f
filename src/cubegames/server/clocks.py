"""Time controls and the clocks they run: pure code, no I/O, no reading of the time
(every moment is given, in seconds since the epoch, by the caller's injectable clock).

A game made with a time control (`TimeControl`) gives each seat a bank of seconds:

- **real-time** (`realtime`): each seat starts with `bank` seconds; the seat to move spends
  its own bank, and gets `increment` seconds back each time its turn passes to another
  seat, never above the bank it started with. A seat's clock does not run before its first
  move (a seat that never comes lets the others abort the game instead);
- **turn-based** (`turn`): each turn a seat has `per_move` seconds (1, 3 or 7 days);
- **none**: no clock at all (the default).

A ply whose seat had only one legal move, which everyone could know (a forced move: a
CUBES roll; never a move forced by a hidden hand, which a stopped clock would give away:
`rooms.forced`), is not charged: the seconds it took are given back. The deadline still
stands while a forced move waits, so an absent seat cannot stall the game for ever.

Bots (and a seat handed to the bot, `zombie`) have no running clock.

`Clocks` is rebuilt from the moves' stored times (`played_at`), so the clocks of a game
come back the same after a restart and in every server process.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from cubegames.core.phrase import Worded

#: presets offered by the page, in minutes + seconds of increment
PRESETS: dict[str, tuple[float, float]] = {"3+2": (3, 2), "10+5": (10, 5), "30+0": (30, 0)}
#: the least bank a real-time clock may have, in minutes (15 seconds: lichess's shortest)
MIN_MINUTES = 0.25
#: the turn-based choices, in days a move
DAYS = (1, 3, 7)
#: seconds in a day
DAY = 86_400.0
#: lichess's grace for a gone player, seconds: scaled by the time control, at least `MIN_GRACE`
GRACE = 40.0
MIN_GRACE = 10.0

Kind = Literal["none", "realtime", "turn"]


@dataclass(frozen=True)
class TimeControl:
    """How much time a seat has: see the module's docstring.

    >>> TimeControl.realtime(3, 2).describe()
    '3+2'
    >>> TimeControl.turn(3).describe()
    '3 days a move'
    """

    kind: Kind = "none"
    #: real-time: seconds each seat starts with
    bank: float = 0.0
    #: real-time: seconds given back when a seat's turn passes
    increment: float = 0.0
    #: turn-based: seconds a turn
    per_move: float = 0.0

    @staticmethod
    def realtime(minutes: float, increment: float) -> TimeControl:
        """`minutes` of bank and `increment` seconds a move."""
        return TimeControl("realtime", bank=minutes * 60.0, increment=float(increment))

    @staticmethod
    def turn(days: int) -> TimeControl:
        """`days` a move."""
        return TimeControl("turn", per_move=days * DAY)

    @property
    def timed(self) -> bool:
        """Whether there is a clock at all."""
        return self.kind != "none"

    def describe(self) -> str:
        """The time control in a player's words."""
        if self.kind == "realtime":
            return f"{self.bank / 60:g}+{self.increment:g}"
        if self.kind == "turn":
            days = self.per_move / DAY
            return f"{days:g} day a move" if days == 1 else f"{days:g} days a move"
        return "no clock"

    def grace(self) -> float:
        """Seconds a real-time player's page may be gone on their turn before the others
        may claim: lichess's 40 s, scaled down for fast games (a game's expected length,
        bank + 40 increments, against a 10+5 game's), at least 10 s."""
        expected = self.bank + 40 * self.increment
        return max(MIN_GRACE, GRACE * min(1.0, expected / (600 + 40 * 5)))

    def to_json(self) -> dict[str, Any] | None:
        """What is stored with the game (None: no clock)."""
        if self.kind == "realtime":
            return {"kind": "realtime", "bank": self.bank, "increment": self.increment}
        if self.kind == "turn":
            return {"kind": "turn", "per_move": self.per_move}
        return None

    @staticmethod
    def from_json(stored: dict[str, Any] | None) -> TimeControl:
        """The inverse of `to_json` (a stored value, checked when the game was made)."""
        if not stored:
            return TimeControl()
        if stored.get("kind") == "realtime":
            return TimeControl("realtime", float(stored["bank"]), float(stored["increment"]))
        if stored.get("kind") == "turn":
            return TimeControl("turn", per_move=float(stored["per_move"]))
        return TimeControl()


def _number(field_name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Worded(
            "error-clock-number",
            f"{field_name}: expected a number, got {value!r}"[:200],
            field=field_name,
            got=repr(value)[:40],
        )
    try:
        number = float(value)
    except OverflowError:  # an integer of more than 308 digits is no float
        number = math.inf if value > 0 else -math.inf
    if not math.isfinite(number):
        raise Worded(
            "error-clock-finite",
            f"{field_name}: expected a finite number, got {value!r}"[:200],
            field=field_name,
            got=repr(value)[:40],
        )
    if number < 0:
        raise Worded(
            "error-clock-negative",
            f"{field_name}: cannot be negative (got {value!r})"[:200],
            field=field_name,
            got=repr(value)[:40],
        )
    return number


def parse(
    request: Any, *, max_minutes: float, max_increment: float, where: str = "clock"
) -> TimeControl:
    """The time control a request asked for, checked; ValueError naming the bad field.

    `{"kind": "none"}` (or nothing), `{"kind": "realtime", "preset": "3+2"}`,
    `{"kind": "realtime", "minutes": 5, "increment": 3}`, `{"kind": "turn", "days": 3}`.

    >>> parse({"kind": "realtime", "preset": "10+5"}, max_minutes=180, max_increment=60).bank
    600.0
    >>> parse({"kind": "turn", "days": 2}, max_minutes=180, max_increment=60)
    Traceback (most recent call last):
    ...
    cubegames.core.phrase.Worded: clock.days: a turn-based game gives 1, 3 or 7 days a move (got 2)
    """
    if request is None:
        return TimeControl()
    if not isinstance(request, dict):
        raise Worded(
            "error-clock-object",
            f"{where}: expected an object such as {{'kind': 'realtime', 'preset': '3+2'}}",
            field=where,
        )
    kind = request.get("kind", "none")
    allowed: dict[str, set[str]] = {
        "none": {"kind"},
        "realtime": {"kind", "preset", "minutes", "increment"},
        "turn": {"kind", "days"},
    }
    if not isinstance(kind, str) or kind not in allowed:  # a list or object is no kind
        raise Worded(
            "error-clock-kind",
            f"{where}.kind: expected none, realtime or turn, got {kind!r}"[:200],
            field=f"{where}.kind",
            got=repr(kind)[:40],
        )
    extra = sorted(set(request) - allowed[kind])
    if extra:
        raise Worded(
            "error-clock-setting",
            f"{where}.{extra[0]}: not a setting of a {kind} clock"[:200],
            field=f"{where}.{extra[0]}"[:60],
            kind=kind,
        )
    if kind == "none":
        return TimeControl()
    if kind == "turn":
        days = request.get("days")
        if isinstance(days, bool) or days not in DAYS:
            raise Worded(
                "error-clock-days",
                f"{where}.days: a turn-based game gives 1, 3 or 7 days a move (got {days!r})"[:200],
                field=f"{where}.days",
                got=repr(days)[:40],
            )
        return TimeControl.turn(int(days))
    if "preset" in request:
        if "minutes" in request or "increment" in request:
            raise Worded(
                "error-clock-both",
                f"{where}.preset: give a preset or minutes and increment, not both",
                field=f"{where}.preset",
            )
        preset = request["preset"]
        if not isinstance(preset, str) or preset not in PRESETS:
            raise Worded(
                "error-clock-preset",
                f"{where}.preset: expected one of {', '.join(PRESETS)}, got {preset!r}"[:200],
                field=f"{where}.preset",
                presets=", ".join(PRESETS),
                got=repr(preset)[:40],
            )
        minutes, increment = PRESETS[preset]
    elif "minutes" not in request:
        raise Worded(
            "error-clock-minutes-missing",
            f"{where}.minutes: a real-time clock needs minutes (or a preset)",
            field=f"{where}.minutes",
        )
    else:
        minutes = _number(f"{where}.minutes", request["minutes"])
        increment = _number(f"{where}.increment", request.get("increment", 0))
    if minutes < MIN_MINUTES:
        raise Worded(
            "error-clock-min-minutes",
            f"{where}.minutes: at least {MIN_MINUTES:g} (15 seconds), or there is no time "
            f"to move (got {minutes:g})",
            field=f"{where}.minutes",
            low=MIN_MINUTES,
            got=f"{minutes:g}",
        )
    if minutes > max_minutes:
        raise Worded(
            "error-clock-max-minutes",
            f"{where}.minutes: at most {max_minutes:g} on this server (got {minutes:g})",
            field=f"{where}.minutes",
            high=max_minutes,
            got=f"{minutes:g}",
        )
    if increment > max_increment:
        raise Worded(
            "error-clock-max-increment",
            f"{where}.increment: at most {max_increment:g} seconds on this server "
            f"(got {increment:g})",
            field=f"{where}.increment",
            high=max_increment,
            got=f"{increment:g}",
        )
    return TimeControl.realtime(minutes, increment)


@dataclass
class Clocks:
    """The clocks of one game as its moves have run them (see the module's docstring).

    `banks[s]` is what seat `s` had left when its last charge was made; the seat to move
    spends from `since` on. Rebuilt by `start` and `after` from the moves and their times.
    """

    control: TimeControl
    banks: list[float]
    #: seats that have made a move (a real-time clock runs from a seat's second move)
    moved: list[bool]
    #: when the current turn (or the last ply of it) began
    since: float
    #: the seat to move, or None when the game is over
    to_move: int | None = 0
    #: seats played by bots (no clock runs for them)
    bots: frozenset[int] = field(default_factory=frozenset)

    @staticmethod
    def start(
        control: TimeControl, players: int, at: float, to_move: int | None, bots: frozenset[int]
    ) -> Clocks:
        """The clocks of a game made at `at`."""
        full = control.bank if control.kind == "realtime" else control.per_move
        return Clocks(control, [full] * players, [False] * players, at, to_move, bots)

    def copy(self) -> Clocks:
        """An independent copy (its own `banks` and `moved`), for a move being tried."""
        return Clocks(
            self.control, list(self.banks), list(self.moved), self.since, self.to_move, self.bots
        )

    def running(self) -> int | None:
        """The seat whose clock runs now (None: none does)."""
        seat = self.to_move
        if not self.control.timed or seat is None or seat in self.bots:
            return None
        if self.control.kind == "realtime" and not self.moved[seat]:
            return None
        return seat

    def deadline(self) -> float | None:
        """When the running seat's time is up (None: no clock runs)."""
        seat = self.running()
        if seat is None:
            return None
        return self.since + self.banks[seat]

    def late(self, at: float) -> bool:
        """Whether the running seat's time was up at `at`."""
        due = self.deadline()
        return due is not None and at > due

    def left(self, at: float) -> list[float]:
        """Each seat's seconds left at `at` (never below zero)."""
        seat = self.running()
        found = list(self.banks)
        if seat is not None:
            found[seat] = max(0.0, found[seat] - (at - self.since))
        return found

    def after(self, seat: int, at: float, forced: bool, to_move: int | None) -> None:
        """Charge `seat` for its ply played at `at` (nothing if it was `forced` or its clock
        was not running), then pass the turn to `to_move`."""
        control = self.control
        if not control.timed:
            self.to_move = to_move
            return
        if self.running() == seat and not forced:
            self.banks[seat] = max(0.0, self.banks[seat] - (at - self.since))
        self.moved[seat] = True
        if to_move != seat:  # the turn passes
            if control.kind == "realtime":
                self.banks[seat] = min(control.bank, self.banks[seat] + control.increment)
            else:
                self.banks[seat] = control.per_move
        self.since = at
        self.to_move = to_move

    def message(self, at: float) -> dict[str, Any] | None:
        """The clocks as a page is told them (docs/protocol.md): None without a clock."""
        if not self.control.timed:
            return None
        due = self.deadline()
        return {
            "control": self.control.to_json(),
            "describe": self.control.describe(),
            "running": self.running(),
            "left_ms": [round(s * 1000) for s in self.left(at)],
            "deadline": None if due is None else round(due * 1000),
            "now": round(at * 1000),
            "grace_ms": round(self.control.grace() * 1000)
            if self.control.kind == "realtime"
            else None,
        }


__all__ = ["DAY", "DAYS", "PRESETS", "Clocks", "TimeControl", "parse"]
