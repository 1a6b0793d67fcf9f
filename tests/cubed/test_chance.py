"""CUBED's chance: one generator from the seed on (chance version 3), kept in the position
(format 2) and hidden from every seat; chance version 2, whose first deal Python's generator
shuffled; and format 1 (files without a version, games of chance version 1), which keeps no
generator and draws from a hash of the position as the code before format 2 did
(`games/cubed/formats.py`; tests/cubed/test_format1.py and test_chance2.py replay those
versions' games)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

import cubegames
from cubegames.core import chance, splitmix
from cubegames.games.cubed import CubedState
from cubegames.games.cubed.formats import VERSION

BIG = 2**100 + 12345  # a seed as the web server deals them (128 bits)


def round_end(seed: int, variants: tuple[str, ...] = ()) -> tuple[Any, dict[str, Any], str]:
    """A 2-round game from `seed` played at random up to the move that ends round 1:
    the game, the position before that move, and the move."""
    game = cubegames.make("cubed", players=2, rounds=2, variants=variants)
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


def test_the_generator_is_in_the_position_and_in_no_view() -> None:
    game = cubegames.make("cubed", players=3)
    for seed, digits in ((7, 16), (BIG, 48)):
        state = game.new_state(seed)
        data = state.to_dict()
        assert data["version"] == VERSION and len(data["rng"]) == digits
        assert data["rng"] == game.new_state(seed).to_dict()["rng"]
        assert data["rng"] != game.new_state(seed + 1).to_dict()["rng"]
        for seen in (state.view(0), state.view(2), state.public_view()):
            assert "rng" not in seen and data["rng"] not in json.dumps(seen)
    assert "secret" not in game.new_state(BIG).to_dict()


@pytest.mark.parametrize("seed", [42, 0, 2**63 - 1, 2**64 - 1, BIG, -5])
def test_the_first_deal_comes_from_the_seeds_generator(seed: int) -> None:
    """Chance version 3: the seed starts the generator (`splitmix.from_seed`), which
    shuffles the box for the first deal; the position keeps it from there."""
    game = cubegames.make("cubed")
    pieces = list(game.edition.pieces)
    after = splitmix.shuffle(splitmix.from_seed(seed), pieces)
    state = game.new_state(seed)
    assert state.hands == [pieces[:25], pieces[25:50]] and state.bag == pieces[50:]
    assert state.rng == after
    assert chance.new_state(game, seed, 3).to_dict() == state.to_dict()


def test_chance_version_2_dealt_with_pythons_generator() -> None:
    """`new_state_as(seed, 2)`: the first deal `random.Random(seed)`'s shuffle of the box,
    the position's generator that generator's next 64 bits (or keyed, for a big seed)."""
    game = cubegames.make("cubed")
    for seed in (42, BIG):
        pieces = list(game.edition.pieces)
        dealer = random.Random(seed)
        dealer.shuffle(pieces)
        state = game.new_state_as(seed, 2)
        assert state.hands[0] == pieces[:25] and state.bag == pieces[50:]
        assert state.rng == splitmix.first(seed, dealer)
        assert state.to_dict()["version"] == VERSION  # the same format as version 3
        assert state.hands != game.new_state(seed).hands


def test_a_solo_deal_draws_its_setup_from_the_same_generator() -> None:
    """Solo's set-up (blocking pieces put back, the starting piece's turn) draws on from
    the generator that dealt; version 2 drew it from Python's."""
    game = cubegames.make("cubed", players=1)
    for seed in range(6):
        state = game.new_state(seed)
        draws = splitmix.Draws(splitmix.from_seed(seed))
        expected = CubedState(game)
        expected.deal(draws)
        assert state.to_dict() == dict(expected.to_dict(), rng=splitmix.to_text(draws.state))
        old = game.new_state_as(seed, 2)
        dealer = random.Random(seed)
        again = CubedState(game)
        again.deal(dealer)
        assert (old.table, old.hands, old.bag) == (again.table, again.hands, again.bag)


