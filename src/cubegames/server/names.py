"""The names people give themselves: an account's, and a guest's seat name.

A name is normalised (Unicode NFKC, outer spaces trimmed, inner runs of spaces made one) and
refused, with a code the catalogs word (`error-name-...`), when it is blank, too long, holds
a control character or an invisible formatting character (bidirectional overrides and
isolates, zero-width spaces and joiners: Unicode's categories Cc and Cf), or imitates a bot
(a bot's name as the page shows it, in English or Japanese, compared without case and
spaces). Two names are the same name when their `name_key`s are equal.

Look-alikes are refused too, with Unicode's data as the `confusable-homoglyphs` package
ships it (its script of each character, from Scripts.txt, and UTS #39's confusables.txt):

- a name mixing scripts (`error-name-mixed`): a Cyrillic "а" in a Latin name, a Greek
  letter among Latin ones. Characters common to every script (digits, punctuation, the
  long-vowel mark) and combining marks count for none; one script is fine, and so are
  the mixes one language writes (UTS #39's "highly restrictive" level): Latin with Han,
  Hiragana and Katakana (Japanese: "山田たろう", "タロウ2", "Taroたろう"), with Han and
  Bopomofo, with Han and Hangul;
- a name that reads like a bot's name or another account's (`look`: each character
  replaced by the one it is confused with, as UTS #39's skeleton does: "Rаndom bot" in
  Cyrillic, "ada1" beside "adal", "0scar" beside "Oscar").

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

from confusable_homoglyphs import categories, confusables

from cubegames.bots import BOTS

#: the longest name (the seats' column holds 40 characters)
MAX_NAME = 24
_SPACES = re.compile(r"\s+")
#: the scripts that count for none in a name (digits, punctuation, marks)
_ANY_SCRIPT = frozenset({"COMMON", "INHERITED", "UNKNOWN"})
#: the mixes of scripts one language writes (UTS #39, "highly restrictive")
_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: direction marks that the confusables' data wraps right-to-left characters in
_MARKS = str.maketrans("", "", "\u200e\u200f")


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


def scripts_of(name: str) -> frozenset[str]:
    """The scripts of a name's letters (Unicode's names, upper case), without the
    characters every script uses.

    >>> sorted(scripts_of("山田たろう2"))
    ['HAN', 'HIRAGANA']
    """
    return frozenset(categories.unique_aliases(name)) - _ANY_SCRIPT


def mixed(name: str) -> bool:
    """Whether a name mixes scripts that no one language writes together.

    >>> mixed("Ada"), mixed("\u0410da"), mixed("山田タロウ"), mixed("Taroたろう")
    (False, True, False, False)
    """
    found = scripts_of(name)
    return len(found) > 1 and not any(found <= mix for mix in _WRITTEN_TOGETHER)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, the character (or characters) it is
    confused with (confusables.txt as the package ships it: a character listed with one
    look-alike that lists it back among others maps to that one; two that list only each
    other both map to the smaller)."""
    data = {
        char.translate(_MARKS): [h["c"].translate(_MARKS) for h in alikes]
        for char, alikes in confusables.confusables_data.items()
    }
    out: dict[str, str] = {}
    for char, alikes in data.items():
        if len(char) != 1 or len(alikes) != 1:
            continue
        target = alikes[0]
        back = data.get(target, [])
        if back == [char]:
            out[char] = min(char, target)
        elif char in back:
            out[char] = target
    return out


def look(name: str) -> str:
    """What a name looks like (its skeleton): NFKC, each character replaced by its
    prototype, without spaces or case. Two names that look alike have the same `look`.

    >>> look("Ada1") == look("Adal") == look("\u0410da1")
    True
    >>> look("Ada") == look("Eda")
    False
    """
    prototypes = _prototypes()
    text = "".join(unicodedata.normalize("NFKC", name).split())
    for _ in range(2):  # before case is folded ("I" looks like "l") and after
        text = "".join(prototypes.get(char, char) for char in text)
        text = unicodedata.normalize("NFKC", text.casefold())
    return text


#: letters that show as nothing: the Hangul fillers
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def invisible(char: str) -> bool:
    """Whether a character shows as nothing, or changes how the text around it shows:
    Unicode's format characters (bidirectional overrides and isolates, zero-width spaces
    and joiners, the soft hyphen, the tag characters that can spell a hidden text), the
    line and paragraph separators and the Hangul fillers. Names and chat lines refuse them.

    >>> [invisible(c) for c in ("a", "\u202e", "\U000e0041", "\u3164", "\u00e9")]
    [False, True, True, True, False]
    """
    return unicodedata.category(char) in ("Cf", "Zl", "Zp") or char in _BLANK_LETTERS


def check_name(name: str) -> str:
    """The normalised name, or BadName saying why it is refused."""
    # characters are judged before spaces are tidied (a line break is a control character)
    for char in unicodedata.normalize("NFKC", name):
        category = unicodedata.category(char)
        if category == "Cc":
            raise BadName("error-name-control")
        if invisible(char):
            raise BadName("error-name-invisible")
    shown = normalise(name)
    if not shown:
        raise BadName("error-name-blank")
    if len(shown) > MAX_NAME:
        raise BadName("error-name-long")
    key = name_key(shown)
    if not key or key in bot_keys() or look(key) in bot_looks():
        raise BadName("error-name-bot")
    if mixed(shown):
        raise BadName("error-name-mixed")
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


@functools.cache
def bot_looks() -> frozenset[str]:
    """The `look` of every bot's name (as `bot_keys`), without the number a second bot of
    a kind is shown with."""
    return frozenset(look(key) for key in bot_keys())


def warm() -> None:
    """Read now what checking a name first reads (both catalogs' bots' names, Unicode's
    confusables: about a third of a second), so that the first name checked, on the
    server's event loop, does not hold every other page up for that long."""
    bot_looks()
    look("warm")


__all__ = [
    "MAX_NAME",
    "BadName",
    "bot_keys",
    "bot_looks",
    "check_name",
    "look",
    "mixed",
    "name_key",
    "normalise",
    "scripts_of",
    "warm",
]
