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

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

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


@functools.cache
def _meets(game_id: str, protocol: type[Any]) -> object | None:
    """The game's lab part if it meets `protocol`, else None (asked once per game: a
    protocol's `isinstance` costs microseconds, and the simulator asks at every move)."""
    module = part(game_id, "lab")
    return module if isinstance(module, protocol) else None


def _kinds(game_id: str) -> MoveKinds | None:
    return cast(MoveKinds | None, _meets(game_id, MoveKinds))


def _variants(game_id: str) -> Variants | None:
    return cast(Variants | None, _meets(game_id, Variants))


def _standing(game_id: str) -> Standing | None:
    return cast(Standing | None, _meets(game_id, Standing))


def _coverage(game_id: str) -> Coverage | None:
    return cast(Coverage | None, _meets(game_id, Coverage))


def _batches(game_id: str) -> Batches | None:
    return cast(Batches | None, _meets(game_id, Batches))


def kinds(game: Game[Any]) -> tuple[str, ...]:
    """The kinds of move counted for `game`; none without `MoveKinds`."""
    module = _kinds(game.id)
    return () if module is None else module.kinds(game)


def kind(game: Game[Any], seat: int, text: str, last: Last) -> str:
    """The kind of a move (`MoveKinds`); without it, the first word of its notation."""
    module = _kinds(game.id)
    if module is not None:
        return module.kind(game, seat, text, last)
    return text.split(maxsplit=1)[0] if text.strip() else text


def kind_name(game_id: str, kind: str) -> str:
    """A kind as a reader sees it (`MoveKinds`); without it, "<kind> moves"."""
    module = _kinds(game_id)
    if module is not None:
        return module.kind_name(kind)
    return f"{kind.replace('_', ' ')} moves"


def distinctive(game_id: str, options: Mapping[str, Any]) -> dict[str, str]:
    """The kind of move that shows each of a setting's variants in use (`Variants`); none
    without it."""
    module = _variants(game_id)
    return {} if module is None else module.distinctive(options)


def standing(game: Game[Any], state: State[Any]) -> list[float]:
    """Each seat's standing, higher is better (`Standing`); without it, the game's scores,
    turned to be higher-is-better for a game whose lower score is better."""
    module = _standing(game.id)
    if module is not None:
        return module.standing(game, state)
    sign = -1.0 if game.info.score_better == "lower" else 1.0
    return [sign * float(s) for s in state.scores()]


def scale(game: Game[Any]) -> float:
    """The scale of the game's evaluation (`Standing`); 1 without it."""
    module = _standing(game.id)
    return 1.0 if module is None else float(module.scale(game))


def coverage(game: Game[Any], state: State[Any]) -> float | None:
    """The share of the game's room used by the end (`Coverage`); None without it."""
    module = _coverage(game.id)
    return None if module is None else module.coverage(game, state)


def batcher(game: Game[Any]) -> Batcher | None:
    """The game's batch player for random-bot games (`Batches`); None without one: the
    simulator plays them one by one."""
    module = _batches(game.id)
    return None if module is None else module.batcher(game)
