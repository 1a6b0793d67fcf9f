"""STAKD actions and observations.

The window
----------
Every node of every layer rests on layer 0, and layer 0 holds only the B bases of the round
(B = players × bases each). The first base is laid with its least node on `0,0`; each later
base has two nodes next to the bases already down, so it reaches at most s (the base's
longest side, 3) beyond them. Every node of a round therefore lies in the square window
`lo <= x, y <= hi` with `lo = -s·(B - 1)` and `hi = (s - 1) + s·(B - 1)` (for the standard
box: solo -3..5, 2 players -9..11, 8 players -21..23). The bound is exact, not empirical:
no legal move ever falls outside it. Window cells are numbered `(x - lo)·W + (y - lo)` with
`W = hi - lo + 1`.

Actions
-------
A placement is a *combination* (piece type, turn, layer) and an *anchor*, its least node
(least x, then least y). Layers are named relative to the position, because a move only
ever goes on the current layer or starts the next, while stacks can grow 40 layers high:

    base       layer 0 (only BASE)
    current    the current layer `view["layer"]` (once it is 1 or more)
    new        the next layer, `view["layer"] + 1` (never with a BOMBER: a new layer does
               not start with one, so that combination does not exist)

Combinations are listed: BASE turns; then UNI, DUO, TRIO, QUAD, BOMBER turns on the current
layer; then UNI, DUO, TRIO, QUAD turns on a new layer (turns as in the edition, by 90°).
The action is `combination · W² + anchor cell`. Decoding needs the view for the layer
number: `decode(index, view)`. Standard box, 2 players: 15 combinations × 21² = 6,615.

Observation
-----------
Planes, float32, shape `(25, W, W)`, indexed `[channel, x - lo, y - lo]`. Channels 0-11
describe the layer below the current one, 12-23 the current layer (`view["layer"]`; with
only bases down that is layer 0, and the layer below is empty):

    +0 .. +5     a piece of type BASE, UNI, DUO, TRIO, QUAD, BOMBER covers the node
    +6           that piece is the viewer's
    +7 .. +11    that piece carries a UNI, DUO, TRIO, QUAD, BOMBER (a BOMBER: terminated)
    24           layer 0 is covered (the round's footprint)

Vector, float32, 9·P + 7 values (P players, seats relative to the viewer):

    per seat, 8 values: pieces held of each type ÷ the box's count, out for the round,
                        points ÷ points to win
    P + 1               seat to move (relative one-hot), then "the game is over"
    5                   layer ÷ the most layers a round can have, pieces on the current
                        layer ÷ the count that opens a new one (at most 1), the current
                        layer has its BOMBER, bases are still being laid, pieces laid this
                        round ÷ all pieces of a round
    1                   round ÷ the most rounds a match can take
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cubegames.core.game import Game, Move
from cubegames.games.stakd import PieceType, Place, Stakd
from cubegames.games.stakd.pieces import STACKING, TYPES, Node, normal_form
from cubegames.kit.encoding import ActionCodec, ActionEncodingError, View
from cubegames.kit.observation import Array, relative
from cubegames.kit.observation import Observer as BaseObserver

BASE = PieceType.BASE
BOMBER = PieceType.BOMBER
#: how a combination names its layer
LAYERS = ("base", "current", "new")
#: the types a piece can carry (bases are never laid on anything)
CARRIED: tuple[PieceType, ...] = STACKING


def _game(game: Game[Any]) -> Stakd:
    if not isinstance(game, Stakd):
        raise TypeError(f"a STAKD codec needs a STAKD game, not {game.id}")
    return game


def bounds(game: Stakd) -> tuple[int, int]:
    """`(lo, hi)`: every node of every legal position lies in `lo..hi` on both axes.

    >>> import cubegames
    >>> bounds(cubegames.make("stakd", players=2))
    (-9, 11)
    """
    ed = game.edition
    bases = game.players * ed.counts[game.players][BASE]
    first: list[Node] = []
    span = 1
    for form in ed.turns[BASE]:
        x0, y0 = form[0]
        first.extend((x - x0, y - y0) for x, y in form)
        span = max(span, *(x + 1 for x, _ in form), *(y + 1 for _, y in form))
    lo = min(min(x, y) for x, y in first) - span * (bases - 1)
    hi = max(max(x, y) for x, y in first) + span * (bases - 1)
    return lo, hi


def _layers(pieces: list[Mapping[str, Any]]) -> tuple[list[dict[Node, int]], list[int]]:
    """Per layer, node -> index of the piece covering it; per piece, the type bits it carries."""
    layers: list[dict[Node, int]] = []
    carries = [0] * len(pieces)
    for i, piece in enumerate(pieces):
        z = piece["z"]
        while len(layers) <= z:
            layers.append({})
        nodes = [(x, y) for x, y in piece["nodes"]]
        for node in nodes:
            layers[z][node] = i
        if z > 0:
            bit = PieceType(piece["type"]).bit
            for support in {layers[z - 1][n] for n in nodes}:
                carries[support] |= bit
    return layers, carries


class Codec(ActionCodec):
    """STAKD actions: (type, turn, relative layer) × anchor in the window (see the module
    docstring). `decode` and `encode` of a stacking move need the mover's view."""

    game: Stakd

    def __init__(self, game: Game[Any]) -> None:
        self.game = _game(game)
        self.lo, self.hi = bounds(self.game)
        self.width = self.hi - self.lo + 1
        turns = self.game.edition.turns
        combos: list[tuple[str, PieceType, int]] = [
            ("base", BASE, t) for t in range(len(turns[BASE]))
        ]
        for kind in ("current", "new"):
            for piece in STACKING:
                if kind == "new" and piece is BOMBER:
                    continue
                combos.extend((kind, piece, t) for t in range(len(turns[piece])))
        self.combos = combos
        self.combo_index = {c: i for i, c in enumerate(combos)}
        self.size = len(combos) * self.width * self.width

    def _layer(self, view: View | None) -> int:
        if view is None:
            raise ActionEncodingError(
                "STAKD actions name the layer relative to the current one: pass the view"
            )
        layer: int = view["layer"]
        return layer

    def encode(self, move: Move, view: View | None = None) -> int:
        if not isinstance(move, Place):
            raise ActionEncodingError(f"{move} is not a STAKD move")
        if move.z == 0:
            kind = "base"
        else:
            layer = self._layer(view)
            if move.z == layer and layer >= 1:
                kind = "current"
            elif move.z == layer + 1:
                kind = "new"
            else:
                raise ActionEncodingError(
                    f"{move}: layer {move.z} is neither the current layer {layer} nor the next"
                )
        forms = self.game.edition.turns[move.piece]
        form = normal_form(move.nodes)
        if form not in forms or len(form) != len(move.nodes):
            raise ActionEncodingError(f"{move} is not the shape of a {move.piece.value}")
        combo = self.combo_index.get((kind, move.piece, forms.index(form)))
        if combo is None:
            raise ActionEncodingError(f"{move}: a {move.piece.value} has no {kind} action")
        ax, ay = move.nodes[0]
        if not (self.lo <= ax <= self.hi and self.lo <= ay <= self.hi):
            raise ActionEncodingError(f"{move} lies outside the window {self.lo}..{self.hi}")
        return (combo * self.width + ax - self.lo) * self.width + ay - self.lo

    def decode(self, index: int, view: View | None = None) -> Move:
        i = self.check_index(index)
        combo, cell = divmod(i, self.width * self.width)
        kind, piece, t = self.combos[combo]
        ax, ay = divmod(cell, self.width)
        ax += self.lo
        ay += self.lo
        z = 0 if kind == "base" else self._layer(view) + (kind == "new")
        form = self.game.edition.turns[piece][t]
        x0, y0 = form[0]
        return Place(piece, z, tuple((ax + x - x0, ay + y - y0) for x, y in form))


