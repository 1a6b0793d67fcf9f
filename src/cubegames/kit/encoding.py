"""The base of every action codec: a fixed-size integer encoding of one game's moves for one
set of options (see `cubegames.rl.encoding`, which finds a game's codec). A game's `rl` part
(`<game package>.rl`) writes its `Codec` on `ActionCodec`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from cubegames.core.game import Game, Move

View = Mapping[str, Any]


class ActionEncodingError(ValueError):
    """A move that the codec has no index for, or an index out of range."""


class ActionCodec(ABC):
    """The integer actions of one game with one set of options.

    `size` is fixed by the game's options (players, edition, variants) and the codec's own
    settings, never by a position.
    """

    #: the game this codec encodes moves of
    game: Game[Any]
    #: number of actions: indexes are 0 .. size - 1
    size: int

    @abstractmethod
    def encode(self, move: Move, view: View | None = None) -> int:
        """The index of `move`; `ActionEncodingError` if it has none."""

    @abstractmethod
    def decode(self, index: int, view: View | None = None) -> Move:
        """The move of action `index`; `ActionEncodingError` if out of range.

        Every index decodes to a move of the game's notation, legal or not; the mask says
        which are legal now.
        """

    def indexes(self, moves: Iterable[Move], view: View | None = None) -> npt.NDArray[np.int64]:
        """The indexes of `moves`, in their order, as a fresh int64 array.

        Raises `ActionEncodingError` if a move has no index, or if two moves share one (a
        mask would then hold fewer ones than there are legal moves).
        """
        out = np.array([self.encode(m, view) for m in moves], dtype=np.int64)
        if len(np.unique(out)) != len(out):
            raise ActionEncodingError("two legal moves share an action index")
        return out

    def mask(self, moves: Iterable[Move], view: View | None = None) -> npt.NDArray[np.int8]:
        """A fresh int8 array of shape `(size,)`: 1 at the index of each of `moves`, as
        `indexes` finds them (and with its errors)."""
        return self.mask_of(self.indexes(moves, view))

    def mask_of(self, indexes: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        """A fresh int8 mask with 1 at `indexes`."""
        out = np.zeros(self.size, dtype=np.int8)
        out[indexes] = 1
        return out

    def check_index(self, index: int) -> int:
        """`index` as a plain int, checked to be in range: anything else (NaN, None, True,
        2.5, "3") raises `ActionEncodingError`, a `ValueError`."""
        try:
            value = int(index)
        except (TypeError, ValueError, OverflowError):
            value = -1  # NaN, None, text: no action
        if isinstance(index, bool | np.bool_) or value != index or not 0 <= value < self.size:
            raise ActionEncodingError(f"action {index!r} is not in 0..{self.size - 1}")
        return value

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} size={self.size}>"
