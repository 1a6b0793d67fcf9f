"""Perft: count the move sequences of a given length from a position.

Named after the chess-programming habit: fixed positions with known counts catch move
generation bugs that hand-built tests miss. Chance (bag draws, dice) is whatever the
position's own state fixes, so counts are exact.
"""

from __future__ import annotations

from typing import Any

from cubegames.core.game import State


def perft(state: State[Any], depth: int) -> int:
    """Number of legal move sequences of length `depth` (ended games count as leaves).

    >>> import cubegames
    >>> perft(cubegames.make("cubed", players=2).new_state(seed=7), 1)
    65
    """
    if depth == 0 or state.is_over:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = state.clone()
        child.play(move)
        total += perft(child, depth - 1)
    return total
