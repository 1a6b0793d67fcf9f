"""The words the server sends, in the reader's language.

The catalogs are the page's own: `static/locales/<lang>.ftl`, in Project Fluent's syntax
(plural and parameter rules, read here by `fluent.runtime` with Babel's locale data, on the
page by the vendored `@fluent/bundle` with the browser's Intl). docs/i18n.md tells how to add
a language.

>>> say("ja", "error-no-seat", seat=3)
'席3はありません'
>>> say("en", "error-file-too-large", bytes=1048576)
'the file is too large: at most 1,048,576 bytes'
>>> negotiate("fr-CH, ja;q=0.9, en;q=0.8")
'ja'

A duration (a `timedelta` parameter) is written by Babel in the language's own words:

>>> say("ja", "error-too-many-games", count=20, wait=timedelta(seconds=30))
'このアドレスからのゲーム作成が多すぎます（1分間に20件まで）。30 秒後にやり直してください'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from babel.dates import format_timedelta
from babel.lists import format_list
from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse
from fluent.runtime import FluentBundle, FluentResource
from starlette.requests import HTTPConnection

from cubegames.core.phrase import Phrase, Worded

LOCALES = Path(__file__).parent / "static" / "locales"
#: the languages with a catalog, the first one the fallback for a message another lacks
LANGUAGES = ("en", "ja")
DEFAULT = LANGUAGES[0]
#: the most of an Accept-Language header that is read (a stranger's header is bounded)
MAX_HEADER = 512


@functools.cache
def bundle(lang: str) -> FluentBundle:
    """The catalog of `lang` (one of LANGUAGES), read once."""
    made = FluentBundle([lang], use_isolating=False)
    made.add_resource(FluentResource((LOCALES / f"{lang}.ftl").read_text("utf-8")))
    return made


def say(lang: str, key: str, /, **args: Any) -> str:
    """The message `key` in `lang`, its parameters filled in (numbers by the language's
    rules, a `timedelta` as the language says a duration); English where `lang` lacks it.
    A key no catalog has is a programming error (KeyError)."""
    for name in (lang, DEFAULT) if lang in LANGUAGES else (DEFAULT,):
        catalog = bundle(name)
        if catalog.has_message(key):
            message = catalog.get_message(key)
            if message.value is None:
                raise KeyError(f"message {key!r} has no value")
            filled = {
                k: format_timedelta(v, locale=name, threshold=2) if isinstance(v, timedelta) else v
                for k, v in args.items()
            }
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


def negotiate(header: str | None) -> str:
    """The language to answer in, from an Accept-Language header (weights respected; a
    region such as ja-JP matches ja); the default when none of its languages has a catalog."""
    best: tuple[float, int, str] | None = None
    for order, part in enumerate((header or "")[:MAX_HEADER].split(",")):
        tag, _, params = part.strip().partition(";")
        lang = tag.strip().lower().split("-")[0]
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                continue
        if lang not in LANGUAGES or not 0 < weight <= 1:
            continue
        if best is None or (weight, -order) > (best[0], best[1]):
            best = (weight, -order, lang)
    return best[2] if best is not None else DEFAULT


def language_of(request: HTTPConnection) -> str:
    """The language of a request (or a websocket): `?lang=` when it names one of ours, else
    Accept-Language (the page sends its reader's choice there)."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    return negotiate(request.headers.get("accept-language"))


class Said(HTTPException):
    """A refusal whose words come from the catalogs: the detail is worded in the language
    of the request that gets it (English in the exception itself, for logs and callers),
    and `code` is its catalog key (for programs, whatever the language)."""

    def __init__(
        self, status: int, key: str, headers: dict[str, str] | None = None, **args: Any
    ) -> None:
        super().__init__(status, say(DEFAULT, key, **args), headers=headers)
        self.key = key
        self.args_ = args
        #: a phrase (`Phrase.said()`) to word instead of `key`, with its own English
        self.phrase: list[Any] | None = None

    @classmethod
    def of(
        cls, status: int, exc: ValueError, within: Phrase | None = None, game: str | None = None
    ) -> HTTPException:
        """`exc` (an engine's ValueError: a bad option, bot or time control) as the answer:
        worded from the catalogs in the request's language where it carries a phrase of
        theirs (`Worded`), its English otherwise; `within` wraps it (`{ $reason }` is `exc`). An
        option of `game` is named by its label in the catalogs (`option-GAME-NAME`)."""
        known = isinstance(exc, Worded) and bundle(DEFAULT).has_message(exc.phrase.key)
        if not isinstance(exc, Worded) or not known:  # a plug-in's own words: as it gave them
            return HTTPException(status, str(within or exc))
        made = cls.__new__(cls)
        phrase = exc.phrase
        name = phrase.params.get("option")
        if game is not None and isinstance(name, str):
            keys = (f"option-{game}-{name}", f"option-{name}")
            label = next((k for k in keys if bundle(DEFAULT).has_message(k)), None)
            if label is not None:
                params = {**phrase.params, "option": Phrase(label, {}, name)}
                phrase = Phrase(phrase.key, params, phrase.text)
        if within is not None:
            phrase = Phrase(within.key, {**within.params, "reason": phrase}, within.text)
        HTTPException.__init__(made, status, str(phrase))
        made.key, made.args_, made.phrase = phrase.key, {}, phrase.said()
        return made


async def said(request: Request, exc: Exception) -> JSONResponse:
    """The exception handler for `Said`: the detail in the request's language (a phrase's
    English is the engine's own, word for word, so English answers stay as they were)."""
    assert isinstance(exc, Said)
    lang = language_of(request)
    if exc.phrase is not None:
        text = exc.detail if lang == DEFAULT else phrase(lang, exc.phrase)
    else:
        text = say(lang, exc.key, **exc.args_)
    return JSONResponse(
        {"detail": text, "code": exc.key}, status_code=exc.status_code, headers=exc.headers
    )
