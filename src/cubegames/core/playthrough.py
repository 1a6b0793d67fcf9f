"""Playthroughs: a seeded game written move by move as text, to pin the rules down.

A playthrough file starts with a header of `# key: value` lines (game, options, seed, bot),
then one line per move, `seat S | N legal | MOVE | scores A B ...`, and ends with the final
position as JSON on a `final:` line. Replaying the moves from the same seed must give the
same legal-move counts, scores and final position; any rule change that alters a game
shows up as a diff.
"""

from __future__ import annotations

import json
import random
from typing import Any

from cubegames.core.game import State
from cubegames.core.registry import make


def _scores(state: State[Any]) -> str:
    return " ".join(f"{s:g}" for s in state.scores())


def record(game_id: str, options: dict[str, Any], seed: int) -> str:
    """Play a game of uniform choices among the legal moves (from `random.Random(seed)`)
    and write it down."""
    game = make(game_id, **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    lines = [
        f"# game: {game_id}",
        f"# options: {json.dumps(options, sort_keys=True)}",
        f"# seed: {seed}",
        f"# bot: random, seed {seed}",
    ]
    while not state.is_over:
        seat = state.to_move
        moves = state.legal_moves()
        count = len(moves)
        move = moves[rng.randrange(count)]
        state.play(move)
        lines.append(f"seat {seat} | {count} legal | {move} | scores {_scores(state)}")
    lines.append("final: " + json.dumps(state.to_dict(), sort_keys=True))
    return "\n".join(lines) + "\n"


def replay(text: str) -> list[str]:
    """Replay a playthrough; the list of differences found (empty when it still holds)."""
    header: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            header[key] = value
        elif line:
            body.append(line)
    game = make(header["game"], **json.loads(header["options"]))
    state = game.new_state(seed=int(header["seed"]))
    problems: list[str] = []
    for number, line in enumerate(body, 1):
        if line.startswith("final: "):
            final = json.loads(line[len("final: ") :])
            if state.to_dict() != final:
                problems.append("the final position differs")
            if not state.is_over:
                problems.append("the game is not over after the last move")
            break
        seat, count, move, scores = (part.strip() for part in line.split("|"))
        if seat != f"seat {state.to_move}":
            problems.append(f"move {number}: {seat} recorded, seat {state.to_move} to move")
            break
        actual = len(state.legal_moves())
        if count != f"{actual} legal":
            problems.append(f"move {number}: {count} recorded, {actual} legal now")
        try:
            state.play(move)
        except ValueError as exc:
            problems.append(f"move {number}: {move} is refused now ({exc})")
            break
        if scores != f"scores {_scores(state)}":
            problems.append(f"move {number}: {scores} recorded, scores {_scores(state)} now")
    else:
        problems.append("no final line")
    return problems
