"""The CUBES game: options, setting up, reading positions and moves."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from cubegames.core import splitmix
from cubegames.core.data import FieldReader, refuse_other_fields
from cubegames.core.errors import plain, shown
from cubegames.core.game import JSON, Game
from cubegames.core.info import GameInfo
from cubegames.core.options import check_options, players_field
from cubegames.core.phrase import Worded
from cubegames.games.cubes.edition import DICE, Edition, load_edition
from cubegames.games.cubes.notation import CubesMove, parse
from cubegames.games.cubes.outcome import Outcome, SetResult
from cubegames.games.cubes.state import CubesState
from cubegames.games.cubes.summary import COLUMNS, CubesSummary

MAX_SETS = 10


class CubesOptions(BaseModel):
    """CUBES's options; the players an edition seats are checked by the game."""

    model_config = ConfigDict(extra="forbid")

    players: StrictInt = players_field(2, 10)
    sets: StrictInt = Field(3, ge=1, le=MAX_SETS, title="Sets")
    edition: StrictStr = Field(
        "standard",
        title="Edition",
        json_schema_extra={"x-choices": [["standard", "Standard"]]},
    )
    referee: StrictBool = Field(
        False,
        title="Real dice: type what they show",
        description="for a table with its own dice, e.g. roll 1 C . 6 . 3",
    )


INFO = GameInfo(
    id="cubes",
    title="CUBES",
    pitch="Roll six dice, claim the pot or pay in; three sets, most points wins.",
    min_players=2,
    max_players=10,
    options=CubesOptions,
    rules=(
        "Roll the six dice. Numbers only: take their sum from the pot.",
        "CUBES and 1 or 2 numbers: everyone else pays 5, then take twice the sum.",
        "CUBES and 3 or more numbers: everyone else pays 5, then take the whole pot. "
        "Only CUBES: everyone else pays 5. All blank: pay 2.",
        "If the pot holds too little, you take nothing and pay in the difference.",
        # {sets} is filled with the number of sets chosen, in words ("Three sets")
        "Whoever cannot pay in full ends the set and scores 0 for it. {sets}; the most "
        "points wins.",
    ),
    columns=COLUMNS,
    summary=CubesSummary,
    report="cubegames.games.cubes.report:report",
    # every move is a roll, which is never taken back
    takebacks=False,
    example_options=(
        {"players": 2},
        {"players": 4},
        {"players": 7},
        {"players": 10, "sets": 1},
        {"players": 3, "referee": True},
    ),
)


class Cubes(Game[CubesMove]):
    """CUBES with one set of options.

    `referee=True` makes a refereed game, in which the faces of a roll may be typed
    (`roll 1 C . 6 . 3`): for dice thrown at a real table, or for analysis and tests.
    Without it the game rolls its own dice and refuses a typed roll.

    >>> game = Cubes(players=7)
    >>> state = game.new_state(seed=3)
    >>> state.chips[0], state.pot  # 100 // 7 = 14 each, 2 left over, then antes of 5
    (9, 37)
    """

    info: ClassVar[GameInfo] = INFO

    def __init__(
        self,
        players: int = 2,
        sets: int = 3,
        edition: str = "standard",
        referee: bool = False,
    ) -> None:
        # one option at a time: the model; the edition's seats: here
        check_options(
            INFO.id,
            CubesOptions,
            {"players": players, "sets": sets, "edition": edition, "referee": referee},
        )
        self.edition: Edition = load_edition(edition)
        self.edition_name = edition
        ed = self.edition
        if not ed.min_players <= players <= ed.max_players:
            raise Worded(
                "error-players-range",
                f"CUBES plays {ed.min_players} to {ed.max_players} players, not {plain(players)}",
                game="CUBES",
                low=ed.min_players,
                high=ed.max_players,
                players=plain(players),
            )
        self.players = players
        self.sets = sets
        #: forced rolls (`roll 1 C . 6 . 3`) are accepted only in a refereed game
        self.referee = referee

    @property
    def options(self) -> JSON:
        out: JSON = {"players": self.players, "sets": self.sets, "edition": self.edition_name}
        if self.referee:
            # written only when set, so every position of an ordinary game reads as before
            out["referee"] = True
        return out

    def new_state(self, seed: int = 0) -> CubesState:
        state = CubesState(self)
        # the seed picks the generator's starting point; from then on the position carries it.
        # A seed past 64 bits (the server's secret deals) keys a generator that keeps them all.
        state.rng = splitmix.first(seed)
        state.deal()
        return state

    def parse_move(self, text: str) -> CubesMove:
        return parse(text)

    def state_from_dict(self, data: Mapping[str, Any]) -> CubesState:
        return _Reader(self, data).state()

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> CubesState:
        """The seen position with a fresh generator: nobody can see the dice to come."""
        data = {k: v for k, v in view.items() if k != "seat"}
        data["rng"] = splitmix.to_text(rng.getrandbits(64))
        return self.state_from_dict(data)


