"""Hand-built CUBES positions for rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cubegames
from cubegames.games.cubes import CubesState
from tests.helpers import refusal as refusal

#: forced rolls of the standard dice, one of each row of the rules' table (they need a
#: refereed game: `referee=True`)
NUMBERS_9 = "roll . 2 3 . . 4"  # numbers only, 2 + 3 + 4 = 9
FEW_9 = "roll C 5 4 . . ."  # CUBES and two numbers, 5 + 4 = 9
FEW_6 = "roll 6 C C . . ."  # CUBES and one number, 6
MANY = "roll 1 C 3 . . 4"  # CUBES and three numbers
WORD_ONLY = "roll C C . . . ."  # only CUBES
BLANK = "roll . . . . . ."  # all blank


def position(
    chips: Sequence[int],
    pot: int,
    *,
    to_move: int = 0,
    sets: int = 3,
    set_number: int = 1,
    past_sets: Sequence[tuple[Sequence[int], int]] = (),
    fields: dict[str, Any] | None = None,
    referee: bool = True,
) -> CubesState:
    """A position with these points and pot; `past_sets` as (scores, bust) pairs.

    The game is refereed unless `referee=False`, so forced rolls such as `NUMBERS_9` play.
    """
    game = cubegames.make("cubes", players=len(chips), sets=sets, referee=referee)
    data = game.new_state(seed=0).to_dict()
    totals = [sum(scores[s] for scores, _ in past_sets) for s in range(len(chips))]
    data.update(
        chips=list(chips),
        pot=pot,
        to_move=to_move,
        set=set_number,
        totals=totals,
        **(fields or {}),
    )
    if past_sets:
        data["past_sets"] = [{"scores": list(s), "bust": b} for s, b in past_sets]
    state = game.state_from_dict(data)
    assert isinstance(state, CubesState)
    return state
