"""A game's own parts, found beside its game class.

The package holding a game's module (`cubegames.games.cubed` for CUBED, a plug-in's own
package for a game from another package) may hold, beside the rules, modules with these
names; each shared part uses the game's module where it has one and falls back on its
generic one where not (docs/plugins.md):

- `terminal`: `draw(game, view, legal)`, optionally `tell(game, view)`, for
  `cubegames.render.terminal` (the terminal client, `render_mode="ansi"`);
- `web`: `svg`, `info`, `words` and the optional members listed in `cubegames.render.web`,
  for the web app;
- `rl`: `Codec(game, **settings)` and `Observer(game, **settings)`, for `cubegames.rl`;
- `vector`: `VectorEnv(num_envs, seed=, opponent=, **options)` and optionally
  `supports(options)`, a compiled batched environment for `cubegames.rl.vector`;
- `symmetry`: `symmetries(game)`, the game's symmetries with the identity first, for
  `cubegames.symmetry`;
- `lab`: what the simulator's reports ask of a game (its kinds of move, its variants'
  moves, who is ahead, its board's coverage), the protocols of `cubegames.kit.lab`;
- `openspiel`: `RULES`, the game's OpenSpiel description (its chance nodes), on
  `cubegames.kit.openspiel.Rules`, for `cubegames.openspiel`;
- `kernels`: the games `cubegames compile` plays to compile the game's kernels
  (`bot_positions()`, `random_games()`, `vector_envs()`), for `cubegames.kernels`.

A game whose facts say `parts=False` (and a game class declaring no facts) has none.

>>> part("cubed", "terminal").__name__
'cubegames.games.cubed.terminal'
>>> part("cubes", "vector") is None
True
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from types import ModuleType

from cubegames.core.registry import package

#: the names of the parts a game package may hold
PARTS = ("terminal", "web", "rl", "vector", "symmetry", "lab", "openspiel", "kernels")
#: the parts that may import a package of one of cubegames' extras (named here), as only
#: the layer that has the extra imports them: a compiled batched environment is a
#: `gymnasium.vector.VectorEnv`. Every other module of a game imports only what
#: `pip install cubegames` (and so `make play`) installs.
EXTRAS = {"vector": "rl"}


def part(game_id: str, name: str) -> ModuleType | None:
    """The game's own module `name` (one of `PARTS`), imported, or None where it has none.

    An error inside a part that exists (it fails to import) is raised, not taken for a
    missing part."""
    if name not in PARTS:
        raise ValueError(f"no part {name!r}; the parts are {', '.join(PARTS)}")
    found = package(game_id)
    return None if found is None else _module(f"{found}.{name}")


@functools.cache
def _module(name: str) -> ModuleType | None:
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)
