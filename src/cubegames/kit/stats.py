"""Small, exact statistics for win rates."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    A tie may count as half a success. Unlike the plain normal interval it stays inside
    [0, 1] and behaves well near 0 and 1.

    >>> low, high = wilson(70, 100)
    >>> round(low, 3), round(high, 3)
    (0.604, 0.781)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def half_width(successes: float, n: int, z: float = Z95) -> float:
    """Half the width of the Wilson interval: how far the estimate may be off, roughly.

    >>> round(half_width(50, 100), 3)
    0.096
    """
    low, high = wilson(successes, n, z)
    return (high - low) / 2


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of `values` with a normal-approximation interval (95% by default).

    Returns (mean, low, high); with fewer than two values the interval is the mean itself.

    >>> mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    >>> mean, round(low, 3), round(high, 3)
    (2.5, 1.235, 3.765)
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = math.fsum(values) / n
    if n < 2:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half
