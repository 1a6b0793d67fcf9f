"""The games' symmetries, for learning code: a re-export of `cubegames.symmetry`.

Symmetries are a property of the rules, so they live beside the games in
`cubegames.symmetry` (see there for the groups and why); this name is kept so that code
written against `cubegames.rl.symmetry` keeps working. For data augmentation,
`map_actions(codec(game), sym, view, indices)` carries a policy target's action indexes to
the image of `view`.
"""

from __future__ import annotations

from cubegames.symmetry import *  # noqa: F403  (the same public names)
from cubegames.symmetry import __all__ as __all__
