"""STAKD's own simulation columns (see `cubegames.core.summary`): pieces left by type and
seat, the last round's stack, rounds and layers."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cubegames.core.game import State
from cubegames.core.info import Column
from cubegames.core.summary import Summary, Value

COLUMNS = (
    Column("left_<TYPE>_s<seat>", "pieces of each type still in the seat's hand at the end"),
    Column("laid_<TYPE>", "pieces of each type in the last round's stack"),
    Column("laid", "pieces in the last round's stack"),
    Column("rounds", "rounds played"),
    Column("layers", "the last round's top layer"),
    Column("roundwins_s<seat>", "rounds the seat won", "higher"),
)


class StakdSummary(Summary):
    """STAKD: pieces left by type and seat, the last round's stack, rounds and layers."""

    def finish(self, state: State[Any]) -> dict[str, Value]:
        data = state.to_dict()
        out: dict[str, Value] = {}
        types = list(data["hands"][0]) if data["hands"] else []
        for seat, hand in enumerate(data["hands"]):
            for kind in types:
                out[f"left_{kind}_s{seat}"] = hand[kind]
        laid = Counter(piece["type"] for piece in data["pieces"])
        for kind in types:
            out[f"laid_{kind}"] = laid[kind]
        out["laid"] = len(data["pieces"])
        out["rounds"] = data["round"]
        out["layers"] = data["layer"]
        won: Counter[int] = Counter(data.get("round_winners", []))
        for seat in range(self.game.players):
            out[f"roundwins_s{seat}"] = won[seat]
        return out
