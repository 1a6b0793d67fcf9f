"""The bounds every bot's settings keep, wherever a bot is made: `cubegames.bot`, the
simulator, the terminal, the web server. This module is the one place that defines them;
each bot checks its parameters here when it is built, so a setting out of bounds is refused
with one sentence before any game starts.

A number must be finite (NaN and infinity are refused: a deadline of NaN seconds never
comes) and within its bounds. A server may allow less (`cubegames serve --limit`), never
more.

>>> seconds("mcts", float("nan"))
Traceback (most recent call last):
...
cubegames.core.phrase.Worded: bot 'mcts': seconds must be a finite number above 0 and at most 3600
>>> whole("mcts", "iterations", 2000, 1, MAX_ITERATIONS)
2000
"""

from __future__ import annotations

import math
from typing import Any

from cubegames.core.phrase import Worded

#: the most seconds a bot may think for one move (an hour)
MAX_SECONDS = 3600.0
#: the most search iterations (or playouts) a bot may run for one move
MAX_ITERATIONS = 10_000_000
#: the deepest search a bot may be asked for, in plies
MAX_DEPTH = 64
#: the largest exploration weight of a tree search
MAX_C = 100.0

#: every bound by parameter name: (lowest, highest); a bot checks the ones it takes
BOUNDS: dict[str, tuple[float, float]] = {
    "seconds": (0.0, MAX_SECONDS),
    "iterations": (1, MAX_ITERATIONS),
    "depth": (1, MAX_DEPTH),
    "exact": (0, 64),
    "c": (0.0, MAX_C),
}


def _text(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else f"{value:,}".replace(",", "")


def whole(bot: str, key: str, value: Any, low: int, high: int) -> int:
    """`value` if it is a whole number from `low` to `high`, else ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Worded(
            "error-bot-whole",
            f"bot {bot!r}: {key} must be a whole number from {_text(low)} to {_text(high)}",
            bot=bot,
            key=key,
            low=low,
            high=high,
        )
    return value


def number(bot: str, key: str, value: Any, low: float, high: float, *, above: bool) -> float:
    """`value` as a float if it is a finite number within bounds (`above`: strictly above
    `low`), else ValueError naming it."""
    ok = (
        not isinstance(value, bool)
        and isinstance(value, int | float)
        and math.isfinite(value)
        and (value > low if above else value >= low)
        and value <= high
    )
    if not ok:
        side = "above" if above else "of at least"
        raise Worded(
            "error-bot-number",
            f"bot {bot!r}: {key} must be a finite number {side} {_text(low)} "
            f"and at most {_text(high)}",
            bot=bot,
            key=key,
            low=low,
            high=high,
            above="yes" if above else "no",
        )
    return float(value)


def seconds(bot: str, value: Any) -> float:
    """Thinking time per move: a finite number of seconds above 0, at most an hour."""
    low, high = BOUNDS["seconds"]
    return number(bot, "seconds", value, low, high, above=True)
