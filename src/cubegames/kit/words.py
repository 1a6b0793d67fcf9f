"""The project's words in the reader's language, for every client that is not the page: the
web server's answers and the terminal (`cubegames play`).

The catalogs are the page's own: `server/static/locales/<lang>.ftl` (read as data files,
so this module imports nothing of the server), in Project Fluent's syntax (plural and
parameter rules, read here by `fluent.runtime` with Babel's locale data, on the page by the
vendored `@fluent/bundle` with the browser's Intl). docs/i18n.md tells how to add a
language.

>>> say("ja", "error-no-seat", seat=3)
'席3はありません'
>>> say("en", "error-file-too-large", bytes=1048576)
'the file is too large: at most 1,048,576 bytes'

A duration (a `timedelta` parameter) is written by Babel in the language's own words:

>>> say("ja", "error-too-many-games", count=20, wait=timedelta(seconds=30))
'このアドレスからのゲーム作成が多すぎます（1分間に20件まで）。30 秒後にやり直してください'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from babel.dates import format_timedelta
from babel.lists import format_list
from fluent.runtime import FluentBundle, FluentResource

from cubegames.core.errors import Refusal
from cubegames.core.phrase import Param, Phrase
from cubegames.kit.parts import part

LOCALES = Path(__file__).resolve().parent.parent / "server" / "static" / "locales"
#: the languages with a catalog, the first one the fallback for a message another lacks
LANGUAGES = ("en", "ja")
DEFAULT = LANGUAGES[0]


@functools.cache
def bundle(lang: str) -> FluentBundle:
    """The catalog of `lang` (one of LANGUAGES), read once."""
    made = FluentBundle([lang], use_isolating=False)
    made.add_resource(FluentResource((LOCALES / f"{lang}.ftl").read_text("utf-8")))
    return made


def has(key: str) -> bool:
    """Whether the catalogs have a message `key`."""
    return bundle(DEFAULT).has_message(key)


#: the most characters of a text parameter a message shows (Fluent refuses a placeable of
#: more than 1,000: a refusal naming a 5,000-character game id in the address is worded
#: with its first characters)
MAX_PARAMETER = 200


#: numbers from this size on are shown as their digits, not by the language's rules (whose
#: rounding, in Babel's decimals of 28 digits, fails on a seat number of 10**26 that a
#: request named)
MAX_WORDED_NUMBER = 10**15


def _shown(value: Any, locale: str) -> Any:
    """A parameter as a message shows it: a duration in words, a long text cut short, a
    number too large (or not finite) to be worded as its digits."""
    if isinstance(value, timedelta):
        return format_timedelta(value, locale=locale, threshold=2)
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and (not math.isfinite(value) or abs(value) >= MAX_WORDED_NUMBER):
        value = str(value)
    if isinstance(value, str) and len(value) > MAX_PARAMETER:
        return value[: MAX_PARAMETER - 1] + "…"
    return value


def say(lang: str, key: str, /, **args: Any) -> str:
    """The message `key` in `lang`, its parameters filled in (numbers by the language's
    rules, a `timedelta` as the language says a duration, a text of more than
    `MAX_PARAMETER` characters cut short); English where `lang` lacks it. A key no catalog
    has is a programming error (KeyError).

    >>> say("en", "error-no-game", game="x" * 5000).count("x")
    199
    >>> say("en", "error-no-seat", seat=10**26)
    'there is no seat 100000000000000000000000000'
    """
    for name in (lang, DEFAULT) if lang in LANGUAGES else (DEFAULT,):
        catalog = bundle(name)
        if catalog.has_message(key):
            message = catalog.get_message(key)
            if message.value is None:
                raise KeyError(f"message {key!r} has no value")
            filled = {k: _shown(v, name) for k, v in args.items()}
            text, errors = catalog.format_pattern(message.value, filled)
            if errors:
                raise KeyError(f"message {key!r}: {errors[0]}")
            return str(text)
    raise KeyError(f"no message {key!r} in the catalogs")


def phrase(lang: str, said: Sequence[Any], name: Callable[[int], str] | None = None) -> str:
    """A phrase as the protocol sends it (`[key, params]`, `cubegames.core.phrase.Phrase.
    said()`) worded in `lang` as the page words it (static/i18n.js `phrase`): each seat
    named by `name` (by default "Seat N"), `<param>-you` "yes" where that name is the
    language's "you", a phrase inside worded first (its English where no catalog has its
    key: a colour of a home-made edition).

    >>> phrase("ja", ["words-cubed-drew", {"who": {"seat": 1}}])
    '席1がピースを1個引きました。'
    """
    return _phrase(lang, said, name or (lambda n: say(lang, "seat-label", seat=n)))


def _phrase(lang: str, said: Sequence[Any], name: Callable[[int], str]) -> str:
    key, params = said
    args: dict[str, Any] = {}
    you = say(lang, "seat-you")
    for k, v in params.items():
        if isinstance(v, dict) and "seat" in v:
            args[k] = name(v["seat"])
            args[f"{k}-you"] = "yes" if args[k] == you else "no"
        elif isinstance(v, dict) and "seats" in v:
            names = [name(s) for s in v["seats"]]
            args[k] = format_list(names, locale=lang)
            args[f"{k}-count"] = len(names)
            args[f"{k}-you"] = "yes" if names == [you] else "no"
        elif isinstance(v, dict) and "say" in v:
            inner = v["say"]
            known = any(bundle(n).has_message(inner[0]) for n in LANGUAGES)
            args[k] = _phrase(lang, inner, name) if known else v.get("text", inner[0])
        else:
            args[k] = v
    return say(lang, key, **args)


#: codes a rule's refusal shares with every game (static/refusals.js): a move that cannot
#: be read, and the turn and the end, which the server's own refusals word
_UNREADABLE = ("unreadable", "not-a-move")
_SHARED = ("turn", "over")


@runtime_checkable
class RefusalWords(Protocol):
    """A game's `web` part that names its own things in a refusal's parameters."""

    def refusal_params(
        self, code: str, params: Mapping[str, Any], palette: Mapping[str, Any]
    ) -> dict[str, Param]:
        """The parameters of a refusal `code` that name a thing of the game (a colour, by
        the game's `palette`), as phrases of the catalogs; the others are left out."""
        ...


def refusal(lang: str, game: str, reason: Refusal, palette: Mapping[str, Any] | None = None) -> str:
    """A rule's reason for refusing a move (`IllegalMove.refusal`) in `lang`, by its code
    and parameters as the page words it (static/refusals.js `friendly`; `refused`).

    >>> refusal("ja", "cubed", Refusal("pass-before-draw", "you may pass only after drawing"))
    '先にピースを引いてください。パスできるのは引いたあとか、バッグが空のときだけです。'
    """
    return phrase(lang, refused(game, reason, palette).said())


def refused(game: str, reason: Refusal, palette: Mapping[str, Any] | None = None) -> Phrase:
    """A rule's reason as a phrase of the catalogs: `refusal-GAME-CODE` with its
    parameters, a colour named by the game's `palette` (`render.web.info(game)["palette"]`,
    letter to English name) as a phrase of its own by the game's `web` part
    (`RefusalWords`: CUBED's `cubed-colour-…`, Unstackable's `unst-colour-…`); a
    reason the catalogs have no words for is `refusal-not-allowed` (its English the rules'
    own sentence). The phrase's English is always the rules' sentence.

    >>> refused("cubed", Refusal("turn", "it is not your turn")).said()
    ['refusal-turn', {}]
    """
    text = str(reason)
    if reason.code in _UNREADABLE:
        return Phrase("refusal-unknown-move", {}, text)
    if reason.code in _SHARED:
        return Phrase(f"refusal-{reason.code}", {}, text)
    key = f"refusal-{game}-{reason.code}"
    if not has(key):
        return Phrase("refusal-not-allowed", {}, text)
    params: dict[str, Param] = {k: _param(v) for k, v in reason.params.items()}
    module = part(game, "web")
    if isinstance(module, RefusalWords):
        params.update(module.refusal_params(reason.code, reason.params, palette or {}))
    return Phrase(key, params, text)


def _param(value: Any) -> str | int:
    """A reason's parameter as a phrase takes it (a cell's coordinates as `1,0`)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | str):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else f"{value:g}"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def language_from(environ: Mapping[str, str]) -> str:
    """The language a terminal speaks by default, from its environment: `CUBEGAMES_LANG`
    (`en` or `ja`; anything else is a ValueError), else the locale (`LC_ALL`, then
    `LC_MESSAGES`, then `LANG`, the first one set: `ja_JP.UTF-8` is Japanese), else English.

    >>> language_from({"LANG": "ja_JP.UTF-8"}), language_from({"LANG": "C.UTF-8"})
    ('ja', 'en')
    >>> language_from({"CUBEGAMES_LANG": "en", "LC_ALL": "ja_JP.UTF-8"})
    'en'
    """
    asked = environ.get("CUBEGAMES_LANG", "").strip()
    if asked:
        if asked not in LANGUAGES:
            raise ValueError(
                f"CUBEGAMES_LANG={asked[:20]!r}: the languages are {', '.join(LANGUAGES)}"
            )
        return asked
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            base = value.split(".")[0].split("_")[0].split("-")[0].lower()
            return base if base in LANGUAGES else DEFAULT
    return DEFAULT
