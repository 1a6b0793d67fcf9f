"""How often each kind of move was played, per seat and per bot, and a warning when a
setting's distinctive moves (a variant's) were never or almost never played.

A study of a variant measures nothing if the bots never make the variant's moves: 2,000
`draw3` games of a greedy bot that never draws three are the plain game. The simulator
counts every move by kind into the row (`kind_<kind>_s<seat>`); the report sums them per bot
and says so, in words at the top, when a variant's moves are (almost) absent.

Kinds are read from the move's notation (the rules' documented text) and the seat that
played the move before, never from the engine's insides:

- `cubed`: `place`, `draw`, `pass`; `bonus_place` (`bridging`: a placement straight after
  the same seat's placement, the bonus), `draw3` and `keep` (`draw3`), `give` and `skip`
  (`void`: what follows a placement that filled a void).
- `unstackable`: `stack`, `end` (a turn ended early), `unstack`.
- `stakd`: the type of the piece laid (`base`, `uni`, `duo`, `trio`, `quad`, `bomber`).
- `cubes`: `roll`.

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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cubegames.core.game import Game

if TYPE_CHECKING:
    from cubegames.sim.analysis import Setting

#: the prefix of the kind columns of a row
PREFIX = "kind_"
#: a variant's moves played in fewer than this share of a bot's games count as "almost never"
RARE = 0.05

#: CUBED: the kind of move that shows each variant in use
CUBED_DISTINCTIVE = {"bridging": "bonus_place", "void": "give", "draw3": "draw3"}


def kinds_of(game: Game[Any]) -> tuple[str, ...]:
    """The kinds of move `game` (with its options) offers, in a fixed order."""
    if game.id == "cubed":
        variants = set(game.options.get("variants", ()))
        out = ["place", "draw", "pass"]
        if "bridging" in variants:
            out.append("bonus_place")
        if "draw3" in variants:
            out += ["draw3", "keep"]
        if "void" in variants:
            out += ["give", "skip"]
        return tuple(out)
    if game.id == "unstackable":
        return ("stack", "end", "unstack")
    if game.id == "stakd":
        return ("base", "uni", "duo", "trio", "quad", "bomber")
    if game.id == "cubes":
        return ("roll",)
    return ()


def distinctive(game: str, options: Mapping[str, Any]) -> dict[str, str]:
    """The kinds of move that show each of a setting's variants in use, by variant."""
    if game != "cubed":
        return {}
    return {v: CUBED_DISTINCTIVE[v] for v in options.get("variants", ()) if v in CUBED_DISTINCTIVE}


class MoveKinds:
    """Counts the moves of one game by kind and seat; `note` each move as it is played."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game.id
        self.kinds = kinds_of(game)
        self.counts = {(k, s): 0 for s in range(game.players) for k in self.kinds}
        self._last: tuple[int, str] | None = None

    def kind(self, seat: int, text: str) -> str:
        """The kind of the move written `text`, played by `seat`."""
        word = text.split(":", 1)[0].split("@", 1)[0]
        if self.game == "cubed":
            if "@" in text:
                bonus = self._last == (seat, "place") or self._last == (seat, "bonus_place")
                return "bonus_place" if bonus and "bonus_place" in self.kinds else "place"
            return word
        if self.game == "unstackable":
            return "stack" if "@" in text else "end" if text == "end" else "unstack"
        if self.game == "stakd":
            return word.lower()
        return word

    def note(self, seat: int, text: str) -> None:
        """Count the move written `text` just played by `seat`."""
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
    special = distinctive(setting.game, setting.options)
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
                    f"Warning: {bot} {how} played {_name(kind)}{seen}, the move the "
                    f"{variant} variant adds: what this setting shows about {variant} with "
                    f"{bot} is {close}the game without it."
                )
    setting.headline[:0] = warnings
    setting.tables.append(
        Table(
            "Moves played by kind",
            ["bot", "seat-games", *(_name(k) for k in kinds)],
            rows,
            "Moves of each kind per game a bot played, and (in brackets) their share of "
            "its moves. "
            + (
                "Variant moves: " + ", ".join(f"{_name(k)} ({v})" for v, k in special.items()) + "."
                if special
                else ""
            ),
            topic="moves",
        )
    )


def _name(kind: str) -> str:
    """A kind as a reader sees it: `bonus_place` is "bonus placements"."""
    return {
        "bonus_place": "bonus placements",
        "place": "placements",
        "draw": "draws",
        "pass": "passes",
        "draw3": "draw-3s",
        "keep": "keeps",
        "give": "gifts",
        "skip": "skipped gifts",
        "stack": "cubes stacked",
        "end": "turns ended early",
        "unstack": "cubes removed",
        "roll": "rolls",
    }.get(kind, f"{kind.upper()} pieces")
