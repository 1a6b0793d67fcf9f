"""The server's faster ways to the same answers: each is checked against the plain path
over many seeded positions."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

import cubegames
from cubegames.games.cubed import EXAMPLE_OPTIONS as CUBED_OPTIONS
from cubegames.games.cubed import CubedState
from cubegames.render import web
from cubegames.server.rooms import Watchdog

SOLO: dict[str, object] = {"players": 1}


def _positions(game: Any, deal: int, rng: random.Random) -> Iterator[Any]:
    """Every position of a random game from the deal `deal`, the finished one last: one
    state, moved on after each yield by a legal move `rng` picks (the caller may draw from
    `rng` too between positions)."""
    state = game.new_state(seed=deal)
    while True:
        yield state
        if state.is_over:
            return
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("options", [*CUBED_OPTIONS, SOLO], ids=repr)
def test_cubed_hints_from_the_state_are_those_of_the_public_view(options: dict[str, Any]) -> None:
    """`state_hints` (read from the frontier the state keeps) equals `hints` (the frontier
    rebuilt from the public view's table) at every position of seeded random games, and
    after reading each position back from its dictionary."""
    game = cubegames.make("cubed", **options)
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        for state in _positions(game, seed, rng):
            plain = web.hints(game, state.public_view())
            assert web.state_hints(game, state) == plain
            if state.is_over:
                break
            if rng.random() < 0.1:
                assert web.state_hints(game, game.state_from_dict(state.to_dict())) == plain
            checked += 1
    assert checked > 100


def test_games_without_hints_have_none_either_way() -> None:
    game = cubegames.make("unstackable")
    state = game.new_state(seed=1)
    assert web.state_hints(game, state) is None is web.hints(game, state.public_view())


def _plain_cubed_view(state: Any, seat: int) -> dict[str, Any]:
    """CUBED's view as it was first written: the whole position (`to_dict`), then what
    `seat` may not see taken out."""
    out: dict[str, Any] = state.to_dict()
    out.pop("secret", None)
    out["seat"] = seat
    out["hand_sizes"] = [len(h) for h in state.hands]
    out["hands"] = [hand if i == seat else None for i, hand in enumerate(out["hands"])]
    out["bag"] = len(state.bag)
    if state.drawn and state.to_move != seat:
        out["turn"]["drawn"] = len(state.drawn)
    return out


@pytest.mark.parametrize("options", [*CUBED_OPTIONS, SOLO], ids=repr)
def test_cubed_views_are_the_position_with_the_hidden_parts_taken_out(
    options: dict[str, Any],
) -> None:
    """CUBED's `view`, made directly, equals (keys in the same order) the whole position
    with the other hands, the bag and another seat's draw3 pieces taken out, for every
    seat at every position of seeded random games; so does the public view."""
    game = cubegames.make("cubed", **options)
    for seed in range(4):
        for state in _positions(game, 2**64 + seed, random.Random(seed)):
            assert isinstance(state, CubedState)
            for seat in range(game.players):
                view = state.view(seat)
                plain = _plain_cubed_view(state, seat)
                assert view == plain and list(view) == list(plain)
                assert list(view["turn"]) == list(plain["turn"])
            public = _plain_cubed_view(state, 0)
            public["seat"], public["hands"] = None, [None] * game.players
            if state.drawn:
                public["turn"]["drawn"] = len(state.drawn)
            assert state.public_view() == public


@pytest.mark.parametrize("options", [*CUBED_OPTIONS, SOLO], ids=repr)
def test_cubed_views_sharing_table_entries_are_the_views(options: dict[str, Any]) -> None:
    """`view_sharing` (the server's: the table's entries kept from one message to the
    next) equals `view` for every seat at every position of seeded random games, through
    later rounds; a piece that stays put keeps its entry (the same object), so comparing
    two messages' tables costs nothing; and the shared entries are never changed."""
    game = cubegames.make("cubed", **options)
    for seed in range(3):
        shared: dict[Any, Any] = {}
        first: dict[int, tuple[tuple[int, ...], str]] = {}  # each entry as it was made
        before: dict[int, dict[tuple[tuple[int, ...], str], int]] = {}
        for state in _positions(game, 2**64 + seed, random.Random(seed)):
            assert isinstance(state, CubedState)
            for seat in range(game.players):
                view = state.view_sharing(seat, shared)
                plain = state.view(seat)
                assert view == plain and list(view) == list(plain)
                now = {(tuple(e["cell"]), e["slots"]): id(e) for e in view["table"]}
                for key, made in now.items():
                    assert before.get(seat, {}).get(key, made) == made  # stayed: same entry
                    first.setdefault(made, key)
                before[seat] = now
        assert shared and all(
            first[id(e)] == (tuple(e["cell"]), e["slots"]) for e in shared.values()
        )


@pytest.mark.parametrize("options", [*CUBED_OPTIONS, SOLO], ids=repr)
def test_cubed_legal_texts_are_the_legal_moves_written(options: dict[str, Any]) -> None:
    """`legal_texts` (the server's, made without the move objects) is the legal moves'
    notation, in their order, at every position of seeded random games."""
    game = cubegames.make("cubed", **options)
    for seed in range(4):
        for state in _positions(game, 2**64 + seed, random.Random(seed)):
            assert isinstance(state, CubedState)
            assert state.legal_texts() == [str(m) for m in state.legal_moves()]


@pytest.mark.parametrize("options", [{}, {"exact_counts": False}], ids=repr)
def test_unstackable_legal_texts_are_the_legal_moves_written(options: dict[str, Any]) -> None:
    """Unstackable's `legal_texts` is its legal moves' notation, in their order, at every
    position of seeded random games: both stages, `end` where the option allows it."""
    game = cubegames.make("unstackable", **options)
    stages = set()
    for seed in range(3):
        for state in _positions(game, seed, random.Random(seed)):
            assert state.legal_texts() == [str(m) for m in state.legal_moves()]
            stages.add(state.to_dict()["stage"])
    assert len(stages) == 2


@pytest.mark.anyio
@pytest.mark.virtual_time
async def test_a_watchdog_cancels_only_a_wait_that_runs_out_of_time() -> None:
    """`Watchdog` (one timer for many waits, instead of `asyncio.timeout`'s one per wait):
    many short waits over a span far longer than its limit are left alone; a long wait is
    cancelled when its limit is up, and `expired` tells that cancellation from any other.
    (On virtual time: the times are exact, and the test waits for none of them.)"""
    loop = asyncio.get_running_loop()
    dog = Watchdog(0.2)
    short = 0
    began = loop.time()
    while loop.time() - began < 0.6:  # three limits' worth of short waits
        dog.begin()
        await asyncio.sleep(0.02)
        dog.end()
        short += 1
    assert short == 30
    dog.begin()
    began = loop.time()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.sleep(5)
    assert loop.time() - began == pytest.approx(0.2)  # its limit, not the 5 s asked for
    assert dog.expired()
    dog.end()
    # a cancellation from elsewhere is not the watchdog's
    other = asyncio.current_task()
    assert other is not None
    dog.begin()
    loop.call_later(0.01, other.cancel)
    with pytest.raises(asyncio.CancelledError):
        await asyncio.sleep(5)
    assert not dog.expired()
    other.uncancel()
    dog.close()
