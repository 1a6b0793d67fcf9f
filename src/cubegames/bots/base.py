"""What every bot is: something that picks a move for the seat to move."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from cubegames.core.game import Move, State
from cubegames.core.phrase import Worded


class Bot(ABC):
    """A player program. `choose` decides from what the seat to move may see."""

    name: ClassVar[str]

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
    def can_play(cls, game: str) -> bool:
        """Whether bots of this class play the game `game` at all, whatever their settings
        (by default every game; a bot that needs a capability asks the game's class for
        it). A caller checks it before seating the bot."""
        return True

    @classmethod
    def games(cls) -> tuple[str, ...] | None:
        """The registered games this class plays (None: every game), for listings and
        refusals; a class that overrides `can_play` overrides this to match."""
        return None

    @classmethod
    def presets(cls) -> list[tuple[str, tuple[str, ...] | None]]:
        """The specs this bot is listed and rated under, each with the games it plays
        (None: every game): the bot's name alone, unless it comes in several kinds (the
        learned policies, one per baseline)."""
        return [(cls.name, cls.games())]

    def plays(self, game: str) -> bool:
        """Whether this bot, with its settings, plays `game` (by default: `can_play`)."""
        return self.can_play(game)

    @abstractmethod
    def choose(self, state: State[Any]) -> Move:
        """The move to play in `state` for `state.to_move`."""

    def __repr__(self) -> str:
        return f"<bot {self.name}>"
