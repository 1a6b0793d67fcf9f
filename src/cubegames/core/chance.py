"""Seeded chance. Nothing in the rules uses the global `random` state.

A game's first deal comes from the seed given to `new_state`. Chance that happens later (a
new round's deal, pieces mixed back into a bag, dice) is drawn from a generator whose state
the position keeps (`core.splitmix`, field `"rng"` of a position file), so a position file
alone fixes everything that follows it.

The chance versions, each the draws of the games made from one release on:

- **version 3** (today): every draw of a CUBED game, its first deal included, comes from
  one generator kept in the position, `core.splitmix`, started by the seed
  (`splitmix.from_seed`): a deal is `splitmix.shuffle` of the box, and the position keeps
  the generator's state after it, as CUBES keeps its dice's. A compiled path deals with
  the same few lines of SplitMix64.
- **version 2** (the releases after commit 35f0638, up to 81da904): CUBED's first deal was
  `random.Random(seed)`'s shuffle of the box, and the position's generator started at that
  generator's next 64 bits (`splitmix.first(seed, dealer)`).
- **version 1** (every release up to commit 35f0638): CUBED drew what came after its first
  deal (dealt as in version 2) from a hash of the position's JSON text at the moment of the
  draw (`from_position`, with the position's hidden `secret` in it).

A game stored by an older release as its seed and moves replays as it was played only with
that release's draws, so a game whose draws changed between versions offers the older ones
(`Versioned`) and `new_state` deals a game in the version it was made with. Only CUBED's
draws differ between the versions; the other games draw alike in all three.
docs/positions.md describes them.

>>> CURRENT, VERSIONS
(3, (1, 2, 3))
"""

from __future__ import annotations

import hashlib
import json
import operator
import random
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from cubegames.core.errors import is_whole, shown

if TYPE_CHECKING:
    from cubegames.core.game import Game, State

#: the chance version of games made today
CURRENT = 3
#: every chance version a stored game or record may have been made with
VERSIONS = (1, 2, 3)


def whole_seed(seed: object) -> int:
    """`seed` when it is a whole number (any size, negative too), else a ValueError that
    says so: `new_state` and `cubegames.bot` take a seed as a whole number and nothing else.

    >>> whole_seed(2**70) == 2**70
    True
    >>> whole_seed(1.5)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a whole number, not 1.5
    """
    if is_whole(seed):
        return operator.index(seed)  # an int, or numpy's: np.int64(7) is a seed too
    raise ValueError(f"seed must be a whole number, not {shown(seed)}")


def entropy_seed(seed: object) -> int | None:
    """`seed` for numpy's generators (the RL environments' `reset(seed=)` and batched
    environments): None (fresh entropy) or a whole number of at least 0, else a ValueError
    that says so (numpy's own is a TypeError about its `SeedSequence`).

    >>> entropy_seed(None), entropy_seed(7)
    (None, 7)
    >>> entropy_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be None or a whole number of at least 0, not -1
    """
    if seed is None:
        return None
    if is_whole(seed):
        whole = operator.index(seed)
        if whole >= 0:
            return whole
    raise ValueError(f"seed must be None or a whole number of at least 0, not {shown(seed)}")


def seeded(seed: int) -> random.Random:
    """A private generator for `seed`: what the first deal of chance versions 1 and 2 was
    shuffled with. Kept exactly as it was."""
    return random.Random(seed)


@runtime_checkable
class Versioned(Protocol):
    """A game whose draws changed from one chance version to the next: it can still deal
    a game as an older version did (CUBED)."""

    def new_state_as(self, seed: int, version: int) -> State[Any]:
        """`new_state(seed)` with the draws of chance version `version` (one of
        `VERSIONS`; ValueError for any other)."""
        ...


def new_state(game: Game[Any], seed: int, version: int = CURRENT) -> State[Any]:
    """`game.new_state(seed)` as chance version `version` dealt it: what a game stored by
    an older release (its seed and moves) is rebuilt from. ValueError for a version that
    is not one of `VERSIONS`.

    >>> from cubegames.core.registry import make
    >>> new_state(make("unstackable"), 3, 1).to_dict() == make("unstackable").new_state(3).to_dict()
    True
    """
    if type(version) is not int or version not in VERSIONS:
        raise ValueError(f"chance version {shown(version)} is not one of {VERSIONS}")
    if version != CURRENT and isinstance(game, Versioned):
        return game.new_state_as(seed, version)
    return game.new_state(seed)


# -- chance version 1: the hash of the position --------------------------------------------


def from_position(data: Any, salt: str) -> random.Random:
    """A generator derived from a JSON-able position and a purpose (`salt`), as chance
    version 1 drew: BLAKE2b (8 bytes) of the position's JSON text (keys sorted, no
    spaces), `|` and the salt, seeding `random.Random`. Kept exactly as it was: a change
    here changes the future of every game and file of that version.

    >>> from_position({"round": 1}, "deal round 2").random() == from_position(
    ...     {"round": 1}, "deal round 2").random()
    True
    """
    text = json.dumps(data, sort_keys=True, separators=(",", ":")) + "|" + salt
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def secret(seed: int, purpose: str) -> str:
    """128 bits (32 hex digits) drawn from all of `seed` for `purpose` (chance version 1: a
    game's hidden salt, as secret as the seed it comes from).

    >>> len(secret(2**100, "cubed")), secret(2**100, "cubed") != secret(2**100 + 1, "cubed")
    (32, True)
    """
    size = max(1, (seed.bit_length() + 7) // 8)
    data = seed.to_bytes(size, "big") + b"|" + purpose.encode()
    return hashlib.blake2b(data, digest_size=16).hexdigest()
