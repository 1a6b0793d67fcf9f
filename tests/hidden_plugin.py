"""A plug-in game with secret hands, which the suite's Nim (tests/plugin_game) lacks: High
card. Each seat is dealt `cards` cards in secret from a seeded deck of 1 to 12; in turn,
each plays one face up ("play 7"); when every hand is empty, the highest card played wins.

It is registered by the tests that need it (`register`), not installed: its class lives in
the test suite, its facts say it has no parts of its own, and it is played on the generic
table like any plug-in.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt

import cubegames
import cubegames.core
from cubegames.core import registry
from cubegames.core.errors import IllegalMove
from cubegames.core.game import JSON, Game, Move, State
from cubegames.core.info import GameInfo

DECK = tuple(range(1, 13))


class HighCardOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: StrictInt = Field(2, ge=2, le=4, title="Players")
    cards: StrictInt = Field(2, ge=1, le=3, title="Cards dealt to each seat")


INFO = GameInfo(
    id="highcard",
    title="High card",
    pitch="Play your secret cards face up; the highest card wins.",
    min_players=2,
    max_players=4,
    options=HighCardOptions,
    rules=("Play one card of your secret hand a turn.", "The highest card played wins."),
    parts=False,
)


@dataclass(frozen=True)
class Play(Move):
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


class HighCardState(State[Play]):
    def __init__(self, game: HighCard, hands: list[list[int]], played: list[int]) -> None:
        self.game, self.hands, self.played = game, hands, played

    @property
    def to_move(self) -> int | None:
        if not any(self.hands):
            return None
        return len(self.played) % self.game.players

    def legal_moves(self) -> list[Play]:
        seat = self.to_move
        return [] if seat is None else [Play(c) for c in sorted(self.hands[seat])]

    def refusal(self, move: Play) -> str | None:
        return None if move in self.legal_moves() else "you hold no such card"

    def _apply(self, move: Play) -> None:
        seat = self.to_move
        assert seat is not None
        self.hands[seat].remove(move.card)
        self.played.append(move.card)

    def scores(self) -> list[float]:
        players = self.game.players
        return [float(max(self.played[s::players], default=0)) for s in range(players)]

    def winners(self) -> list[int]:
        if self.to_move is not None:
            return []
        scores = self.scores()
        return [s for s, score in enumerate(scores) if score == max(scores)]

    def clone(self) -> HighCardState:
        return HighCardState(self.game, [list(h) for h in self.hands], list(self.played))

    # no `public_view` of its own: the default shows a spectator what every seat sees alike
    def view(self, seat: int) -> JSON:
        return {
            "game": "highcard",
            "options": self.game.options,
            "held": [len(h) for h in self.hands],
            "played": list(self.played),
            "seat": seat,
            "hand": sorted(self.hands[seat]),
        }

    def to_dict(self) -> JSON:
        return {
            "game": "highcard",
            "options": self.game.options,
            "hands": [list(h) for h in self.hands],
            "played": list(self.played),
        }


class HighCard(Game[Play]):
    info: ClassVar[GameInfo] = INFO

    def __init__(self, players: int = 2, cards: int = 2) -> None:
        self.players, self.cards = players, cards

    @property
    def options(self) -> JSON:
        return {"players": self.players, "cards": self.cards}

    def new_state(self, seed: int = 0) -> HighCardState:
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        hands = [deck[s * self.cards : (s + 1) * self.cards] for s in range(self.players)]
        return HighCardState(self, hands, [])

    def parse_move(self, text: str) -> Play:
        word, _, card = text.partition(" ")
        if word != "play" or not card.isdigit():
            raise IllegalMove("write a move as 'play N'")
        return Play(int(card))

    def state_from_dict(self, data: Mapping[str, Any]) -> HighCardState:
        hands, played = data.get("hands"), data.get("played")
        if not isinstance(hands, list) or len(hands) != self.players:
            raise ValueError(f"hands must be a list of {self.players} hands")
        if not isinstance(played, list):
            raise ValueError("played must be a list of cards")
        every = [c for h in hands for c in h] + played
        if sorted(set(every)) != sorted(every) or not set(every) <= set(DECK):
            raise ValueError("hands and played must hold distinct cards from 1 to 12")
        return HighCardState(self, [list(h) for h in hands], list(played))

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> HighCardState:
        unseen = [c for c in DECK if c not in view["hand"] and c not in view["played"]]
        rng.shuffle(unseen)
        hands = [
            list(view["hand"]) if s == seat else [unseen.pop() for _ in range(held)]
            for s, held in enumerate(view["held"])
        ]
        return HighCardState(self, hands, list(view["played"]))


def register() -> None:
    """Register High card beside the installed games, in this process, as an installed
    plug-in would be (its entry point `highcard = tests.hidden_plugin:HighCard`)."""
    entry = metadata.EntryPoint("highcard", "tests.hidden_plugin:HighCard", registry.GROUP)
    registry._ENTRIES = {**registry._ENTRIES, "highcard": entry}
    _set_games(registry._order(set(registry._ENTRIES)))
    registry._load.cache_clear()


def _set_games(ids: tuple[str, ...]) -> None:
    registry.GAMES = cubegames.GAMES = cubegames.core.GAMES = ids


@contextmanager
def registered() -> Iterator[None]:
    """High card registered for the time of a `with` block."""
    entries, ids = registry._ENTRIES, registry.GAMES
    register()
    try:
        yield
    finally:
        registry._ENTRIES = entries
        _set_games(ids)
        registry._load.cache_clear()
