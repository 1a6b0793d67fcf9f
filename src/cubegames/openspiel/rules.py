"""What OpenSpiel needs to know of each game: its parameters, its type, and its chance.

Each game says it in its own `openspiel` part (`cubegames.kit.parts`: the module `openspiel`
beside its game module, `cubegames.games.cubed.openspiel` for CUBED), whose `RULES` is a
subclass of `cubegames.kit.openspiel.Rules`; a game without one is described by
`cubegames.openspiel.plugin`. The four:

- CUBED (`cubegames.games.cubed.openspiel`): the deal (one node per piece dealt), each
  `draw`, each piece of a `draw3`, every later round's deal; solo's starting piece and its
  turn. Hidden hands: imperfect information.
- CUBES (`cubegames.games.cubes.openspiel`): a `roll` is followed by one node per die (the
  outcome its face). Public.
- Unstackable and STAKD: no chance, nothing hidden.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from cubegames.kit.openspiel import Chance, Codecs, Event, Holder, Param, Rules
from cubegames.kit.parts import part

__all__ = ["Chance", "Codecs", "Event", "Holder", "Param", "Rules", "own_rules"]


@runtime_checkable
class Described(Protocol):
    """A game's `openspiel` part: `RULES`, its OpenSpiel description."""

    RULES: type[Rules]


def own_rules(game_id: str) -> type[Rules] | None:
    """The `Rules` of the game's own `openspiel` part, or None where it has none.

    >>> own_rules("cubes").__name__, own_rules("chess")
    ('CubesRules', None)
    """
    module = part(game_id, "openspiel")
    return module.RULES if isinstance(module, Described) else None
