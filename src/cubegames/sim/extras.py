"""A game's own sections of a report: the function its facts name (`GameInfo.report`,
"module:function", e.g. `cubegames.games.cubes.report:report`), given each setting of the
game (a `cubegames.kit.report.Section`). It adds tables, and its plots to
`setting.extras["plots"]` (`(caption, draw)` pairs, which the report draws in the game's
part of the page: CUBED's pieces left by kind, CUBES' rows and sets).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from cubegames.core.registry import info
from cubegames.sim.analysis import Setting


def add_extras(setting: Setting) -> None:
    """Add the game's own tables (and raw numbers for its plots) to `setting`, by the
    function its facts name (`GameInfo.report`, "module:function"); nothing for a game
    that names none or is no longer registered."""
    try:
        where = info(setting.game).report
    except ValueError:
        return
    if not where:
        return
    module, _, name = where.partition(":")
    extra: Callable[[Setting], None] = getattr(importlib.import_module(module), name)
    extra(setting)
