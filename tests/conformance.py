"""The contract every registered game must keep, checked by random playouts.

`check_game(game_id, options, seeds)` plays seeded random games and checks, at every step:
legal moves exist until the end and never raise; notation round-trips; `to_dict` round-trips
through JSON; `view(seat)` is JSON-able and does not depend on anything that seat cannot
see (two states that differ only in hidden parts give equal views); illegal moves raise
`IllegalMove` and leave the state untouched; clones are independent; the game ends; and the
same seed and moves give the same game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cubegames
from cubegames.core.game import State

MAX_STEPS = 20_000


def roundtrip(state: State[Any]) -> None:
    data = state.to_dict()
    text = json.dumps(data)
    again = state.game.state_from_dict(json.loads(text))
    assert again.to_dict() == data
    assert again.legal_moves() == state.legal_moves()
    assert again.to_move == state.to_move


def check_views(state: State[Any], rng: random.Random) -> None:
    game = state.game
    public = state.public_view()
    json.dumps(public)
    if state.views_alike:  # said so, its spectators see view(0) uncompared: it must be true
        first = {k: v for k, v in state.view(0).items() if k != "seat"}
        for seat in range(1, game.players):
            assert {k: v for k, v in state.view(seat).items() if k != "seat"} == first
    for seat in range(game.players):
        other = game.determinize(state.view(seat), seat, rng)
        assert other.public_view() == public, "a spectator's view depends on hidden parts"
    for seat in range(game.players):
        view = state.view(seat)
        json.dumps(view)
        other = game.determinize(view, seat, rng)
        assert other.view(seat) == view, "a view changed when only hidden parts did"
        if seat == state.to_move:
            assert other.legal_moves() == state.legal_moves(), "legal moves leak hidden parts"


def check_refusals(state: State[Any], stranger: list[Any], rng: random.Random) -> None:
    before = state.to_dict()
    legal = {str(m) for m in state.legal_moves()}
    for text in ["", "nonsense", "@@@", "0" * 50]:
        with pytest.raises(cubegames.IllegalMove):
            state.play(text)
        assert state.to_dict() == before
    for move in rng.sample(stranger, min(len(stranger), 5)):
        if str(move) in legal:
            continue
        assert not state.is_legal(move)
        with pytest.raises(cubegames.IllegalMove) as refusal:
            state.play(move)
        assert str(refusal.value), "a refusal must say why"
        assert state.to_dict() == before
    if state.to_move is not None and state.game.players > 1:
        wrong = (state.to_move + 1) % state.game.players
        with pytest.raises(cubegames.IllegalMove, match="turn"):
            state.play(state.legal_moves()[0], seat=wrong)
        assert state.to_dict() == before


def playout(game_id: str, options: dict[str, Any], seed: int, *, deep: bool) -> State[Any]:
    game = cubegames.make(game_id, **options)
    state = game.new_state(seed=seed)
    assert game.new_state(seed=seed).to_dict() == state.to_dict(), "same seed, same deal"
    bot = cubegames.bot("random", seed=seed)
    rng = random.Random(seed)
    history: list[str] = []
    seen_moves: list[Any] = []
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        moves = state.legal_moves()
        assert moves, "no legal move in a game that is not over"
        assert len({str(m) for m in moves}) == len(moves), "a move is listed twice"
        for move in moves:
            assert game.parse_move(str(move)) == move
        if deep or rng.random() < 0.1:
            roundtrip(state)
            check_views(state, rng)
            check_refusals(state, seen_moves, rng)
        scores = state.scores()
        assert len(scores) == game.players
        assert state.winners() == []
        move = bot.choose(state)
        if rng.random() < 0.05:
            before = state.to_dict()
            twin = state.clone()
            twin.play(move)
            assert state.to_dict() == before, "playing on a clone changed the original"
            roundtrip(twin)
        seen_moves.extend(rng.sample(moves, min(3, len(moves))))
        state.play(str(move) if rng.random() < 0.5 else move)
        history.append(str(move))
    roundtrip(state)
    assert state.legal_moves() == []
    with pytest.raises(cubegames.IllegalMove, match="over"):
        state.play(history[-1])
    assert set(state.winners()) <= set(range(game.players))
    replay = game.new_state(seed=seed)
    for text in history:
        replay.play(text)
    assert replay.to_dict() == state.to_dict(), "the same moves gave a different game"
    return state


def check_clone(game_id: str, options: dict[str, Any], seed: int) -> None:
    state = cubegames.make(game_id, **options).new_state(seed=seed)
    before = state.to_dict()
    twin = state.clone()
    bot = cubegames.bot("random", seed=seed)
    for _ in range(10):
        if twin.is_over:
            break
        twin.play(bot.choose(twin))
    assert state.to_dict() == before, "playing on a clone changed the original"
