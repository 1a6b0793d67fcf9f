"""Each game's own columns in a simulation row, read from its position file (`to_dict`).

The simulator records the same columns for every game (seats, bots, winners, scores,
moves, turns); what is worth counting beyond that differs from game to game. A `Summary`
watches one game and returns flat columns at its end. It reads only the documented fields of
the game's position (see each game package's docstring), never the engine's insides, so the
rules stay free of simulator code.

- `cubed`: `left_<kind>_s<seat>`, the pieces of each kind (single, double, triple,
  blocking, wild) left in each hand when the game ended (in a match, its last round);
  `rounds`; `end_<reason>`, how many rounds ended that way (emptied, blocked, stalled,
  standstill; solo: stuck, bag_empty); `placed`, the pieces on the table at the end; `bag`,
  the pieces left in the bag.
- `cubes`: `rolls_<row>`, the rolls that fell in each row of the rules' table (numbers,
  cubes_few, cubes_many, cubes_only, blank); `rolls`; `set<k>_rolls`, the length of set k
  in rolls; `setwin_rel<j>`, the set wins (shared on a tie) of the seat `j` places after
  the set's opener; `bust_rel<j>`, the sets in which that seat went bust.
- `stakd`: `left_<TYPE>_s<seat>`, the pieces of each type still in hand at the end;
  `laid_<TYPE>` and `laid`, the pieces in the last round's stack; `rounds`; `layers`;
  `roundwins_s<seat>`.
- `unstackable`: `pile<p>_<colour>_s<seat>`, the cubes of each colour (Y, R, K) in each
  seat's pile 1 and pile 2; `last_red`, the seat that stacked the last red cube.

The columns of a game depend only on its options (the number of seats, sets, ...), so every
row of one run has the same columns.

>>> import cubegames
>>> game = cubegames.make("unstackable")
>>> summary = summary_for(game)
>>> state = game.new_state(seed=1)
>>> bot = cubegames.bot("random", seed=1)
>>> while state.to_move is not None:
...     summary.observe(state) if summary.per_move else None
...     state.play(bot.choose(state))
>>> columns = summary.finish(state)
>>> sum(v for k, v in columns.items() if k.startswith("pile"))
64
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from cubegames.core.game import Game, State

#: a value in a summary column
Value = int | float | str


class Summary:
    """Watches one game and describes it in flat columns when it is over.

    `observe(state)` is called after every move only when `per_move` is true (it costs a
    call per move, so games that need only the end leave it off); `finish(state)` is called
    once with the final state.
    """

    per_move: ClassVar[bool] = False

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def observe(self, state: State[Any]) -> None:
        """Note what the last move did (only called when `per_move`)."""

    def finish(self, state: State[Any]) -> dict[str, Value]:
        """The game's own columns, from its final state."""
        return {}


#: CUBED piece kinds by edition id and piece text (with the edition they were read from)
_KINDS: dict[str, tuple[Any, dict[str, Any]]] = {}


class CubedSummary(Summary):
    """CUBED: leftover pieces by kind and seat, round endings, table and bag sizes."""

    def finish(self, state: State[Any]) -> dict[str, Value]:
        from cubegames.games.cubed import Cubed
        from cubegames.games.cubed.pieces import PieceKind
        from cubegames.games.cubed.state import (
            BAG_EMPTY,
            BLOCKED,
            EMPTIED,
            STALLED,
            STANDSTILL,
            STUCK,
        )

        game = self.game
        assert isinstance(game, Cubed)
        edition = game.edition
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
        for reason in (EMPTIED, BLOCKED, STALLED, STANDSTILL, STUCK, BAG_EMPTY):
            out[f"end_{reason}"] = reasons.pop(reason, 0)
        if reasons:
            raise ValueError(
                f"cubed: a round ended in a way the simulator does not know: {reasons}"
            )
        out["placed"] = len(data["table"])
        out["bag"] = len(data["bag"])
        return out


class CubesSummary(Summary):
    """CUBES: every roll's row of the table, set lengths, set wins and busts by position."""

    per_move = True

    def __init__(self, game: Game[Any]) -> None:
        from cubegames.games.cubes.dice import Row

        super().__init__(game)
        self.rows: Counter[str] = Counter()
        self.row_names = [_column(row.value) for row in Row]
        self.sets = int(game.options["sets"])
        self.set_rolls = [0] * self.sets
        self.current_set = 1

    def observe(self, state: State[Any]) -> None:
        from cubegames.games.cubes.dice import classify

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


class UnstackableSummary(Summary):
    """Unstackable: the colours in each seat's two piles and who stacked the last red."""

    def finish(self, state: State[Any]) -> dict[str, Value]:
        from cubegames.games.unstackable.box import LETTERS

        data = state.to_dict()
        out: dict[str, Value] = {}
        for seat, piles in enumerate(data["piles"]):
            for p, pile in enumerate(piles, 1):
                for letter in LETTERS:
                    out[f"pile{p}_{letter}_s{seat}"] = pile.count(letter)
        out["last_red"] = data["last_red"]
        return out


#: the summary class of each game id; a game without one gets only the common columns
SUMMARIES: dict[str, type[Summary]] = {
    "cubed": CubedSummary,
    "cubes": CubesSummary,
    "stakd": StakdSummary,
    "unstackable": UnstackableSummary,
}


def summary_for(game: Game[Any]) -> Summary:
    """A fresh summary for one game of `game`."""
    return SUMMARIES.get(game.id, Summary)(game)


def _column(name: str) -> str:
    """A name fit for a column: `cubes-few` becomes `cubes_few`."""
    return name.replace("-", "_")
