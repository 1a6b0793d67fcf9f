"""The designer's lab sections of a report, added to every setting after its own tables:
the moves played by kind (with warnings about variants left unused, `sim.moves`) and the
design metrics (`sim.metrics`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cubegames.sim.analysis import Setting


def add_lab(setting: Setting) -> None:
    """Add the lab's tables and warnings to `setting`."""
    from cubegames.sim.metrics import add_metrics
    from cubegames.sim.moves import add_move_kinds

    add_move_kinds(setting)
    add_metrics(setting)
