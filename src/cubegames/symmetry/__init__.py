"""Symmetries of the games: one API for search, simulation and learning.

A symmetry maps positions to positions and moves to moves so that the rules cannot tell the
difference: the image of a position has exactly the images of its legal moves, and playing
the images of the same moves leads to the images of the same positions, with the same
scores. Two positions in one orbit have the same value, so a search may store one of them,
a simulator may count them once, and learning code may train on every image of a sample.

    syms = symmetries(game)                 # identity first; a group under `then`
    image = sym.apply_position(position)    # a `to_dict()` or a `view(seat)`, transformed
    moved = sym.apply_move(move, position)  # `position`: the one the move is played in
    state2 = sym.apply_state(state)         # via to_dict / state_from_dict
    sym.then(other), sym.inverse()          # composition and inverse

Symmetries are a property of the rules: each game's own are its `symmetry` part
(`cubegames.kit.parts`: the module `symmetry` beside its game module, with
`symmetries(game)`), written on `cubegames.kit.symmetry.Symmetry`; a game without one has
only the identity. This package finds them and stands on `cubegames.core` and
`cubegames.kit` alone: the layers above (bots, the simulator, `cubegames.rl`) may import it,
the games never do.

The groups
----------
- CUBED (`cubegames.games.cubed.symmetry`): the 3 turns by 120° about `0,0`, acting on the
  cells and slot colours of the table; with a box closed under mirroring (JA) also the 3
  mirrors, which mirror every piece in hands and bag as well (D3, 6 in all).
- Unstackable (`cubegames.games.unstackable.symmetry`): the 8 symmetries of the footprint
  (D4 on x, y; z fixed), acting on the 64-letter grid, on bitboards (`apply_bitboard`) and on the
  cells of moves. While stacking, the footprint is the structure's bounding rectangle in
  the grid's corner (the size limit floats), so moves on `x = -1` or `y = -1` map too; in
  stage 2 it is the whole 4×4, and the cell maps are the game's own
  (`games.unstackable.bitboard.images` and `CELL_TO`), the very maps its solver keys its
  transposition table with.
- STAKD (`cubegames.games.stakd.symmetry`): the 8 symmetries of the square lattice (D4), each
  followed by the translation that puts the first base's least node back on `0,0`; mirrors
  only when every shape's mirror image is one of its turns (true of the standard box).
- CUBES: only the identity (dice on no board).

Why only these for CUBED (the full argument is in `cubegames.games.cubed.symmetry`): the
hexagonal grid has 12 symmetries about a cell, but a turn by 60° maps the slots top/left/right onto
edges that straddle two slots, which would put a piece's High rim corners against Low ones,
so it maps no position to a legal one; only the turns by 120° keep the heights aligned. A
mirror image turns every piece over, which a flat-bottomed piece cannot do, so a mirror is a
symmetry only of a box holding the mirror image of each of its pieces: the JA box does (its
singles come in both orders, its other pieces are their own mirror images), which is why JA
has mirrors too and EN has not. The square footprints have no such catch: D4 maps face
neighbours onto face neighbours and the boxes hold no handed pieces.

Who uses it, and how
--------------------
- Search: `canonical(game, position)` gives the symmetry that takes `position` to the least
  image of its orbit (by `key`, JSON text by default) and that image; a transposition table
  keyed by the canonical image stores each orbit once, and a move found for the image maps
  back with `sym.inverse().apply_move(move, image)`. For bitboards,
  `cubegames.games.unstackable.symmetry.canonical_boards(boards)` does the same without
  building dicts.
  The `alphabeta` bot (`alphabeta:symmetry=true`) keys its table this way through
  Unstackable's solver, on the same footprint maps (`tests/symmetry` checks that its keys are
  the canonical images given here).
- Simulation: `orbit(game, position)` lists the distinct images and `canonical` names one
  representative, so a simulator or an analysis can count symmetric openings and positions
  once (deduplicate by `position_key(canonical(game, p)[1])`).
- Learning: every image of a training sample is a sample too. `map_actions(codec, sym, view,
  indices)` carries a policy target's action indexes to the image (any codec with `encode`
  and `decode`, such as `cubegames.rl.codec(game)`); `cubegames.rl.symmetry` re-exports this
  package for learning code.

CUBED's chance after the deal (a new round's deal, draw3 pieces mixed back into the bag) is
drawn from the generator the position keeps (`core.chance`, version 2 and later), which an
image keeps unchanged, so an image draws the same pieces. (Games of chance version 1 drew
from a hash of the position text, so there an image drew other pieces after such an event;
the tests check the maps with one-round games.)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from cubegames.core.game import JSON, Game, Move
from cubegames.kit.parts import part
from cubegames.kit.symmetry import Identity, Position, Symmetry

__all__ = [
    "Codec",
    "Identity",
    "Position",
    "Symmetry",
    "canonical",
    "map_actions",
    "orbit",
    "position_key",
    "symmetries",
]


class Codec(Protocol):
    """An integer encoding of moves, as `map_actions` needs it (e.g. a
    `cubegames.rl.encoding.ActionCodec`)."""

    def encode(self, move: Move, view: Position) -> int:
        """The index of `move` played in `view`."""
        ...

    def decode(self, index: int, view: Position) -> Move:
        """The move of action `index` in `view`."""
        ...


def symmetries(game: Game[Any]) -> list[Symmetry]:
    """Every symmetry of `game` with its options, the identity first.

    >>> import cubegames
    >>> [s.name for s in symmetries(cubegames.make("cubed", players=2))]
    ['identity', 'rotate 120°', 'rotate 240°']
    >>> len(symmetries(cubegames.make("cubed", players=2, edition="ja")))
    6
    >>> len(symmetries(cubegames.make("unstackable"))), len(symmetries(cubegames.make("cubes")))
    (8, 1)
    """
    module = part(game.id, "symmetry")
    if module is None:
        return [Identity(game)]
    found: list[Symmetry] = list(module.symmetries(game))
    return found


def position_key(position: Position) -> str:
    """The default ordering key of positions: their JSON text with sorted keys."""
    return json.dumps(position, sort_keys=True, separators=(",", ":"))


def canonical(
    game: Game[Any], position: Position, key: Callable[[JSON], Any] = position_key
) -> tuple[Symmetry, JSON]:
    """The symmetry taking `position` to the least image of its orbit, and that image.

    Every position of one orbit gets the same image, so the image (or `key` of it) is a
    transposition-table key shared by all symmetric positions.

    >>> import cubegames
    >>> game = cubegames.make("unstackable")
    >>> a, b = game.new_state(), game.new_state()
    >>> a.play("K@0,0,0"); a.play("K@1,0,0"); b.play("K@0,0,0"); b.play("K@0,1,0")
    >>> canonical(game, a.to_dict())[1] == canonical(game, b.to_dict())[1]
    True
    """
    best: tuple[Any, Symmetry, JSON] | None = None
    for sym in symmetries(game):
        image = sym.apply_position(position)
        k = key(image)
        if best is None or k < best[0]:
            best = (k, sym, image)
    assert best is not None
    return best[1], best[2]


def orbit(game: Game[Any], position: Position) -> list[JSON]:
    """The distinct images of `position`, the position itself first.

    >>> import cubegames
    >>> game = cubegames.make("unstackable")
    >>> state = game.new_state()
    >>> state.play("K@0,0,0"); state.play("K@1,0,0"); state.play("K@0,0,1")
    >>> len(orbit(game, state.to_dict()))  # 8 images: the tower on either end, 2 ways each
    4
    """
    seen: dict[str, JSON] = {}
    for sym in symmetries(game):
        image = sym.apply_position(position)
        seen.setdefault(position_key(image), image)
    return list(seen.values())


def map_actions(codec: Codec, sym: Symmetry, view: Position, indices: Iterable[int]) -> list[int]:
    """The action indexes, in the image of `view`, of the images of actions `indices`.

    For data augmentation: a policy target over the legal actions of `view` becomes one over
    the legal actions of `sym.apply_position(view)` (observe that view for the input).
    """
    image = sym.apply_position(view)
    return [codec.encode(sym.apply_move(codec.decode(i, view), view), image) for i in indices]
