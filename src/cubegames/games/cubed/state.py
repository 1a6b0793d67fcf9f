"""A CUBED position and the turn rules: drawing, passing, variants, rounds, solo play."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from cubegames.core import chance, splitmix
from cubegames.core.capabilities import LegalTexts, SharedViews
from cubegames.core.errors import Refusal, cut
from cubegames.core.game import JSON, State, seat_of
from cubegames.core.hexgrid import ORIGIN, pack, unpack
from cubegames.games.cubed.edition import Edition
from cubegames.games.cubed.formats import VERSION
from cubegames.games.cubed.frontier import Edges, add_piece, fast_placements, rebuild
from cubegames.games.cubed.notation import (
    CubedMove,
    Draw,
    Draw3,
    Give,
    Keep,
    Pass,
    Place,
    Skip,
    least_rotation,
)
from cubegames.games.cubed.pieces import Piece, PieceKind, canonical, rotations
from cubegames.games.cubed.placement import hand_refusal, placement_refusal

if TYPE_CHECKING:
    from cubegames.games.cubed.game import Cubed

#: how a round (or a solo game) ended
EMPTIED = "emptied"  # a player laid or gave away their last piece
BLOCKED = "blocked"  # no playable cell is left on the table
STALLED = "stalled"  # every player in a row could not play, even after drawing (rule 3)
STANDSTILL = "standstill"  # the bag is empty and a full circle of turns placed nothing (rule 4)
STUCK = "stuck"  # solo: nothing fits after two draws
BAG_EMPTY = "bag_empty"  # solo: a draw was due and the bag was empty

#: what the rules draw from: the position's generator (`splitmix.Draws`), which also made
#: the first deal; in chance versions 1 and 2 Python's generator made the first deal, and in
#: format 1 it draws after it too, seeded by a hash of the position (`chance.from_position`)
Chance = random.Random | splitmix.Draws


def _round_copy(entry: JSON) -> JSON:
    """A finished round's record (`past_rounds`), copied with its list of scores."""
    return {key: list(value) if key == "scores" else value for key, value in entry.items()}


