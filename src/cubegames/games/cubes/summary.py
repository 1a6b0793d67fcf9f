"""CUBES's own simulation columns (see `cubegames.core.summary`): every roll's row of the
rules' table, set lengths, set wins and busts by position after the set's opener."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cubegames.core.game import Game, State
from cubegames.core.info import Column
from cubegames.core.summary import Summary, Value
from cubegames.games.cubes.dice import Row, classify

COLUMNS = (
    Column(
        "rolls_<row>",
        "rolls that fell in each row of the rules' table (numbers, cubes_few, cubes_many, "
        "cubes_only, blank)",
    ),
    Column("rolls", "rolls in the game"),
    Column("set<k>_rolls", "the length of set k in rolls"),
    Column(
        "setwin_rel<j>",
        "set wins (shared on a tie) of the seat j places after the set's opener",
        "higher",
    ),
    Column("bust_rel<j>", "sets in which the seat j places after the opener went bust", "lower"),
)


def _column(name: str) -> str:
    """A name fit for a column: `cubes-few` becomes `cubes_few`."""
    return name.replace("-", "_")


class CubesSummary(Summary):
    """CUBES: every roll's row of the table, set lengths, set wins and busts by position."""

    per_move = True

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        self.rows: Counter[str] = Counter()
        self.row_names = [_column(row.value) for row in Row]
        self.sets = int(game.options["sets"])
        self.set_rolls = [0] * self.sets
        self.current_set = 1

    def observe(self, state: State[Any]) -> None:
        data = state.to_dict()
        self.rows[_column(classify(data["last_roll"].split()).value)] += 1
        self.set_rolls[self.current_set - 1] += 1
        self.current_set = data["set"]

    def finish(self, state: State[Any]) -> dict[str, Value]:
        players = self.game.players
        data = state.to_dict()
        out: dict[str, Value] = {f"rolls_{row}": self.rows[row] for row in self.row_names}
        out["rolls"] = sum(self.rows.values())
        for k, rolls in enumerate(self.set_rolls, 1):
            out[f"set{k}_rolls"] = rolls
        wins = [0.0] * players
        busts = [0] * players
        for k, done in enumerate(data.get("past_sets", []), 1):
            opener = (k - 1) % players  # the rules: set k opens one seat after set k-1
            scores = done["scores"]
            best = max(scores)
            top = [s for s, v in enumerate(scores) if v == best]
            for seat in top:
                wins[(seat - opener) % players] += 1 / len(top)
            if done.get("bust") is not None:
                busts[(done["bust"] - opener) % players] += 1
        for j in range(players):
            out[f"setwin_rel{j}"] = wins[j]
        for j in range(players):
            out[f"bust_rel{j}"] = busts[j]
        return out
