"""What the simulator's lab asks of a game, and what it does for a game that says nothing.

A game's `lab` part (`cubegames.kit.parts`: the module `lab` beside its game module,
`cubegames.games.cubed.lab` for CUBED) tells the simulator's reports (`cubegames.sim.moves`,
`cubegames.sim.metrics`, docs/lab.md) what only the game knows. Each capability below is a
`typing.Protocol` the module may meet, each on its own; the functions of this module ask the
game's part with `isinstance` and fall back on the generic answer where it has none:

- `MoveKinds`: `kinds(game)`, `kind(game, seat, text, last)` and `kind_name(kind)`, the
  kinds of move counted per seat and bot; without it, no counts;
- `Variants`: `distinctive(options)`, the kind of move that shows each variant in use (the
  report warns when a bot never plays it); without it, no warning;
- `Standing`: `standing(game, state)` and `scale(game)`, each seat's standing (higher is
  better) and how far ahead is far, for its evaluation; without it, the game's `scores()`
  (negated for a game whose lower score is better) and a scale of 1;
- `Coverage`: `coverage(game, state)`, the share of the game's room used by the end;
  without it, none;
- `Batches`: `batcher(game)`, a `Batcher` playing many random-bot games at once in a
  compiled kernel and giving their records; without it, the simulator plays them one by
  one.

Kinds are read from a move's notation (the rules' documented text), the seat that played it
and the previous move (`last`: its seat and kind), never from the engine's insides.

>>> import cubegames
>>> kinds(cubegames.make("cubed", variants=("draw3",)))
('place', 'draw', 'pass', 'draw3', 'keep')
>>> scale(cubegames.make("stakd"))
0.5
>>> kind_name("cubes", "roll"), kind_name("chess", "castle")
('rolls', 'castle moves')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from cubegames.core.game import Game, State
from cubegames.kit.parts import part

#: a move as `kind` remembers the one before it: its seat and its kind
Last = tuple[int, str] | None


@runtime_checkable
class MoveKinds(Protocol):
    """A lab part that sorts moves into kinds."""

    def kinds(self, game: Game[Any]) -> tuple[str, ...]:
        """The kinds of move `game` (with its options) offers, in a fixed order."""
        ...

    def kind(self, game: Game[Any], seat: int, text: str, last: Last) -> str:
        """The kind of the move written `text` played by `seat`, `last` the move before it
        (None at the start)."""
        ...

    def kind_name(self, kind: str) -> str:
        """A kind as a reader of a report sees it, in the plural ("bonus placements")."""
        ...


@runtime_checkable
class Variants(Protocol):
    """A lab part whose variants each add a kind of move."""

    def distinctive(self, options: Mapping[str, Any]) -> dict[str, str]:
        """The kind of move that shows each of a setting's variants in use, by variant."""
        ...


@runtime_checkable
class Standing(Protocol):
    """A lab part with its own heuristic of who is ahead."""

    def standing(self, game: Game[Any], state: State[Any]) -> list[float]:
        """Each seat's standing, higher is better."""
        ...

    def scale(self, game: Game[Any]) -> float:
        """How far ahead (in standing) a seat must be for its evaluation to reach about
        73%, the logistic's value at 1: a scale of points, rounds or chips."""
        ...


@runtime_checkable
class Coverage(Protocol):
    """A lab part that says how much of the game's room a game used."""

    def coverage(self, game: Game[Any], state: State[Any]) -> float | None:
        """The share of the game's room used by the end of `state` (None: no room)."""
        ...


class Batcher(Protocol):
    """Random-bot games of one set of options played many at a time (a compiled kernel)."""

    #: the largest match seed it covers (its seats' bots are seeded `seed * 1000 + seat`)
    max_seed: int

    def records(self, seeds: Sequence[int]) -> list[dict[str, Any]]:
        """Each game's simulation record (as `cubegames.sim.play.play_match` makes it), but
        its `game`, `options` and `bots`, which the simulator adds."""
        ...


@runtime_checkable
class Batches(Protocol):
    """A lab part that plays the random bot's games many at a time."""

    def batcher(self, game: Game[Any]) -> Batcher | None:
        """The batch player of `game`'s options (None where the kernel does not cover
        them)."""
        ...


def _lab(game_id: str) -> object:
    return part(game_id, "lab")


def kinds(game: Game[Any]) -> tuple[str, ...]:
    """The kinds of move counted for `game`; none without `MoveKinds`."""
    module = _lab(game.id)
    return module.kinds(game) if isinstance(module, MoveKinds) else ()


def kind(game: Game[Any], seat: int, text: str, last: Last) -> str:
    """The kind of a move (`MoveKinds`); without it, the first word of its notation."""
    module = _lab(game.id)
    if isinstance(module, MoveKinds):
        return module.kind(game, seat, text, last)
    return text.split(maxsplit=1)[0] if text.strip() else text


def kind_name(game_id: str, kind: str) -> str:
    """A kind as a reader sees it (`MoveKinds`); without it, "<kind> moves"."""
    module = _lab(game_id)
    if isinstance(module, MoveKinds):
        return module.kind_name(kind)
    return f"{kind.replace('_', ' ')} moves"


def distinctive(game_id: str, options: Mapping[str, Any]) -> dict[str, str]:
    """The kind of move that shows each of a setting's variants in use (`Variants`); none
    without it."""
    module = _lab(game_id)
    return module.distinctive(options) if isinstance(module, Variants) else {}


def standing(game: Game[Any], state: State[Any]) -> list[float]:
    """Each seat's standing, higher is better (`Standing`); without it, the game's scores,
    turned to be higher-is-better for a game whose lower score is better."""
    module = _lab(game.id)
    if isinstance(module, Standing):
        return module.standing(game, state)
    sign = -1.0 if game.info.score_better == "lower" else 1.0
    return [sign * float(s) for s in state.scores()]


def scale(game: Game[Any]) -> float:
    """The scale of the game's evaluation (`Standing`); 1 without it."""
    module = _lab(game.id)
    return float(module.scale(game)) if isinstance(module, Standing) else 1.0


def coverage(game: Game[Any], state: State[Any]) -> float | None:
    """The share of the game's room used by the end (`Coverage`); None without it."""
    module = _lab(game.id)
    return module.coverage(game, state) if isinstance(module, Coverage) else None


def batcher(game: Game[Any]) -> Batcher | None:
    """The game's batch player for random-bot games (`Batches`); None without one: the
    simulator plays them one by one."""
    module = _lab(game.id)
    return module.batcher(game) if isinstance(module, Batches) else None
