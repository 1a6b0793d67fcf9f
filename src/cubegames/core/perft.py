"""Perft: count the move sequences of a given length from a position.

Named after the chess-programming habit: fixed positions with known counts catch move
generation bugs that hand-built tests miss. Chance (bag draws, dice) is whatever the
position's own state fixes, so counts are exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cubegames.core.game import Move, State

#: a move source: the moves (objects or notation) to try from a position
MoveSource = Callable[[State[Any]], Sequence[Move | str]]


def perft(state: State[Any], depth: int, moves: MoveSource | None = None) -> int:
    """Number of legal move sequences of length `depth` (ended games count as leaves).

    `moves` replaces `legal_moves()` as the source of moves (objects or notation), so a
    reference generator can be checked against the stored counts by the same walk.

    >>> import cubegames
    >>> perft(cubegames.make("cubed", players=2).new_state(seed=7), 1)
    67
    """
    if depth == 0 or state.is_over:
        return 1
    found = state.legal_moves() if moves is None else moves(state)
    if depth == 1:
        return len(found)
    total = 0
    for move in found:
        child = state.clone()
        child.play(move)
        total += perft(child, depth - 1, moves)
    return total