def test_the_next_rounds_deal_comes_from_the_generator_alone() -> None:
    game, before, move = round_end(5)
    dealt = next_round(game, before, move)
    assert next_round(game, before, move).to_dict() == dealt.to_dict()  # reproducible
    # the deal is the box shuffled by the generator, which moves on by the draws it made
    pieces = list(game.edition.pieces)
    after = splitmix.shuffle(splitmix.from_text(before["rng"]), pieces)
    assert dealt.hands == [pieces[:25], pieces[25:50]]
    assert dealt.bag == pieces[50:] and dealt.rng == after
    # text that changes nothing of the rules (here an empty "aside" written out) no
    # longer changes the deal, as it did while the deal was drawn from the position's text
    assert "aside" not in before
    assert next_round(game, dict(before, aside=[]), move).hands == dealt.hands
    other = dict(before, rng=splitmix.to_text(12345))
    assert next_round(game, other, move).hands != dealt.hands


def test_draw3_returns_come_from_the_generator() -> None:
    game = cubegames.make("cubed", players=2, variants=["draw3"])
    state = game.new_state(3)
    state.play("draw3:3")
    kept = state.legal_moves()[0]
    before = state.to_dict()
    state.play(kept)
    again = game.state_from_dict(before)
    again.play(kept)
    assert again.bag == state.bag and again.rng == state.rng != splitmix.from_text(before["rng"])
    moved = game.state_from_dict(dict(before, rng=splitmix.to_text(1)))
    moved.play(kept)
    assert sorted(moved.bag) == sorted(state.bag) and moved.rng != state.rng


def test_a_seat_cannot_work_out_the_next_deal_without_the_generator() -> None:
    """A search bot's re-deal of what a seat sees draws a fresh generator: the next round's
    deal of a guess is not the real one, while with the real generator (which no view
    holds) the same guess is."""
    game, before, move = round_end(BIG)
    real = next_round(game, before, move)
    seen = game.state_from_dict(before).view(0)
    guess = game.determinize(seen, 0, random.Random(3))
    assert guess.rng != real.rng
    guess.play(move)
    assert guess.hands[0] != real.hands[0]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"rng": "abc"}, 'field "rng": must be 16 or 48'),
        ({"rng": "G" * 16}, 'field "rng": must be 16 or 48'),
        ({"rng": 12}, 'field "rng" is missing or not a string'),
        ({"rng": None}, 'field "rng" is missing'),
        ({"rng": "0" * 48}, "key that is not 0"),
        ({"version": 3}, 'field "version": 3 is not a CUBED position format'),
        ({"version": 1}, 'no "version" for format 1'),
        ({"version": 2.0}, 'field "version"'),
        ({"version": "2"}, 'field "version"'),
        ({"version": True}, 'field "version"'),
        ({"secret": "0" * 32}, 'field "secret": only format 1'),
    ],
)
def test_a_bad_generator_or_version_is_refused_with_its_field_named(
    change: dict[str, Any], words: str
) -> None:
    game = cubegames.make("cubed")
    data = dict(game.new_state(BIG).to_dict(), **change)
    with pytest.raises(ValueError, match=words):
        game.state_from_dict(data)


# -- format 1 files (no "version"): later draws from a hash of the position ---------------------


def format_1(data: dict[str, Any], secret: str | None = None) -> dict[str, Any]:
    """`data` as the code before format 2 wrote it: no version, no generator."""
    old = {k: v for k, v in data.items() if k not in ("version", "rng")}
    if secret is not None:
        old["secret"] = secret
    return old


def old_draws(position: dict[str, Any], purpose: str) -> random.Random:
    """The generator the code before format 2 drew from (written out here, not imported):
    BLAKE2b, 8 bytes, of the position's sorted compact JSON text, "|" and the purpose."""
    text = json.dumps(position, sort_keys=True, separators=(",", ":")) + "|" + purpose
    return random.Random(
        int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    )


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], str]]:
    """Every position (and purpose) that a format 1 draw is taken from, in order."""
    asked: list[tuple[dict[str, Any], str]] = []
    real = chance.from_position

    def spy(data: dict[str, Any], purpose: str) -> random.Random:
        asked.append((data, purpose))
        return real(data, purpose)

    monkeypatch.setattr(chance, "from_position", spy)
    return asked


