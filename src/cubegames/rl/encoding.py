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
`cubegames.games.cubed.rl`), so a mask always holds exactly `len(legal_moves())` ones.

A game's codec is `Codec` in its own `rl` part (`cubegames.kit.parts`: the module `rl`
beside its game module), written on `cubegames.kit.encoding.ActionCodec`; a game without one
gets its `Learnable` capability's or a generic one (`cubegames.rl.plugin`).

The layouts, each documented beside its code in `cubegames.games.<game>.rl`:

- CUBED: cell of a hexagonal window × slot pattern (piece × rotation), then draw, pass and
  the variants' moves; 219,416 actions for EN with the default radius 20.
- Unstackable: colour × 64 cells (stack), then 64 cells (remove); 256 actions.
- STAKD: (type, turn, layer: base / current / new) × anchor node in a window that provably
  holds every node; 6,615 actions for 2 players.
- CUBES: roll; 1 action.
"""

from __future__ import annotations

from typing import Any

from cubegames.core.game import Game
from cubegames.kit.encoding import ActionCodec, ActionEncodingError, View
from cubegames.kit.parts import part

__all__ = ["ActionCodec", "ActionEncodingError", "View", "codec"]


def codec(game: Game[Any], **settings: Any) -> ActionCodec:
    """The codec of `game` with its options; `settings` are the codec's own (CUBED:
    `radius`).

    >>> import cubegames
    >>> codec(cubegames.make("stakd", players=2)).size
    6615
    """
    module = part(game.id, "rl")
    if module is None:  # a game without an `rl` part: its `Learnable` capability, or generic
        from cubegames.rl.plugin import plug_in_codec

        return plug_in_codec(game, **settings)
    made: ActionCodec = module.Codec(game, **settings)
    return made
