"""Bots by name: `bot("random", seed=1)`; parameters follow a colon, `name:key=value,...`."""

from __future__ import annotations

from typing import Any

from cubegames.bots.alphabeta import AlphaBetaBot
from cubegames.bots.base import Bot
from cubegames.bots.greedy import GreedyBot
from cubegames.bots.mcts import MctsBot
from cubegames.bots.random import RandomBot

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MctsBot,
    "alphabeta": AlphaBetaBot,
}


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split `"mcts:iterations=2000,c=1.4"` into a name and parameters.

    >>> parse_spec("mcts:iterations=2000,c=1.4")
    ('mcts', {'iterations': 2000, 'c': 1.4})
    """
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bot {spec!r}: parameters are written key=value")
        params[key.strip()] = _value(value.strip())
    return name, params


def bot(spec: str, seed: int = 0, game: str | None = None) -> Bot:
    """A bot by name with parameters; with `game`, also check that it plays that game.

    >>> bot("random", seed=1)
    <bot random>
    >>> bot("wizard")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'wizard'; choose from random, greedy, mcts, alphabeta
    >>> bot("alphabeta", game="cubed")
    Traceback (most recent call last):
    ...
    ValueError: bot 'alphabeta' plays unstackable only, not cubed
    """
    name, params = parse_spec(spec)
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    if game is not None and cls.games is not None and game not in cls.games:
        raise ValueError(f"bot {name!r} plays {', '.join(cls.games)} only, not {game}")
    return cls(seed, **params)


__all__ = ["BOTS", "Bot", "bot", "parse_spec"]
