"""Shared helpers for the learning-environment tests: option sets, and seeded positions (from
the symmetry tests' helpers)."""

from __future__ import annotations

import importlib
from typing import Any

import cubegames
from tests.symmetry.helpers import positions

__all__ = ["CASES", "IDS", "cases", "positions"]


def cases() -> list[tuple[str, dict[str, Any]]]:
    """Every game with each of its example option sets (as the conformance test plays)."""
    out = []
    for game_id in cubegames.GAMES:
        module = importlib.import_module(f"cubegames.games.{game_id}")
        out.extend((game_id, dict(options)) for options in module.EXAMPLE_OPTIONS)
    return out


CASES = cases()
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CASES]
