"""Every registered game, with each of its example option sets, keeps the shared contract."""

from __future__ import annotations

from typing import Any

import pytest

import cubegames
from cubegames.core.registry import games
from tests.conformance import check_clone, playout


def cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for facts in games():
        for options in facts.example_options:
            out.append((facts.id, dict(options)))
    return out


CASES = cases()
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CASES]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_deep_playout(game_id: str, options: dict[str, Any]) -> None:
    """One game checked at every step."""
    playout(game_id, options, seed=1, deep=True)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", [*range(2, 7), 2**127 + 7])
def test_playouts(game_id: str, options: dict[str, Any], seed: int) -> None:
    """More games, each checked at a sample of steps; the last on a seed as large as the web
    app deals (128 bits), which every game's `new_state` takes."""
    playout(game_id, options, seed=seed, deep=False)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_clone_is_independent(game_id: str, options: dict[str, Any]) -> None:
    check_clone(game_id, options, seed=3)


def test_every_registered_game_loads_and_is_checked() -> None:
    """Every game in GAMES (the test suite's plug-in included) loads and has cases here."""
    assert {g for g, _ in CASES} == set(cubegames.GAMES)
    assert "nim" in cubegames.GAMES  # tests/plugin_game is installed


def test_unknown_game_and_option() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        cubegames.make("chess")
    for game_id in cubegames.GAMES:
        with pytest.raises(ValueError, match="has no option 'bogus'"):
            cubegames.make(game_id, bogus=1)
