"""CUBES as an OpenSpiel game (`cubegames_cubes`, through `cubegames.openspiel`): a `roll`
is followed by one chance node per die (the outcome its face). Public.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cubegames.core.game import Move
from cubegames.kit.openspiel import Chance, Event, Holder, Param, Rules

#: every face a CUBES die may show, in chance-outcome order
FACES = ("C", ".", "1", "2", "3", "4", "5", "6")


class CubesRules(Rules):
    game_id = "cubes"
    long_name = "CUBES (cubegames)"
    defaults = {"players": 2, "sets": 3, "edition": "standard"}  # noqa: RUF012
    max_players = 10
    chance_mode = "explicit"
    max_chance_outcomes = len(FACES)
    #: rolls per set declared as the bound. A set has no hard limit (chips can go round and
    #: round), so this is a practical bound, as backgammon's in OpenSpiel: in 20,000 random
    #: 2-player sets the longest took 92 rolls (and 9 in 5,000 sets of 10 players)
    ROLLS_PER_SET = 1000

    def options(self, params: dict[str, Param]) -> dict[str, Any]:
        # a refereed game accepts forced rolls: that is how the dice's outcome goes in
        return {**params, "referee": True}

    def max_game_length(self) -> int:
        return self.ROLLS_PER_SET * int(self.params["sets"])

    def after(self, holder: Holder, move: Move) -> None:
        holder.chance = self._die(holder, [])

    def _die(self, holder: Holder, faces: list[str]) -> Chance:
        die = holder.state().to_dict()["faces"][len(faces)]
        counts = Counter(die)
        return Chance(
            "die",
            [(FACES.index(f), counts[f] / len(die)) for f in FACES if f in counts],
            {"faces": faces},
        )

    def resolve(self, holder: Holder, outcome: int) -> Event:
        assert holder.chance is not None
        faces = [*holder.chance.data["faces"], FACES[outcome]]
        dice = len(holder.state().to_dict()["faces"])
        if len(faces) < dice:
            holder.chance = self._die(holder, faces)
        else:
            holder.chance = None
            holder.state().play("roll " + " ".join(faces))
        return Event(f"die {len(faces)} shows {FACES[outcome]}")

    def chance_text(self, chance: Chance | None, outcome: int) -> str:
        face = FACES[outcome] if 0 <= outcome < len(FACES) else "?"
        if chance is None:
            return f"a die shows {face}"
        return f"die {len(chance.data['faces']) + 1} shows {face}"


RULES = CubesRules
