"""Fixed-size integer action encodings, one per game and set of options.

The games' moves are real types (`Place`, `Stack`, ...); learning code wants integers
`0 <= a < size` and a mask of the legal ones. A codec is that layer and nothing more:

    index = codec.encode(move, view)      # ActionEncodingError if the move has no index
    move = codec.decode(index, view)      # decode(encode(m)) == m for every legal m
    mask = codec.mask(state.legal_moves(), view)   # int8, shape (size,), 1 = legal
    legal = codec.indexes(state.legal_moves(), view)   # the same as int64 indexes

`view` is what the mover sees (`state.view(seat)`). Only STAKD reads it, because its actions
name the layer *relative* to the current one; the other codecs accept and ignore it.

Codecs never drop a legal move: `mask` encodes every legal move and raises
`ActionEncodingError` if one has no index (a CUBED placement beyond the window, see
`cubegames.rl.games.cubed`), so a mask always holds exactly `len(legal_moves())` ones.

The layouts, each documented beside its code in `cubegames.rl.games.<game>`:

- CUBED: cell of a hexagonal window × slot pattern (piece × rotation), then draw, pass and
  the variants' moves; 219,416 actions for EN with the default radius 20.
- Unstackable: colour × 64 cells (stack), then 64 cells (remove); 256 actions.
- STAKD: (type, turn, layer: base / current / new) × anchor node in a window that provably
  holds every node; 6,615 actions for 2 players.
- CUBES: roll; 1 action.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from cubegames.core.game import Game, Move
from cubegames.core.registry import built_in

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
        """`index` as a plain int, checked to be in range."""
        value = int(index)
        if value != index or not 0 <= value < self.size:
            raise ActionEncodingError(f"action {index!r} is not in 0..{self.size - 1}")
        return value

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} size={self.size}>"


def codec(game: Game[Any], **settings: Any) -> ActionCodec:
    """The codec of `game` with its options; `settings` are the codec's own (CUBED:
    `radius`).

    >>> import cubegames
    >>> codec(cubegames.make("stakd", players=2)).size
    6615
    """
    if not built_in(game.id):  # a plug-in game
        from cubegames.rl.plugin import plug_in_codec

        return plug_in_codec(game, **settings)
    module = importlib.import_module(f"cubegames.rl.games.{game.id}")
    made: ActionCodec = module.Codec(game, **settings)
    return made
