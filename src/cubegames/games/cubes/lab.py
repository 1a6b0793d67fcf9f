"""CUBES in the simulator's lab (`cubegames.kit.lab`): its one kind of move and who is ahead.
CUBES has no board, so no coverage.

>>> import cubegames
>>> kinds(cubegames.make("cubes"))
('roll',)
"""

from __future__ import annotations

from typing import Any

from cubegames.core.game import Game, State
from cubegames.kit.lab import Last

#: how far ahead, in chips, is about 73% (the evaluation's logistic at 1)
SCALE = 10.0


def kinds(game: Game[Any]) -> tuple[str, ...]:
    """Rolling is the only move."""
    return ("roll",)


def kind(game: Game[Any], seat: int, text: str, last: Last) -> str:
    """Every move is a roll (`roll`, or `roll` and the faces a referee gives)."""
    return "roll"


def kind_name(kind: str) -> str:
    """`roll` is "rolls"."""
    return "rolls" if kind == "roll" else f"{kind} moves"


def standing(game: Game[Any], state: State[Any]) -> list[float]:
    """Each seat's total over the finished sets plus the chips it holds."""
    data = state.to_dict()
    return [float(t + c) for t, c in zip(data["totals"], data["chips"], strict=True)]


def scale(game: Game[Any]) -> float:
    """Chips: ten ahead is about 73%."""
    return SCALE
