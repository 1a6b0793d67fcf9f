"""Helpers shared by the tests of every game."""

from __future__ import annotations

from typing import Any

import cubegames
from cubegames.core.game import State
from cubegames.core.registry import built_in

#: the games of this package, without plug-ins such as the test suite's own (tests/plugin_game)
BUILT_IN = tuple(g for g in cubegames.GAMES if built_in(g))


def refusal(state: State[Any], move: str) -> str:
    """The reason `move` is refused (asserting it is refused and nothing changed)."""
    before = state.to_dict()
    try:
        state.play(move)
    except cubegames.IllegalMove as exc:
        assert state.to_dict() == before
        return str(exc)
    raise AssertionError(f"{move} was accepted")
