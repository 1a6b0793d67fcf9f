"""The generators kept in positions: SplitMix64, and a keyed one for secret deals.

A position keeps the generator's whole state in its `"rng"` field (CUBES' rolls, CUBED's later
deals and draw3 returns), so a saved position continues with exactly the draws the live game
would have seen, and nothing else in the position changes them. The state is one number:

- below 2**64 it is a **SplitMix64** state (Steele, Lea and Flood, 2014), written as 16 hex
  digits. Chosen because its state is a single word and it is easy to re-implement:

      state += 0x9E3779B97F4A7C15                     (mod 2**64)
      z = state
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9        (mod 2**64)
      z = (z ^ (z >> 27)) * 0x94D049BB133111EB        (mod 2**64)
      output z ^ (z >> 31)

  A seed below 2**64 (any game one sets up by hand) starts this generator (`from_seed`;
  `first` for the games and chance versions that started it from Python's generator).

- from 2**64 up it is a **keyed** state, `key * 2**64 + counter` with a 128-bit key that is
  never 0, written as 48 hex digits (key, then counter). Output number `counter` is the first
  8 bytes (big-endian) of BLAKE2b over the counter as 8 big-endian bytes, keyed with the
  16 key bytes; the counter then goes up by one. A larger seed, such as the 128 random bits
  of a deal the web server makes, starts this generator, so that the rolls to come keep all
  of its entropy: 64 bits of SplitMix64 state could in principle be searched from the rolls
  already seen.

A die face is drawn by rejection, so each face is exactly equally likely.

>>> state, out = step(1234567)
>>> out
6457827717110365317
>>> wide = start(2**127 + 12345)
>>> wide > MASK, len(to_text(wide))
(True, 48)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
#: states from here up are keyed
KEYED = 1 << 64
_KEY_BYTES = 16


def start(seed: int) -> int:
    """The first state for a seed of 2**64 or more: a 128-bit key derived from all of the
    seed's bits (BLAKE2b), with the counter at 0.

    >>> start(2**64) != start(2**64 + 1)
    True
    """
    size = max(1, (seed.bit_length() + 8) // 8)
    digest = hashlib.blake2b(
        seed.to_bytes(size, "big", signed=True), digest_size=_KEY_BYTES, person=b"cubes-deal"
    ).digest()
    key = int.from_bytes(digest, "big") or 1
    return key << 64


def first(seed: int, rng: random.Random | None = None) -> int:
    """The state a game's seed starts: the keyed state of `start` for a seed of 2**64 or
    more (in size), else the next 64 bits of `rng` (a fresh `random.Random(seed)` if None;
    a game whose first deal `random.Random(seed)` shuffled gives that generator, so the
    state continues its stream).

    >>> first(7) == random.Random(7).getrandbits(64), first(2**100) == start(2**100)
    (True, True)
    """
    if abs(seed) >= KEYED:
        return start(seed)
    return (rng if rng is not None else random.Random(seed)).getrandbits(64)


def from_seed(seed: int) -> int:
    """The state a seed starts (chance version 3, `core.chance`: CUBED's deals and the
    random bot's moves): for a seed below 2**64 in size, the first output of SplitMix64
    started at the seed (a negative one as its two's complement, mod 2**64), which mixes
    nearby seeds far apart; for a larger seed the keyed state of `start`. A few lines a
    compiled path repeats (`games/cubed/compiled_rules.py`, `sm_seed`).

    >>> from_seed(7) == step(7)[1], from_seed(2**100) == start(2**100)
    (True, True)
    """
    if abs(seed) >= KEYED:
        return start(seed)
    return step(seed & MASK)[1]


def step(state: int) -> tuple[int, int]:
    """The next state and the 64-bit output that goes with it."""
    if state >= KEYED:
        key, counter = state >> 64, state & MASK
        digest = hashlib.blake2b(
            counter.to_bytes(8, "big"), key=key.to_bytes(_KEY_BYTES, "big"), digest_size=8
        ).digest()
        return (key << 64) | ((counter + 1) & MASK), int.from_bytes(digest, "big")
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
    """A generator state as it is written in position files: 16 lowercase hex digits for
    SplitMix64, 48 for a keyed state.

    Text rather than a JSON number, because numbers past 2**53 lose digits in JavaScript.

    >>> to_text(255)
    '00000000000000ff'
    """
    if state >= KEYED:
        return f"{state:048x}"
    return f"{state & MASK:016x}"


def from_text(text: str) -> int:
    """The inverse of `to_text`; ValueError unless `text` is 16 or 48 lowercase hex digits
    (and a keyed state's key is not 0).

    >>> from_text("00000000000000ff")
    255
    """
    if len(text) not in (16, 48) or any(ch not in "0123456789abcdef" for ch in text):
        raise ValueError("must be 16 or 48 lowercase hex digits")
    state = int(text, 16)
    if len(text) == 48 and state < KEYED:
        raise ValueError("a 48-digit (keyed) state needs a key that is not 0")
    return state


def shuffle(state: int, items: MutableSequence[T]) -> int:
    """Shuffle `items` in place (Fisher-Yates from the end, as `random.shuffle` walks it,
    each swap partner drawn by `below`); returns the next state.

    >>> items = list(range(5))
    >>> shuffle(1234567, items) != 1234567, sorted(items)
    (True, [0, 1, 2, 3, 4])
    """
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


class Draws:
    """A generator state as an object with the few methods of `random.Random` that rules
    use (`randrange`, `randint`, `choice`, `shuffle`), so one piece of rules code can draw
    from either; `state` is the state after the draws so far.

    >>> draws = Draws(1234567)
    >>> draws.randrange(6), draws.state
    (3, 11400714819324433052)
    """

    def __init__(self, state: int) -> None:
        self.state = state

    def randrange(self, n: int) -> int:
        self.state, out = below(self.state, n)
        return out

    def randint(self, a: int, b: int) -> int:
        return a + self.randrange(b - a + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randrange(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.state = shuffle(self.state, items)
