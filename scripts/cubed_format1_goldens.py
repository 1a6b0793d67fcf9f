"""Make `tests/cubed/data/format1-games.json`: CUBED games as the code before format 2 played
them, which `tests/cubed/test_format1.py` replays with today's code in format 1.

It was run once with the code of commit 35f0638, the last whose later draws came from a hash of
the position's JSON text:

    git archive 35f0638 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src .venv/bin/python scripts/cubed_format1_goldens.py \\
        tests/cubed/data/format1-games.json

Each game is its options, its seed, the moves (chosen at random, draw3 often where it is in
play, so that pieces go back into the bag) and the position after the last move (`to_dict`).
Each also keeps two positions of its own as files (`to_dict` after a move in round 1 and after
one in round 2), with the moves after each. `tests/cubed/data/format1-round2.json`, a file
written by that code, is played on to its end too. Run today it would make format 2 games.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from golden_moves import play  # scripts/, beside this file

import cubegames

BIG = 2**100 + 12345  # a seed as the web server deals them (the position then has a secret)

GAMES: list[tuple[dict[str, Any], int]] = [
    ({"players": 2, "rounds": 3}, 7),
    ({"players": 3, "rounds": 3, "variants": ["draw3"]}, BIG),
    ({"players": 4, "rounds": 3, "variants": ["bridging", "void", "draw3"], "edition": "ja"}, 12),
    ({"players": 5, "rounds": 3, "variants": ["draw3"], "strict_colors": False}, 2**127 + 5),
    ({"players": 6, "rounds": 2, "variants": ["void"]}, 31),
    ({"players": 2, "rounds": 3, "variants": ["draw3", "bridging"]}, 2**64 + 99),
]


def main() -> None:
    out = Path(sys.argv[1])
    games = []
    for i, (options, seed) in enumerate(GAMES):
        game = cubegames.make("cubed", **options)
        state = game.new_state(seed=seed)
        moves, seen = play(state, random.Random(100 + i))
        assert state.round == game.rounds, "every match is played to its last round"
        files = []
        for wanted in (1, 2):
            # a position in the middle of round `wanted`, to be read as a file
            plies = [ply for ply, rnd, _ in seen if rnd == wanted]
            ply = plies[len(plies) // 2]
            files.append({"ply": ply, "position": seen[ply - 1][2]})
        keeps = sum(m.startswith("keep:") for m in moves)
        games.append(
            {
                "options": options,
                "seed": seed,
                "moves": moves,
                "files": files,
                "final": state.to_dict(),
            }
        )
        print(f"game {i}: {len(moves)} moves, {keeps} draw3 returns, {game.rounds} rounds")
    here = Path(__file__).resolve().parents[1] / "tests" / "cubed" / "data"
    start = json.loads((here / "format1-round2.json").read_text())
    game = cubegames.make("cubed", **start["options"])
    state = game.state_from_dict(start)
    moves, _ = play(state, random.Random(0))
    on = {"moves": moves, "final": state.to_dict()}
    print(f"format1-round2.json: {len(moves)} moves to its end")
    out.write_text(
        json.dumps({"made_by": "35f0638", "games": games, "round2_file": on}, indent=None) + "\n"
    )


if __name__ == "__main__":
    main()
