"""Bots by name: `bot("random", seed=1)`; parameters follow a colon, `name:key=value,...`.

The built-in bots are in `BOTS`; other packages add theirs through the entry-point group
`cubegames.bots` (name: the bot's name; value: `module:BotClass`), as this package's own
`policy` bot (`cubegames.rl.baselines`, which needs the learning environments) is added.
`bot_classes()` lists them all.
"""

from __future__ import annotations

import functools
import warnings
from importlib.metadata import entry_points
from typing import Any

from cubegames.bots.alphabeta import AlphaBetaBot
from cubegames.bots.base import Bot
from cubegames.bots.greedy import GreedyBot
from cubegames.bots.mcts import MctsBot
from cubegames.bots.random import RandomBot
from cubegames.core.chance import whole_seed
from cubegames.core.errors import cut, shown
from cubegames.core.phrase import Worded

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MctsBot,
    "alphabeta": AlphaBetaBot,
}


#: the entry-point group through which other packages add bots
GROUP = "cubegames.bots"

#: bots whose first parameter may be written bare: `policy:unstackable-ppo`
BARE_FIRST = {"policy": "policy"}


@functools.cache
def bot_classes() -> dict[str, type[Bot]]:
    """Every bot by name: the built-in ones, then those other packages register (a bot
    that fails to load is left out with a warning; one may not take a built-in name)."""
    found = dict(BOTS)
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        if point.name in found:
            continue
        try:
            cls = point.load()
        except Exception as exc:  # a broken plug-in must not take the built-in bots down
            warnings.warn(f"bot {point.name!r} could not be loaded: {exc}", stacklevel=2)
            continue
        if isinstance(cls, type) and issubclass(cls, Bot):
            found[point.name] = cls
    return found


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
    >>> parse_spec("policy:unstackable-ppo,sample=1")
    ('policy', {'policy': 'unstackable-ppo', 'sample': 1})
    """
    if not isinstance(spec, str):
        bots = ", ".join(bot_classes())
        raise Worded(
            "error-bot-unknown",
            f"unknown bot {shown(spec)}; choose from {bots}",
            bot=cut(spec, 40),
            bots=bots,
        )
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for i, part in enumerate(filter(None, rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq and i == 0 and name in BARE_FIRST and key.strip():
            params[BARE_FIRST[name]] = key.strip()
            continue
        if not eq or not key.strip():
            raise Worded(
                "error-bot-pairs", f"bot {spec!r}: parameters are written key=value", bot=spec
            )
        if key.strip() in params:
            raise Worded(
                "error-bot-twice",
                f"bot {name!r}: {key.strip()} is given twice; give it once",
                bot=name,
                key=key.strip(),
            )
        params[key.strip()] = _value(value.strip())
    return name, params


def bot(spec: str, seed: int = 0, game: str | None = None) -> Bot:
    """A bot by name with parameters; with `game`, also check that it plays that game.

    >>> bot("random", seed=1)
    <bot random>
    >>> try:
    ...     bot("wizard")
    ... except ValueError as exc:  # also worded by code for the page (`core.phrase.Worded`)
    ...     print(exc)
    unknown bot 'wizard'; choose from random, greedy, mcts, alphabeta, policy
    >>> try:
    ...     bot("alphabeta", game="cubed")
    ... except ValueError as exc:
    ...     print(exc)
    bot 'alphabeta' plays unstackable only, not cubed
    """
    name, params = parse_spec(spec)
    classes = bot_classes()
    cls = classes.get(name)
    if cls is None:
        raise Worded(
            "error-bot-unknown",
            f"unknown bot {shown(name)}; choose from {', '.join(classes)}",
            bot=cut(name, 40),
            bots=", ".join(classes),
        )
    if game is not None and not cls.can_play(game):
        raise Worded(
            "error-bot-game",
            f"bot {name!r} plays {', '.join(cls.games() or ())} only, not {game}",
            bot=name,
            games=", ".join(cls.games() or ()),
            game=game,
        )
    seed = whole_seed(seed)
    if "seed" in params:  # the seed is `bot(spec, seed=N)`'s, never a setting of the bot
        raise Worded(
            "error-bot-no-param",
            f"bot {name!r} takes no parameter 'seed' (give it as bot(spec, seed=N))",
            bot=name,
            key="seed",
        )
    made = cls(seed, **params)
    if game is not None and not made.plays(game):
        raise Worded(
            "error-bot-game-only", f"bot {spec.strip()!r} does not play {game}", bot=spec, game=game
        )
    return made


__all__ = ["BOTS", "Bot", "bot", "bot_classes", "parse_spec"]
