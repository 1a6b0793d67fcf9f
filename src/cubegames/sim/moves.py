"""How often each kind of move was played, per seat and per bot, and a warning when a
setting's distinctive moves (a variant's) were never or almost never played.

A study of a variant measures nothing if the bots never make the variant's moves: 2,000
`draw3` games of a greedy bot that never draws three are the plain game. The simulator
counts every move by kind into the row (`kind_<kind>_s<seat>`); the report sums them per bot
and says so, in words at the top, when a variant's moves are (almost) absent.

Kinds are the game's: its `lab` part names them (`cubegames.kit.lab.MoveKinds`; CUBED's
in `cubegames.games.cubed.lab`), read from the move's notation (the rules' documented text)
and the move before, never from the engine's insides; a game without one has no counts.

Games played entirely by random bots are played by the games' compiled paths, which do
not report moves one by one: their rows have no kind columns, and the report shows no
count for them (random bots play every move type uniformly anyway).

>>> import cubegames
>>> counter = MoveKinds(cubegames.make("cubed", variants=("draw3",)))
>>> counter.kinds
('place', 'draw', 'pass', 'draw3', 'keep')
>>> counter.note(0, "draw3:2"); counter.note(0, "keep:GPY"); counter.note(1, "GPY@1,0")
>>> {k: v for k, v in counter.columns().items() if v}
{'kind_draw3_s0': 1, 'kind_keep_s0': 1, 'kind_place_s1': 1}
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from cubegames.core.game import Game
from cubegames.kit import lab

if TYPE_CHECKING:
    from cubegames.sim.analysis import Setting

#: the prefix of the kind columns of a row
PREFIX = "kind_"
#: a variant's moves played in fewer than this share of a bot's games count as "almost never"
RARE = 0.05


class MoveKinds:
    """Counts the moves of one game by kind and seat; `note` each move as it is played."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.kinds = lab.kinds(game)
        self.counts = {(k, s): 0 for s in range(game.players) for k in self.kinds}
        self._last: lab.Last = None

    def kind(self, seat: int, text: str) -> str:
        """The kind of the move written `text`, played by `seat`."""
        return lab.kind(self.game, seat, text, self._last)

    def note(self, seat: int, text: str) -> None:
        """Count the move written `text` just played by `seat`."""
        if not self.kinds:
            return
        kind = self.kind(seat, text)
        key = (kind, seat)
        if key in self.counts:
            self.counts[key] += 1
        self._last = (seat, kind)

    def columns(self) -> dict[str, int]:
        """The counts as row columns, `kind_<kind>_s<seat>`."""
        return {f"{PREFIX}{k}_s{s}": n for (k, s), n in self.counts.items()}


def add_move_kinds(setting: Setting) -> None:
    """Add the "moves played by kind" table and, at the top of the headline, a warning for
    each variant whose moves a bot never or almost never played."""
    from cubegames.sim.analysis import Table

    seats = setting.seat_frame()
    kinds = [c[len(PREFIX) :] for c in seats.columns if c.startswith(PREFIX)]
    if not kinds:
        return
    rows = []
    warnings = []
    special = lab.distinctive(setting.game, setting.options)
    name = functools.partial(lab.kind_name, setting.game)
    for bot in setting.distinct_bots:
        mine = seats[seats["bot"] == bot]
        if not len(mine):
            continue
        total = float(sum(mine[PREFIX + k].sum() for k in kinds)) or 1.0
        cells = [
            f"{mine[PREFIX + k].mean():.2f} ({float(mine[PREFIX + k].sum()) / total:.1%})"
            for k in kinds
        ]
        rows.append([bot, f"{len(mine):,}", *cells])
        for variant, kind in special.items():
            used = float((mine[PREFIX + kind] > 0).mean())
            if used < RARE:
                how, close = ("never", "") if used == 0 else ("almost never", "close to ")
                seen = "" if used == 0 else f" (in {used:.1%} of its games)"
                warnings.append(
                    f"Warning: {bot} {how} played {name(kind)}{seen}, the move the "
                    f"{variant} variant adds: what this setting shows about {variant} with "
                    f"{bot} is {close}the game without it."
                )
    setting.headline[:0] = warnings
    setting.tables.append(
        Table(
            "Moves played by kind",
            ["bot", "seat-games", *(name(k) for k in kinds)],
            rows,
            "Moves of each kind per game a bot played, and (in brackets) their share of "
            "its moves. "
            + (
                "Variant moves: " + ", ".join(f"{name(k)} ({v})" for v, k in special.items()) + "."
                if special
                else ""
            ),
            topic="moves",
        )
    )
