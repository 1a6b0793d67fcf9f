"""Nim for cubegames: a pile of stones; each turn the seat to move takes 1 to `max_take`;
whoever takes the last stone wins.

Registered by this package's pyproject.toml in the entry-point group `cubegames.games`:

    [project.entry-points."cubegames.games"]
    nim = "nimplugin:Nim"

>>> import cubegames
>>> state = cubegames.make("nim", stones=5).new_state(seed=1)
>>> [str(m) for m in state.legal_moves()]
['take 1', 'take 2', 'take 3']
>>> state.play("take 3"); state.play("take 2")
>>> state.is_over, state.winners(), state.scores()
(True, [1], [0.0, 1.0])
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from cubegames.core.errors import IllegalMove
from cubegames.core.game import JSON, Game, Move, State
from cubegames.core.info import Column, GameInfo
from cubegames.core.summary import Summary, Value
from cubegames.rl.encoding import ActionCodec
from cubegames.rl.observation import Observer
from cubegames.rl.plugin import Learnable, ListCodec, VectorObserver


class NimOptions(BaseModel):
    """Nim's options."""

    model_config = ConfigDict(extra="forbid")

    players: StrictInt = Field(2, ge=2, le=4, title="Players")
    stones: StrictInt = Field(10, ge=1, le=40, title="Stones in the pile")
    max_take: StrictInt = Field(3, ge=1, le=5, title="Most stones a turn may take")


class NimSummary(Summary):
    """The stones each seat took."""

    def finish(self, state: State[Any]) -> dict[str, Value]:
        data = state.to_dict()
        return {f"took_s{seat}": n for seat, n in enumerate(data["taken"])}


INFO = GameInfo(
    id="nim",
    title="Nim",
    pitch="Take 1 to 3 stones a turn; whoever takes the last stone wins.",
    min_players=2,
    max_players=4,
    options=NimOptions,
    rules=(
        "On your turn take 1 to 3 stones from the pile (the option max_take changes 3).",
        "Whoever takes the last stone wins.",
    ),
    columns=(Column("took_s<seat>", "stones the seat took"),),
    summary=NimSummary,
    example_options=({}, {"players": 3, "stones": 25, "max_take": 4}, {"stones": 1}),
)


@dataclass(frozen=True)
class Take(Move):
    """Take `count` stones."""

    count: int

    def __str__(self) -> str:
        return f"take {self.count}"


class NimState(State[Take]):
    """A pile, the seat to move, the stones each seat took, and the winner once over."""

    game: Nim

    def __init__(self, game: Nim) -> None:
        self.game = game
        self.pile = game.stones
        self.turn = 0
        self.taken = [0] * game.players
        self.winner: int | None = None

    @property
    def to_move(self) -> int | None:
        return None if self.winner is not None else self.turn

    def legal_moves(self) -> list[Take]:
        if self.winner is not None:
            return []
        return [Take(n) for n in range(1, min(self.game.max_take, self.pile) + 1)]

    def refusal(self, move: Take) -> str | None:
        if not 1 <= move.count <= self.game.max_take:
            return f"take 1 to {self.game.max_take} stones"
        if move.count > self.pile:
            return f"only {self.pile} stones are left"
        return None

    def _apply(self, move: Take) -> None:
        self.pile -= move.count
        self.taken[self.turn] += move.count
        if self.pile == 0:
            self.winner = self.turn
        else:
            self.turn = (self.turn + 1) % self.game.players

    def scores(self) -> list[float]:
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.game.players)]

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def clone(self) -> NimState:
        other = NimState(self.game)
        other.pile, other.turn, other.winner = self.pile, self.turn, self.winner
        other.taken = list(self.taken)
        return other

    def view(self, seat: int) -> JSON:
        return {**self.to_dict(), "seat": seat}

    def to_dict(self) -> JSON:
        return {
            "game": "nim",
            "options": self.game.options,
            "pile": self.pile,
            "to_move": self.to_move,
            "taken": list(self.taken),
            "turn": self.turn,
        }


MOVE = re.compile(r"\s*take\s+(\d{1,3})\s*")


class Nim(Game[Take], Learnable):
    """Nim with one set of options (see `NimOptions`)."""

    info: ClassVar[GameInfo] = INFO

    def __init__(self, players: int = 2, stones: int = 10, max_take: int = 3) -> None:
        self.players = players
        self.stones = stones
        self.max_take = max_take

    @property
    def options(self) -> JSON:
        return {"players": self.players, "stones": self.stones, "max_take": self.max_take}

    def new_state(self, seed: int = 0) -> NimState:
        return NimState(self)  # no chance in Nim

    def parse_move(self, text: str) -> Take:
        found = MOVE.fullmatch(text)
        if found is None:
            raise IllegalMove(f"write a move as 'take N', not {text[:20]!r}")
        return Take(int(found[1]))

    def state_from_dict(self, data: Mapping[str, Any]) -> NimState:
        if not isinstance(data, Mapping):
            raise ValueError("a position must be a JSON object")
        state = NimState(self)
        pile, turn, taken = data.get("pile"), data.get("turn"), data.get("taken")
        if type(pile) is not int or not 0 <= pile <= self.stones:
            raise ValueError(f'field "pile": a whole number from 0 to {self.stones}')
        if type(turn) is not int or not 0 <= turn < self.players:
            raise ValueError(f'field "turn": a seat from 0 to {self.players - 1}')
        if (
            not isinstance(taken, list)
            or len(taken) != self.players
            or any(type(n) is not int or n < 0 for n in taken)
            or sum(taken) + pile != self.stones
        ):
            raise ValueError('field "taken": one count per seat, adding up with the pile')
        state.pile, state.turn, state.taken = pile, turn, list(taken)
        if pile == 0:
            state.winner = turn
        if data.get("to_move") != state.to_move:
            raise ValueError('field "to_move": does not fit the pile and the turn')
        return state

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> NimState:
        return self.state_from_dict(view)  # nothing is hidden

    def action_codec(self, **settings: Any) -> ActionCodec:
        if settings:
            raise ValueError("Nim's codec has no settings")
        return ListCodec(self, [Take(n) for n in range(1, self.max_take + 1)])

    def observer(self, **settings: Any) -> Observer:
        if settings:
            raise ValueError("Nim's observer has no settings")
        return VectorObserver(self, 1 + self.players, self._features)

    def _features(self, view: Mapping[str, Any]) -> list[float]:
        seat = view["seat"]
        order = [(seat + k) % self.players for k in range(self.players)]
        return [view["pile"] / self.stones] + [view["taken"][s] / self.stones for s in order]
