"""The symmetries of CUBED: turns by 120° about `0,0`, and mirrors for a mirror-closed box.

Which maps of the table keep the rules
--------------------------------------
The first piece lies on `0,0`, so a symmetry fixes the origin: it is one of the 12 maps of
the hexagonal grid about a cell (6 turns, 6 mirrors). It must also map the rules' slots onto
slots: a placed piece shows top (edges 1, 2), left (edges 3, 4) and right (edges 5, 0), and
its bevel makes the rim corners between slots High and those inside a slot Low.

- A turn by 120° (edge d -> d + 2) maps top -> left -> right -> top: every slot onto a slot,
  High corners onto High. A piece turned with the table is the same piece in another of its
  three rotations, so hands and bag do not change. These three turns always exist.
- A turn by 60° (or 180°, 300°) maps edges (1, 2) onto (2, 3): half of top, half of left.
  No piece can sit that way; it would put High against Low, which is why the engine knows
  only three rotations. So these are no symmetries.
- A mirror through the origin that maps slots onto slots exists (edge d -> 3 - d maps top
  onto top and swaps left and right), but it reverses the counter-clockwise order of every
  piece's colours: each piece becomes its mirror image, which a flat-bottomed piece cannot
  be turned into. The mirrored table therefore needs the mirror image of every piece, in
  play and in every hand. The EN box lacks them (its singles come in one order only, its
  wild pieces too), so EN has the three turns only. The JA box, as the rules assume it,
  holds every single in both orders and its other pieces are their own mirror images, so
  there mirroring every piece everywhere is a bijection of the box: JA gets three mirrors
  more, a group of six (D3). `symmetries` checks this from the edition's pieces, so an
  edition file decides it.

Coordinates: a turn by 120° counter-clockwise maps cell `(q, r)` to `(r, -q - r)` and slot
colours (top, left, right) to (right, top, left); the mirror maps `(q, r)` to `(-q - r, r)`
(east and west swap) and (top, left, right) to (top, right, left). An element `(k, m)`
applies the mirror if `m`, then the turn `k` times.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

from cubegames.core.game import JSON, Game, Move
from cubegames.games.cubed import Cubed, Give, Keep, Place
from cubegames.games.cubed.pieces import Piece, canonical, mirror
from cubegames.kit.symmetry import Position, Symmetry


def _mirror_text(text: str) -> str:
    """A piece written counter-clockwise, mirrored: `abc` -> `acb`."""
    return text[0] + text[2] + text[1]


class CubedSymmetry(Symmetry):
    """Mirror if `mirrored`, then turn by 120° counter-clockwise `turns` times."""

    game: Cubed

    def __init__(self, game: Cubed, turns: int, mirrored: bool) -> None:
        self.game = game
        self.turns = turns % 3
        self.mirrored = mirrored
        turned = ("", "rotate 120°", "rotate 240°")[self.turns]
        if mirrored:
            self.name = "mirror" + (f", {turned}" if turned else "")
        else:
            self.name = turned or "identity"

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.turns, self.mirrored)

    def cell(self, q: int, r: int) -> tuple[int, int]:
        """The image of cell `(q, r)`.

        >>> import cubegames
        >>> CubedSymmetry(cubegames.make("cubed"), 1, False).cell(1, 0)
        (0, -1)
        """
        if self.mirrored:
            q = -q - r
        for _ in range(self.turns):
            q, r = r, -q - r
        return q, r

    def slots(self, text: str) -> str:
        """The image of slot colours `text` (top, left, right) of a placed piece.

        >>> import cubegames
        >>> CubedSymmetry(cubegames.make("cubed"), 1, False).slots("GPY")
        'YGP'
        """
        if self.mirrored:
            text = _mirror_text(text)
        for _ in range(self.turns):
            text = text[2] + text[0] + text[1]
        return text

    def piece(self, text: str) -> str:
        """The image of a piece in hand (written counter-clockwise from any diamond)."""
        return _mirror_text(text) if self.mirrored else text

    def _pieces(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.piece(p) for p in value]
        return value  # a count or None: what the viewer cannot see stays unseen

    def apply_position(self, position: Position) -> JSON:
        # a JSON round trip copies a position several times faster than copy.deepcopy
        out: JSON = json.loads(json.dumps({k: v for k, v in position.items() if k != "table"}))
        out["table"] = [
            {"cell": list(self.cell(*e["cell"])), "slots": self.slots(e["slots"])}
            for e in position["table"]
        ]
        if self.mirrored:
            out["hands"] = [self._pieces(h) for h in position["hands"]]
            out["bag"] = self._pieces(position["bag"])
            if "aside" in position:
                out["aside"] = self._pieces(position["aside"])
            if "drawn" in position["turn"]:
                out["turn"]["drawn"] = self._pieces(position["turn"]["drawn"])
        return out

    def apply_move(self, move: Move, position: Position | None = None) -> Move:
        if isinstance(move, Place):
            q, r = self.cell(move.q, move.r)
            return Place(self.slots(move.slots), q, r)
        if isinstance(move, Keep):
            return Keep(self.piece(move.piece))
        if isinstance(move, Give):
            return Give(self.piece(move.piece), move.to)
        return move

    def then(self, other: Symmetry) -> Symmetry:
        if not isinstance(other, CubedSymmetry):
            raise TypeError(f"cannot compose a CUBED symmetry with {other!r}")
        # other ∘ self = R^k2 F^m2 R^k1 F^m1 = R^(k2 ± k1) F^(m1 xor m2), as F R = R⁻¹ F
        turns = other.turns + (-self.turns if other.mirrored else self.turns)
        return CubedSymmetry(self.game, turns, self.mirrored != other.mirrored)

    def inverse(self) -> Symmetry:
        if self.mirrored:
            return self  # every mirror undoes itself
        return CubedSymmetry(self.game, -self.turns, False)


def mirror_closed(game: Cubed) -> bool:
    """True when the box holds, piece for piece, the mirror image of each of its pieces.

    >>> import cubegames
    >>> mirror_closed(cubegames.make("cubed", edition="en"))
    False
    >>> mirror_closed(cubegames.make("cubed", edition="ja"))
    True
    """
    return _mirror_closed(game.edition.pieces)


@cache
def _mirror_closed(pieces: tuple[Piece, ...]) -> bool:
    return Counter(canonical(p) for p in pieces) == Counter(canonical(mirror(p)) for p in pieces)


def cubed_symmetries(game: Game[Any]) -> list[CubedSymmetry]:
    """The three turns, then (for a mirror-closed box) the three mirrors."""
    assert isinstance(game, Cubed)
    mirrors = (False, True) if mirror_closed(game) else (False,)
    return [CubedSymmetry(game, k, m) for m in mirrors for k in range(3)]


def symmetries(game: Game[Any]) -> list[CubedSymmetry]:
    """CUBED's symmetries, identity first (this part's entry, `cubed_symmetries`)."""
    return cubed_symmetries(game)
