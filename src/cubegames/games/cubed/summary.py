"""CUBED's own simulation columns (see `cubegames.core.summary`), read from the position
file: leftover pieces by kind and seat, round endings, table and bag sizes."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, cast

from cubegames.core.game import State
from cubegames.core.info import Column
from cubegames.core.summary import Summary, Value
from cubegames.games.cubed.edition import Edition
from cubegames.games.cubed.pieces import PieceKind
from cubegames.games.cubed.state import (
    BAG_EMPTY,
    BLOCKED,
    EMPTIED,
    STALLED,
    STANDSTILL,
    STUCK,
)

if TYPE_CHECKING:
    from cubegames.games.cubed.game import Cubed

ENDINGS = (EMPTIED, BLOCKED, STALLED, STANDSTILL, STUCK, BAG_EMPTY)

COLUMNS = (
    Column(
        "left_<kind>_s<seat>",
        "pieces of each kind (single, double, triple, blocking, wild) left in the seat's "
        "hand when the game ended (in a match, its last round)",
        "lower",
    ),
    Column("rounds", "rounds played"),
    Column(
        "end_<reason>",
        "rounds that ended that way (emptied, blocked, stalled, standstill; solo: stuck, "
        "bag_empty)",
    ),
    Column("placed", "pieces on the table at the end"),
    Column("bag", "pieces left in the bag at the end"),
)

#: piece kinds by edition id and piece text (with the edition they were read from)
_KINDS: dict[str, tuple[Edition, dict[str, PieceKind]]] = {}


class CubedSummary(Summary):
    """CUBED: leftover pieces by kind and seat, round endings, table and bag sizes."""

    def finish(self, state: State[Any]) -> dict[str, Value]:
        edition = cast("Cubed", self.game).edition
        data = state.to_dict()
        out: dict[str, Value] = {}
        # a piece's kind by its text, worked out once per edition (editions are loaded once)
        known = _KINDS.setdefault(edition.id, (edition, {}))
        if known[0] is not edition:
            known = _KINDS[edition.id] = (edition, {})
        kind_of = known[1]
        for seat, hand in enumerate(data["hands"]):
            kinds: Counter[PieceKind] = Counter()
            for text in hand:
                found = kind_of.get(text)
                if found is None:
                    found = kind_of[text] = edition.kind(edition.read_piece(text, f"hands[{seat}]"))
                kinds[found] += 1
            for kind in PieceKind:
                out[f"left_{kind.value}_s{seat}"] = kinds[kind]
        past = data.get("past_rounds", [])
        reasons = Counter(r["end"] for r in past) if past else Counter([data.get("end")])
        out["rounds"] = max(len(past), 1)
        for reason in ENDINGS:
            out[f"end_{reason}"] = reasons.pop(reason, 0)
        if reasons:
            raise ValueError(
                f"cubed: a round ended in a way the simulator does not know: {reasons}"
            )
        out["placed"] = len(data["table"])
        out["bag"] = len(data["bag"])
        return out
