"""A STAKD position and the turn rules: bases, new layers, elimination, rounds, the match.

Elimination is automatic: when a seat's turn comes and it has no legal placement (not on
the current layer, and not by starting a new one), it joins `out` for the rest of the
round and the turn passes on. So `to_move` is always a seat with at least one legal move,
and the round ends (the next one is set up at once) when every seat is out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from cubegames.core.errors import Refusal, cut
from cubegames.core.game import JSON, State, seat_of
from cubegames.games.stakd.board import Board, Laid
from cubegames.games.stakd.edition import Edition
from cubegames.games.stakd.notation import Place
from cubegames.games.stakd.pieces import (
    LIMIT,
    STACKING,
    TYPES,
    PieceType,
    normal_form,
    pack,
    unpack,
)

if TYPE_CHECKING:
    from cubegames.games.stakd.game import Stakd

BASE = PieceType.BASE
UNI = PieceType.UNI
BOMBER = PieceType.BOMBER

Placement = tuple[PieceType, int, tuple[int, ...]]


class StakdState(State[Place]):
    """A STAKD position. Build one with `Stakd.new_state` or `Stakd.state_from_dict`.

    >>> import cubegames
    >>> state = cubegames.make("stakd", players=2).new_state()
    >>> [str(m) for m in state.legal_moves()]
    ['BASE@0:0,0+0,1+0,2+1,0+1,1+1,2', 'BASE@0:0,0+0,1+1,0+1,1+2,0+2,1']
    """

    views_alike = True  # every seat sees the whole position

    game: Stakd

    def __init__(self, game: Stakd) -> None:
        self.game = game
        self.ed: Edition = game.edition
        self.board = Board()
        self.hands: list[dict[PieceType, int]] = [
            dict(self.ed.counts[game.players]) for _ in range(game.players)
        ]
        self.out: set[int] = set()
        self._to_move: int | None = 0
        self.points = [0] * game.players
        self.round = 1
        self.round_winners: list[int] = []
        # the legal moves of the seat to move, worked out when the turn passed to it
        self._legal: list[Place] = []

    # -- the public surface ------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def solo(self) -> bool:
        """True for the one-player game."""
        return self.game.players == 1

    @property
    def base_phase(self) -> bool:
        """True while some player still holds a BASE: only bases are laid until all are."""
        return any(hand[BASE] for hand in self.hands)

    def legal_moves(self) -> list[Place]:
        return list(self._legal)

    def refusal(self, move: Place) -> Refusal | None:
        seat = self._to_move
        assert seat is not None
        if not isinstance(move, Place):
            named = cut(move)
            return Refusal("not-a-move", f"{named} is not a STAKD move", move=named)
        piece, z = move.piece, move.z
        if normal_form(move.nodes) not in self.ed.turns[piece] or len(set(move.nodes)) != len(
            move.nodes
        ):
            return Refusal(
                "shape",
                f"{'+'.join(f'{x},{y}' for x, y in move.nodes)} is not the shape of a "
                f"{piece.value} ({self.ed.describe(piece)}, turned by 90° or not)",
                piece=piece.value,
            )
        if not all(-LIMIT <= c <= LIMIT for node in move.nodes for c in node):
            return Refusal("reach", f"nodes must lie within ±{LIMIT} of 0,0", limit=LIMIT)
        hand = self.hands[seat]
        if hand[piece] == 0:
            return Refusal("none-left", f"you have no {piece.value} left", piece=piece.value)
        nodes = tuple(pack(x, y) for x, y in move.nodes)
        board = self.board
        if self.base_phase:
            if piece is not BASE:
                return Refusal("bases-first", "all bases are laid first: lay a BASE")
            if z != 0:
                return Refusal("bases-low", "bases go on layer 0", z=z)
            return board.base_problem(nodes)
        if z == 0:
            return Refusal("bases-low", "only bases go on layer 0", z=z)
        top = board.top
        if z < top:
            return Refusal("closed", f"layer {z} is closed: layer {top} has started", z=z, top=top)
        if z > top + 1:
            return Refusal("skip-layer", f"layer {z} cannot start before layer {z - 1}", z=z)
        if z == top + 1:
            size = board.sizes[top]
            need = self.ed.new_layer_after
            if top >= 1 and size < need and self._can_lay_on_top(seat):
                return Refusal(
                    "too-early",
                    f"layer {z} cannot start yet: layer {top} holds {size} "
                    f"piece{'' if size == 1 else 's'} "
                    f"({need} needed) and you can still lay on it",
                    z=z,
                    size=size,
                    need=need,
                )
            if piece is BOMBER:
                return Refusal("bomber-opens", "a new layer never starts with a BOMBER")
            if piece is UNI and not self._only_unis(seat):
                if self.game.uni_opens_beside_bombers:
                    return Refusal(
                        "uni-opens",
                        "a new layer starts with a UNI only if you hold just UNIs and BOMBERs",
                    )
                return Refusal(
                    "uni-opens", "a new layer starts with a UNI only if you hold nothing but UNIs"
                )
        return board.stack_problem(piece, z, nodes)

    def scores(self) -> list[float]:
        """Points in a match; in solo play, the number of pieces laid."""
        if self.solo:
            return [float(len(self.board.pieces))]
        return [float(p) for p in self.points]

    def winners(self) -> list[int]:
        if self._to_move is not None:
            return []
        return sorted(set(self.round_winners)) if self.solo else self._match_winner()

    def solo_won(self) -> bool:
        """Solo play is won by laying every piece, the last of them not a BLUE BOMBER."""
        pieces = self.board.pieces
        return not any(self.hands[0].values()) and bool(pieces) and pieces[-1].piece is not BOMBER

    def _match_winner(self) -> list[int]:
        target = self.game.points_to_win
        return [s for s, p in enumerate(self.points) if p >= target]

    def clone(self) -> StakdState:
        other = StakdState.__new__(StakdState)
        other.game = self.game
        other.ed = self.ed
        other.board = self.board.clone()
        other.hands = [dict(h) for h in self.hands]
        other.out = set(self.out)
        other._to_move = self._to_move
        other.points = list(self.points)
        other.round = self.round
        other.round_winners = list(self.round_winners)
        other._legal = self._legal  # never mutated in place: replaced on every move
        return other

    def to_dict(self) -> JSON:
        return {
            "game": "stakd",
            "options": self.game.options,
            "round": self.round,
            "points": list(self.points),
            "round_winners": list(self.round_winners),
            "layer": self.board.top,
            "to_move": self._to_move,
            "out": sorted(self.out),
            "hands": [{t.value: hand[t] for t in TYPES} for hand in self.hands],
            "pieces": [
                {
                    "type": p.piece.value,
                    "owner": p.owner,
                    "z": p.z,
                    "nodes": [list(unpack(n)) for n in p.nodes],
                }
                for p in self.board.pieces
            ],
        }

    def view(self, seat: int) -> JSON:
        """Everything: hands are public and nothing is hidden, so the view adds only `seat`."""
        seat = seat_of(seat, self.game.players)
        out = self.to_dict()
        out["seat"] = seat
        return out

    # -- the moves of a seat -----------------------------------------------------------

    def placements(self, seat: int) -> Iterator[Placement]:
        """Every legal placement for `seat` as if it were to move, lazily (unsorted)."""
        hand = self.hands[seat]
        ed = self.ed
        board = self.board
        if self.base_phase:
            if hand[BASE]:
                for nodes in board.base_placements(ed.offsets[BASE]):
                    yield BASE, 0, nodes
            return
        held = [t for t in STACKING if hand[t]]
        if not held:
            return
        top = board.top
        on_top = False
        if top >= 1:
            for piece, nodes in board.stack_placements(top, held, ed.offsets):
                on_top = True
                yield piece, top, nodes
        if top == 0 or not on_top or board.sizes[top] >= ed.new_layer_after:
            for piece, nodes in board.stack_placements(top + 1, self._openers(held), ed.offsets):
                yield piece, top + 1, nodes

    def moves_for(self, seat: int) -> list[Place]:
        """The legal moves `seat` would have if it were to move, in the fixed order."""
        found = sorted(self.placements(seat), key=lambda p: (p[1], p[0].order, p[2]))
        return [Place(piece, z, tuple(unpack(n) for n in nodes)) for piece, z, nodes in found]

    def _openers(self, held: list[PieceType]) -> list[PieceType]:
        """The held types that may start a new layer."""
        only_unis = all(t in self._uni_company() for t in held)
        return [t for t in held if t is not BOMBER and (t is not UNI or only_unis)]

    def _only_unis(self, seat: int) -> bool:
        company = self._uni_company()
        return all(self.hands[seat][t] == 0 for t in STACKING if t not in company)

    def _uni_company(self) -> tuple[PieceType, ...]:
        """The types a hand may hold beside UNIs for a UNI to open a layer: a BOMBER counts
        as another piece unless the game reads the rule loosely."""
        return (UNI, BOMBER) if self.game.uni_opens_beside_bombers else (UNI,)

    def _can_lay_on_top(self, seat: int) -> bool:
        held = [t for t in STACKING if self.hands[seat][t]]
        found = self.board.stack_placements(self.board.top, held, self.ed.offsets)
        return next(found, None) is not None

    # -- applying moves ----------------------------------------------------------------

    def _apply(self, move: Place) -> None:
        seat = self._to_move
        assert seat is not None
        nodes = tuple(pack(x, y) for x, y in move.nodes)
        self.board.add(Laid(move.piece, seat, move.z, nodes))
        self.hands[seat][move.piece] -= 1
        self._pass_turn(seat)

    def _pass_turn(self, after: int) -> None:
        """Give the turn to the next seat that can move, putting out those that cannot."""
        players = self.game.players
        bases = self.base_phase
        for step in range(1, players + 1):
            seat = (after + step) % players
            if seat in self.out or (bases and not self.hands[seat][BASE]):
                continue
            moves = self.moves_for(seat)
            if moves:
                self._to_move = seat
                self._legal = moves
                return
            self.out.add(seat)
        self._end_round(after)

    def _end_round(self, last_mover: int) -> None:
        # a BOMBER cannot be the last piece played to win: the last other piece counts
        winner = next(
            (p.owner for p in reversed(self.board.pieces) if p.piece is not BOMBER), last_mover
        )
        self._to_move = None
        self._legal = []
        if self.solo:
            if self.solo_won():
                self.points[0] = 1
                self.round_winners.append(0)
            return
        self.points[winner] += 1
        self.round_winners.append(winner)
        if self.points[winner] >= self.game.points_to_win:
            return
        self.round += 1
        self.board = Board()
        self.hands = [dict(self.ed.counts[self.game.players]) for _ in self.hands]
        self.out = set()
        self._to_move = winner
        self._legal = self.moves_for(winner)

    def start(self) -> None:
        """Work out the first player's moves in a fresh game (seat 0 starts)."""
        self.resume(0)

    def resume(self, seat: int | None) -> None:
        """Hand the turn to `seat` (None: the game is over) as a position file says."""
        self._to_move = seat
        self._legal = [] if seat is None else self.moves_for(seat)
