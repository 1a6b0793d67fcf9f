"""Each game's own columns in a simulation row, read from its position file (`to_dict`).

The simulator records the same columns for every game (seats, bots, winners, scores,
moves, turns); what is worth counting beyond that differs from game to game. A game's
`Summary` (`cubegames.core.summary`) is declared in its facts (`GameInfo.summary`, found
through the registry) with the meaning of each column (`GameInfo.columns`); a game without
one gets only the common columns.

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

from typing import Any

from cubegames.core.game import Game
from cubegames.core.summary import Summary, Value

__all__ = ["Summary", "Value", "summary_for"]


def summary_for(game: Game[Any]) -> Summary:
    """A fresh summary for one game of `game`."""
    kind = game.info.summary
    return (kind or Summary)(game)
