"""Imports inside a game package go one way: `game.py` uses its helpers (`ai.py`, the
compiled kernel), never the reverse, so no helper imports the game class, not even for
type checking."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cubegames

GAMES = Path(cubegames.__file__).parent / "games"
HELPERS = sorted(
    path
    for pattern in ("*/ai.py", "*/kernel.py", "*/fast.py", "*/search.py")
    for path in GAMES.glob(pattern)
)


def imported(path: Path) -> set[str]:
    """Every module `path` imports, at any depth (inside `if TYPE_CHECKING:` too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("path", HELPERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_games_helpers_never_import_its_game_class(path: Path) -> None:
    game_module = f"cubegames.games.{path.parent.name}.game"
    assert game_module not in imported(path)


def test_the_helpers_are_found() -> None:
    names = {f"{p.parent.name}/{p.name}" for p in HELPERS}
    assert {"cubed/ai.py", "cubed/kernel.py", "cubed/fast.py", "stakd/ai.py"} <= names
