"""Unstackable as an OpenSpiel game (`cubegames_unstackable`, through `cubegames.openspiel`):
no chance, nothing hidden; its parameters and the bound on a game's length.
"""

from __future__ import annotations

from cubegames.kit.openspiel import Rules


class UnstackableRules(Rules):
    game_id = "unstackable"
    long_name = "Unstackable (cubegames)"
    defaults = {"players": 2, "exact_counts": True, "bag_counts_as_exposed": False}  # noqa: RUF012

    def max_game_length(self) -> int:
        # every move places or removes one of the 64 cubes; `end` closes at most one turn
        # per cube placed (exact_counts=false)
        return 64 * 3


RULES = UnstackableRules
