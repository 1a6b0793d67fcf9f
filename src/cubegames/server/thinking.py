"""What a process of the bots' pool runs (`bots.pool`, `worker.Worker`): kept apart from
the web app's modules so that a pool process starts by importing the games and the bots
only (the web stack would cost it most of a second)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
from typing import Any

import cubegames
from cubegames.bots.base import Bot
from cubegames.core.game import Game

#: how much lower the pool's processes are scheduled than the web process (`os.nice`)
NICE = 10


def lower_priority() -> None:
    """Run a pool process behind the web process (`NICE`)."""
    with contextlib.suppress(OSError):  # not allowed: the same priority, another process
        os.nice(NICE)


@functools.lru_cache(maxsize=32)
def _game(game_id: str, options: str) -> Game[Any]:
    """A game, made once per worker process for each game id and options (JSON)."""
    return cubegames.make(game_id, **json.loads(options))


def think(bot: Bot, game_id: str, options: str, position: dict[str, Any]) -> tuple[str, Bot]:
    """A bot's move, thought in a worker process: the position comes as its `to_dict` (a
    state need not pickle) and the bot comes back with it, its own random state moved on.
    The bot decides from the view of the seat to move alone, as everywhere."""
    state = _game(game_id, options).state_from_dict(position)
    move = bot.choose(state)
    return str(move), bot


__all__ = ["NICE", "lower_priority", "think"]
