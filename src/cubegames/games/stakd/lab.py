"""STAKD in the simulator's lab (`cubegames.kit.lab`): its kinds of move (the piece laid),
who is ahead, and how much of the round's pieces were laid.

Kinds: the type of the piece laid (`base`, `uni`, `duo`, `trio`, `quad`, `bomber`).

>>> import cubegames
>>> game = cubegames.make("stakd")
>>> kind(game, 0, "DUO@1:0,0+1,0", None)
'duo'
"""

from __future__ import annotations

from typing import Any

from cubegames.core.game import Game, State
from cubegames.kit.lab import Last

#: how far ahead, in round points, is about 73% (the evaluation's logistic at 1)
SCALE = 0.5


def kinds(game: Game[Any]) -> tuple[str, ...]:
    """The types of piece, the base first."""
    return ("base", "uni", "duo", "trio", "quad", "bomber")


def kind(game: Game[Any], seat: int, text: str, last: Last) -> str:
    """The type of the piece laid, its notation's first word."""
    return text.split(":", 1)[0].split("@", 1)[0].lower()


def kind_name(kind: str) -> str:
    """`duo` is "DUO pieces"."""
    return f"{kind.upper()} pieces"


def standing(game: Game[Any], state: State[Any]) -> list[float]:
    """Each seat's round points, plus the share of its pieces for this round already laid."""
    data = state.to_dict()
    laid = [0] * game.players
    for piece in data["pieces"]:
        if piece["owner"] is not None and 0 <= piece["owner"] < len(laid):
            laid[piece["owner"]] += 1
    out = []
    for s, points in enumerate(data["points"]):
        left = sum(data["hands"][s].values())
        share = laid[s] / (laid[s] + left) if laid[s] + left else 0.0
        out.append(float(points) + share)
    return out


def scale(game: Game[Any]) -> float:
    """Round points: half a point ahead is about 73%."""
    return SCALE


def coverage(game: Game[Any], state: State[Any]) -> float | None:
    """The pieces laid in the last round of those dealt."""
    data = state.to_dict()
    left = sum(sum(h.values()) for h in data["hands"])
    laid = len(data["pieces"])
    return laid / (laid + left) if laid + left else None