class Observer(BaseObserver):
    """STAKD planes `(25, W, W)` and a `9·P + 7` vector (layout in the module docstring)."""

    game: Stakd

    def __init__(self, game: Game[Any]) -> None:
        self.game = _game(game)
        self.lo, self.hi = bounds(self.game)
        width = self.hi - self.lo + 1
        self.plane_shape = (25, width, width)
        players = self.game.players
        self.vector_size = 9 * players + 7
        counts = self.game.edition.counts[players]
        self.box = np.array([max(counts[t], 1) for t in TYPES], dtype=np.float32)
        per_seat = sum(counts.values())
        stacking = sum(counts[t] for t in STACKING)
        self.round_pieces = float(per_seat * players)
        self.max_layers = float(max(stacking * players, 1))
        target = self.game.points_to_win
        self.max_rounds = float(players * (target - 1) + 1)

    def fill_planes(self, view: View, out: Array) -> None:
        pieces = view["pieces"]
        layers, carries = _layers(pieces)
        top: int = view["layer"]
        seat = view["seat"]
        lo = self.lo
        for slot, z in enumerate((top - 1, top)):
            if z < 0 or z >= len(layers):
                continue
            base = 12 * slot
            for (x, y), i in layers[z].items():
                piece = pieces[i]
                cx, cy = x - lo, y - lo
                out[base + PieceType(piece["type"]).order, cx, cy] = 1.0
                if piece["owner"] == seat:
                    out[base + 6, cx, cy] = 1.0
                for k, carried in enumerate(CARRIED):
                    if carries[i] & carried.bit:
                        out[base + 7 + k, cx, cy] = 1.0
        if layers:
            for x, y in layers[0]:
                out[24, x - lo, y - lo] = 1.0

    def vector(self, view: View) -> Array:
        game = self.game
        players = game.players
        order = relative(view["seat"], players)
        out = np.zeros(self.vector_size, dtype=np.float32)
        out_seats = set(view["out"])
        for k, seat in enumerate(order):
            hand = view["hands"][seat]
            row = 8 * k
            out[row : row + 6] = np.array([hand[t.value] for t in TYPES], dtype=np.float32)
            out[row : row + 6] /= self.box
            out[row + 6] = seat in out_seats
            out[row + 7] = view["points"][seat] / game.points_to_win
        at = 8 * players
        to_move = view["to_move"]
        out[at + (players if to_move is None else order.index(to_move))] = 1.0
        at += players + 1
        pieces = view["pieces"]
        top = view["layer"]
        here = [p for p in pieces if p["z"] == top]
        out[at] = top / self.max_layers
        out[at + 1] = min(len(here) / game.edition.new_layer_after, 1.0)
        out[at + 2] = top > 0 and any(p["type"] == BOMBER.value for p in here)
        out[at + 3] = any(view["hands"][s][BASE.value] for s in range(players))
        out[at + 4] = len(pieces) / self.round_pieces
        out[at + 5] = view["round"] / self.max_rounds
        return out
