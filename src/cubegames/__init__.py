"""cubegames: tabletop games built around cubes.

>>> import cubegames
>>> cubegames.GAMES[0]
'cubed'
"""

from cubegames.bots import bot
from cubegames.core import GAMES, Game, IllegalMove, Move, State, game_from_dict, make

__version__ = "0.1.0"

__all__ = ["GAMES", "Game", "IllegalMove", "Move", "State", "bot", "game_from_dict", "make"]
