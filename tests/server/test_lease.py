"""Leases in the database (`lease.DatabaseLeases`), two processes' worth on one database
and one clock the test moves: a lease is one process's at a time, lasts its term unless
renewed, and a process that stops renewing loses its games to the other."""

from __future__ import annotations

import pytest

from cubegames.server.lease import DatabaseLeases
from cubegames.server.storage import HUMAN, NewSeat, Store
from tests.server.helpers import BOTH

pytestmark = [pytest.mark.anyio, BOTH]


async def test_a_lease_is_one_processes_until_it_expires_unrenewed(store: Store) -> None:
    game_id, _tokens = store.create("cubes", {"players": 2}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])
    moment = [1000.0]
    first = DatabaseLeases(store, seconds=10.0, clock=lambda: moment[0])
    second = DatabaseLeases(store, seconds=10.0, clock=lambda: moment[0])
    assert await first.take(game_id)
    assert not await second.take(game_id)
    assert await second.orphans() == []

    moment[0] += 9.0
    assert await first.renew() == set()  # renewed: good for 10 s from now
    moment[0] += 9.0
    assert await second.orphans() == [] and not await second.take(game_id)

    moment[0] += 10.5  # the first process stalled: nothing renewed for longer than the term
    assert await second.orphans() == [game_id]
    assert await second.take(game_id)
    assert await first.renew() == {game_id}  # lost: its runner stops the game's bots
    assert not await first.take(game_id)

    await second.give(game_id)
    assert await first.take(game_id)  # given back: taken at once, no wait for the term
