"""Shared helpers for the learning-environment tests: option sets, and seeded positions (from
the symmetry tests' helpers)."""

from __future__ import annotations

from typing import Any

from cubegames.core.registry import games
from tests.symmetry.helpers import positions

__all__ = ["CASES", "IDS", "cases", "positions"]


def cases() -> list[tuple[str, dict[str, Any]]]:
    """Every game with each of its example option sets (as the conformance test plays)."""
    out = []
    for facts in games():  # the test suite's plug-in game (tests/plugin_game) too
        out.extend((facts.id, dict(options)) for options in facts.example_options)
    return out


CASES = cases()
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CASES]
