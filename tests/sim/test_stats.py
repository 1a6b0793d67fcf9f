"""The interval functions, against values computed by hand and their defining properties."""

from __future__ import annotations

import math

import pytest

from cubegames.kit.stats import Z95, half_width, mean_interval, wilson


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_published_score_intervals(
    successes: int, n: int, low: float, high: float
) -> None:
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
    # Statistics in Medicine 17: 857-872, the score method (method 3) for his examples
    got = wilson(successes, n)
    assert got == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


def test_wilson_stays_inside_zero_and_one_and_contains_the_estimate() -> None:
    for successes, n in [(0, 5), (5, 5), (1, 1000), (999, 1000), (2.5, 7)]:
        low, high = wilson(successes, n)
        assert 0.0 <= low <= successes / n <= high <= 1.0


def test_wilson_of_nothing_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_narrows_as_the_sample_grows() -> None:
    widths = [half_width(n / 2, n) for n in (10, 100, 1000, 10000)]
    assert widths == sorted(widths, reverse=True)
    # at p = 1/2 the half-width tends to z / (2 sqrt(n))
    assert half_width(5000, 10000) == pytest.approx(Z95 / 200, rel=1e-3)


def test_a_lopsided_rate_is_precise_sooner_than_a_coin_flip() -> None:
    assert half_width(97, 100) < 0.04 < half_width(50, 100)


def test_mean_interval() -> None:
    mean, low, high = mean_interval([2.0, 4.0, 6.0, 8.0])
    sd = math.sqrt(20 / 3)
    assert mean == 5.0
    assert high - mean == pytest.approx(Z95 * sd / 2)
    assert mean - low == pytest.approx(Z95 * sd / 2)
    assert mean_interval([3.0]) == (3.0, 3.0, 3.0)
    assert all(math.isnan(v) for v in mean_interval([]))
