"""CUBES: six dice, a pot and a score pad (rules in shared/rules/cubes.md).

The only move is `roll`; the dice decide what it does. Chance comes from the seed given to
`new_state` and then from a SplitMix64 generator whose state the position carries, so a
saved position continues exactly as the live game would have.

Position fields (`to_dict`), besides `"game"` and `"options"` (`players`, `sets`, `edition`):

- `"faces"`: the six dice in roll order, each the list of its six faces as text: `"C"` the
  word CUBES, `"."` a blank, a number as its digits, e.g. `["C", "1", "6", ".", ".", "."]`.
  They come from the edition and must match it.
- `"chips"`: points each seat holds; `"pot"`: points in the pot. Together they always make
  the points in play: 20 a player for 2–4 players, the whole box (200) for 5–10.
- `"set"`: the set being played (1-based; the last set once the game is over);
  `"totals"`: each seat's sum over the finished sets; `"to_move"`: the seat to roll, or null.
- `"rng"`: the generator's state, 16 hex digits. Hidden: `view(seat)` leaves it out,
  because it tells every roll to come.
- `"last_roll"`: the last roll, written like `"1 C . 6 . 3"` (absent before the first
  roll); `"last"`: what it did, `{"seat": roller, "pot": the pot before it, "changes":
  each seat's gain (negative: paid), "bust": the seat that could not pay in full, or null}`.
- `"past_sets"`: one `{"scores": [...], "bust": seat}` per finished set (the score pad;
  absent before the first set ends).

>>> import cubegames
>>> state = cubegames.make("cubes", players=2).new_state(seed=7)
>>> state.legal_moves()
[Roll(faces=None)]
>>> state.chips, state.pot
([15, 15], 10)
>>> state.play("roll . . . . . .")  # a forced all-blank roll: the roller pays 2
>>> state.chips, state.pot, state.to_move
([13, 15], 12, 1)
"""

from cubegames.games.cubes.dice import Row, classify, tally
from cubegames.games.cubes.edition import Edition, EditionError, load_edition
from cubegames.games.cubes.game import Cubes
from cubegames.games.cubes.notation import CubesMove, Roll
from cubegames.games.cubes.outcome import Outcome, SetResult, describe
from cubegames.games.cubes.state import CubesState

GAME_CLASS = Cubes

__all__ = [
    "EXAMPLE_OPTIONS",
    "GAME_CLASS",
    "Cubes",
    "CubesMove",
    "CubesState",
    "Edition",
    "EditionError",
    "Outcome",
    "Roll",
    "Row",
    "SetResult",
    "classify",
    "describe",
    "load_edition",
    "tally",
]

#: option sets worth exercising: the shared conformance test plays each of them
EXAMPLE_OPTIONS: list[dict[str, object]] = [
    {"players": 2},
    {"players": 4},
    {"players": 7},
    {"players": 10, "sets": 1},
]
