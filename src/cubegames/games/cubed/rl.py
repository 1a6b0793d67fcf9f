"""CUBED actions and observations.

The window
----------
The table is unbounded, so both actions and planes cover a fixed hexagonal *window* of cells
`(q, r)` with `max(|q|, |r|, |q + r|) <= R` around the first piece at `0,0`. Its cells are
numbered row by row (r from -R to R), q ascending within a row; for R = 2:

                  r=-2:       0,-2  1,-2  2,-2                 0  1  2
              r=-1:    -1,-1  0,-1  1,-1  2,-1              3  4  5  6
          r=0:    -2,0  -1,0   0,0   1,0   2,0            7  8  9 10 11
              r=1:     -2,1  -1,1   0,1   1,1              12 13 14 15
                  r=2:       -2,2  -1,2   0,2                16 17 18

How large must R be? From the third piece on, a piece touches two pieces, so a piece at
hex distance k + 1 needs two pieces at distance >= k: reaching distance k takes at least
2k pieces on the table. A table holds at most the whole box (N = 62 pieces EN, 88 JA), so no
legal placement ever lies beyond N // 2 (31 EN, 44 JA): `radius="full"` is that bound, exact
for every reachable position but large (518,000 actions EN). The default `radius=20` is
smaller; in 12,000 random games (EN and JA, 1 to 3 players) the farthest legal placement
was at distance 17, and the tail falls by about 3× per step, so a game outside radius 20 is
roughly a one-in-a-million event. Such a move never silently vanishes: `encode` (and so
`mask`) raises `ActionEncodingError` naming the distance and the radius to use instead.

Actions
-------
A placement names a cell and a *slot pattern*: the colours top, left, right of one rotation
of one piece of the edition (three per piece, one for a triple, whose turns look alike).
Patterns are listed piece by piece (pieces sorted by their least rotation's letters), each
piece's distinct rotations in turn order. With C window cells, S patterns, Q distinct pieces
and P players:

    [0, C·S)             place: cell · S + pattern
    DRAW = C·S           draw
    DRAW + 1             pass
    then, with draw3:    draw3:1, draw3:2, draw3:3, keep:<piece q> for q < Q
    then, with void:     give:<piece q>><seat s> at q·P + s, then skip

EN has S = 174 patterns of Q = 62 pieces, JA S = 234 of Q = 82 pieces; with R = 20
(C = 1,261) plain EN play has 219,416 actions.

Observation
-----------
Planes, float32, shape `(3·K + 4, 2R + 1, 2R + 1)` with K the edition's colours (8 EN, 7 JA)
and plane[c, r + R, q + R] describing cell `(q, r)`:

    s·K + c    the diamond in slot s (0 top, 1 left, 2 right) has colour c (edition order)
    3K         the cell holds a piece
    3K + 1     the cell is dead (empty, next to a black side)
    3K + 2     the cell is playable (empty, not dead, touching 2 pieces; 1 while one piece
               is down; the origin on an empty table)
    3K + 3     the cell is in the window (a constant mask: cells of the square grid outside
               the hexagon are never used)

Vector, float32 (Q pieces, P players, seats relative to the viewer):

    [0, Q)           own hand: copies of each piece ÷ copies in the box
    next Q, 1        draw3 only: the pieces drawn to keep one from (own draw), ÷ copies in
                     the box; then another seat's pending draw ÷ 3
    next P           hand sizes ÷ N
    next 6           bag ÷ N, table ÷ N, set-aside ÷ N, the turn's draws ÷ 2,
                     consecutive turns without placing ÷ P, consecutive *stuck* turns
                     (no placement even after drawing; P of them end the round) ÷ P
    next P + 1       seat to move (one-hot, relative), then "the game is over"
    next 3           drew this turn, bridging bonus pending, void gift pending
    next 1 + P       round ÷ rounds, then totals ÷ (rounds × points of the whole box)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from cubegames.core.errors import shown
from cubegames.core.game import Game, Move
from cubegames.core.hexgrid import ORIGIN, pack, unpack
from cubegames.games.cubed import Cubed, Draw, Draw3, Give, Keep, Pass, Place, Skip
from cubegames.games.cubed.frontier import Edges, add_piece
from cubegames.games.cubed.notation import least_rotation
from cubegames.games.cubed.pieces import Piece
from cubegames.kit.encoding import ActionCodec, ActionEncodingError, View
from cubegames.kit.observation import Array, relative
from cubegames.kit.observation import Observer as BaseObserver

#: the settings `Codec` and `Observer` take beside the game (`cubegames.rl`'s `radius=`)
SETTINGS = ("radius",)

#: the default window radius (see the module docstring for why it is enough in practice)
RADIUS = 20


def distance(q: int, r: int) -> int:
    """Hex distance of cell `(q, r)` from `0,0`.

    >>> distance(2, -3)
    3
    """
    return max(abs(q), abs(r), abs(q + r))


def full_radius(game: Cubed) -> int:
    """The radius no legal placement ever exceeds: half the pieces of the box."""
    return len(game.edition.pieces) // 2


def _radius(game: Game[Any], radius: int | str) -> int:
    if not isinstance(game, Cubed):
        raise TypeError(f"a CUBED codec needs a CUBED game, not {game.id}")
    if radius == "full":
        return full_radius(game)
    if isinstance(radius, bool) or not isinstance(radius, int) or radius < 1:
        raise ValueError(
            f"radius must be a whole number of at least 1 or 'full', not {shown(radius)}"
        )
    return radius


def window(radius: int) -> list[tuple[int, int]]:
    """The window's cells in index order.

    >>> window(1)
    [(0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)]
    """
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]


def piece_keys(game: Cubed) -> list[str]:
    """The edition's distinct pieces, each as its least rotation's letters, sorted."""
    ed = game.edition
    return sorted({least_rotation(ed.text(p)) for p in ed.pieces})


class Codec(ActionCodec):
    """CUBED actions for one set of options; `radius` sets the window (default 20,
    `"full"` for the bound no game exceeds)."""

    game: Cubed

    def __init__(self, game: Game[Any], radius: int | str = RADIUS) -> None:
        self.radius = _radius(game, radius)
        assert isinstance(game, Cubed)
        self.game = game
        self.cells = window(self.radius)
        self.cell_index = {cell: i for i, cell in enumerate(self.cells)}
        self.pieces = piece_keys(game)
        self.piece_index = {key: i for i, key in enumerate(self.pieces)}
        patterns: list[str] = []
        for key in self.pieces:
            for turn in (key, key[1:] + key[:1], key[2:] + key[:2]):
                if turn not in patterns:
                    patterns.append(turn)
        self.patterns = patterns
        self.pattern_index = {p: i for i, p in enumerate(patterns)}
        variants = game.variants
        players = game.players
        self.draw = len(self.cells) * len(patterns)
        self.pass_ = self.draw + 1
        end = self.draw + 2
        self.draw3 = self.keep = self.give = self.skip = -1
        if "draw3" in variants:
            self.draw3 = end  # draw3:k at draw3 + k - 1
            self.keep = end + 3
            end = self.keep + len(self.pieces)
        if "void" in variants:
            self.give = end
            self.skip = self.give + len(self.pieces) * players
            end = self.skip + 1
        self.size = end

    def encode(self, move: Move, view: View | None = None) -> int:
        if isinstance(move, Place):
            pattern = self.pattern_index.get(move.slots)
            if pattern is None:
                raise ActionEncodingError(
                    f"{move}: {move.slots} is no rotation of a piece of the "
                    f"{self.game.edition.id} edition"
                )
            cell = self.cell_index.get((move.q, move.r))
            if cell is None:
                raise ActionEncodingError(
                    f"{move} lies at distance {distance(move.q, move.r)} from 0,0, outside the "
                    f"action window of radius {self.radius}; make the codec with "
                    f"radius={distance(move.q, move.r)} or more, or radius='full'"
                )
            return cell * len(self.patterns) + pattern
        if isinstance(move, Draw):
            return self.draw
        if isinstance(move, Pass):
            return self.pass_
        if isinstance(move, Draw3) and self.draw3 >= 0 and 1 <= move.k <= 3:
            return self.draw3 + move.k - 1
        if isinstance(move, Keep) and self.keep >= 0 and move.piece in self.piece_index:
            return self.keep + self.piece_index[move.piece]
        if (
            isinstance(move, Give)
            and self.give >= 0
            and move.piece in self.piece_index
            and 0 <= move.to < self.game.players
        ):
            return self.give + self.piece_index[move.piece] * self.game.players + move.to
        if isinstance(move, Skip) and self.skip >= 0:
            return self.skip
        raise ActionEncodingError(f"{move} has no action with options {self.game.options}")

    def decode(self, index: int, view: View | None = None) -> Move:
        i = self.check_index(index)
        if i < self.draw:
            cell, pattern = divmod(i, len(self.patterns))
            q, r = self.cells[cell]
            return Place(self.patterns[pattern], q, r)
        if i == self.draw:
            return Draw()
        if i == self.pass_:
            return Pass()
        if 0 <= self.draw3 <= i < self.keep:
            return Draw3(i - self.draw3 + 1)
        if 0 <= self.keep <= i < self.keep + len(self.pieces):
            return Keep(self.pieces[i - self.keep])
        if 0 <= self.give <= i < self.skip:
            piece, to = divmod(i - self.give, self.game.players)
            return Give(self.pieces[piece], to)
        return Skip()


class Observer(BaseObserver):
    """CUBED planes and vector for one set of options (layout in the module docstring)."""

    game: Cubed

    def __init__(self, game: Game[Any], radius: int | str = RADIUS) -> None:
        self.radius = _radius(game, radius)
        assert isinstance(game, Cubed)
        self.game = game
        ed = game.edition
        self.ed = ed
        self.colours = len(ed.colours)
        side = 2 * self.radius + 1
        self.plane_shape = (3 * self.colours + 4, side, side)
        self.pieces = piece_keys(game)
        self.piece_index = {key: i for i, key in enumerate(self.pieces)}
        box = Counter(least_rotation(ed.text(p)) for p in ed.pieces)
        self.copies = np.array([box[k] for k in self.pieces], dtype=np.float32)
        self.box_size = float(len(ed.pieces))
        self.box_points = float(sum(ed.piece_points(p) for p in ed.pieces))
        self.draw3 = "draw3" in game.variants
        players = game.players
        q_count = len(self.pieces)
        drawn = q_count + 1 if self.draw3 else 0
        # hand, drawn, hand sizes, 6 counts, mover + over, 3 flags, round + totals
        self.vector_size = q_count + drawn + players + 6 + (players + 1) + 3 + (1 + players)
        grid = np.zeros((side, side), dtype=np.float32)
        for q, r in window(self.radius):
            grid[r + self.radius, q + self.radius] = 1.0
        self._window = grid
        self._last: tuple[list[tuple[int, Piece]], dict[int, Edges], set[int]] = ([], {}, set())

    def _counts(self, texts: list[str]) -> Array:
        out = np.zeros(len(self.pieces), dtype=np.float32)
        for text in texts:
            out[self.piece_index[least_rotation(text)]] += 1.0
        out /= self.copies
        return out

    def _frontier(self, table: list[tuple[int, Piece]]) -> tuple[dict[int, Edges], set[int]]:
        """The frontier of a table given as (cell, piece) in the order laid.

        Tables only grow during a round, and every seat observes the same table, so the
        frontier of the last table seen is extended by the pieces laid since, when that
        table is where this one began; otherwise it is built afresh.
        """
        laid, front, playable = self._last
        if table[: len(laid)] != laid:
            laid, front, playable = [], {}, set()
        front, playable = dict(front), set(playable)
        placed = dict(laid)
        for cell, piece in table[len(laid) :]:
            add_piece(self.game.frontier, front, playable, placed, piece, cell)
        if not table:
            playable = {ORIGIN}
        self._last = (list(table), front, playable)
        return front, playable

    def fill_planes(self, view: View, out: Array) -> None:
        R, K = self.radius, self.colours
        ed = self.ed
        table: list[tuple[int, Piece]] = []
        for entry in view["table"]:
            q, r = entry["cell"]
            if distance(q, r) > R:
                raise ActionEncodingError(
                    f"a piece lies on {q},{r}, outside the observation window of radius {R}"
                )
            slots = entry["slots"]
            piece: Piece = (ed.index[slots[0]], ed.index[slots[1]], ed.index[slots[2]])
            table.append((pack(q, r), piece))
            for s in range(3):
                out[s * K + piece[s], r + R, q + R] = 1.0
            out[3 * K, r + R, q + R] = 1.0
        front, playable = self._frontier(table)
        info = self.game.frontier.info
        for cell, edges in front.items():
            q, r = unpack(cell)
            if distance(q, r) <= R and info(edges).dead:
                out[3 * K + 1, r + R, q + R] = 1.0
        for cell in playable:
            q, r = unpack(cell)
            if distance(q, r) <= R:
                out[3 * K + 2, r + R, q + R] = 1.0
        out[3 * K + 3] = self._window

    def vector(self, view: View) -> Array:
        players = self.game.players
        seat: int = view["seat"]
        order = relative(seat, players)
        parts: list[Array] = [self._counts(view["hands"][seat])]
        turn: Mapping[str, Any] = view["turn"]
        if self.draw3:
            drawn = turn.get("drawn", [])
            own = drawn if isinstance(drawn, list) else []
            other = drawn if isinstance(drawn, int) else 0
            parts.append(self._counts(own))
            parts.append(np.array([other / 3.0], dtype=np.float32))
        sizes = view["hand_sizes"]
        parts.append(np.array([sizes[s] for s in order], dtype=np.float32) / self.box_size)
        parts.append(
            np.array(
                [
                    view["bag"] / self.box_size,
                    len(view["table"]) / self.box_size,
                    len(view.get("aside", [])) / self.box_size,
                    turn.get("draws", 0) / 2.0,
                    view.get("idle", 0) / players,
                    view.get("stuck", 0) / players,
                ],
                dtype=np.float32,
            )
        )
        mover = np.zeros(players + 1, dtype=np.float32)
        to_move = view["to_move"]
        mover[players if to_move is None else order.index(to_move)] = 1.0
        parts.append(mover)
        flags = [turn.get("drew", False), turn.get("bonus", False), turn.get("give", False)]
        parts.append(np.array(flags, dtype=np.float32))
        rounds = self.game.rounds
        totals = view["totals"]
        scale = rounds * self.box_points
        parts.append(
            np.array(
                [view["round"] / rounds, *(totals[s] / scale for s in order)], dtype=np.float32
            )
        )
        return np.concatenate(parts)
