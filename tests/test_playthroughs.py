"""Golden playthroughs: seeded games replayed move by move against their recorded files."""

from __future__ import annotations

from pathlib import Path

import pytest

import cubegames
from cubegames.core.playthrough import record, replay
from cubegames.core.registry import info

DATA = Path(__file__).parent / "data" / "playthroughs"
FILES = sorted(DATA.glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_playthrough_still_holds(path: Path) -> None:
    assert replay(path.read_text()) == []


@pytest.mark.parametrize("game_id", cubegames.GAMES)
def test_every_game_has_playthroughs(game_id: str) -> None:
    """Every registered game, the test suite's plug-in (tests/plugin_game) included."""
    for k in range(len(info(game_id).example_options)):
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
