"""Which moves may be taken back (BGA's undo policy), decided from the game's states alone:
no game is told about undo.

A seat may take back its own last move and the bots' replies since, but never past a
**chance event or hidden information revealed** (a bag draw, a deal, a roll): taking
those back would let a player see what chance gave and try again. Whether a move was
one is read from the states, for any game: a move revealed chance when it changed a
part of the state that **no seat can see** (`hidden_from_all`: CUBED's bag, CUBES' dice
generator), which is exactly what a draw, a deal or a roll does; a piece placed from a
player's own hand changes only what its owner could see, and may be taken back.

Nor does a take-back go past a **bot's move that showed a person something hidden from
them** (`shows`: a CUBED bot laying a piece from its hand): taken back, the piece goes
back into the bot's hand, and the person, who now knows it is there, could take back and
move again until the bot has shown its whole hand. A person's move shows the others its
piece as well; they agree to the take-back, or are bots.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cubegames.core.game import State


def _hidden(full: Any, views: list[Any]) -> Any:
    """The parts of `full` that differ in every view (None where a view shows them)."""
    if isinstance(full, dict):
        found = {}
        for key, value in full.items():
            part = _hidden(value, [v.get(key) if isinstance(v, dict) else None for v in views])
            if part is not None:
                found[key] = part
        return found or None
    if isinstance(full, list) and all(isinstance(v, list) and len(v) == len(full) for v in views):
        parts = [_hidden(item, [v[i] for v in views]) for i, item in enumerate(full)]
        return parts if any(p is not None for p in parts) else None
    if all(view != full for view in views):
        return full
    return None


def hidden_from_all(state: State[Any], players: int) -> Any:
    """What of the whole state (`to_dict`) no seat's view shows (None: nothing)."""
    views = [state.view(seat) for seat in range(players)]
    return _hidden(state.to_dict(), views)


def hidden_from(state: State[Any], seat: int) -> Any:
    """What of the whole state (`to_dict`) `seat`'s view does not show (None: nothing)."""
    return _hidden(state.to_dict(), [state.view(seat)])


def shows(before: State[Any], after: State[Any], seats: Iterable[int]) -> bool:
    """Whether the move from `before` to `after` changed what one of `seats` could not see
    (a bot laying a piece from its hidden hand shows it to them: taken back, the piece
    would be hidden again, and known)."""
    return any(hidden_from(before, seat) != hidden_from(after, seat) for seat in seats)


def reveals(before: State[Any], after: State[Any], players: int) -> bool:
    """Whether the move from `before` to `after` drew on chance or hidden information:
    it changed what no seat could see."""
    return bool(hidden_from_all(before, players) != hidden_from_all(after, players))


__all__ = ["hidden_from", "hidden_from_all", "reveals", "shows"]
