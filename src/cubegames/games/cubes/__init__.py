"""CUBES: six dice, a pot and a score pad (rules in docs/rules/cubes.md).

The only move is `roll`; the dice decide what it does. Chance comes from the seed given to
`new_state` and then from a generator whose state the position carries (SplitMix64, or a
keyed one for seeds past 64 bits such as the web server's secret deals), so a saved
position continues exactly as the live game would have.

Options: `players` (2–10, default 2), `sets` (1–10, default 3), `edition` (`standard` or a
.toml file) and `referee` (default false).

Refereeing real dice: with `referee=true` the faces of a roll may be typed, as in
`roll 1 C . 6 . 3` (a *forced* roll, checked face by face against the dice), for a game
played with real dice at a table, or for analysis and tests; a plain `roll` still rolls with
the position's generator. Without it the game rolls its own dice and refuses a typed roll,
so nobody can choose their dice. `legal_moves()` is `[Roll()]` either way: in a refereed
game it stands for "a roll, whose faces the referee may type".

Position fields (`to_dict`), besides `"game"` and `"options"` (`players`, `sets`, `edition`,
and `"referee": true` only in a refereed game):

- `"faces"`: the six dice in roll order, each the list of its six faces as text: `"C"` the
  word CUBES, `"."` a blank, a number as its digits, e.g. `["C", "1", "6", ".", ".", "."]`.
  They come from the edition and must match it.
- `"chips"`: points each seat holds; `"pot"`: points in the pot. Together they always make
  the points in play: 20 a player for 2–4 players, the whole box (100) for 5–10.
- `"set"`: the set being played (1-based; the last set once the game is over);
  `"totals"`: each seat's sum over the finished sets; `"to_move"`: the seat to roll, or null.
- `"rng"`: the generator's state: 16 hex digits (SplitMix64, from a seed below 2**64) or
  48 (a keyed generator, from a larger seed such as the server's 128-bit deals; see
  `core.splitmix`). Hidden: `view(seat)` leaves it out, because it tells every roll to come.
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
>>> state.play("roll . . . . . .")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cubegames.core.errors.IllegalMove: this game rolls its own dice; ... (option referee=true)
>>> refereed = cubegames.make("cubes", players=2, referee=True).new_state(seed=7)
>>> refereed.legal_moves()
[Roll(faces=None)]
>>> refereed.play("roll . . . . . .")  # the real dice all show blanks: the roller pays 2
>>> refereed.chips, refereed.pot, refereed.to_move
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

#: option sets worth exercising (the game's `info.example_options`)
EXAMPLE_OPTIONS: list[dict[str, object]] = [dict(o) for o in Cubes.info.example_options]
