"""Perft counts from fixed positions, kept in tests/data/perft/<game>.json.

Each entry: {"name", "position": a to_dict position, or "setup": {"options", "seed",
"moves", and "chance", the chance version the seed is dealt in (`core.chance`; default the
current one)}, "counts": [moves at depth 1, depth 2, ...]}. CUBED's setups name version 2,
whose deals they were chosen from.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.core import chance
from cubegames.core.game import State
from cubegames.core.perft import perft
from cubegames.core.registry import game_from_dict
from tests.helpers import BUILT_IN

DATA = Path(__file__).parent / "data" / "perft"


def load(entry: dict[str, Any], game_id: str) -> State[Any]:
    if "position" in entry:
        data = entry["position"]
        return game_from_dict(data).state_from_dict(data)
    setup = entry["setup"]
    game = cubegames.make(game_id, **setup["options"])
    state = chance.new_state(game, setup["seed"], setup.get("chance", chance.CURRENT))
    for move in setup["moves"]:
        state.play(move)
    return state


def entries() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(DATA.glob("*.json")):
        for entry in json.loads(path.read_text()):
            out.append((path.stem, entry))
    return out


ENTRIES = entries()


@pytest.mark.parametrize(
    ("game_id", "entry"), ENTRIES, ids=[f"{g}-{e['name']}" for g, e in ENTRIES]
)
def test_perft(game_id: str, entry: dict[str, Any]) -> None:
    state = load(entry, game_id)
    for depth, expected in enumerate(entry["counts"], 1):
        assert perft(state, depth) == expected, f"depth {depth}"


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_every_game_has_perft_counts(game_id: str) -> None:
    assert (DATA / f"{game_id}.json").exists()
