"""The learning capability of a game from outside this package, and two helpers to write it.

The built-in games have their codec and observer in `cubegames.rl.games.<game>`. Any other
game is learnable when its `Game` class has the `Learnable` capability (a protocol: name
it among the class's bases so mypy checks it). Without it, `cubegames.rl` refuses the game
with a clear `ValueError`; everything else (bots, simulator, web app) works without it.

- `ListCodec(game, moves)`: a codec over a fixed list of every move the game could ever
  make with its options (Nim with piles up to 3: `take 1`, `take 2`, `take 3`);
- `VectorObserver(game, size, features)`: an observer of `size` floats in [0, 1] made by
  `features(view)`, with no spatial planes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from cubegames.core.game import Game, Move
from cubegames.rl.encoding import ActionCodec, ActionEncodingError
from cubegames.rl.observation import Array, Observer

View = Mapping[str, Any]


@runtime_checkable
class Learnable(Protocol):
    """A game that gives its own action codec and observer."""

    def action_codec(self, **settings: Any) -> ActionCodec:
        """The game's codec for its options (`settings`: the codec's own, if any)."""
        ...

    def observer(self, **settings: Any) -> Observer:
        """The game's observer for its options (`settings`: the observer's own, if any)."""
        ...


def learnable(game: Game[Any]) -> Learnable:
    """`game` as a `Learnable`, or a ValueError saying it is not."""
    if not isinstance(game, Learnable):
        raise ValueError(
            f"{game.id} has no learning encoding: its game class does not have the "
            "Learnable capability (docs/plugins.md)"
        )
    return game


class ListCodec(ActionCodec):
    """Actions numbered by their place in a fixed list of moves.

    >>> import cubegames
    >>> from cubegames.games.cubes import Roll
    >>> codec = ListCodec(cubegames.make("cubes"), [Roll()])
    >>> codec.size, codec.encode(Roll()), codec.decode(0)
    (1, 0, Roll(faces=None))
    """

    def __init__(self, game: Game[Any], moves: Sequence[Move]) -> None:
        self.game = game
        self.moves = list(moves)
        self.size = len(self.moves)
        self._index = {m: i for i, m in enumerate(self.moves)}
        if len(self._index) != self.size:
            raise ValueError("ListCodec: a move is listed twice")

    def encode(self, move: Move, view: View | None = None) -> int:
        found = self._index.get(move)
        if found is None:
            raise ActionEncodingError(f"{move} is not among the codec's moves")
        return found

    def decode(self, index: int, view: View | None = None) -> Move:
        return self.moves[self.check_index(index)]


class VectorObserver(Observer):
    """An observer with no planes and a vector of `size` features from `features(view)`."""

    def __init__(
        self, game: Game[Any], size: int, features: Callable[[View], Sequence[float]]
    ) -> None:
        self.game = game
        self.plane_shape = (0,)
        self.vector_size = size
        self._features = features

    def fill_planes(self, view: View, out: Array) -> None:
        """No planes."""

    def vector(self, view: View) -> Array:
        out = np.asarray(self._features(view), dtype=np.float32)
        if out.shape != (self.vector_size,):
            raise ValueError(f"the features of {self.game.id} must be {self.vector_size} numbers")
        return out
