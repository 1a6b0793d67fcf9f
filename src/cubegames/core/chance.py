"""Seeded chance. Nothing in the rules uses the global `random` state.

A game's first deal comes from the seed given to `new_state`. Chance that happens later (a
new round's deal, pieces mixed back into a bag, dice) is drawn from a generator whose state
the position keeps (`core.splitmix`, field `"rng"` of a position file), so a position file
alone fixes everything that follows it.
"""

from __future__ import annotations

import random


def seeded(seed: int) -> random.Random:
    """A private generator for `seed`."""
    return random.Random(seed)
