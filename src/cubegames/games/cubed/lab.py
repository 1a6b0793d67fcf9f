"""CUBED in the simulator's lab (`cubegames.kit.lab`): its kinds of move, the move that shows
each variant in use, who is ahead, and how much of the box reached the table.

Kinds: `place`, `draw`, `pass`; `bonus_place` (`bridging`: a placement straight after the
same seat's placement, the bonus), `draw3` and `keep` (`draw3`), `give` and `skip` (`void`:
what follows a placement that filled a void).

>>> import cubegames
>>> game = cubegames.make("cubed", variants=("bridging",))
>>> kinds(game)
('place', 'draw', 'pass', 'bonus_place')
>>> kind(game, 0, "GPY@1,0", (0, "place")), kind(game, 0, "GPY@1,0", (1, "place"))
('bonus_place', 'place')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cubegames.core.game import Game, State
from cubegames.games.cubed.edition import Edition
from cubegames.games.cubed.game import Cubed
from cubegames.kit.lab import Batcher, Last

#: the kind of move that shows each variant in use
DISTINCTIVE = {"bridging": "bonus_place", "void": "give", "draw3": "draw3"}

#: each kind as a reader of a report sees it
NAMES = {
    "bonus_place": "bonus placements",
    "place": "placements",
    "draw": "draws",
    "pass": "passes",
    "draw3": "draw-3s",
    "keep": "keeps",
    "give": "gifts",
    "skip": "skipped gifts",
}

#: how far ahead, in points, is about 73% (the evaluation's logistic at 1)
SCALE = 5.0


def _variants(game: Game[Any]) -> set[str]:
    return set(game.options.get("variants", ()))


def kinds(game: Game[Any]) -> tuple[str, ...]:
    """The kinds of move of `game`'s variants, in a fixed order."""
    variants = _variants(game)
    out = ["place", "draw", "pass"]
    if "bridging" in variants:
        out.append("bonus_place")
    if "draw3" in variants:
        out += ["draw3", "keep"]
    if "void" in variants:
        out += ["give", "skip"]
    return tuple(out)


def kind(game: Game[Any], seat: int, text: str, last: Last) -> str:
    """A placement straight after the same seat's placement is the bonus (`bridging`);
    every other move is its notation's first word."""
    if "@" in text:
        bonus = last in ((seat, "place"), (seat, "bonus_place"))
        return "bonus_place" if bonus and "bridging" in _variants(game) else "place"
    return text.split(":", 1)[0]


def kind_name(kind: str) -> str:
    """`bonus_place` is "bonus placements"."""
    return NAMES.get(kind, f"{kind} moves")


def distinctive(options: Mapping[str, Any]) -> dict[str, str]:
    """The kind of move each of the setting's variants adds."""
    return {v: DISTINCTIVE[v] for v in options.get("variants", ()) if v in DISTINCTIVE}


def standing(game: Game[Any], state: State[Any]) -> list[float]:
    """Minus what each seat would total if the round ended now: its match total plus the
    points of the pieces in its hand (the edition's points chart)."""
    assert isinstance(game, Cubed)
    data = state.to_dict()
    return [
        -(float(total) + _hand_points(game, hand))
        for total, hand in zip(data["totals"], data["hands"], strict=True)
    ]


#: each edition's points per piece text, worked out once (the edition kept, so its id is
#: never another's while it is here)
_POINTS: dict[int, tuple[Edition, dict[str, int]]] = {}


def _hand_points(game: Cubed, hand: Sequence[str]) -> float:
    edition = game.edition
    found = _POINTS.get(id(edition))
    if found is None:
        if len(_POINTS) >= 16:
            _POINTS.clear()
        found = _POINTS[id(edition)] = (edition, {})
    points = found[1]
    total = 0
    for text in hand:
        value = points.get(text)
        if value is None:
            value = points[text] = edition.piece_points(edition.read_piece(text, "hand"))
        total += value
    return float(total)


def scale(game: Game[Any]) -> float:
    """Points: five ahead is about 73%."""
    return SCALE


def batcher(game: Game[Any]) -> Batcher | None:
    """Random-bot games played many at a time in the batch kernel, where it covers the
    options (`batch_records`, imported only when asked: it compiles)."""
    from cubegames.games.cubed import batch_games
    from cubegames.games.cubed.batch_records import Batcher as CubedBatcher

    assert isinstance(game, Cubed)
    return CubedBatcher(game) if batch_games.supported(game) else None


def coverage(game: Game[Any], state: State[Any]) -> float | None:
    """The pieces on the table of those in the box."""
    assert isinstance(game, Cubed)
    box = len(game.edition.pieces)
    return len(state.to_dict()["table"]) / box if box else None
