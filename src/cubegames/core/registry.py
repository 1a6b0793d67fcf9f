"""Which games exist, and `make` to build one by id.

A game is one subpackage of `cubegames.games` that exposes `GAME_CLASS`; nothing here needs
to change when a game is added. Modules are imported only when a game is made.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import cubegames.games
from cubegames.core.game import Game

#: games in the order people meet them; any other registered game follows alphabetically
_PREFERRED = ("cubed", "unstackable", "stakd", "cubes")


def _discover() -> tuple[str, ...]:
    found = {m.name for m in pkgutil.iter_modules(cubegames.games.__path__) if m.ispkg}
    first = [g for g in _PREFERRED if g in found]
    return (*first, *sorted(found - set(first)))


GAMES: tuple[str, ...] = _discover()


def game_class(game_id: str) -> type[Game[Any]]:
    """The class behind a game id; ValueError for an unknown id."""
    if game_id not in GAMES:
        raise ValueError(f"unknown game {game_id!r}; choose from {', '.join(GAMES)}")
    module = importlib.import_module(f"cubegames.games.{game_id}")
    cls: type[Game[Any]] = module.GAME_CLASS
    return cls


def make(game_id: str, **options: Any) -> Game[Any]:
    """Build a game by id with its options.

    >>> game = make("cubed", players=3, variants=("bridging",))
    >>> game.players
    3
    >>> make("cubed", colour="red")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: cubed has no option 'colour'; it takes players, edition, variants, ...
    """
    cls = game_class(game_id)
    unknown = sorted(set(options) - set(cls.option_names))
    if unknown:
        raise ValueError(
            f"{game_id} has no option {unknown[0]!r}; it takes {', '.join(cls.option_names)}"
        )
    return cls(**options)


def game_from_dict(data: Any) -> Game[Any]:
    """The game a position file belongs to, from its "game" and "options" fields."""
    if not isinstance(data, dict):
        raise ValueError("a position must be a JSON object")
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise ValueError('field "game": missing or not a string')
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ValueError('field "options": must be an object')
    try:
        return make(game_id, **options)
    except TypeError as exc:  # an option of the wrong kind
        raise ValueError(f'field "options": {exc}') from None
