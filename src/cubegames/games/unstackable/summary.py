"""Unstackable's own simulation columns (see `cubegames.core.summary`): the colours in each
seat's two piles and who stacked the last red cube."""

from __future__ import annotations

from typing import Any

from cubegames.core.game import State
from cubegames.core.info import Column
from cubegames.core.summary import Summary, Value
from cubegames.games.unstackable.box import LETTERS

COLUMNS = (
    Column(
        "pile<p>_<colour>_s<seat>",
        "cubes of each colour (Y, R, K) in the seat's pile 1 and pile 2",
    ),
    Column("last_red", "the seat that stacked the last red cube"),
)


class UnstackableSummary(Summary):
    """Unstackable: the colours in each seat's two piles and who stacked the last red."""

    def finish(self, state: State[Any]) -> dict[str, Value]:
        data = state.to_dict()
        out: dict[str, Value] = {}
        for seat, piles in enumerate(data["piles"]):
            for p, pile in enumerate(piles, 1):
                for letter in LETTERS:
                    out[f"pile{p}_{letter}_s{seat}"] = pile.count(letter)
        out["last_red"] = data["last_red"]
        return out
