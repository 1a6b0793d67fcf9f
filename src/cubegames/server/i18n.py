"""The words the server sends, in the reader's language.

The catalogs are the page's own: `static/locales/<lang>.ftl`, in Project Fluent's syntax,
read by `cubegames.kit.words` (`say`, `phrase`: the terminal words from them too); here,
which language a request asks for and the refusals worded in it. docs/i18n.md tells how to
add a language.

>>> say("ja", "error-no-seat", seat=3)
'席3はありません'
>>> say("en", "error-file-too-large", bytes=1048576)
'the file is too large: at most 1,048,576 bytes'
>>> negotiate("fr-CH, ja;q=0.9, en;q=0.8")
'ja'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from cubegames.core.phrase import Phrase, Worded
from cubegames.kit.words import DEFAULT, LANGUAGES, LOCALES, bundle, phrase, say

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LOCALES",
    "Said",
    "bundle",
    "field_error",
    "invalid",
    "negotiate",
    "phrase",
    "say",
]

#: the most of an Accept-Language header that is read (a stranger's header is bounded)
MAX_HEADER = 512


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


#: a request the API's models refuse, by pydantic's error type: the catalog key that words
#: it and the parameters it reads from the error's context (`ctx`)
FIELD_ERRORS: dict[str, tuple[str, tuple[str, ...]]] = {
    "missing": ("error-field-missing", ()),
    "extra_forbidden": ("error-field-extra", ()),
    "literal_error": ("error-field-choice", ("expected",)),
    "enum": ("error-field-choice", ("expected",)),
    "string_too_long": ("error-field-long", ("max_length",)),
    "string_too_short": ("error-field-short", ("min_length",)),
    "too_long": ("error-field-many", ("max_length",)),
    "too_short": ("error-field-few", ("min_length",)),
    "greater_than_equal": ("error-field-at-least", ("ge",)),
    "greater_than": ("error-field-above", ("gt",)),
    "less_than_equal": ("error-field-at-most", ("le",)),
    "less_than": ("error-field-below", ("lt",)),
}
#: pydantic's error types of a value of the wrong kind, by the kind wanted
FIELD_KINDS = {
    "int": "whole",
    "float": "number",
    "bool": "bool",
    "string": "text",
    "str": "text",
    "dict": "object",
    "model": "object",
    "list": "list",
    "json": "json",
}


def field_error(error: Mapping[str, Any]) -> Phrase:
    """One error of a request the API's models refuse (pydantic's `errors()[0]`) as a
    phrase of the catalogs: `error-field-…` with the field's path (`seats.0.kind`) and the
    error's limits; its English is pydantic's own, as the API has always answered.

    >>> field_error({"type": "missing", "loc": ("body", "seats"), "msg": "Field required"})
    Phrase(key='error-field-missing', params={'field': 'seats'}, text='seats: Field required')
    >>> field_error({"type": "int_parsing", "loc": ("body", "seed"), "msg": "no"}).params
    {'field': 'seed', 'kind': 'whole'}
    """
    where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"
    text = f"{where}: {error.get('msg', '')}"
    kind = str(error.get("type", ""))
    context = error.get("ctx") or {}
    params: dict[str, str | int] = {"field": where}
    if kind in FIELD_ERRORS:
        key, wanted = FIELD_ERRORS[kind]
        for name in wanted:
            value = context.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                params[name.replace("_", "-")] = value
            else:  # pydantic's "'human' or 'bot'": the choices, as notation, in a list
                found = re.findall(r"'([^']*)'", str(value))
                params[name.replace("_", "-")] = ", ".join(found) if found else str(value)
        return Phrase(key, params, text)
    base = kind.split("_")[0]
    if base in FIELD_KINDS and kind.endswith(("_type", "_parsing", "_from_float", "_invalid")):
        return Phrase("error-field-kind", {**params, "kind": FIELD_KINDS[base]}, text)
    return Phrase("error-field-invalid", params, text)


class RefusalAnswer(JSONResponse):
    """A refusal's JSON answer, which a text the request sent back cannot break: a lone
    surrogate (`"\\ud800"` in JSON, an option's name the models do not check) is written as
    that escape again, where plain JSON answers fail to encode it (a 500).

    >>> RefusalAnswer({"detail": "no option x\\ud800"}).body
    b'{"detail":"no option x\\\\ud800"}'
    >>> json.loads(_) == {"detail": "no option x\\ud800"}
    True
    """

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        # a surrogate left alone is written as the JSON escape it came as
        return text.encode("utf-8", "backslashreplace")


async def refused(request: Request, exc: Exception) -> Response:
    """The exception handler for an `HTTPException` not worded from the catalogs (a
    plug-in's own words, a 404 of a path): FastAPI's own answer, `{"detail": ...}`, written
    as `RefusalAnswer` writes it."""
    assert isinstance(exc, StarletteHTTPException)
    headers = getattr(exc, "headers", None)
    if exc.status_code < 200 or exc.status_code in (204, 205, 304):
        return Response(status_code=exc.status_code, headers=headers)
    return RefusalAnswer({"detail": exc.detail}, status_code=exc.status_code, headers=headers)


async def invalid(request: Request, exc: Exception) -> JSONResponse:
    """The exception handler for a request the API's models refuse: 400, naming the first
    bad field, by code (`error-field-…`) and its parameters (`args`), worded in the
    request's language (pydantic's own words in English, as before)."""
    assert isinstance(exc, RequestValidationError)
    phrase = field_error(exc.errors()[0])
    lang = language_of(request)
    text = str(phrase) if lang == DEFAULT else say(lang, phrase.key, **phrase.params)
    body = {"detail": text, "code": phrase.key, "args": dict(phrase.params)}
    return RefusalAnswer(body, status_code=400)


async def said(request: Request, exc: Exception) -> JSONResponse:
    """The exception handler for `Said`: the detail in the request's language (a phrase's
    English is the engine's own, word for word, so English answers stay as they were)."""
    assert isinstance(exc, Said)
    lang = language_of(request)
    if exc.phrase is not None:
        text = exc.detail if lang == DEFAULT else phrase(lang, exc.phrase)
    else:
        text = say(lang, exc.key, **exc.args_)
    args = exc.phrase[1] if exc.phrase is not None else _plain(exc.args_)
    return RefusalAnswer(
        {"detail": text, "code": exc.key, "args": args},
        status_code=exc.status_code,
        headers=exc.headers,
    )


def _plain(args: Mapping[str, Any]) -> dict[str, Any]:
    """A refusal's parameters as JSON (a duration in seconds)."""
    return {
        k: v.total_seconds() if isinstance(v, timedelta) else v
        for k, v in args.items()
        if isinstance(v, str | int | float | timedelta)
    }
