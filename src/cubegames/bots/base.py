"""What every bot is: something that picks a move for the seat to move."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from cubegames.core.game import Move, State
from cubegames.core.phrase import Worded


class Bot(ABC):
    """A player program. `choose` decides from what the seat to move may see."""

    name: ClassVar[str]
    #: the game ids this bot can play; None means every game
    games: ClassVar[tuple[str, ...] | None] = None

    def __init__(self, seed: int = 0, **params: Any) -> None:
        if params:
            first = sorted(params)[0]
            raise Worded(
                "error-bot-no-param",
                f"bot {self.name!r} takes no parameter {first!r}",
                bot=self.name,
                key=first,
            )
        self.seed = seed

    @classmethod
    def presets(cls) -> list[tuple[str, tuple[str, ...] | None]]:
        """The specs this bot is listed and rated under, each with the games it plays
        (None: every game): the bot's name alone, unless it comes in several kinds (the
        learned policies, one per baseline)."""
        return [(cls.name, cls.games)]

    def plays(self, game: str) -> bool:
        """Whether this bot plays `game` (by default: its class's `games`)."""
        return self.games is None or game in self.games

    @abstractmethod
    def choose(self, state: State[Any]) -> Move:
        """The move to play in `state` for `state.to_move`."""

    def __repr__(self) -> str:
        return f"<bot {self.name}>"
