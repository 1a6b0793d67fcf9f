"""The base of every symmetry (and the identity), which a game's `symmetry` part
(`<game package>.symmetry`) writes its own on. What symmetries are and who uses them:
`cubegames.symmetry`."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from cubegames.core.game import JSON, Game, Move, State

#: what symmetries act on: a `to_dict()`, a `view(seat)` or a `public_view()`
Position = Mapping[str, Any]


class Symmetry(ABC):
    """One symmetry of one game (with its options)."""

    game: Game[Any]
    #: a short description, e.g. "rotate 120°"
    name: str

    @abstractmethod
    def apply_position(self, position: Position) -> JSON:
        """The image of a position: a `to_dict()`, a `view(seat)` or a `public_view()`
        (fields this symmetry does not touch are copied)."""

    @abstractmethod
    def apply_move(self, move: Move, position: Position | None = None) -> Move:
        """The image of `move` played in `position` (only STAKD needs the position, for the
        translation that re-anchors its first base)."""

    @abstractmethod
    def then(self, other: Symmetry) -> Symmetry:
        """This symmetry followed by `other`."""

    @abstractmethod
    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one."""

    @property
    @abstractmethod
    def key(self) -> tuple[Any, ...]:
        """What identifies this symmetry among its game's."""

    @property
    def is_identity(self) -> bool:
        """True for the symmetry that changes nothing."""
        return self.then(self) == self  # in a group only the identity is its own square

    def apply_state(self, state: State[Any]) -> State[Any]:
        """The image of a state, read back through `state_from_dict`."""
        return state.game.state_from_dict(self.apply_position(state.to_dict()))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Symmetry) and other.key == self.key

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key))

    def __repr__(self) -> str:
        return f"<{self.game.id} symmetry {self.name}>"


class Identity(Symmetry):
    """The trivial symmetry, the only one of a game without others (CUBES)."""

    name = "identity"

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def apply_position(self, position: Position) -> JSON:
        out: JSON = json.loads(json.dumps(position))
        return out

    def apply_move(self, move: Move, position: Position | None = None) -> Move:
        return move

    def then(self, other: Symmetry) -> Symmetry:
        return other

    def inverse(self) -> Symmetry:
        return self

    @property
    def key(self) -> tuple[Any, ...]:
        return ()

    @property
    def is_identity(self) -> bool:
        return True
