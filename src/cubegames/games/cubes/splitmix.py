"""SplitMix64: the small, documented generator behind every CUBES roll.

A CUBES position keeps the generator's whole state (one 64-bit number, written as 16 hex
digits in the `"rng"` field), so a saved position continues with exactly the rolls the
live game would have seen. SplitMix64 (Steele, Lea and Flood, 2014) was chosen because its
state is a single word and it is easy to re-implement anywhere:

    state += 0x9E3779B97F4A7C15                     (mod 2**64)
    z = state
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9        (mod 2**64)
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB        (mod 2**64)
    output z ^ (z >> 31)

A die face is drawn by rejection, so each face is exactly equally likely.

>>> state, out = step(1234567)
>>> out
6457827717110365317
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def step(state: int) -> tuple[int, int]:
    """The next state and the 64-bit output that goes with it."""
    state = (state + GAMMA) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """The next state and a number from 0 to n-1, each exactly equally likely.

    Outputs from the top sliver of the 64-bit range (where `n` does not divide evenly) are
    thrown away and drawn again; for a die that happens about once in 4.6e18 draws.

    >>> below(1234567, 6)
    (11400714819324433052, 3)
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    limit = (1 << 64) - (1 << 64) % n
    while True:
        state, out = step(state)
        if out < limit:
            return state, out % n


def to_text(state: int) -> str:
    """A generator state as it is written in position files: 16 lowercase hex digits.

    Text rather than a JSON number, because numbers past 2**53 lose digits in JavaScript.

    >>> to_text(255)
    '00000000000000ff'
    """
    return f"{state & MASK:016x}"


def from_text(text: str) -> int:
    """The inverse of `to_text`; ValueError unless `text` is exactly 16 hex digits.

    >>> from_text("00000000000000ff")
    255
    """
    if len(text) != 16 or any(ch not in "0123456789abcdef" for ch in text):
        raise ValueError("must be 16 lowercase hex digits")
    return int(text, 16)
