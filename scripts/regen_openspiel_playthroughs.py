"""Write the OpenSpiel playthroughs again (tests/data/openspiel/*.txt.gz), each made by
OpenSpiel's own `generate_playthrough` with seed 1.

Run after a deliberate change to the games or to their OpenSpiel description, then check
what changed (`zdiff` old and new):
    .venv/bin/python scripts/regen_openspiel_playthroughs.py
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

from open_spiel.python.algorithms import generate_playthrough

import cubegames.openspiel  # noqa: F401  (registers the games)

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "openspiel"

#: file name: game string. CUBED's window is small here (radius 4) so that its tensors,
#: printed at every state shown, keep the file small; STAKD plays to one point for the same
#: reason
PLAYTHROUGHS = {
    "cubed": "cubegames_cubed(radius=4,rounds=1)",
    "cubed-variants": "cubegames_cubed(players=3,radius=4,rounds=1,variants=draw3+void+bridging)",
    # solo plays on the whole table (no radius): its file is the largest, 40 KB
    "cubed-solo": "cubegames_cubed(players=1)",
    "unstackable": "cubegames_unstackable()",
    "stakd": "cubegames_stakd(points_to_win=1)",
    "cubes": "cubegames_cubes(sets=1)",
    # the test suite's plug-in game (tests/plugin_game), through the same adapter
    "nim": "cubegames_nim(stones=7)",
}


def main(only: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, game_string in PLAYTHROUGHS.items():
        if only and name not in only:
            continue
        text = generate_playthrough.playthrough(game_string, None, seed=1)
        path = OUT / f"{name}.txt.gz"
        # mtime=0: the same text always gives the same bytes
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
        print(f"wrote {path.relative_to(OUT.parent.parent.parent)}")


if __name__ == "__main__":
    main(sys.argv[1:])