def test_a_format_1_file_stays_format_1_and_deals_from_the_hash_of_the_position(
    hashed: list[tuple[dict[str, Any], str]],
) -> None:
    game, before, move = round_end(5)
    old = format_1(before)
    state = game.state_from_dict(old)
    assert state.rng is None and state.to_dict() == old  # api.md: to_dict(from_dict(d)) == d
    assert state.clone().to_dict() == old
    state.play(move)  # ends round 1: the next deal is the first draw after the first deal
    # hashed: the position as it stood when round 1 was scored, written in format 1
    ((position, purpose),) = hashed
    assert purpose == "deal round 2" and "version" not in position
    assert position["to_move"] is None and position["end"] is not None
    assert position["round"] == 1 and len(position["past_rounds"]) == 1
    pieces = list(game.edition.pieces)
    old_draws(position, purpose).shuffle(pieces)
    assert state.hands == [pieces[:25], pieces[25:50]] and state.bag == pieces[50:]
    written = state.to_dict()
    assert "version" not in written and "rng" not in written and state.rng is None
    assert game.state_from_dict(written).to_dict() == written
    again = game.state_from_dict(old)
    again.play(move)
    assert again.to_dict() == written  # the same every time


def test_a_format_1_draw3_return_comes_from_the_hash_of_the_position(
    hashed: list[tuple[dict[str, Any], str]],
) -> None:
    game = cubegames.make("cubed", players=2, variants=["draw3"])
    state = game.new_state_as(3, 1)
    state.play("draw3:3")
    kept = state.legal_moves()[0]
    state.play(kept)
    # hashed: the position with the kept piece in hand and the other two still drawn
    ((position, purpose),) = hashed
    assert purpose == "draw3 return" and "version" not in position
    assert len(position["turn"]["drawn"]) == 2 and len(position["hands"][0]) == 26
    bag, draws = list(position["bag"]), old_draws(position, purpose)
    for returned in position["turn"]["drawn"]:
        bag.insert(draws.randint(0, len(bag)), returned)
    assert state.to_dict()["bag"] == bag and state.rng is None


def test_a_format_1_file_with_a_secret_keeps_it_hidden_and_in_the_hash() -> None:
    game, before, move = round_end(BIG)
    old = format_1(before, secret="ab" * 16)
    state = game.state_from_dict(old)
    assert state.to_dict() == old
    state.play(move)
    assert state.to_dict()["secret"] == "ab" * 16 and state.rng is None
    for seen in (state.view(0), state.view(1), state.public_view()):
        assert "ab" * 16 not in json.dumps(seen) and "secret" not in seen
    other = game.state_from_dict(format_1(before, secret="cd" * 16))
    other.play(move)
    assert other.hands != state.hands  # the secret, which no seat saw, decides the deal


def test_a_game_of_chance_version_1_is_dealt_as_before_format_2() -> None:
    """`new_state_as(seed, 1)`: the same first deal as chance version 2, in format 1, with
    the secret the code before format 2 gave a server's deal (`chance.secret(seed,
    "cubed")`)."""
    game = cubegames.make("cubed", players=3)
    for seed in (7, BIG):
        old, two = game.new_state_as(seed, 1), game.new_state_as(seed, 2)
        assert old.hands == two.hands and old.bag == two.bag and old.rng is None
        assert game.new_state_as(seed, 3).to_dict() == game.new_state(seed).to_dict()
        data = old.to_dict()
        assert "version" not in data and "rng" not in data
        assert data.get("secret") == (chance.secret(seed, "cubed") if seed == BIG else None)
    for version in (0, 4, True, "3"):
        with pytest.raises(ValueError, match="chance version"):
            game.new_state_as(7, version)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"rng": "00000000000000ff"}, 'field "rng": a format 1 position'),
        ({"secret": "abc"}, 'field "secret": must be 32 lowercase hex digits'),
        ({"secret": 12}, 'field "secret"'),
    ],
)
def test_a_bad_format_1_file_is_refused_with_its_field_named(
    change: dict[str, Any], words: str
) -> None:
    game = cubegames.make("cubed")
    data = dict(format_1(game.new_state(7).to_dict()), **change)
    with pytest.raises(ValueError, match=words):
        game.state_from_dict(data)
