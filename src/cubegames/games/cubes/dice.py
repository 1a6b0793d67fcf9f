"""Dice faces and the five kinds of roll: the one place a roll is classified.

A face is written as text: `C` for the word CUBES, `.` for a blank, a number as its digits.
A roll is the six faces showing, in die order. The engine and the exact odds
(`cubegames.games.cubes.odds`) both use `classify`, so they cannot disagree.

| row          | words `w` | numbers `m` | what happens                                |
|--------------|-----------|-------------|---------------------------------------------|
| `numbers`    | 0         | ≥ 1         | the roller claims the sum `s` from the pot  |
| `cubes-few`  | ≥ 1       | 1 or 2      | opponents pay, the roller claims `2s`       |
| `cubes-many` | ≥ 1       | ≥ 3         | opponents pay, the roller takes the pot     |
| `cubes-only` | ≥ 1       | 0           | opponents pay                               |
| `blank`      | 0         | 0           | the roller pays                             |
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

WORD = "C"
BLANK = "."


class Row(Enum):
    """The row of the rules' table a roll falls in."""

    NUMBERS = "numbers"
    CUBES_FEW = "cubes-few"
    CUBES_MANY = "cubes-many"
    CUBES_ONLY = "cubes-only"
    BLANK = "blank"

    @property
    def title(self) -> str:
        """The row in words.

        >>> Row.CUBES_FEW.title
        'CUBES and 1 or 2 numbers'
        """
        return _TITLES[self]


_TITLES = {
    Row.NUMBERS: "numbers only",
    Row.CUBES_FEW: "CUBES and 1 or 2 numbers",
    Row.CUBES_MANY: "CUBES and 3 or more numbers",
    Row.CUBES_ONLY: "only CUBES",
    Row.BLANK: "all blank",
}


@dataclass(frozen=True, slots=True)
class Tally:
    """What a roll shows: `words` CUBES faces, `numbers` number faces summing to `total`."""

    words: int
    numbers: int
    total: int

    @property
    def row(self) -> Row:
        """The table row for these counts."""
        if self.words == 0:
            return Row.NUMBERS if self.numbers else Row.BLANK
        if self.numbers == 0:
            return Row.CUBES_ONLY
        return Row.CUBES_FEW if self.numbers <= 2 else Row.CUBES_MANY


def number(face: str) -> int | None:
    """The number on a face, or None for the word and blanks.

    >>> number("6"), number("C"), number(".")
    (6, None, None)
    """
    return int(face) if face.isdigit() else None


def is_face(text: str) -> bool:
    """True for `C`, `.` and positive whole numbers written without leading zeros.

    >>> [is_face(t) for t in ("C", ".", "12", "0", "07", "x")]
    [True, True, True, False, False, False]
    """
    if text in (WORD, BLANK):
        return True
    return text.isascii() and text.isdigit() and text[0] != "0"


def tally(faces: Sequence[str]) -> Tally:
    """Count the words and numbers of a roll and add the numbers up.

    >>> tally(["1", "C", ".", "6", ".", "3"])
    Tally(words=1, numbers=3, total=10)
    """
    words = numbers = total = 0
    for face in faces:
        if face == WORD:
            words += 1
        else:
            value = number(face)
            if value is not None:
                numbers += 1
                total += value
    return Tally(words, numbers, total)


def classify(faces: Sequence[str]) -> Row:
    """The row of the rules' table that a roll falls in.

    >>> classify([".", "2", "3", ".", ".", "4"])
    <Row.NUMBERS: 'numbers'>
    >>> classify(["C", "5", "4", ".", ".", "."]).title
    'CUBES and 1 or 2 numbers'
    >>> classify([".", ".", ".", ".", ".", "."]).value
    'blank'
    """
    return tally(faces).row
