"""STAKD's symmetries: the 8 symmetries of the square (D4, `cubegames.kit.square`) on its
lattice.

STAKD applies the matrix to every node and then translates so that the first base's least
node (least x, then least y) lies on `0,0` again, the one place the rules pin down. The other
rules (bases touching bases, no overhang, contacts within a layer, types carried) are about
lattice neighbours and node sets, which D4 and translations keep. Pieces are laid turned by
90° but never mirrored, so a mirror is a symmetry only if every shape's mirror image is one
of its turns; in the standard box every shape is a rectangle, so all eight exist.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from cubegames.core.game import JSON, Game, Move
from cubegames.games.stakd import Place, Stakd
from cubegames.games.stakd.pieces import normal_form
from cubegames.kit.square import ELEMENTS, SquareSymmetry
from cubegames.kit.symmetry import Position


class StakdSymmetry(SquareSymmetry):
    """D4 on STAKD's lattice, then the translation that re-anchors the first base."""

    game: Stakd

    def _offset(self, first: Sequence[Sequence[int]]) -> tuple[int, int]:
        """The translation that moves the least image of `first`'s nodes onto 0,0."""
        x, y = min(self.point(n[0], n[1]) for n in first)
        return -x, -y

    def _nodes(self, nodes: Sequence[Sequence[int]], dx: int, dy: int) -> list[tuple[int, int]]:
        moved = [self.point(n[0], n[1]) for n in nodes]
        return sorted((x + dx, y + dy) for x, y in moved)

    def apply_position(self, position: Position) -> JSON:
        out: JSON = copy.deepcopy(dict(position))
        pieces = position["pieces"]
        if pieces:
            dx, dy = self._offset(pieces[0]["nodes"])
            for piece, original in zip(out["pieces"], pieces, strict=True):
                piece["nodes"] = [list(n) for n in self._nodes(original["nodes"], dx, dy)]
        return out

    def apply_move(self, move: Move, position: Position | None = None) -> Move:
        if not isinstance(move, Place):
            return move
        if position is None:
            raise ValueError("a STAKD move's image depends on its position: pass the position")
        pieces = position["pieces"]
        # with nothing down yet, the move is the first base and anchors itself
        dx, dy = self._offset(pieces[0]["nodes"] if pieces else move.nodes)
        return Place(move.piece, move.z, tuple(self._nodes(move.nodes, dx, dy)))


def mirrors_kept(game: Stakd) -> bool:
    """True when every shape's mirror image is one of its turns (then mirrors are symmetries).

    >>> import cubegames
    >>> mirrors_kept(cubegames.make("stakd"))
    True
    """
    turns = game.edition.turns
    return all(normal_form((-x, y) for x, y in forms[0]) in forms for forms in turns.values())


def symmetries(game: Game[Any]) -> list[StakdSymmetry]:
    """The symmetries of a STAKD game, identity first: the turns, and the mirrors when the
    box keeps them (`mirrors_kept`)."""
    assert isinstance(game, Stakd)
    elements = ELEMENTS if mirrors_kept(game) else ELEMENTS[:4]
    return [StakdSymmetry(game, m) for _, m in elements]
