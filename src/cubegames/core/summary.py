"""A game's own columns in a simulation row, read from its position file (`to_dict`).

The simulator records the same columns for every game (seats, bots, winners, scores,
moves, turns); what is worth counting beyond that differs from game to game. A game that
has more to count gives a `Summary` subclass as `GameInfo.summary` and declares its columns
in `GameInfo.columns`. A summary reads only the documented fields of the game's position,
never the engine's insides, and the columns of a game depend only on its options, so every
row of one run has the same columns.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cubegames.core.game import Game, State

#: a value in a summary column
Value = int | float | str


class Summary:
    """Watches one game and describes it in flat columns when it is over.

    `observe(state)` is called after every move only when `per_move` is true (it costs a
    call per move, so games that need only the end leave it off); `finish(state)` is called
    once with the final state. This base class adds no columns.
    """

    per_move: ClassVar[bool] = False

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def observe(self, state: State[Any]) -> None:
        """Note what the last move did (only called when `per_move`)."""

    def finish(self, state: State[Any]) -> dict[str, Value]:
        """The game's own columns, from its final state."""
        return {}
