"""The perft counts in tests/data/perft/stakd.json, recounted with the plain generator.

`tests/test_perft.py` checks the engine against the file; this checks the file against
`reference.py`, so a count is trusted only when two independent generators agree on it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cubegames
from cubegames.core.game import State
from cubegames.core.perft import perft
from tests.stakd.reference import reference_moves

DATA = json.loads((Path(__file__).parent.parent / "data" / "perft" / "stakd.json").read_text())
#: the plain generator is slow: recount to depth 2, or 3 where the tree is small
DEPTH = {"2p-start": 3, "3p-start": 3}


def load(entry: dict[str, Any]) -> State[Any]:
    if "position" in entry:
        data = entry["position"]
        return cubegames.make("stakd", **data["options"]).state_from_dict(data)
    setup = entry["setup"]
    state = cubegames.make("stakd", **setup["options"]).new_state(seed=setup["seed"])
    for move in setup["moves"]:
        state.play(move)
    return state


def plain_perft(state: State[Any], depth: int) -> int:
    """Perft with every move from the plain reference generator, played as text."""
    return perft(state, depth, lambda s: reference_moves(s.to_dict()))


@pytest.mark.parametrize("entry", DATA, ids=[e["name"] for e in DATA])
def test_plain_generator_gives_the_stored_counts(entry: dict[str, Any]) -> None:
    state = load(entry)
    for depth, expected in enumerate(entry["counts"][: DEPTH.get(entry["name"], 2)], 1):
        assert plain_perft(state, depth) == expected, f"depth {depth}"
