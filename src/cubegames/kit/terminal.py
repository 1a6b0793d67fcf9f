"""What the games' terminal parts (`<game package>.terminal`, drawn with rich) share: a
readable colour (`on_colour`), and the terminal's words, in the language it was asked to
speak (`cubegames play --lang`).

Every sentence the terminal shows comes from the page's catalogs
(`server/static/locales/<lang>.ftl`, read by `cubegames.kit.words`): its own under
`term-…`, and the page's where the words are the same (the move log's phrases, the rules'
refusals, seat names). The language is set for a block of code with `speaking(lang)`, so the
drawings (`draw(game, view, legal)`) keep their signature:

>>> with speaking("ja"):
...     t("term-game-left")
'ゲームを途中で終えました。'
>>> t("term-game-left")
'Game left unfinished.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar, Token
from typing import Any

from babel.lists import format_list
from rich.style import Style

from cubegames.core.errors import Refusal
from cubegames.core.phrase import Phrase
from cubegames.kit import words


def on_colour(rgb: str) -> Style:
    """A background `rgb` with black or white text, whichever reads better.

    >>> on_colour("#ffd43b").color.name
    'black'
    """
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    light = 0.299 * r + 0.587 * g + 0.114 * b > 140
    return Style(bgcolor=rgb, color="black" if light else "white", bold=True)


_LANGUAGE: ContextVar[str] = ContextVar("cubegames_terminal_language", default=words.DEFAULT)


class speaking:
    """Word everything in `lang` (one of `kit.words.LANGUAGES`) inside the block.

    A class, not a generator: a block entered and never left (click enters a command's
    `--lang` when it reads the option, and leaves it only if the command line parses)
    changes nothing when it is collected later, where a generator's `finally` would put
    back, long after, the language of its own time.
    """

    def __init__(self, lang: str) -> None:
        if lang not in words.LANGUAGES:
            raise ValueError(f"no catalog for the language {lang!r}")
        self.lang = lang
        self.token: Token[str] | None = None

    def __enter__(self) -> None:
        self.token = _LANGUAGE.set(self.lang)

    def __exit__(self, *exc: object) -> None:
        if self.token is not None:
            _LANGUAGE.reset(self.token)
            self.token = None


def language() -> str:
    """The language the terminal speaks now."""
    return _LANGUAGE.get()


def t(key: str, /, **args: Any) -> str:
    """The catalog's message `key` in the terminal's language."""
    return words.say(language(), key, **args)


def seat(number: int, you: int | None = None) -> str:
    """A seat's name: "Seat 2", or "You" when it is `you` (the reader's own)."""
    return t("seat-you") if number == you else t("seat-label", seat=number)


def bot(spec: str) -> str:
    """A bot as the page names it, from its spec ("mcts:iterations=200" is "Thinking bot")."""
    base = spec.split(":")[0]
    return t("seat-bot", bot=base, name=base[:1].upper() + base[1:])


def listed(names: Sequence[str]) -> str:
    """Names as a list in the language ("Seat 0 and Seat 1", "席0と席1")."""
    return format_list(list(names), locale=language())


def worded(phrase: Phrase, you: int | None = None) -> str:
    """A phrase of the catalogs (a move's words, a roll's meaning) in the terminal's
    language, the seat `you` named as the reader."""
    return words.phrase(language(), phrase.said(), lambda n: seat(n, you))


def refused(game: str, reason: Refusal, palette: Mapping[str, Any] | None = None) -> str:
    """Why a move was refused, for a player: the rules' own English sentence in English
    (as `cubegames check` says it), the catalog's words by its code in another language."""
    if language() == words.DEFAULT:
        return str(reason)
    if reason.code in ("unreadable", "not-a-move"):
        return t("term-unknown-move")
    return words.refusal(language(), game, reason, palette)
