"""The games as OpenSpiel games (`pip install 'cubegames[openspiel]'`).

OpenSpiel finds a Python game by name only once the module that registers it has been
imported, so import this package before `pyspiel.load_game`:

    import pyspiel
    import cubegames.openspiel  # registers cubegames_cubed, cubegames_unstackable, ...

    game = pyspiel.load_game("cubegames_cubed(players=3,rounds=1,variants=bridging+void)")

Names and parameters (defaults as `cubegames.make`'s):

- `cubegames_cubed`: players=2 (1 to 6 EN, 1 to 11 JA; 1 plays solo), edition="en",
  variants="" (joined by "+": `variants=bridging+void`), rounds=0 (the game's own: 3, and
  1 solo), strict_colors=True, radius=0. Explicit chance (each piece dealt or drawn, solo's
  starting piece and its turn), imperfect information.
- `cubegames_unstackable`: players=2, exact_counts=True, bag_counts_as_exposed=False.
  Deterministic, perfect information.
- `cubegames_stakd`: players=2 (1 to 8), edition="standard", points_to_win=0 (the game's
  own: 3, and 1 solo),
  uni_opens_beside_bombers=False. Deterministic, perfect information.
- `cubegames_cubes`: players=2 (2 to 10), sets=3, edition="standard". Explicit chance (one
  node per die), perfect information.

- a plug-in game (docs/plugins.md), `cubegames_<id>`: its options, and the adapter's own
  max_game_length=1000 and deals=1000; see `cubegames.openspiel.plugin`.

A bad parameter value raises an error naming the parameter, as `cubegames.make` does.
Actions, chance outcomes, returns and observations: `cubegames.openspiel.game` and
`cubegames.openspiel.rules` (each game's chance in its own `openspiel` part), and docs/rl.md.

>>> import pyspiel
>>> game = pyspiel.load_game("cubegames_unstackable")
>>> game.num_distinct_actions(), game.get_type().short_name
(281, 'cubegames_unstackable')
"""

from __future__ import annotations

import warnings

import pyspiel

from cubegames.core.registry import GAMES, PluginError, PluginWarning
from cubegames.openspiel.game import CubegamesGame, CubegamesState, Observer, game_type
from cubegames.openspiel.plugin import plugin_rules
from cubegames.openspiel.rules import Rules, own_rules

__all__ = ["NAMES", "CubegamesGame", "CubegamesState", "Observer", "game_class", "register"]

#: OpenSpiel's name of each registered game: the four, then the plug-in games that load
NAMES: dict[str, str] = {}

_classes: dict[str, type[CubegamesGame]] = {}


def game_class(game_id: str) -> type[CubegamesGame]:
    """The `pyspiel.Game` subclass of a game id (`cubed`, ..., or a plug-in game's);
    `PluginError` for a plug-in game that cannot be an OpenSpiel game."""
    found = _classes.get(game_id)
    if found is None:
        rules: type[Rules] = own_rules(game_id) or plugin_rules(game_id)
        found = type(f"{rules.__name__[: -len('Rules')]}Game", (CubegamesGame,), {})
        found.rules_class = rules
        found.__module__ = __name__
        _classes[game_id] = found
        # found where pickle looks for it, so games and states pickle (for multiprocessing);
        # the first made is the one OpenSpiel registered (`register` registers a name once)
        globals().setdefault(found.__name__, found)
    return found


def register() -> None:
    """Register every game with OpenSpiel (done on import; registering twice is harmless).
    A plug-in game that cannot be loaded is left out with a `PluginWarning`, as everywhere
    that lists the games."""
    known = set(pyspiel.registered_names())
    for game_id in GAMES:
        name = f"cubegames_{game_id}"
        try:
            cls = game_class(game_id)
        except PluginError as error:
            warnings.warn(str(error), PluginWarning, stacklevel=2)
            continue
        if name not in known:
            pyspiel.register_game(game_type(cls.rules_class), cls)
        NAMES[game_id] = name


register()
