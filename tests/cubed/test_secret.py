"""A server-dealt game's hidden secret: it keeps later deals out of any seat's reach.

Later rounds' deals (and draw3 returns) come from a hash of the position. At the end of a
round a seat sees nearly all of that position, so without a secret in it a seat could try
the few orders it cannot see until one reproduces its own new hand, and so learn every
other hand and the bag (the attack is in tests/server/security/test_audit.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cubegames
from cubegames.games.cubed import CubedState

BIG = 2**100 + 12345  # a seed as the web server deals them (128 bits)


def round_end(seed: int) -> tuple[Any, dict[str, Any], str]:
    """A 2-round game from `seed` played at random up to the move that ends round 1:
    the game, the position before that move, and the move."""
    game = cubegames.make("cubed", players=2, rounds=2)
    state = game.new_state(seed)
    rng = random.Random(1)
    while True:
        before = state.to_dict()
        move = rng.choice(state.legal_moves())
        state.play(move)
        if state.round == 2:
            return game, before, str(move)


def next_round(game: Any, position: dict[str, Any], move: str) -> CubedState:
    state = game.state_from_dict(position)
    state.play(move)
    assert isinstance(state, CubedState)
    return state


def test_only_server_sized_seeds_have_a_secret_and_no_view_shows_it() -> None:
    game = cubegames.make("cubed")
    assert "secret" not in game.new_state(7).to_dict()  # hand-picked seeds play as before
    state = game.new_state(BIG)
    secret = state.to_dict()["secret"]
    assert len(secret) == 32 and secret == game.new_state(BIG).to_dict()["secret"]
    assert secret != game.new_state(BIG + 1).to_dict()["secret"]
    for seen in (state.view(0), state.view(1), state.public_view()):
        assert "secret" not in seen and secret not in repr(seen)


def test_the_secret_round_trips_and_a_clone_keeps_it() -> None:
    game = cubegames.make("cubed")
    state = game.new_state(BIG)
    assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
    assert state.clone().to_dict() == state.to_dict()


def test_the_next_rounds_deal_turns_on_the_secret() -> None:
    game, before, move = round_end(BIG)
    dealt = next_round(game, before, move)
    assert next_round(game, before, move).to_dict() == dealt.to_dict()  # still reproducible
    other = dict(before, secret="0" * 32)
    guessed = next_round(game, other, move)
    assert guessed.hands != dealt.hands
    without = {k: v for k, v in before.items() if k != "secret"}
    assert next_round(game, without, move).hands != dealt.hands


@pytest.mark.parametrize(
    ("secret", "words"),
    [
        ("abc", "32 lowercase hex digits"),
        ("G" * 32, "32 lowercase hex digits"),
        (12, 'field "secret"'),
    ],
)
def test_a_bad_secret_is_refused_with_its_field_named(secret: Any, words: str) -> None:
    game = cubegames.make("cubed")
    data = dict(game.new_state(BIG).to_dict(), secret=secret)
    with pytest.raises(ValueError, match=words):
        game.state_from_dict(data)
