"""An attacker's second look at the server after protocol 2, group commit and the bus:
each test here is an attack that worked before its fix."""

from __future__ import annotations

import json
import random

import cubegames
from cubegames.games.cubed import CubedMove, CubedState
from cubegames.server.api import server_deal
from cubegames.server.bots import bot_seed
from tests.server.helpers import HUMAN, Socket, TestClient, connect, make_game

RECORD = {
    "format": "cubegames-record",
    "version": 1,
    "game": "cubed",
    "options": {},
    "seed": 3,
    "seats": [{"kind": "human"}, {"kind": "human"}],
    "moves": [],
}


def test_a_record_with_a_number_too_long_to_read_is_a_clear_400(client: TestClient) -> None:
    """Python refuses to read an integer of more than 4300 digits with a ValueError that
    is not a JSONDecodeError: a record whose seed had 5000 digits was a 500."""
    body = json.dumps(RECORD).replace('"seed": 3', '"seed": ' + "1" * 5000)
    answer = client.post("/api/records", content=body)
    assert answer.status_code == 400, answer.text
    assert "number" in answer.json()["detail"]


def test_a_picked_seed_cannot_reach_a_remote_player_through_a_reissued_seat(
    client: TestClient,
) -> None:
    """A seed you pick is refused with an invited seat, but a game made with a seed and
    every seat at one screen has a host, who could reissue seat 1 as an invitation for a
    friend: the maker, knowing the seed, then knew the friend's hand. A game whose deal
    was picked keeps its seats at one screen."""
    made = make_game(client, "cubed", [HUMAN, HUMAN], seed=5)
    reissue = client.post(
        f"/api/games/{made['id']}/seats/1/reissue",
        headers={"Authorization": f"Bearer {made['host']}"},
    )
    assert reissue.status_code == 409, reissue.text
    assert "picked" in reissue.json()["detail"]
    # a secret deal's host may still reissue a seat
    secret = client.post("/api/games", json={"game": "cubed", "seats": [HUMAN, HUMAN]}).json()
    again = client.post(
        f"/api/games/{secret['id']}/seats/1/reissue",
        headers={"Authorization": f"Bearer {secret['host']}"},
    )
    assert again.status_code == 200 and again.json()["invite"]


def _round_end(seed: int) -> tuple[CubedState, CubedMove, CubedState] | None:
    """A 2-round 2-player game from `seed` played to the move that ends round 1: the
    position before it, the move and the position after; None unless the bag was empty
    by then (the case where a seat knows all but the order of the other's last pieces)."""
    game = cubegames.make("cubed", players=2, rounds=2)
    state = game.new_state(seed=seed)
    assert isinstance(state, CubedState)
    choices = random.Random(1)
    while True:
        moves = state.legal_moves()
        move = choices.choice([m for m in moves if "@" in str(m)] or moves)
        after = state.clone()
        after.play(move)
        if after.round == 2:
            return (state, move, after) if not state.bag else None
        state = after


def _guesses(
    before: CubedState, move: CubedMove, generator: int | None = None
) -> tuple[set[str], str]:
    """Seat 0's attack: re-deal its own view, play the round's last move, keep the guesses
    that give it its own new hand; what they say of seat 1's hand and the bag, and the truth.
    With `generator`, each guess is given that generator (which no view holds)."""
    game = before.game
    after = before.clone()
    after.play(move)
    seen = before.view(0)
    guesses = set()
    for i in range(40):
        guess = game.determinize(seen, 0, random.Random(i))
        if generator is not None:
            guess.rng = generator
        guess.play(move)
        if guess.view(0)["hands"][0] == after.view(0)["hands"][0]:
            dealt = guess.to_dict()
            guesses.add(json.dumps([dealt["hands"][1], dealt["bag"]]))
    real = after.to_dict()
    return guesses, json.dumps([real["hands"][1], real["bag"]])


def test_a_cubed_seat_cannot_work_out_the_next_rounds_deal() -> None:
    """When a round of a 2-player CUBED game ends with the bag empty, seat 0 knows all the
    position but the order of seat 1's last few pieces: seat 0 re-deals its own view (the
    engine's `determinize`) a few dozen times, plays the round's last move, keeps the
    guesses that give it its own new hand, and reads off seat 1's new hand and the whole
    bag. The next deal was drawn from a hash of that position, so this worked; it now comes
    from the position's generator, which is in no view (and for a deal the server makes,
    keyed with all 128 bits of its seed): the guesses fail. With the real generator, which
    seat 0 never sees, the same guesses would succeed."""
    assert server_deal() >= 2**64  # the seeds that key the generator
    found = next((r for r in (_round_end(2**100 + i) for i in range(60)) if r is not None), None)
    assert found is not None, "no round in 60 deals ended with the bag empty"
    before, move, _after = found
    assert before.rng is not None and before.rng >= 2**64
    assert "rng" not in json.dumps(before.view(0))
    guesses, real = _guesses(before, move)
    assert real not in guesses, "seat 1's hand leaked"
    guesses, real = _guesses(before, move, generator=before.rng)
    assert guesses == {real}


def test_a_bots_seed_is_not_the_deal_plus_its_seat(client: TestClient) -> None:
    """A server bot was seeded with the game's secret deal plus its seat: every random
    choice it made, watched by the other seats, was a function of the deal. Its seed is
    now a one-way hash of the deal and the seat."""
    made = client.post(
        "/api/games", json={"game": "cubed", "seats": [HUMAN, {"kind": "bot", "bot": "random"}]}
    ).json()
    deal = client.app.state.server.store.load(made["id"]).seed  # type: ignore[attr-defined]
    with connect(client, made["id"], made["seats"][0]["token"]) as session:
        Socket(session).opening()
        bot = client.app.state.server.runner.bots[made["id"]][1]  # type: ignore[attr-defined]
        assert bot.seed != deal + 1 and bot.seed.bit_length() > 64
        assert bot.seed == bot_seed(deal, 1)  # the same bot after a restart
