"""Make `tests/cubed/data/chance2-games.json`: CUBED games as chance version 2 dealt and
played them, which `tests/cubed/test_chance2.py` and the server's tests replay with today's
code in chance version 2.

It was run once with the code of commit 81da904, the last whose games were dealt in chance
version 2 (the first deal shuffled by `random.Random(seed)`, later draws from the position's
SplitMix64 generator):

    git archive 81da904 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src .venv/bin/python scripts/cubed_chance2_goldens.py \\
        tests/cubed/data/chance2-games.json

Each game is its options, its seed, the moves (chosen at random, draw3 often where it is in
play, so that pieces go back into the bag) and the position after the last move (`to_dict`),
with one position of round 1 kept as a file (`to_dict` after a move, with the moves after
it). Run today it would make games of the current chance version.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from golden_moves import play  # scripts/, beside this file

import cubegames

GAMES: list[tuple[dict[str, Any], int]] = [
    ({"players": 2, "rounds": 3}, 7),
    ({"players": 3, "rounds": 3, "variants": ["draw3"]}, 2**100 + 12345),
    ({"players": 4, "rounds": 2, "variants": ["bridging", "void", "draw3"], "edition": "ja"}, 12),
    ({"players": 5, "rounds": 2, "variants": ["draw3"], "strict_colors": False}, 2**127 + 5),
    ({"players": 2, "rounds": 1}, 0),
    ({"players": 1}, 3),
    ({"players": 1, "edition": "ja"}, 2**64 + 1),
]


def main() -> None:
    out = Path(sys.argv[1])
    games = []
    for i, (options, seed) in enumerate(GAMES):
        game = cubegames.make("cubed", **options)
        state = game.new_state(seed=seed)
        moves, seen = play(state, random.Random(200 + i))
        # one position of round 1, kept as a file (the position after the tenth move)
        file = {"ply": seen[9][0], "position": seen[9][2]} if len(seen) >= 10 else None
        assert file is not None
        final = state.to_dict()
        games.append(
            {"options": options, "seed": seed, "moves": moves, "file": file, "final": final}
        )
        print(f"game {i}: {len(moves)} moves, round {state.round}")
    out.write_text(json.dumps({"made_by": "81da904", "games": games}) + "\n")


if __name__ == "__main__":
    main()
