"""Exact odds of each kind of roll, by counting every one of the 6^6 rolls.

The count uses the edition's dice and the same `classify` the engine uses, so a die
changed in an edition file changes the odds, and the odds can never disagree with play.

>>> from cubegames.games.cubes.edition import load_edition
>>> table = odds(load_edition("standard"))
>>> [(r.row.value, str(r.probability)) for r in table]  # doctest: +NORMALIZE_WHITESPACE
[('numbers', '931/2916'), ('cubes-few', '23/54'), ('cubes-many', '487/2916'),
 ('cubes-only', '3367/46656'), ('blank', '1/64')]
>>> sum(r.probability for r in table)
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from cubegames.games.cubes.dice import Row, classify, number
from cubegames.games.cubes.edition import Edition

__all__ = ["RowOdds", "classify", "odds", "rolls"]


@dataclass(frozen=True)
class RowOdds:
    """One row of the rules' table with its exact odds.

    `ways` of the `total` equally likely rolls fall in the row. `mean_sum` is the average
    sum of the numbers showing, given the row (None when the row never happens).
    `mean_claim` is the average amount the roller claims from the pot on such a roll: the
    sum for numbers only, the multiplied sum for CUBES with 1 or 2 numbers (None for the
    other rows, where the roller claims the whole pot or nothing).
    """

    row: Row
    ways: int
    total: int
    mean_sum: Fraction | None
    mean_claim: Fraction | None

    @property
    def probability(self) -> Fraction:
        """The chance of the row on one roll."""
        return Fraction(self.ways, self.total)


def rolls(edition: Edition) -> Iterator[tuple[str, ...]]:
    """Every roll of the edition's dice, each once, in die-face order (6^6 of them)."""
    return product(*(die.faces for die in edition.dice))


def odds(edition: Edition) -> list[RowOdds]:
    """Every row of the table, in the rules' order, with its exact odds."""
    return list(_odds(tuple(die.faces for die in edition.dice), edition.multiplier))


@cache
def _odds(dice: tuple[tuple[str, ...], ...], multiplier: int) -> tuple[RowOdds, ...]:
    ways = dict.fromkeys(Row, 0)
    sums = dict.fromkeys(Row, 0)
    total = 0
    for roll in product(*dice):
        row = classify(roll)
        ways[row] += 1
        sums[row] += sum(v for v in map(number, roll) if v is not None)
        total += 1
    out = []
    for row in Row:
        mean = Fraction(sums[row], ways[row]) if ways[row] else None
        claim: Fraction | None = None
        if mean is not None and row is Row.NUMBERS:
            claim = mean
        elif mean is not None and row is Row.CUBES_FEW:
            claim = multiplier * mean
        out.append(RowOdds(row, ways[row], total, mean, claim))
    return tuple(out)
