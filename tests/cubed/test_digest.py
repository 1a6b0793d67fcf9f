"""CUBED's digest of a position up to symmetry (`games/cubed/digest.py`), the simulator's
`final` column: every symmetric image of a position shares it, and any other difference in
the position, hidden parts included, changes it."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cubegames
from cubegames.core import chance, splitmix
from cubegames.games.cubed import CubedState
from cubegames.games.cubed.digest import END_CODES, final_digest, image
from cubegames.sim.play import final_key
from cubegames.symmetry import symmetries


def played(options: dict[str, Any], seed: int, plies: int | None = None) -> CubedState:
    state = cubegames.make("cubed", **options).new_state(seed)
    assert isinstance(state, CubedState)
    rng = random.Random(seed)
    while not state.is_over and (plies is None or plies > 0):
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
        plies = None if plies is None else plies - 1
    return state


@pytest.mark.parametrize(
    ("options", "plies"),
    [
        ({"players": 3, "edition": "ja", "rounds": 2}, None),  # six symmetries (mirrors)
        ({"players": 2, "rounds": 1}, 30),  # mid-game: a seat to move
        ({"players": 3, "variants": ["draw3", "void", "bridging"], "rounds": 1}, 40),
        ({"players": 1, "edition": "ja"}, None),  # solo: pieces set aside
    ],
    ids=["ja-end", "en-mid", "variants-mid", "solo-ja"],
)
def test_every_image_of_a_position_shares_its_digest(options: dict[str, Any], plies: int) -> None:
    state = played(options, 9, plies)
    game = state.game
    digests = set()
    for sym in symmetries(game):
        twin = sym.apply_state(state)
        assert isinstance(twin, CubedState)
        digests.add(final_digest(twin))
        assert final_key(game, twin) == final_digest(twin)
    assert digests == {final_digest(state)}
    assert len(symmetries(game)) == (6 if options.get("edition") == "ja" else 3)


def test_a_hidden_difference_changes_the_digest() -> None:
    state = played({"players": 2, "rounds": 1}, 4, 20)
    data = state.to_dict()
    game = state.game
    other = game.state_from_dict(dict(data, rng=splitmix.to_text(12345)))
    assert final_digest(other) != final_digest(state)
    hands = [list(h) for h in data["hands"]]
    hands[0][0], data["bag"][0] = data["bag"][0], hands[0][0]  # a piece swapped with the bag
    swapped = game.state_from_dict(dict(data, hands=hands))
    assert final_digest(swapped) != final_digest(state)


def test_a_format_1_position_and_a_keyed_generator_are_digested_too() -> None:
    game = cubegames.make("cubed", players=2, rounds=1)
    keyed = game.new_state(2**100)
    old = chance.new_state(game, 2**100, 1)  # format 1, with a secret
    plain = chance.new_state(game, 7, 1)  # format 1, without one
    numbers = [image(s, 0, False) for s in (keyed, old, plain)]
    assert len({final_digest(s) for s in (keyed, old, plain)}) == 3
    # the generator's part: its kind, then its words
    at = 11 + 2 + 1  # the fields, two totals, no finished round
    assert numbers[0][at] == 2 and numbers[1][at] == 3 and numbers[2][at] == 0


def test_every_ending_has_its_own_number() -> None:
    assert len(set(END_CODES.values())) == len(END_CODES) and END_CODES[None] == 0
