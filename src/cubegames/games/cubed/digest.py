"""A CUBED position as whole numbers, and its digest up to symmetry (the simulator's `final`).

`image(state, turns, mirrored)` writes the whole position (hidden parts included) as a list
of whole numbers, under a symmetry of `games.cubed.symmetry` (mirror if `mirrored`, then
turn by 120° `turns` times); `final_digest(state)` is BLAKE2b (8 bytes) of the game's
options and the least of those lists over the game's symmetries, so that two positions in
one orbit share it. The batch kernel (`batch_games`) writes the same numbers from its arrays
for the final positions of the games it plays and digests them alike (`digest`), without
writing the position out as text; the tests hold the two to each other.

The numbers, in order (a piece is `top * 64 + left * 8 + right`, colour indexes of the
edition, a held piece written counter-clockwise from any diamond; a list is its length, then
its items):

- `players`, `round`, `starter`, the ending (`END_CODES`), the seat to move (-1: none),
  `drew`, `bonus`, `give` (0 or 1), `draws`, `idle`, `stuck`;
- each seat's total; the finished rounds, a list of (ending, winner or -1, each seat's
  score);
- the generator: 1 and its SplitMix64 state as two 32-bit words (high first), or 2 and a
  keyed state as six, or 3 and a format 1 `secret` as four, or 0 (a format 1 position
  without a secret);
- the table in the order laid, a list of (q, r, the piece as placed: slots top, left,
  right);
- each seat's hand, the bag, the pieces set aside and the draw3 pieces drawn (lists).

>>> import cubegames
>>> game = cubegames.make("cubed", players=2, rounds=1)
>>> len(final_digest(game.new_state(3)))
16
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Iterable

from cubegames.core import splitmix
from cubegames.core.hexgrid import unpack
from cubegames.games.cubed.pieces import Piece
from cubegames.games.cubed.state import (
    BAG_EMPTY,
    BLOCKED,
    EMPTIED,
    STALLED,
    STANDSTILL,
    STUCK,
    CubedState,
)
from cubegames.games.cubed.symmetry import mirror_closed

#: an ending's number (the kernel's `compiled_rules.EMPTIED`... are the same numbers)
END_CODES: dict[str | None, int] = {
    None: 0,
    EMPTIED: 1,
    BLOCKED: 2,
    STALLED: 3,
    STANDSTILL: 4,
    STUCK: 5,
    BAG_EMPTY: 6,
}


def _held(pieces: Iterable[Piece], mirrored: bool) -> list[int]:
    out: list[int] = []
    for a, b, c in pieces:
        out.append(a * 64 + c * 8 + b if mirrored else a * 64 + b * 8 + c)
    return out


def _words(value: int, count: int) -> list[int]:
    """`value` as `count` 32-bit words, the most significant first."""
    return [(value >> (32 * (count - 1 - i))) & 0xFFFFFFFF for i in range(count)]


def image(state: CubedState, turns: int, mirrored: bool) -> list[int]:
    """The position's numbers under the symmetry `(turns, mirrored)` (see the module)."""
    players = state.game.players
    to_move = state.to_move
    out = [
        players,
        state.round,
        state.starter,
        END_CODES[state.end],
        -1 if to_move is None else to_move,
        int(state.drew),
        int(state.bonus),
        int(state.give),
        state.draws,
        state.idle,
        state.stuck,
        *state.totals,
        len(state.past_rounds),
    ]
    for past in state.past_rounds:
        winner = past["winner"]
        out += [END_CODES[past["end"]], -1 if winner is None else winner, *past["scores"]]
    if state.rng is not None and state.rng >= splitmix.KEYED:
        out += [2, *_words(state.rng, 6)]
    elif state.rng is not None:
        out += [1, *_words(state.rng, 2)]
    elif state.secret is not None:
        out += [3, *_words(int(state.secret, 16), 4)]
    else:
        out.append(0)
    out.append(len(state.table))
    for cell, (a, b, c) in state.table.items():
        q, r = unpack(cell)
        if mirrored:
            q = -q - r
            b, c = c, b
        for _ in range(turns):
            q, r = r, -q - r
            a, b, c = c, a, b
        out += [q, r, a * 64 + b * 8 + c]
    for pieces in (*state.hands, state.bag, state.aside, state.drawn):
        out.append(len(pieces))
        out += _held(pieces, mirrored)
    return out


def digest(options: bytes, numbers: bytes) -> str:
    """BLAKE2b (8 bytes, hex) of a game's options (`options_text`) and a position's
    numbers as little-endian 64-bit integers."""
    return hashlib.blake2b(options + numbers, digest_size=8).hexdigest()


def options_text(options: object) -> bytes:
    """The options as they open the digested bytes: JSON, keys sorted, no spaces, then `|`."""
    return json.dumps(options, sort_keys=True, separators=(",", ":")).encode() + b"|"


def final_digest(state: CubedState) -> str:
    """The digest of the least image of `state` under its game's symmetries: the three
    turns, and for a mirror-closed box (JA) the three mirrors too."""
    game = state.game
    mirrors = (False, True) if mirror_closed(game) else (False,)
    least = min(image(state, turns, mirrored) for mirrored in mirrors for turns in range(3))
    return digest(options_text(game.options), struct.pack(f"<{len(least)}q", *least))
