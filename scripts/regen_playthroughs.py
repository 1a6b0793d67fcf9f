"""Write the golden playthroughs again: one per game and example option set, seed 1 (every
registered game, the test suite's plug-in from tests/plugin_game included).

Run after a deliberate rule change, then read the diff:
    .venv/bin/python scripts/regen_playthroughs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import cubegames
from cubegames.core.playthrough import record
from cubegames.core.registry import info

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "playthroughs"


def main(only: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game_id in cubegames.GAMES:
        if only and game_id not in only:
            continue
        for k, options in enumerate(info(game_id).example_options):
            path = OUT / f"{game_id}-{k}.txt"
            path.write_text(record(game_id, dict(options), seed=1))
            print(f"wrote {path.relative_to(OUT.parent.parent.parent)}")


if __name__ == "__main__":
    main(sys.argv[1:])