class CubedState(State[CubedMove], LegalTexts, SharedViews):
    """A CUBED position. Build one with `Cubed.new_state` or `Cubed.state_from_dict`."""

    game: Cubed

    def __init__(self, game: Cubed) -> None:
        self.game = game
        self.ed: Edition = game.edition
        self.table: dict[int, Piece] = {}
        self.hands: list[list[Piece]] = [[] for _ in range(game.players)]
        self.bag: list[Piece] = []
        self._to_move: int | None = 0
        # the turn in progress
        self.drew = False
        self.bonus = False
        self.give = False
        self.drawn: list[Piece] = []
        self.draws = 0
        # the match
        self.round = 1
        self.totals = [0] * game.players
        self.idle = 0  # consecutive turns that ended without a placement (at most `players`)
        self.stuck = 0  # consecutive stuck turns: no placement even after drawing
        self.starter = 0
        self.past_rounds: list[JSON] = []
        self.aside: list[Piece] = []
        self.end: str | None = None
        # the generator of every draw after the first deal (later rounds' deals, draw3
        # returns), a `splitmix` state: hidden from every seat, since it tells those draws.
        # None in format 1 (chance version 1, `formats`): each of those draws comes from a
        # hash of the position then, with its hidden `secret` (a server deal's), if any
        self.rng: int | None = 0
        self.secret: str | None = None
        # derived: the incremental frontier
        self.front: dict[int, Edges] = {}
        self.playable: set[int] = {ORIGIN}

    # -- the public surface ------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def solo(self) -> bool:
        return self.game.players == 1

    def placements(self) -> list[tuple[Piece, int]]:
        """Every legal placement for the seat to move, as (rotation, packed cell)."""
        if self._to_move is None or self.give or self.drawn:
            return []
        return fast_placements(
            self.game.frontier,
            self.front,
            self.playable,
            len(self.table),
            self.hands[self._to_move],
            strict=self.game.strict_colors,
        )

    def legal_moves(self) -> list[CubedMove]:
        seat = self._to_move
        if seat is None:
            return []
        ed = self.ed
        if self.drawn:
            seen: dict[str, CubedMove] = {}
            for piece in self.drawn:
                keep = Keep(ed.text(piece))
                seen.setdefault(keep.piece, keep)
            return list(seen.values())
        if self.give:
            gives = {
                Give(ed.text(p), to)
                for p in self.hands[seat]
                for to in range(self.game.players)
                if to != seat
            }
            return [*sorted(gives, key=lambda g: (g.piece, g.to)), Skip()]
        found = self._placed_in_order()
        moves: list[CubedMove] = [Place(slots, q, r) for slots, q, r in found]
        moves.extend(self.other_moves(can_place=bool(found)))
        return moves

    def legal_texts(self) -> list[str]:
        """`[str(m) for m in self.legal_moves()]`, written without making the moves (the
        web server sends the seat to move its legal moves as text after every move)."""
        if self._to_move is None or self.drawn or self.give:
            return [str(m) for m in self.legal_moves()]
        found = self._placed_in_order()
        texts = [f"{slots}@{q},{r}" for slots, q, r in found]
        texts.extend(str(m) for m in self.other_moves(can_place=bool(found)))
        return texts

    def _placed_in_order(self) -> list[tuple[str, int, int]]:
        """Every legal placement as (letters, q, r), in the order of `legal_moves`."""
        text = self.ed.text
        found = [(text(rot), *unpack(cell)) for rot, cell in self.placements()]
        found.sort()
        return found

    def other_moves(self, *, can_place: bool) -> list[CubedMove]:
        """The legal moves that are not placements (outside a draw3 or give step)."""
        if self.solo:
            return [] if can_place else [Draw()]
        if self.bonus:
            return [Pass()]
        moves: list[CubedMove] = []
        if not self.drew and self.bag:
            moves.append(Draw())
            if "draw3" in self.game.variants:
                moves.extend(Draw3(k) for k in range(1, min(3, len(self.bag)) + 1))
        if self.drew or not self.bag:
            moves.append(Pass())
        return moves

    def refusal(self, move: CubedMove) -> Refusal | None:
        seat = self._to_move
        assert seat is not None
        ed = self.ed
        hand = self.hands[seat]
        if self.drawn:
            if not isinstance(move, Keep):
                return Refusal(
                    "keep-first", "you drew for draw3: choose the piece to keep (keep:...)"
                )
            if all(least_rotation(ed.text(p)) != move.piece for p in self.drawn):
                return Refusal(
                    "not-drawn", f"{move.piece} is not among the pieces you drew", piece=move.piece
                )
            return None
        if self.give:
            if isinstance(move, Skip):
                return None
            if not isinstance(move, Give):
                return Refusal(
                    "give-first", "you filled a void: give a piece (give:...>seat) or skip"
                )
            if not 0 <= move.to < self.game.players:
                return Refusal("no-seat", f"there is no seat {move.to}", seat=move.to)
            if move.to == seat:
                return Refusal("give-self", "you cannot give a piece to yourself")
            if self._find(hand, move.piece) is None:
                return Refusal("not-in-hand", f"{move.piece} is not in your hand", piece=move.piece)
            return None
        if isinstance(move, Place):
            try:
                placed = (ed.index[move.slots[0]], ed.index[move.slots[1]], ed.index[move.slots[2]])
                cell = pack(move.q, move.r)
            except (KeyError, IndexError):
                return Refusal(
                    "unknown-colours",
                    f"{move} names colours this edition does not have",
                    move=str(move),
                )
            reason = hand_refusal(hand, placed, ed)
            if reason is None:
                reason = placement_refusal(
                    self.table, placed, cell, strict=self.game.strict_colors, ed=ed
                )
            return reason
        if isinstance(move, (Keep, Give, Skip)):
            word = {Keep: "keep", Give: "give", Skip: "skip"}[type(move)]
            return Refusal("nothing-now", f"there is nothing to {word} now", move=word)
        if self.solo:
            if isinstance(move, Draw):
                if self.placements():
                    return Refusal("solo-draw", "in solo play you may draw only when no piece fits")
                return None
            return Refusal("solo-no-pass", "there is no passing or draw3 in solo play")
        if self.bonus:
            if isinstance(move, Pass):
                return None
            return Refusal("bridge-first", "you bridged a gap: place one more piece or pass")
        if isinstance(move, Draw):
            if self.drew:
                return Refusal("drawn-already", "you have already drawn this turn")
            if not self.bag:
                return Refusal("bag-empty", "the bag is empty")
            return None
        if isinstance(move, Draw3):
            if "draw3" not in self.game.variants:
                return Refusal("no-draw3", "draw3 is not in play (it is a variant)")
            if self.drew:
                return Refusal(
                    "drawn-already", "draw3 replaces the whole turn; you have already drawn"
                )
            if not 1 <= move.k <= 3:
                return Refusal("draw3-count", "draw3 draws 1, 2 or 3 pieces", k=move.k)
            if move.k > len(self.bag):
                return Refusal(
                    "bag-short",
                    f"the bag holds only {len(self.bag)} piece(s)",
                    bag=len(self.bag),
                    k=move.k,
                )
            return None
        if isinstance(move, Pass):
            if not self.drew and self.bag:
                return Refusal(
                    "pass-before-draw", "you may pass only after drawing, or when the bag is empty"
                )
            return None
        named = cut(move)
        return Refusal("not-a-move", f"{named} is not a CUBED move", move=named)

    def scores(self) -> list[float]:
        if self.solo:
            return [float(sum(self.ed.piece_points(p) for p in self.hands[0]))]
        return [float(t) for t in self.totals]

    def winners(self) -> list[int]:
        if self._to_move is not None:
            return []
        if self.solo:
            return [0] if self.end == EMPTIED else []
        best = min(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def clone(self) -> CubedState:
        other = CubedState.__new__(CubedState)
        other.game = self.game
        other.ed = self.ed
        other.table = dict(self.table)
        other.hands = [list(h) for h in self.hands]
        other.bag = list(self.bag)
        other._to_move = self._to_move
        other.drew = self.drew
        other.bonus = self.bonus
        other.give = self.give
        other.drawn = list(self.drawn)
        other.draws = self.draws
        other.round = self.round
        other.totals = list(self.totals)
        other.idle = self.idle
        other.stuck = self.stuck
        other.starter = self.starter
        other.past_rounds = [_round_copy(r) for r in self.past_rounds]
        other.aside = list(self.aside)
        other.end = self.end
        other.rng = self.rng
        other.secret = self.secret
        other.front = dict(self.front)
        other.playable = set(self.playable)
        return other

    def to_dict(self) -> JSON:
        return self._written(None)

    def view(self, seat: int) -> JSON:
        return self.view_sharing(seat, None)

    def view_sharing(self, seat: int, entries: dict[tuple[int, Piece], JSON] | None) -> JSON:
        """`view(seat)`, its table's entries taken from `entries` (made there when new),
        a cache the caller keeps for one game and never changes: the web server's, so
        that consecutive messages share the entries of pieces that stayed put, which
        costs nothing to make again and nothing to compare (`protocol.diff`)."""
        seat = seat_of(seat, self.game.players)
        out = self._written(seat, entries)
        out["seat"] = seat
        out["hand_sizes"] = [len(h) for h in self.hands]
        return out

    def _entries(self, shared: dict[tuple[int, Piece], JSON] | None) -> list[JSON]:
        """The table as written: a `{"cell": [q, r], "slots": letters}` a piece."""
        text = self.ed.text
        if shared is None:
            return [
                {"cell": list(unpack(cell)), "slots": text(piece)}
                for cell, piece in self.table.items()
            ]
        out = []
        for placed in self.table.items():
            entry = shared.get(placed)
            if entry is None:
                cell, piece = placed
                entry = shared[placed] = {"cell": list(unpack(cell)), "slots": text(piece)}
            out.append(entry)
        return out

    def _written(
        self, seat: int | None, entries: dict[tuple[int, Piece], JSON] | None = None
    ) -> JSON:
        """The position as `to_dict` writes it (`seat` None), or as `seat` may see it: the
        generator dropped, the other hands hidden (None), the bag and another seat's draw3
        pieces given as counts. Made directly, without writing out what is then hidden (the
        web server asks for a view per seat per move)."""
        full = seat is None
        text = self.ed.text
        turn: JSON = {"drew": self.drew, "bonus": self.bonus}
        if self.give:
            turn["give"] = True
        if self.drawn:
            turn["drawn"] = (
                [text(p) for p in self.drawn] if full or self._to_move == seat else len(self.drawn)
            )
        if self.draws:
            turn["draws"] = self.draws
        out: JSON = {
            "game": "cubed",
            "options": self.game.options,
            "table": self._entries(entries),
            "hands": [
                [text(p) for p in hand] if full or i == seat else None
                for i, hand in enumerate(self.hands)
            ],
            "bag": [text(p) for p in self.bag] if full else len(self.bag),
            "to_move": self._to_move,
            "turn": turn,
            "round": self.round,
            "totals": list(self.totals),
        }
        if self.idle:
            out["idle"] = self.idle
        if self.stuck:
            out["stuck"] = self.stuck
        if self.starter:
            out["starter"] = self.starter
        if self.past_rounds:
            # copies down to the scores: a caller changing its view must not change the game
            out["past_rounds"] = [_round_copy(r) for r in self.past_rounds]
        if self.aside:
            out["aside"] = [text(p) for p in self.aside]
        if self.end is not None:
            out["end"] = self.end
        if self.rng is not None:
            out["version"] = VERSION
            if full:
                out["rng"] = splitmix.to_text(self.rng)
        elif full and self.secret is not None:
            out["secret"] = self.secret
        return out

    def _draws(self, purpose: str) -> Chance:
        """What the next draws after the first deal come from (`_drew` when done): the
        position's generator, or in format 1 a generator seeded by a hash of the position
        as it stands and the draw's `purpose`, as the code before format 2 drew (so a
        format 1 file's or game's future is the one it always had)."""
        if self.rng is None:
            return chance.from_position(self.to_dict(), purpose)
        return splitmix.Draws(self.rng)

    def _drew(self, draws: Chance) -> None:
        """Keep the generator's state after `draws` (format 1 keeps none)."""
        if isinstance(draws, splitmix.Draws):
            self.rng = draws.state

    def public_view(self) -> JSON:
        out = self.view(0)
        out["seat"] = None
        out["hands"] = [None] * self.game.players
        if self.drawn:
            out["turn"]["drawn"] = len(self.drawn)
        return out

    # -- applying moves ----------------------------------------------------------------

    def _apply(self, move: CubedMove) -> None:
        seat = self._to_move
        assert seat is not None
        ed = self.ed
        if isinstance(move, Place):
            placed = (ed.index[move.slots[0]], ed.index[move.slots[1]], ed.index[move.slots[2]])
            self._place(placed, pack(move.q, move.r))
        elif isinstance(move, Draw):
            self._draw_one()
        elif isinstance(move, Pass):
            if self.bonus:
                self._end_turn(placed=True)
            else:
                # A pass is only legal after a draw or with an empty bag, and a draw only
                # adds placements, so nothing fitting now means nothing fitted at the start.
                self._end_turn(placed=False, stuck=not self.placements())
        elif isinstance(move, Draw3):
            self.drawn = self.bag[: move.k]
            del self.bag[: move.k]
        elif isinstance(move, Keep):
            self._keep(move.piece)
        elif isinstance(move, Give):
            hand = self.hands[seat]
            index = self._find(hand, move.piece)
            assert index is not None
            self.hands[move.to].append(hand.pop(index))
            self.give = False
            if not hand:
                self._end_round(EMPTIED, seat)
            else:
                self._end_turn(placed=True)
        elif isinstance(move, Skip):
            self.give = False
            self._end_turn(placed=True)
        if self.solo and self._to_move is not None:
            self._check_solo()

    def apply_placement(self, placed: Piece, cell: int) -> None:
        """Lay a placement taken from `placements()`, skipping the checks (for playouts)."""
        self._place(placed, cell)
        if self.solo and self._to_move is not None:
            self._check_solo()

    def _place(self, placed: Piece, cell: int) -> None:
        seat = self._to_move
        assert seat is not None
        hand = self.hands[seat]
        key = canonical(placed)
        for i, piece in enumerate(hand):
            if canonical(piece) == key:
                del hand[i]
                break
        info = self.game.frontier.info(self.front.get(cell, (-1,) * 6))
        add_piece(self.game.frontier, self.front, self.playable, self.table, placed, cell)
        self.draws = 0
        if not hand:
            self._end_round(EMPTIED, seat)
            return
        if not self.playable:
            self._end_round(BLOCKED, None)
            return
        variants = self.game.variants
        if "bridging" in variants and not self.bonus and info.arcs >= 2:
            self.bonus = True
            return
        if "void" in variants and info.touches == 6:
            self.give = True
            return
        self._end_turn(placed=True)

    def _draw_one(self) -> None:
        seat = self._to_move
        assert seat is not None
        self.hands[seat].append(self.bag.pop(0))
        self.drew = True
        self.draws += 1

    def _keep(self, piece: str) -> None:
        seat = self._to_move
        assert seat is not None
        index = self._find(self.drawn, piece)
        assert index is not None
        self.hands[seat].append(self.drawn.pop(index))
        # The rest go back into the bag and are mixed in at random places.
        draws = self._draws("draw3 return")
        for returned in self.drawn:
            self.bag.insert(draws.randint(0, len(self.bag)), returned)
        self._drew(draws)
        self.drawn = []
        self._end_turn(placed=False)

    def _check_solo(self) -> None:
        if self.placements():
            return
        if not self.bag:
            self._finish(BAG_EMPTY)
        elif self.draws >= 2:
            self._finish(STUCK)

    def _end_turn(self, *, placed: bool, stuck: bool = False) -> None:
        """End the turn of the seat to move; `stuck` when it could not place even after
        drawing (a draw3 turn, or a pass while a piece fits, is never stuck)."""
        seat = self._to_move
        assert seat is not None
        players = self.game.players
        self.idle = 0 if placed else min(self.idle + 1, players)
        self.stuck = self.stuck + 1 if stuck else 0
        self.drew = self.bonus = self.give = False
        self.draws = 0
        if self.stuck >= players:
            self._end_round(STALLED, None)
            return
        if self.idle >= players and not self.bag:
            self._end_round(STANDSTILL, None)
            return
        self._to_move = (seat + 1) % players

    def _finish(self, reason: str) -> None:
        self._to_move = None
        self.end = reason
        self.drew = self.bonus = self.give = False
        self.drawn = []

    def _end_round(self, reason: str, winner: int | None) -> None:
        if self.solo:
            self._finish(reason)
            return
        points = [
            0 if seat == winner else sum(self.ed.piece_points(p) for p in hand)
            for seat, hand in enumerate(self.hands)
        ]
        self.past_rounds.append({"scores": points, "end": reason, "winner": winner})
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.idle = self.stuck = 0
        if self.round >= self.game.rounds:
            self._finish(reason)
            return
        players = self.game.players
        if winner is None:
            low = min(points)
            order = [(self.starter + 1 + i) % players for i in range(players)]
            winner = next(s for s in order if points[s] == low)
        self._finish(reason)  # clear the turn (format 1 hashes the position as it is now)
        draws = self._draws(f"deal round {self.round + 1}")
        self.end = None
        self.round += 1
        self.starter = winner
        self.deal(draws)
        self._drew(draws)
        self._to_move = winner

    # -- setting up ----------------------------------------------------------------------

    def deal(self, rng: Chance) -> None:
        """Clear the table and deal a fresh round from the whole box."""
        pieces = list(self.ed.pieces)
        rng.shuffle(pieces)
        size = self.ed.hand_size[self.game.players]
        self.table = {}
        self.front, self.playable = rebuild(self.game.frontier, self.table)
        self.hands = [pieces[i * size : (i + 1) * size] for i in range(self.game.players)]
        self.bag = pieces[self.game.players * size :]
        self.aside = []
        if self.solo:
            self._solo_setup(rng)

    def _solo_setup(self, rng: Chance) -> None:
        """Solo: at most 3 blocking pieces in hand, then a starting piece on 0,0."""
        ed = self.ed
        hand = self.hands[0]

        def is_blocking(p: Piece) -> bool:
            return ed.kind(p) is PieceKind.BLOCKING

        while sum(map(is_blocking, hand)) > 3:
            extra = [i for i, p in enumerate(hand) if is_blocking(p)][3:]
            returned = [hand[i] for i in extra]
            for i in reversed(extra):
                del hand[i]
            for piece in returned:
                self.bag.insert(rng.randint(0, len(self.bag)), piece)
            hand.extend(self.bag[: len(returned)])
            del self.bag[: len(returned)]
        while True:
            start = self.bag.pop(0)
            if not is_blocking(start):
                break
            self.aside.append(start)
        placed = rng.choice(rotations(start))
        add_piece(self.game.frontier, self.front, self.playable, self.table, placed, ORIGIN)

    def _find(self, hand: list[Piece], text: str) -> int | None:
        """Index of the piece spelled `text` (in any rotation) in `hand`."""
        for i, piece in enumerate(hand):
            if least_rotation(self.ed.text(piece)) == text:
                return i
        return None
