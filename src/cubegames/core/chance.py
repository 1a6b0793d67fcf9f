"""Seeded chance. Nothing in the rules uses the global `random` state.

A game's first deal comes from the seed given to `new_state`. Chance that happens later
(a new round's deal, pieces mixed back into a bag) is drawn from a hash of the position at
that moment, so a position file alone fixes everything that follows it.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any


def seeded(seed: int) -> random.Random:
    """A private generator for `seed`."""
    return random.Random(seed)


def from_position(data: Any, salt: str) -> random.Random:
    """A private generator derived from a JSON-able position and a purpose (`salt`)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":")) + "|" + salt
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def secret(seed: int, purpose: str) -> str:
    """128 bits (32 hex digits) drawn from all of `seed` for `purpose`: a game's hidden
    salt, as secret as the seed it comes from."""
    size = max(1, (seed.bit_length() + 7) // 8)
    data = seed.to_bytes(size, "big") + b"|" + purpose.encode()
    return hashlib.blake2b(data, digest_size=16).hexdigest()
