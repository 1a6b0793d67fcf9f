"""A CUBES position and the rules of a roll, a set and a game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cubegames.core import splitmix
from cubegames.core.errors import Refusal, cut
from cubegames.core.game import JSON, State, seat_of
from cubegames.games.cubes.dice import Row, tally
from cubegames.games.cubes.edition import Edition
from cubegames.games.cubes.notation import CubesMove, Roll
from cubegames.games.cubes.outcome import Outcome, SetResult

if TYPE_CHECKING:
    from cubegames.games.cubes.game import Cubes


#: why an ordinary game refuses a forced roll
NOT_REFEREED = (
    "this game rolls its own dice; typing the faces of a roll is for refereeing real dice "
    "(option referee=true)"
)


class _SetOver(Exception):
    """Raised inside a roll when a seat cannot pay in full: nothing more is paid."""


class CubesState(State[CubesMove]):
    """A CUBES position. Build one with `Cubes.new_state` or `Cubes.state_from_dict`.

    >>> import cubegames
    >>> state = cubegames.make("cubes", players=3, referee=True).new_state(seed=1)
    >>> state.chips, state.pot
    ([15, 15, 15], 15)
    >>> state.play("roll 1 C . 6 . 3")  # typed by the referee: CUBES and three numbers
    >>> state.chips, state.pot, state.to_move
    ([40, 10, 10], 0, 1)
    """

    views_alike = True  # every seat sees the whole position but the dice's generator

    game: Cubes

    def __init__(self, game: Cubes) -> None:
        self.game = game
        self.ed: Edition = game.edition
        players = game.players
        self.chips: list[int] = [0] * players
        self.pot = 0
        self.set_number = 1
        self.totals: list[int] = [0] * players
        self._to_move: int | None = 0
        self.rng = 0
        self.last: Outcome | None = None
        self.past_sets: list[SetResult] = []

    # -- the public surface ------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._to_move

    def legal_moves(self) -> list[CubesMove]:
        """`[Roll()]` until the game is over, then `[]`.

        A plain `roll` draws its faces from the position's generator, and in an ordinary
        game it is the only move `play` accepts: a forced roll (`roll 1 C . 6 . 3`) is
        refused. In a refereed game (option `referee=true`) the list is the same, but there
        `roll` stands for "a roll, whose faces the referee may type": a forced roll whose
        faces are on their dice is accepted as the outcome of that roll. It is not listed
        as a move of its own, since which faces come up is the dice's choice, not the
        player's.
        """
        return [] if self._to_move is None else [Roll()]

    def refusal(self, move: CubesMove) -> Refusal | None:
        if not isinstance(move, Roll):
            named = cut(move)
            return Refusal(
                "only-roll", f"{named} is not a CUBES move; the only move is roll", move=named
            )
        if move.faces is not None:
            if not self.game.referee:
                return Refusal("not-refereed", NOT_REFEREED)
            dice = len(self.ed.dice)
            if len(move.faces) != dice:
                return Refusal(
                    "face-count",
                    f"a forced roll names {dice} faces, one per die",
                    dice=dice,
                    given=len(move.faces),
                )
            for i, (face, die) in enumerate(zip(move.faces, self.ed.dice, strict=True), 1):
                if face not in die.faces:
                    return Refusal(
                        "no-face",
                        f"die {i} has no face {face} (its faces are {' '.join(die.faces)})",
                        die=i,
                        face=face,
                    )
        return None

    def scores(self) -> list[float]:
        """Each seat's total over the finished sets (the score pad)."""
        return [float(t) for t in self.totals]

    def winners(self) -> list[int]:
        if self._to_move is not None:
            return []
        best = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def clone(self) -> CubesState:
        other = CubesState.__new__(CubesState)
        other.game = self.game
        other.ed = self.ed
        other.chips = list(self.chips)
        other.pot = self.pot
        other.set_number = self.set_number
        other.totals = list(self.totals)
        other._to_move = self._to_move
        other.rng = self.rng
        other.last = self.last  # frozen, so sharing it is safe
        other.past_sets = list(self.past_sets)
        return other

    def to_dict(self) -> JSON:
        out: JSON = {
            "game": "cubes",
            "options": self.game.options,
            "faces": self.ed.faces,
            "chips": list(self.chips),
            "pot": self.pot,
            "set": self.set_number,
            "totals": list(self.totals),
            "to_move": self._to_move,
            "rng": splitmix.to_text(self.rng),
        }
        if self.last is not None:
            last = self.last
            out["last_roll"] = " ".join(last.faces)
            out["last"] = {
                "seat": last.seat,
                "pot": last.pot,
                "changes": list(last.changes),
                "bust": last.bust,
            }
        if self.past_sets:
            out["past_sets"] = [{"scores": list(p.scores), "bust": p.bust} for p in self.past_sets]
        return out

    def view(self, seat: int) -> JSON:
        """The whole position but the generator, which would tell the coming rolls."""
        seat = seat_of(seat, self.game.players)
        out = self.to_dict()
        del out["rng"]
        out["seat"] = seat
        return out

    # -- rolling -------------------------------------------------------------------------

    def roll_dice(self) -> tuple[str, ...]:
        """Draw six faces from the position's generator, advancing it."""
        faces = []
        for die in self.ed.dice:
            self.rng, index = splitmix.below(self.rng, len(die.faces))
            faces.append(die.faces[index])
        return tuple(faces)

    def _apply(self, move: CubesMove) -> None:
        assert isinstance(move, Roll)
        drawn = self.roll_dice()
        self._resolve(drawn if move.faces is None else move.faces)

    def _resolve(self, faces: tuple[str, ...]) -> None:
        roller = self._to_move
        assert roller is not None
        players = self.game.players
        ed = self.ed
        t = tally(faces)
        row = t.row
        before = list(self.chips)
        pot_before = self.pot
        bust: int | None = None
        try:
            if row in (Row.CUBES_FEW, Row.CUBES_MANY, Row.CUBES_ONLY):
                for k in range(1, players):
                    self._pay((roller + k) % players, ed.opponent_pays)
            if row is Row.NUMBERS:
                self._claim(roller, t.total)
            elif row is Row.CUBES_FEW:
                self._claim(roller, ed.multiplier * t.total)
            elif row is Row.CUBES_MANY:
                self.chips[roller] += self.pot
                self.pot = 0
            elif row is Row.BLANK:
                self._pay(roller, ed.blank_pays)
        except _SetOver as over:
            bust = over.args[0]
        changes = tuple(a - b for a, b in zip(self.chips, before, strict=True))
        self.last = Outcome(roller, tuple(faces), pot_before, changes, bust)
        if bust is None:
            self._to_move = (roller + 1) % players
        else:
            self._end_set(bust)

    def _pay(self, seat: int, amount: int) -> None:
        """`seat` puts `amount` in the pot, or all it has and ends the set."""
        if self.chips[seat] >= amount:
            self.chips[seat] -= amount
            self.pot += amount
            return
        self.pot += self.chips[seat]
        self.chips[seat] = 0
        raise _SetOver(seat)

    def _claim(self, seat: int, amount: int) -> None:
        """`seat` takes `amount` from the pot; if it holds less, `seat` makes it up to `amount`."""
        if self.pot >= amount:
            self.pot -= amount
            self.chips[seat] += amount
        else:
            self._pay(seat, amount - self.pot)

    # -- sets ----------------------------------------------------------------------------

    def _end_set(self, bust: int) -> None:
        # the seat that could not pay already holds 0, so everyone scores what they hold
        scores = tuple(self.chips)
        self.past_sets.append(SetResult(scores, bust))
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        if self.set_number >= self.game.sets:
            self._to_move = None
            return
        self.set_number += 1
        self.deal()

    def opener(self, set_number: int) -> int:
        """The seat that rolls first in a set: seat 0, then each next seat in turn."""
        return (set_number - 1) % self.game.players

    def deal(self) -> None:
        """Deal the current set afresh: starting points, the pot's remainder, the antes."""
        players = self.game.players
        each, pot = self.ed.deal(players)
        ante = self.ed.ante
        self.chips = [each - ante] * players
        self.pot = pot + ante * players
        self._to_move = self.opener(self.set_number)
