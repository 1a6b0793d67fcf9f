"""Exact odds: every one of the 6^6 rolls in exactly one row, and the numbers themselves."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from cubegames.games.cubes import Row, classify, load_edition, tally
from cubegames.games.cubes.edition import parse_edition
from cubegames.games.cubes.odds import odds, rolls

STANDARD = load_edition("standard")

# the rules' table, written out once more, independently of `classify`
CONDITIONS = {
    Row.NUMBERS: lambda w, m: w == 0 and m >= 1,
    Row.CUBES_FEW: lambda w, m: w >= 1 and m in (1, 2),
    Row.CUBES_MANY: lambda w, m: w >= 1 and m >= 3,
    Row.CUBES_ONLY: lambda w, m: w >= 1 and m == 0,
    Row.BLANK: lambda w, m: w == 0 and m == 0,
}


def test_every_roll_falls_in_exactly_one_row() -> None:
    seen: Counter[Row] = Counter()
    count = 0
    for roll in rolls(STANDARD):
        count += 1
        w = roll.count("C")
        m = sum(1 for face in roll if face.isdigit())
        rows = [row for row, holds in CONDITIONS.items() if holds(w, m)]
        assert len(rows) == 1, roll
        assert classify(roll) is rows[0]
        seen[rows[0]] += 1
    assert count == 6**6
    table = odds(STANDARD)
    assert [r.row for r in table] == list(Row)
    assert {r.row: r.ways for r in table} == dict(seen)
    assert sum(r.probability for r in table) == 1


def test_the_standard_odds() -> None:
    got = {r.row: r.probability for r in odds(STANDARD)}
    # each die: 1 word, 2 numbers, 3 blanks
    no_word = Fraction(5, 6) ** 6
    blank = Fraction(1, 2) ** 6
    assert got[Row.BLANK] == blank == Fraction(1, 64)
    assert got[Row.NUMBERS] == no_word - blank == Fraction(931, 2916)
    assert got[Row.CUBES_ONLY] == Fraction(4, 6) ** 6 - blank == Fraction(3367, 46656)
    assert got[Row.CUBES_FEW] == Fraction(23, 54)
    assert got[Row.CUBES_MANY] == Fraction(487, 2916)


def test_mean_claims() -> None:
    table = {r.row: r for r in odds(STANDARD)}
    assert table[Row.NUMBERS].mean_sum == Fraction(9375, 1064)
    assert table[Row.NUMBERS].mean_claim == table[Row.NUMBERS].mean_sum
    few = table[Row.CUBES_FEW]
    assert few.mean_sum is not None and few.mean_claim == 2 * few.mean_sum
    assert table[Row.BLANK].mean_sum == 0 and table[Row.BLANK].mean_claim is None
    # the mean of the numbers-only sums, counted the slow way
    sums = [tally(r).total for r in rolls(STANDARD) if classify(r) is Row.NUMBERS]
    assert Fraction(sum(sums), len(sums)) == table[Row.NUMBERS].mean_sum


def test_a_changed_die_changes_the_odds() -> None:
    data = {
        "id": "odd",
        "name": "one blank die",
        "chips": [{"name": "white", "value": 1, "count": 200, "rgb": "#ffffff"}],
        "players": {"min": 2, "max": 10, "each": 20, "share_from": 5},
        "payments": {"ante": 5, "opponent": 5, "blank": 2, "cubes_multiplier": 2},
        "dice": [{"name": "d", "rgb": "#000000", "faces": ["C", "1", "6", ".", ".", "."]}] * 5
        + [{"name": "blank", "rgb": "#000000", "faces": ["."] * 6}],
    }
    table = {r.row: r.probability for r in odds(parse_edition(data, "test"))}
    assert table[Row.BLANK] == Fraction(1, 2) ** 5
    assert sum(table.values()) == 1
