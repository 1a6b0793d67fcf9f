"""The one error type a player ever sees from the rules, and the reason it carries."""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any, SupportsIndex, TypeGuard


class Refusal(str):
    """Why a move is refused: a `code` naming the rule, its `params` (JSON-able values: the
    cell, the colours, the counts the reason is about), and, as the string itself, the
    English sentence the rules have always given. A page words the reason from its own
    table by code and parameters; a person reading a log or the command line reads the
    sentence.

    Being a string, it compares and prints as the sentence:

    >>> reason = Refusal("occupied", "cell 1,0 is already taken", cell=[1, 0])
    >>> reason == "cell 1,0 is already taken", reason.code, reason.params
    (True, 'occupied', {'cell': [1, 0]})
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, text: str, **params: Any) -> Refusal:
        out = super().__new__(cls, text)
        out.code = code
        out.params = params
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.code, str(self), self.params))

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {str(self)!r}, **{self.params!r})"


def _rebuild(code: str, text: str, params: Mapping[str, Any]) -> Refusal:
    return Refusal(code, text, **params)


def typed(text: str, most: int = 60) -> str:
    """What a player typed, quoted as a refusal names it: cut to `most` characters, so
    that a reason stays one short line whatever was sent (`cubegames check` prints it).

    >>> typed("GPY"), typed("x" * 100, most=5)
    ("'GPY'", "'xxxxx…'")
    """
    return repr(cut(text, most))


def cut(text: object, most: int = 60) -> str:
    """`str(text)` cut to `most` characters and an ellipsis: a thing offered as a move
    named in its refusal (`b"x" * 100_000 is not a CUBED move`). Anything but text is
    written as `shown` writes it, so that no value can make the refusal fail or grow.

    >>> cut("x" * 100, most=5), cut(b"x" * 100, most=5)
    ('xxxxx…', "b'xxx…")
    """
    said = text if isinstance(text, str) else shown(text, 2 * most + 10)
    return said if len(said) <= most else said[:most] + "…"


class _Short(reprlib.Repr):
    """`reprlib`'s short repr, also for whole numbers too long for `repr` (Python refuses
    to write one of more than 4300 digits) and for objects whose own repr fails."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = most
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = 6
        self.maxdeque = self.maxarray = 6
        self.maxdict = 4

    def repr_int(self, x: int, level: int) -> str:
        digits = int(x.bit_length() * 0.30103) + 1  # log10(2): the digits, give or take one
        if digits > self.maxlong:
            return f"{'-' if x < 0 else ''}<a number of {digits} digits>"
        return super().repr_int(x, level)

    def repr_instance(self, x: object, level: int) -> str:
        try:
            said = repr(x)
        except Exception:  # a broken or hostile __repr__ must not break a refusal
            return f"<{type(x).__name__}>"
        if len(said) <= self.maxother:
            return said
        half = max(0, (self.maxother - 3) // 2)
        return said[:half] + "..." + said[len(said) - (self.maxother - 3 - half) :]


def shown(value: object, most: int = 40) -> str:
    """`repr(value)` for a refusal's message, never longer than about `most` characters and
    never failing: a value a stranger sends (a list nested 100,000 deep, a number of 5,000
    digits, a megabyte of text) is named in a short phrase, not by a `RecursionError`,
    Python's 4300-digit `ValueError` or the whole megabyte.

    >>> shown("GPY"), shown(1.5), shown(None)
    ("'GPY'", '1.5', 'None')
    >>> shown("x" * 100, most=10)
    "'xx...xxx'"
    >>> shown(10**5000)
    '<a number of 5001 digits>'
    >>> deep: list[object] = []
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> shown(deep)
    '[[[[...]]]]'
    """
    try:
        return _Short(most).repr(value)
    except Exception:  # as above: the message is written whatever came
        return f"<{type(value).__name__}>"


def is_whole(value: object) -> TypeGuard[SupportsIndex]:
    """True for a whole number as a seat or a seed is one: an int or numpy's integer, not a
    bool (`True` is no seat 1) nor a float (`1.0`), a text (`"1"`) or None.

    >>> [is_whole(v) for v in (3, -2, 10**30, True, 1.0, "1", None)]
    [True, True, True, False, False, False, False]
    """
    return isinstance(value, SupportsIndex) and not isinstance(value, bool)


def plain(value: object, most: int = 40) -> str | int | float:
    """`value` itself when it prints short (a whole number of up to 20 digits, a float, a
    short text), else `shown(value, most)`: for a refusal's parameters and the numbers its
    sentence names, which a page or a log prints as they are.

    >>> plain(7), plain(10**50), plain("x" * 50, most=10)
    (7, '<a number of 51 digits>', "'xx...xxx'")
    """
    if isinstance(value, bool | float):
        return value
    if isinstance(value, int) and abs(value) < 10**20:
        return value
    if isinstance(value, str) and len(value) <= most:
        return value
    return shown(value, most)


def typed_number(digits: str, most: int = 20) -> int:
    """A number a player typed (`-?` and digits, as a notation's pattern matched it); one of
    more than `most` digits is read as the largest of `most` digits, of its sign, so that
    a move naming it is refused as out of reach in a short sentence, not by Python's
    refusal to convert more than 4300 digits (a ValueError that is no `IllegalMove`).

    >>> typed_number("-12"), typed_number("9" * 5000, most=3)
    (-12, 999)
    """
    negative = digits.startswith("-")
    if len(digits) - negative > most:
        largest = int("9" * most)
        return -largest if negative else largest
    return int(digits)


#: the code of a move that cannot be read at all (a notation error)
UNREADABLE = "unreadable"
#: the code of a rules refusal a game gave as a plain sentence, without a code of its own
ILLEGAL = "illegal"


class IllegalMove(ValueError):
    """A move that is malformed or breaks the rules.

    The message says why, in words a player understands; `refusal` is the same reason as
    data (a `Refusal`: code and parameters; a plain text given here is a move that could
    not be read, code `unreadable`). The state it was offered to is left exactly as it was.

    >>> import cubegames
    >>> state = cubegames.make("cubed", players=2).new_state(seed=1)
    >>> try:
    ...     state.play("pass")
    ... except cubegames.IllegalMove as refusal:
    ...     print(refusal, "/", refusal.refusal.code)
    you may pass only after drawing, or when the bag is empty / pass-before-draw
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.refusal: Refusal = (
            reason if isinstance(reason, Refusal) else Refusal(UNREADABLE, reason)
        )


def briefly(exc: BaseException, most: int = 200, *, kind: bool = True) -> str:
    """An exception in a few words, its kind then its message cut to `most` characters
    (`kind=False`: the message alone, or the kind where it has none), never failing itself:
    the exception may be a plug-in's, whose `str` is its own code.

    >>> briefly(KeyError("stones"))
    "KeyError: 'stones'"
    >>> briefly(ValueError(""), kind=False)
    'ValueError'
    """
    try:
        said = cut(str(exc), most)
    except Exception:  # a plug-in's exception whose own str fails
        said = ""
    if not kind:
        return said or type(exc).__name__
    return f"{type(exc).__name__}: {said}" if said else type(exc).__name__
