"""The names people give themselves: an account's, and a guest's seat name.

A name is normalised (Unicode NFKC, outer spaces trimmed, inner runs of spaces made one) and
refused, with a code the catalogs word (`error-name-...`), when it is blank, too long, holds
a control character or an invisible formatting character (bidirectional overrides and
isolates, zero-width spaces and joiners: Unicode's categories Cc and Cf), or imitates a bot
(a bot's name as the page shows it, in English or Japanese, compared without case and
spaces). Two names are the same name when their `name_key`s are equal.

>>> check_name("  Ada   Lovelace ")
'Ada Lovelace'
>>> check_name("ｒａｎｄｏｍ　ＢＯＴ")  # NFKC makes full-width letters plain
Traceback (most recent call last):
...
cubegames.server.names.BadName: error-name-bot
>>> check_name("ad\\u202ea")
Traceback (most recent call last):
...
cubegames.server.names.BadName: error-name-invisible
"""

from __future__ import annotations

import functools
import re
import unicodedata

from cubegames.bots import BOTS

#: the longest name (the seats' column holds 40 characters)
MAX_NAME = 24
_SPACES = re.compile(r"\s+")


class BadName(ValueError):
    """A name refused; `code` is the catalogs' key saying why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def normalise(name: str) -> str:
    """`name` in NFKC with its spaces tidied (a name's shown form)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip()


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case folded, without spaces, and without the
    number a second bot of a kind is shown with ("Random bot 2")."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return re.sub(r"\d+$", "", "".join(folded.split()))


def check_name(name: str) -> str:
    """The normalised name, or BadName saying why it is refused."""
    # characters are judged before spaces are tidied (a line break is a control character)
    for char in unicodedata.normalize("NFKC", name):
        category = unicodedata.category(char)
        if category == "Cc":
            raise BadName("error-name-control")
        if category in ("Cf", "Zl", "Zp") or char in "\u115f\u1160\u3164\uffa0":
            # bidi overrides and isolates, zero-width spaces and joiners, the soft hyphen,
            # and the Hangul fillers that show as nothing
            raise BadName("error-name-invisible")
    shown = normalise(name)
    if not shown:
        raise BadName("error-name-blank")
    if len(shown) > MAX_NAME:
        raise BadName("error-name-long")
    key = name_key(shown)
    if not key or key in bot_keys():
        raise BadName("error-name-bot")
    return shown


@functools.cache
def bot_keys() -> frozenset[str]:
    """The keys of every bot's name as the page shows it, in both languages ("Random bot",
    "ランダムボット", "Deep bot", "Mcts bot"...), and of the plain word "bot"."""
    from cubegames.server.i18n import LANGUAGES, say

    keys = {name_key("bot"), name_key("ボット")}
    for bot in BOTS:
        for lang in LANGUAGES:
            keys.add(name_key(say(lang, "seat-bot", bot=bot, name=bot.capitalize())))
            keys.add(name_key(say(lang, "seat-label-bot", bot=bot)))
        keys.add(name_key(f"{bot} bot"))
        keys.add(name_key(f"{bot}bot"))
    return frozenset(keys)


__all__ = ["MAX_NAME", "BadName", "bot_keys", "check_name", "name_key", "normalise"]
