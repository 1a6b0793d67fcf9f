"""Which games exist, and `make` to build one by id.

Games are found through the Python entry-point group `cubegames.games`: each entry's name
is a game id and its value `module:GameClass`. The built-in four are declared that way in
this project's `pyproject.toml`, so a game in any other installed package is a game like
them (see docs/plugins.md). Nothing is imported until a game is used: `GAMES` reads only
the installed packages' metadata.

A game class that declares no facts (`info = GameInfo(...)`), written to the bare `Game`
contract, gets facts worked out from the class (`_derived_facts`). A plug-in that cannot be
loaded (its module fails to import, or its value is not a `Game` class) breaks only itself:
making it raises `PluginError` saying why, and the parts that list every game (`games()`:
the start page, the conformance test) warn and leave it out.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
import warnings
from collections.abc import Sequence
from importlib import metadata
from typing import Any

from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, create_model

from cubegames.core.errors import briefly, cut, shown
from cubegames.core.game import Game
from cubegames.core.info import GameInfo
from cubegames.core.options import check_options, from_text, unknown_option
from cubegames.core.phrase import Worded

#: the entry-point group games are registered in
GROUP = "cubegames.games"

#: games in the order people meet them; any other registered game follows alphabetically
_PREFERRED = ("cubed", "unstackable", "stakd", "cubes")

#: what a game id may look like (it is written in URLs, files and command lines)
_ID = re.compile(r"[a-z][a-z0-9_]{0,31}")


class PluginError(Worded):
    """A registered game that cannot be loaded; the message names the game and why, and
    is worded by its catalog code (`error-plugin-…`) in the reader's language.
    `PluginError(message)` alone (an adapter's own words) is carried as it is.

    >>> str(PluginError("game 'x' is broken")), PluginError("game 'x' is broken").phrase.key
    ("game 'x' is broken", 'error-plugin')
    """

    def __init__(self, key: str, english: str | None = None, /, **params: Any) -> None:
        if english is None:  # an adapter's own words, carried as they are
            super().__init__("error-plugin", key, error=key)
        else:
            super().__init__(key, english, **params)


class PluginWarning(UserWarning):
    """A registered game left out of a listing because it cannot be loaded."""


def _entry_points() -> tuple[dict[str, metadata.EntryPoint], dict[str, PluginError]]:
    """The registered games by id, and why each registration left out was (by its name):
    an id that is not a lower-case word, or one another package took first. Nothing is
    said here (importing cubegames never warns): `games()` warns of each, and `make` names
    why a left-out id is not a game."""
    found: dict[str, metadata.EntryPoint] = {}
    left_out: dict[str, PluginError] = {}
    for entry in metadata.entry_points(group=GROUP):
        known = found.get(entry.name)
        name, value = shown(entry.name, 40), cut(entry.value, 80)
        if not _ID.fullmatch(entry.name):
            left_out[entry.name] = PluginError(
                "error-plugin-bad-id",
                f"game id {name} ({value}) is not a lower-case word "
                "([a-z][a-z0-9_]*, at most 32 characters); left out",
                game=name,
                entry=value,
            )
        elif known is not None and known.value != entry.value:
            left_out[f"{entry.name} {entry.value}"] = PluginError(
                "error-plugin-twice",
                f"game {name} is registered twice ({known.value} and {value}); using {known.value}",
                game=name,
                first=known.value,
                second=value,
            )
        else:
            found.setdefault(entry.name, entry)
    return found, left_out


_ENTRIES, _LEFT_OUT = _entry_points()


def _order(ids: set[str]) -> tuple[str, ...]:
    first = [g for g in _PREFERRED if g in ids]
    return (*first, *sorted(ids - set(first)))


#: ids of every registered game: the built-in four first, then the others alphabetically
GAMES: tuple[str, ...] = _order(set(_ENTRIES))


@functools.cache
def _load(game_id: str) -> type[Game[Any]] | PluginError:
    """The class of a registered game, or the error saying why it cannot be loaded (kept,
    so a broken plug-in is imported once, not once per call)."""
    entry = _ENTRIES[game_id]
    where = f"game {game_id!r} ({cut(entry.value, 80)})"
    named = {"game": game_id, "entry": cut(entry.value, 80)}
    try:
        cls = entry.load()
    except Exception as exc:  # a plug-in's import may fail in any way; it stays its own
        error = briefly(exc)
        return PluginError(
            "error-plugin-unloadable", f"{where} cannot be loaded: {error}", error=error, **named
        )
    if not isinstance(cls, type) or not issubclass(cls, Game):
        return PluginError(
            "error-plugin-not-game", f"{where} is not a cubegames Game class", **named
        )
    facts = cls.__dict__.get("info")
    if not isinstance(facts, GameInfo):
        try:
            facts = _derived_facts(game_id, cls)
        except Exception as exc:  # the class's own code (its constructor) may fail anyhow
            error = briefly(exc, kind=False)
            return PluginError(
                "error-plugin-no-facts",
                f"{where} declares no facts and none can be worked out: {error}",
                error=error,
                **named,
            )
        cls.info = facts
        # the options its constructor takes, where the class names none (`option_names`
        # is optional for a bare class, and the command line and simulator read it)
        cls.option_names = tuple(facts.options.model_fields)
    if getattr(cls, "id", game_id) != game_id or facts.id != game_id:
        other = shown(cls.id if getattr(cls, "id", game_id) != game_id else facts.id, 40)
        return PluginError(
            "error-plugin-other-id",
            f"{where} calls itself {other}, not {game_id!r}",
            other=other,
            **named,
        )
    cls.id = game_id
    return cls


def _derived_facts(game_id: str, cls: type[Game[Any]]) -> GameInfo:
    """Facts for a game class that declares none (written to the bare `Game` contract): the
    options are its `option_names` (else its constructor's keyword arguments), each typed
    by its default (a whole number, true/false, text or a list; the game checks the rest);
    the title is its `title` attribute or class name, the pitch its docstring's first line."""
    params = inspect.signature(cls.__init__).parameters
    names = getattr(cls, "option_names", None)
    if not isinstance(names, tuple | list):
        names = [
            p.name
            for p in list(params.values())[1:]
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]
    fields: dict[str, Any] = {}
    for name in names:
        param = params.get(name)
        default = None if param is None or param.default is param.empty else param.default
        kind: Any = Any
        if isinstance(default, bool):
            kind = StrictBool
        elif isinstance(default, int):
            kind = StrictInt
        elif isinstance(default, str):
            kind = StrictStr
        elif isinstance(default, list | tuple):
            kind = Sequence[Any]
        fields[name] = (kind, Field(default, title=name.replace("_", " ").capitalize()))
    model = create_model(f"{cls.__name__}Options", __config__=ConfigDict(extra="forbid"), **fields)
    if "players" in names:
        low, high = 1, 16  # the game's constructor says which
    else:
        low = high = cls().players
    title = getattr(cls, "title", None)
    doc = (cls.__doc__ or "").strip().splitlines()
    return GameInfo(
        id=game_id,
        title=title if isinstance(title, str) else cls.__name__,
        pitch=doc[0] if doc else "",
        min_players=low,
        max_players=high,
        options=model,
        parts=False,
    )


def game_class(game_id: str) -> type[Game[Any]]:
    """The class behind a game id; ValueError for an unknown id, `PluginError` (a
    ValueError) for a registered game that cannot be loaded."""
    if not isinstance(game_id, str) or game_id not in _ENTRIES:
        if isinstance(game_id, str) and game_id in _LEFT_OUT:
            raise _LEFT_OUT[game_id]
        raise Worded(
            "error-game-unknown",
            f"unknown game {shown(game_id)}; choose from {', '.join(GAMES)}",
            game=cut(game_id, 40),
            games=", ".join(GAMES),
        )
    found = _load(game_id)
    if isinstance(found, PluginError):
        raise found
    return found


def package(game_id: str) -> str | None:
    """The package holding a game's own parts (`cubegames.kit.parts`): the package of the
    module of its registered class, or None for a game that has no parts there (its facts
    say `parts=False`, or its module is in no package) and for a game class made outside
    the registry.

    >>> package("cubed"), package("chess")
    ('cubegames.games.cubed', None)
    """
    if game_id not in _ENTRIES:
        return None
    cls = game_class(game_id)
    if not cls.info.parts:
        return None
    module = sys.modules.get(cls.__module__)
    return (module.__package__ or None) if module is not None else None


def built_in(game_id: str) -> bool:
    """Whether a game is one of this package's own (whose rules pages this package holds),
    not a plug-in; read without loading the game.

    >>> built_in("stakd"), built_in("chess")
    (True, False)
    """
    entry = _ENTRIES.get(game_id)
    return entry is not None and entry.module.startswith("cubegames.games.")


def info(game_id: str) -> GameInfo:
    """The facts of a game (`GameInfo`), declared at the top of its game module."""
    return game_class(game_id).info


def left_out() -> tuple[PluginError, ...]:
    """Why each registration left out of `GAMES` was: an id that is not a lower-case word,
    or one another package registered first (() when there is none).

    >>> left_out()
    ()
    """
    return tuple(_LEFT_OUT.values())


def games() -> list[GameInfo]:
    """The facts of every game that loads, in `GAMES` order; a `PluginWarning` names each
    registered game that does not (it is left out, the others stay), and each registration
    left out of `GAMES` (an id that is not a lower-case word, or taken by another package)."""
    for why in left_out():
        warnings.warn(str(why), PluginWarning, stacklevel=2)
    out = []
    for game_id in GAMES:
        found = _load(game_id)
        if isinstance(found, PluginError):
            warnings.warn(str(found), PluginWarning, stacklevel=2)
            continue
        out.append(found.info)
    return out


def title(game_id: str) -> str:
    """A game's title for people, or its id for a game that is not (or no longer)
    registered, such as one in an old record.

    >>> title("unstackable"), title("chess")
    ('Unstackable', 'chess')
    """
    try:
        return info(game_id).title
    except ValueError:
        return game_id


def lower_is_better(game_id: str) -> bool:
    """Whether a lower score is better in a game (CUBED counts penalty points); False for
    a game that is not registered.

    >>> lower_is_better("cubed"), lower_is_better("cubes")
    (True, False)
    """
    try:
        return info(game_id).score_better == "lower"
    except ValueError:
        return False


def make(game_id: str, **options: Any) -> Game[Any]:
    """Build a game by id with its options.

    >>> game = make("cubed", players=3, variants=("bridging",))
    >>> game.players
    3
    >>> make("cubed", colour="red")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cubegames.core.phrase.Worded: cubed has no option 'colour'; it takes players, edition, ...
    >>> try:
    ...     make("cubed", rounds=0)
    ... except ValueError as exc:  # also worded by code for the page (`core.phrase.Worded`)
    ...     print(exc, exc.phrase.key)
    rounds must be from 1 to 10 error-option-range
    """
    cls = game_class(game_id)
    check_options(game_id, cls.info.options, options)
    return cls(**options)


def game_from_dict(data: Any) -> Game[Any]:
    """The game a position file belongs to, from its "game" and "options" fields."""
    if not isinstance(data, dict):
        raise ValueError("a position must be a JSON object")
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise ValueError('field "game": missing or not a string')
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ValueError('field "options": must be an object')
    try:
        return make(game_id, **options)
    except PluginError:
        raise
    except TypeError as exc:  # an option of the wrong kind
        raise ValueError(f'field "options": {exc}') from None


def options_from_text(
    game_id: str, pairs: Sequence[str], players: int | None = None
) -> dict[str, Any]:
    """Game options from `key=value` texts (a command line's `-o rounds=1`), each read the way
    the game's options model reads it; ValueError names a malformed pair or an unknown option.

    >>> options_from_text("cubed", ["rounds=1", "variants=bridging,void"], players=3)
    {'rounds': 1, 'variants': ['bridging', 'void'], 'players': 3}
    >>> options_from_text("cubed", ["rounds"])
    Traceback (most recent call last):
    ...
    cubegames.core.phrase.Worded: --option 'rounds': write it as key=value
    >>> options_from_text("cubed", ["rounds=1", "rounds=3"])
    Traceback (most recent call last):
    ...
    cubegames.core.phrase.Worded: --option rounds is given twice; give it once
    """
    cls = game_class(game_id)
    options: dict[str, Any] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            raise Worded(
                "error-option-pair", f"--option {shown(pair)}: write it as key=value", pair=pair
            )
        if key not in cls.option_names:
            raise unknown_option(game_id, key, cls.option_names)
        read = option_value(key, value, cls)
        if key in options and options[key] != read:
            # a second value would silently replace the first (-o variants=void after
            # -o variants=bridging drops bridging): say so instead
            raise Worded(
                "error-option-twice",
                f"--option {key} is given twice; give it once",
                option=key,
            )
        options[key] = read
    if players is not None:
        if options.get("players", players) != players:
            raise Worded(
                "error-players-twice",
                f"--players {players} and --option players={options['players']} disagree: "
                "give one of them",
                players=players,
                option=options["players"],
            )
        options["players"] = players
    return options


def option_value(key: str, text: str, cls: type[Game[Any]] | None = None) -> Any:
    """An option's value as typed: read by the kind the game's options model gives it, or
    without a game as a list (`variants`), true/false, a whole number or else text."""
    if cls is not None:
        return from_text(cls.info.options, key, text)
    if key == "variants":
        return [v for v in text.split(",") if v]
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text
