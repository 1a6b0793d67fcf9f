"""Unstackable in the simulator's lab (`cubegames.kit.lab`): its kinds of move, who is ahead,
and how much of the 4x4x4 cube was filled.

Kinds: `stack` (a cube placed), `end` (a turn ended early), `unstack` (a cube removed).

>>> import cubegames
>>> game = cubegames.make("unstackable")
>>> [kind(game, 0, text, None) for text in ("K@0,0,0", "end", "0,0,0")]
['stack', 'end', 'unstack']
"""

from __future__ import annotations

from typing import Any

from cubegames.core.game import Game, State
from cubegames.kit.lab import Last

#: each kind as a reader of a report sees it
NAMES = {"stack": "cubes stacked", "end": "turns ended early", "unstack": "cubes removed"}

#: how far ahead, in points, is about 73% (the evaluation's logistic at 1)
SCALE = 5.0


def kinds(game: Game[Any]) -> tuple[str, ...]:
    """Stacking, ending a turn early, removing."""
    return ("stack", "end", "unstack")


def kind(game: Game[Any], seat: int, text: str, last: Last) -> str:
    """A move with `@` stacks a cube; `end` ends a turn; a bare cell removes a cube."""
    return "stack" if "@" in text else "end" if text == "end" else "unstack"


def kind_name(kind: str) -> str:
    """`unstack` is "cubes removed"."""
    return NAMES.get(kind, f"{kind} moves")


def standing(game: Game[Any], state: State[Any]) -> list[float]:
    """The points in each seat's piles so far (the game's own score)."""
    return [float(s) for s in state.scores()]


def scale(game: Game[Any]) -> float:
    """Points: five ahead is about 73%."""
    return SCALE


def coverage(game: Game[Any], state: State[Any]) -> float | None:
    """The cells filled at the end of stacking (cubes still standing and those removed
    since), of the cube's 64 (all of them when the box fills it)."""
    data = state.to_dict()
    removed = sum(len(pile) for piles in data["piles"] for pile in piles)
    filled = sum(1 for c in data["grid"] if c != ".")
    return (filled + removed) / 64
