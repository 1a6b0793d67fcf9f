"""The one error type a player ever sees from the rules."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move that is malformed or breaks the rules.

    The message says why, in words a player understands; the state it was offered
    to is left exactly as it was.

    >>> import cubegames
    >>> state = cubegames.make("cubed", players=2).new_state(seed=1)
    >>> try:
    ...     state.play("pass")
    ... except cubegames.IllegalMove as refusal:
    ...     print(refusal)
    you may pass only after drawing, or when the bag is empty
    """
