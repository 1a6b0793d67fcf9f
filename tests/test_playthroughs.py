"""Golden playthroughs: seeded games replayed move by move against their recorded files."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from cubegames.core.playthrough import record, replay
from tests.helpers import BUILT_IN

DATA = Path(__file__).parent / "data" / "playthroughs"
FILES = sorted(DATA.glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_playthrough_still_holds(path: Path) -> None:
    assert replay(path.read_text()) == []


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_every_game_has_playthroughs(game_id: str) -> None:
    module = importlib.import_module(f"cubegames.games.{game_id}")
    for k in range(len(module.EXAMPLE_OPTIONS)):
        assert (DATA / f"{game_id}-{k}.txt").exists(), "run scripts/regen_playthroughs.py"


def test_recording_is_deterministic() -> None:
    assert record("cubed", {"players": 3, "rounds": 1}, 5) == record(
        "cubed", {"players": 3, "rounds": 1}, 5
    )


def test_replay_notices_a_changed_file() -> None:
    text = (DATA / "cubed-0.txt").read_text()
    lines = text.splitlines()
    first_move = next(i for i, line in enumerate(lines) if line.startswith("seat"))
    seat, _count, move, scores = lines[first_move].split(" | ")
    lines[first_move] = " | ".join([seat, "999 legal", move, scores])
    assert any("999 legal recorded" in p for p in replay("\n".join(lines)))
