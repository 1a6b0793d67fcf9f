"""The shared core: the game protocol, the registry, errors and seeded chance."""

from cubegames.core.errors import IllegalMove
from cubegames.core.game import Game, Move, State
from cubegames.core.registry import GAMES, game_from_dict, make

__all__ = ["GAMES", "Game", "IllegalMove", "Move", "State", "game_from_dict", "make"]
