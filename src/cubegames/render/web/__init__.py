"""SVG drawings for the web app, one module per game, each made from one seat's view.

A game's drawing module is its own `web` part (`cubegames.kit.parts`: the module `web`
beside its game module, `cubegames.games.cubed.web` for CUBED), written with the helpers of
`cubegames.kit.svg`. A game with none (a plug-in game) is drawn by `generic`: the page's
generic table, with the game's own capabilities (`cubegames.core.capabilities`) where it has
them.

Every game's module has (the `Drawing` protocol):

- `svg(game, view, legal) -> str`: the table as `view["seat"]` sees it (`None`: a
  spectator), with `legal` (the viewer's legal moves, or none) pointed out;
- `info(game) -> dict`: what the page needs to know about the game that is not in a view
  (colour names and screen colours, piece shapes), sent once when a page connects;
- `words(game, move, mover, viewer) -> str`: a move in plain words, saying only what
  `viewer` may know (a CUBED piece kept from a draw3 draw stays secret from the others);
- optionally `described(game, move, mover, viewer[, earlier]) -> Phrase`: `words` as a
  `cubegames.core.phrase.Phrase`, a message of the catalogs and its parameters, which the
  page words in its reader's language (`str()` of it is `words`' English);
- optionally `tell(game, view) -> str | None`: the last move in fuller words (CUBES says
  what a roll did), and `told(game, view) -> Phrase | None`, the same as a phrase;
- optionally `hints(game, view) -> dict`: facts the page needs to draw `view` that only
  the engine can work out from it (CUBED: the cells where a piece may go and the dead
  cells), made from `view` alone; and optionally `state_hints(game, state)`, the same
  as `hints` of the state's public view, made faster from what the state keeps.

Drawings carry data attributes that the page maps to moves: `data-cell`, `data-node`,
`data-hand`, `data-move` (an element that plays that move when clicked). Every colour is
drawn with its letter, so nothing depends on telling colours apart.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol, cast, runtime_checkable

from cubegames.core.capabilities import conforms
from cubegames.core.game import Game, Move, State
from cubegames.core.phrase import Phrase
from cubegames.core.registry import make
from cubegames.kit import words as catalogs
from cubegames.kit.parts import part


class Drawing(Protocol):
    """What every drawing module has."""

    def svg(self, game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move]) -> str: ...
    def info(self, game: Game[Any]) -> dict[str, Any]: ...
    def words(self, game: Game[Any], move: str, mover: int, viewer: int | None) -> str: ...


@runtime_checkable
class Framed(Protocol):
    """A drawing module that names places on a frame set by the game's history
    (Unstackable's fixed board), so its words need the moves before the one told."""

    FRAMED: bool

    def words(
        self, game: Game[Any], move: str, mover: int, viewer: int | None, earlier: Sequence[str]
    ) -> str: ...

    def history_hints(self, game: Game[Any], moves: Sequence[str]) -> dict[str, Any]: ...


@runtime_checkable
class Describes(Protocol):
    """A drawing module that gives its words as phrases of the catalogs (`Phrase`; None
    where the words are a plug-in game's own)."""

    def described(
        self, game: Game[Any], move: str, mover: int, viewer: int | None
    ) -> Phrase | None: ...


@runtime_checkable
class DescribesFramed(Protocol):
    """`Describes` for a `Framed` module: its phrases need the moves before."""

    FRAMED: bool

    def described(
        self, game: Game[Any], move: str, mover: int, viewer: int | None, earlier: Sequence[str]
    ) -> Phrase: ...


@runtime_checkable
class Told(Protocol):
    """A drawing module that tells the last move in fuller words as a phrase."""

    def told(self, game: Game[Any], view: Mapping[str, Any]) -> Phrase | None: ...


@runtime_checkable
class Tells(Protocol):
    """A drawing module that tells the last move in fuller words."""

    def tell(self, game: Game[Any], view: Mapping[str, Any]) -> str | None: ...


@runtime_checkable
class Hints(Protocol):
    """A drawing module that works out hints for the page from a view."""

    def hints(self, game: Game[Any], view: Mapping[str, Any]) -> dict[str, Any] | None: ...


@runtime_checkable
class StateHints(Protocol):
    """A drawing module that works out the same hints faster from a state."""

    def state_hints(self, game: Game[Any], state: State[Any]) -> dict[str, Any] | None: ...


@runtime_checkable
class Secrets(Protocol):
    """A drawing module that says whether a viewer may read a move's notation."""

    def visible(self, game: Game[Any], move: str, mover: int, viewer: int | None) -> bool: ...


@functools.cache
def _module_of(game_id: str) -> Drawing:
    module = part(game_id, "web")
    if module is None:  # the generic table, with the game's own capabilities
        module = importlib.import_module("cubegames.render.web.generic")
    return cast(Drawing, module)


def _module(game: Game[Any]) -> Drawing:
    """The game's drawing module (found once: the server asks for it several times a move):
    its own `web` part, else `generic`."""
    return _module_of(game.id)


def generic(game: Game[Any]) -> bool:
    """Whether `game` is drawn by the generic table (it has no `web` part of its own)."""
    return cast(ModuleType, _module(game)).__name__ == "cubegames.render.web.generic"


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> str:
    """The SVG drawing of `view` by the game's own module."""
    module = _module(game)
    return module.svg(game, view, legal)


def info(game: Game[Any]) -> dict[str, Any]:
    """Static facts about `game` that its page needs (colours, shapes), JSON-able.

    `hidden_hands` (whether a screen where several seats are played hides each seat's table
    behind a pass-the-device screen) is the module's own where it says, else worked out by
    `private_views`: a plug-in's generic table must not show one seat's hand to the next."""
    facts = _module(game).info(game)
    if "hidden_hands" not in facts:
        facts = {**facts, "hidden_hands": private_views(game)}
    return facts


#: the random games `private_views` plays, and the most moves of each it looks at
PROBE_GAMES = 3
PROBE_MOVES = 200


def private_views(game: Game[Any]) -> bool:
    """Whether the seats of `game` ever see different things (a hand of their own): found
    in a few seeded random games, comparing every seat's view (less its `"seat"`) in each
    position. Worked out once per game and options.

    >>> import cubegames
    >>> private_views(cubegames.make("cubed", players=2)), private_views(cubegames.make("stakd"))
    (True, False)
    """
    return _private_views(game.id, json.dumps(game.options, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _private_views(game_id: str, options: str) -> bool:
    game = make(game_id, **json.loads(options))
    rng = random.Random(0)
    for seed in range(PROBE_GAMES):
        state = game.new_state(seed)
        for _ in range(PROBE_MOVES):
            first, *others = (
                {k: v for k, v in state.view(seat).items() if k != "seat"}
                for seat in range(game.players)
            )
            if any(view != first for view in others):
                return True
            if state.to_move is None:
                break
            state.play(rng.choice(state.legal_moves()))
    return False


def words(
    game: Game[Any], move: str, mover: int, viewer: int | None, earlier: Sequence[str] = ()
) -> str:
    """`move` (notation, played by seat `mover`) in words for seat `viewer` (None: a
    spectator); it says nothing `viewer` may not know. `earlier`, the moves before it,
    matters to a game that names places in a frame set by its history (`framed`)."""
    module = _module(game)
    if conforms(module, Framed):
        return cast(Framed, module).words(game, move, mover, viewer, earlier)
    return module.words(game, move, mover, viewer)


def described(
    game: Game[Any], move: str, mover: int, viewer: int | None, earlier: Sequence[str] = ()
) -> Phrase | None:
    """`words` as a phrase of the catalogs (None for a game whose module gives none: a
    plug-in's words are its own, in the language it writes)."""
    module = _module(game)
    if conforms(module, DescribesFramed) and conforms(module, Framed):
        return cast(DescribesFramed, module).described(game, move, mover, viewer, earlier)
    if conforms(module, Describes):
        return cast(Describes, module).described(game, move, mover, viewer)
    return None


def worded(
    game: Game[Any], move: str, mover: int, viewer: int | None, earlier: Sequence[str] = ()
) -> tuple[str, Phrase | None]:
    """`words` and `described` at once, the move worded once: where the module gives a
    phrase, its English is the words (every module's `words` is the English of its
    `described`); else `words`, and no phrase."""
    phrase = described(game, move, mover, viewer, earlier)
    if phrase is not None:
        return str(phrase), phrase
    return words(game, move, mover, viewer, earlier), None


def said(phrase: Phrase | None) -> list[Any] | None:
    """A phrase as the protocol sends it (`[key, params]`), or None. A phrase inside
    carries its English only where the catalogs lack its key (a colour of a home-made
    edition): the page words the others from its catalogs."""
    return None if phrase is None else phrase.said(known=_known)


#: whether the catalogs have a key (read once; bounded: a home-made edition names its own)
_known = functools.lru_cache(maxsize=4096)(catalogs.has)


def framed(game: Game[Any]) -> bool:
    """Whether `words` needs the moves before the one it tells (Unstackable's places are
    named on a board fixed by its first cube)."""
    return conforms(_module(game), Framed)


def history_hints(game: Game[Any], moves: Sequence[str]) -> dict[str, Any]:
    """What the page needs from the moves so far to name places as `words` does (the
    Unstackable board's `frame`); empty for other games."""
    module = _module(game)
    return cast(Framed, module).history_hints(game, moves) if conforms(module, Framed) else {}


def tell(game: Game[Any], view: Mapping[str, Any]) -> str | None:
    """What the last move did, in words, when the game can say more than `words` (CUBES
    explains its rolls); None otherwise."""
    module = _module(game)
    return cast(Tells, module).tell(game, view) if conforms(module, Tells) else None


def told(game: Game[Any], view: Mapping[str, Any]) -> Phrase | None:
    """`tell` as a phrase of the catalogs (None where `tell` is, or the module has none)."""
    module = _module(game)
    return cast(Told, module).told(game, view) if conforms(module, Told) else None


def telling(game: Game[Any], view: Mapping[str, Any]) -> tuple[str | None, list[Any] | None]:
    """`tell` in English and as the protocol sends its phrase (`said`): both None where the
    game tells nothing more than its moves' words, the phrase None for a plug-in's own."""
    phrase = told(game, view)
    if phrase is not None:
        return str(phrase), said(phrase)
    return tell(game, view), None


def hints(game: Game[Any], view: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the page needs besides `view` to draw it (None for games that need nothing)."""
    module = _module(game)
    return cast(Hints, module).hints(game, view) if conforms(module, Hints) else None


def state_hints(game: Game[Any], state: State[Any]) -> dict[str, Any] | None:
    """`hints(game, state.public_view())`, by the game module's faster `state_hints` where
    it has one (made from what the state keeps, never from anything a seat cannot see)."""
    module = _module(game)
    if conforms(module, StateHints):
        return cast(StateHints, module).state_hints(game, state)
    if not conforms(module, Hints):
        return None  # (no public view made for nothing)
    return cast(Hints, module).hints(game, state.public_view())


def tells(game: Game[Any]) -> bool:
    """Whether the game's module has `tell` (so `tell` can be skipped for the others)."""
    return conforms(_module(game), Tells)


def visible(game: Game[Any], move: str, mover: int, viewer: int | None) -> bool:
    """Whether `viewer` may read `move`'s notation (its words are always safe to show)."""
    module = _module(game)
    if conforms(module, Secrets):
        return cast(Secrets, module).visible(game, move, mover, viewer)
    return True
