"""Nim in the simulator's lab: its `lab` part, found beside the game module by
`cubegames.kit.parts` (as `cubegames.games.cubed.lab` is for CUBED). It sorts moves into
kinds (`cubegames.kit.lab.MoveKinds`: how many stones a move takes), so a simulation report
counts them per bot; for who is ahead and the board's coverage, which it does not say, the
lab falls back on the game's scores and on none."""

from __future__ import annotations

from typing import Any

from cubegames.core.game import Game
from cubegames.kit.lab import Last


def kinds(game: Game[Any]) -> tuple[str, ...]:
    """`take_1` to `take_<max_take>`."""
    return tuple(f"take_{n}" for n in range(1, int(game.options["max_take"]) + 1))


def kind(game: Game[Any], seat: int, text: str, last: Last) -> str:
    """`take 2` is `take_2`."""
    return text.replace(" ", "_")


def kind_name(kind: str) -> str:
    """`take_2` is "takes of 2"."""
    return f"takes of {kind.rsplit('_', 1)[1]}"
