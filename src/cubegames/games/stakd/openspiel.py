"""STAKD as an OpenSpiel game (`cubegames_stakd`, through `cubegames.openspiel`): no
chance, nothing hidden; its parameters and the bound on a game's length.
"""

from __future__ import annotations

from typing import Any

from cubegames.kit.openspiel import Param, Rules


class StakdRules(Rules):
    game_id = "stakd"
    long_name = "STAKD (cubegames)"
    defaults = {  # noqa: RUF012
        "players": 2,
        "edition": "standard",
        "points_to_win": 0,  # 0: the game's own (3, and 1 solo)
        "uni_opens_beside_bombers": False,
    }
    min_players = 1
    max_players = 8

    def options(self, params: dict[str, Param]) -> dict[str, Any]:
        out: dict[str, Any] = dict(params)
        if out["points_to_win"] == 0:
            del out["points_to_win"]
        return out

    def max_game_length(self) -> int:
        view = self.game.new_state(0).view(0)
        pieces = sum(sum(hand.values()) for hand in view["hands"])
        players = self.game.players
        points = int(self.game.options["points_to_win"])
        # each round lays at most every piece and gives one seat a point
        rounds = 1 if players == 1 else players * (points - 1) + 1
        return pieces * rounds


RULES = StakdRules
