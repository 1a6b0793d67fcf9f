"""Replays and a game's moves in words are computed once, off the event loop, however many
ask at the same moment, and the cache is bounded by the moves it holds: a long uploaded
record asked for by many clients costs one replay, not one a request (#25)."""

from __future__ import annotations

import asyncio
import random

import pytest

import cubegames
from cubegames.render import web
from cubegames.server.replays import Replays
from cubegames.server.storage import HUMAN, GameInfo, NewSeat, Store
from tests.server.helpers import TestClient, make_game

pytestmark = pytest.mark.anyio


def _played(store: Store, moves: int, seed: int = 5) -> GameInfo:
    """A stored CUBED game (four seats) with `moves` random moves played."""
    game = cubegames.make("cubed", players=4, rounds=10)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    played: list[tuple[int, str]] = []
    while len(played) < moves:
        seat = state.to_move
        assert seat is not None
        move = str(rng.choice(state.legal_moves()))
        state.play(move)
        played.append((seat, move))
    game_id, _tokens = store.create("cubed", game.options, seed, [NewSeat(HUMAN)] * 4, moves=played)
    info = store.load(game_id)
    assert info is not None
    return info


async def test_many_asking_at_once_for_a_long_game_replay_it_once(store: Store) -> None:
    info = _played(store, 300)
    replays = Replays()
    plies = [0, 1, 31, 32, 33, 150, 299, 300] * 2
    stepped = await asyncio.gather(*(replays.step(info, ply) for ply in plies))
    assert replays.runs == 1
    game = cubegames.make("cubed", **info.options)
    for ply, (_game, state, played) in zip(plies, stepped, strict=True):
        engine = game.new_state(seed=info.seed)
        for m in info.moves[:ply]:
            engine.play(m.move, seat=m.seat)
        assert state.to_dict() == engine.to_dict(), ply
        assert len(played) == ply

    told = await asyncio.gather(*(replays.told(info, game, over=False) for _ in range(16)))
    assert replays.tellings == 1
    assert all(t is told[0] for t in told)
    assert [m["text"] for m in told[0]] == [
        web.words(game, m.move, m.seat, None) for m in info.moves
    ]
    # a spectator reads no hidden notation while the game is in play
    assert all(
        ("move" in t) == web.visible(game, m.move, m.seat, None)
        for t, m in zip(told[0], info.moves, strict=True)
    )


async def test_a_replay_that_fails_fails_for_every_asker_and_is_not_kept(store: Store) -> None:
    from dataclasses import replace

    from cubegames.server.rooms import RoomError

    info = _played(store, 40)
    broken = replace(info, moves=(*info.moves[:-1], replace(info.moves[-1], move="no such")))
    replays = Replays()
    outcomes = await asyncio.gather(
        *(replays.step(broken, 10) for _ in range(4)), return_exceptions=True
    )
    assert all(isinstance(o, RoomError) for o in outcomes)
    assert replays.runs == 0 and not replays._flights


async def test_the_cache_keeps_at_most_its_moves(store: Store) -> None:
    first, second = _played(store, 80, seed=1), _played(store, 80, seed=2)
    replays = Replays(moves=100)
    await replays.step(first, 80)
    await replays.step(second, 80)  # over 100 moves together: the first goes
    await replays.step(second, 10)
    assert replays.runs == 2
    await replays.step(first, 80)
    assert replays.runs == 3


def test_a_games_moves_are_told_once_through_the_api(client: TestClient) -> None:
    made = make_game(client, "cubes", [{"kind": "human"}, {"kind": "human"}])
    first = client.get(f"/api/games/{made['id']}").json()
    again = client.get(f"/api/games/{made['id']}").json()
    assert first == again
    assert client.app.state.server.replays.tellings == 1  # type: ignore[attr-defined]