#: every field a CUBES position file may have (`CubesState.to_dict`)
FIELDS = (
    "game", "options", "faces", "chips", "pot", "set", "totals", "rng", "past_sets",
    "last_roll", "last", "to_move",
)  # fmt: skip


class _Reader(FieldReader):
    """Validates a position dict field by field; errors name the field."""

    def __init__(self, game: Cubes, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.game = game
        self.ed = game.edition

    def seat(self, value: Any, where: str) -> int:
        return self.count(value, where, 0, self.game.players - 1)

    def per_seat(self, key: str) -> list[int]:
        values = self.get(key, list)
        players = self.game.players
        if len(values) != players:
            raise ValueError(f'field "{key}": needs {players} numbers, one per seat')
        return [self.count(v, f"{key}[{i}]") for i, v in enumerate(values)]

    def state(self) -> CubesState:
        game, ed = self.game, self.ed
        players = game.players
        refuse_other_fields(self.data, FIELDS, "CUBES")
        if self.get("faces", list) != ed.faces:
            raise ValueError(f'field "faces": these are not the dice of the {ed.id} edition')
        state = CubesState(game)
        state.chips = self.per_seat("chips")
        state.pot = self.count(self.get("pot", int), 'field "pot"')
        in_play = ed.in_play(players)
        held = sum(state.chips) + state.pot
        if held != in_play:
            raise ValueError(
                f'field "chips": the chips and the pot hold {held} points, but a set of '
                f"{players} players has {in_play} in play"
            )
        state.set_number = self.count(self.get("set", int), 'field "set"', 1, game.sets)
        state.totals = self.per_seat("totals")
        try:
            state.rng = splitmix.from_text(self.get("rng", str))
        except ValueError as exc:
            raise ValueError(f'field "rng": {exc}') from None
        state.past_sets = self.past_sets(in_play)
        sums = [sum(p.scores[s] for p in state.past_sets) for s in range(players)]
        if sums != state.totals:
            raise ValueError('field "totals": they are not the sums of "past_sets"')
        state.last = self.last()

        if "to_move" not in self.data:
            raise ValueError('field "to_move" is missing')
        to_move = self.data["to_move"]
        finished = len(state.past_sets)
        if to_move is None:
            if finished != game.sets or state.set_number != game.sets:
                raise ValueError(f'field "to_move": null only once all {game.sets} sets are played')
        else:
            self.seat(to_move, 'field "to_move"')
            if finished == game.sets:
                raise ValueError(f'field "to_move": all {game.sets} sets are played, so null')
            if finished != state.set_number - 1:
                raise ValueError(
                    f'field "past_sets": set {state.set_number} is being played, so '
                    f"{state.set_number - 1} sets should be finished, not {finished}"
                )
        state._to_move = to_move
        self.check_last(state)
        if state.last is not None:
            self.check_last_roll(state, state.last)
        return state

    def past_sets(self, in_play: int) -> list[SetResult]:
        out = []
        for i, entry in enumerate(self.get("past_sets", list, [])):
            where = f"past_sets[{i}]"
            if not isinstance(entry, dict) or set(entry) != {"scores", "bust"}:
                raise ValueError(f'{where}: must be {{"scores": [...], "bust": seat}}')
            scores = entry["scores"]
            if not isinstance(scores, list) or len(scores) != self.game.players:
                raise ValueError(f"{where}.scores: needs one number per seat")
            values = tuple(self.count(v, f"{where}.scores[{j}]") for j, v in enumerate(scores))
            bust = self.seat(entry["bust"], f"{where}.bust")
            if values[bust] != 0:
                raise ValueError(f"{where}.scores[{bust}]: the seat that could not pay scores 0")
            if sum(values) > in_play:
                raise ValueError(f"{where}.scores: more than the {in_play} points in play")
            out.append(SetResult(values, bust))
        return out

    def last(self) -> Outcome | None:
        roll = self.get("last_roll", str, None)
        last = self.get("last", dict, None)
        if roll is None and last is None:
            return None
        if roll is None or last is None:
            raise ValueError('fields "last_roll" and "last": give both or neither')
        faces = tuple(roll.split())
        if len(faces) != DICE:
            raise ValueError(f'field "last_roll": needs {DICE} faces, one per die')
        for i, (face, die) in enumerate(zip(faces, self.ed.dice, strict=True), 1):
            if face not in die.faces:
                raise ValueError(f'field "last_roll": die {i} has no face {shown(face)}')
        if set(last) != {"seat", "pot", "changes", "bust"}:
            raise ValueError('field "last": must hold seat, pot, changes and bust')
        seat = self.seat(last["seat"], "last.seat")
        pot = self.count(last["pot"], "last.pot")
        changes = last["changes"]
        if not isinstance(changes, list) or len(changes) != self.game.players:
            raise ValueError("last.changes: needs one number per seat")
        for j, c in enumerate(changes):
            if isinstance(c, bool) or not isinstance(c, int):
                raise ValueError(f"last.changes[{j}]: must be a whole number")
        bust = None if last["bust"] is None else self.seat(last["bust"], "last.bust")
        return Outcome(seat, faces, pot, tuple(changes), bust)

    def check_last(self, state: CubesState) -> None:
        """The last roll must agree with the position it led to."""
        last = state.last
        to_move = state.to_move
        if last is None:
            if to_move is None:
                raise ValueError('field "last": a finished game ends with a roll')
            return
        players = self.game.players
        if last.bust is None:
            if to_move is None:
                raise ValueError(
                    'field "last.bust": a finished game ends with a seat unable to pay'
                )
            if to_move != (last.seat + 1) % players:
                raise ValueError(
                    f'field "to_move": after seat {last.seat} rolled, seat '
                    f"{(last.seat + 1) % players} rolls next"
                )
            if state.pot != last.pot - sum(last.changes):
                raise ValueError('field "pot": it does not follow from "last"')
            return
        if not state.past_sets or state.past_sets[-1].bust != last.bust:
            raise ValueError('field "past_sets": the last set must end with "last.bust"')
        if to_move is not None:
            opener = state.opener(state.set_number)
            if to_move != opener:
                raise ValueError(
                    f'field "to_move": set {state.set_number} opens with seat {opener}'
                )
            fresh = CubesState(self.game)
            fresh.set_number = state.set_number
            fresh.deal()
            if state.chips != fresh.chips or state.pot != fresh.pot:
                raise ValueError(
                    f'field "chips": set {state.set_number} has just been dealt, so each seat '
                    f"holds {fresh.chips[0]} and the pot {fresh.pot}"
                )

    def check_last_roll(self, state: CubesState, last: Outcome) -> None:
        """The roll `last` records, rolled again on the chips and pot it was rolled on,
        must make the same record: the chips before it are the chips after it (this
        position's, or the scores of the set it ended) less its `changes`, and together
        with its `pot` they hold the points in play. Without this a file's `last.pot` or
        `last.changes` could be anything when the roll ended a set (10**5000 was read, and
        the state's view then could not be written as JSON), and `changes` of
        [10**30, -10**30] passed the pot's check after any other roll."""
        players = self.game.players
        in_play = self.ed.in_play(players)
        if last.pot > in_play:
            raise ValueError(f"last.pot: at most the {in_play} points in play")
        # after a bust, `check_last` saw that the last set ended with it
        after = list(state.chips if last.bust is None else state.past_sets[-1].scores)
        before = [a - c for a, c in zip(after, last.changes, strict=True)]
        for seat, held in enumerate(before):
            if held < 0:
                raise ValueError(
                    f"last.changes[{seat}]: seat {seat} would have held {plain(held)} "
                    "points before the roll"
                )
        if sum(before) + last.pot != in_play:
            raise ValueError(
                f'field "last": before the roll the chips and the pot would hold '
                f"{plain(sum(before) + last.pot)} points, not the {in_play} in play"
            )
        again = CubesState(self.game)
        again.chips = before
        again.pot = last.pot
        again.set_number = self.game.sets  # a bust ends the game here: nothing is dealt
        again._to_move = last.seat
        again._resolve(last.faces)
        if again.last != last:
            raise ValueError(
                f'field "last": seat {last.seat} rolling {" ".join(last.faces)} on these '
                "chips and pot pays and takes otherwise than it records"
            )
