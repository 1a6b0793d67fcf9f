"""Group commit: moves of many games arriving while one batch is written go together in
the next transaction; a move whose number is taken fails alone."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

import pytest
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from cubegames.server.storage import HUMAN, NewMove, NewSeat, Store
from cubegames.server.writer import Writer
from tests.server.helpers import BOTH, run

pytestmark = BOTH


class SlowDisk(Store):
    """A store whose transactions take 50 ms each (a slow sync), counting them."""

    transactions = 0

    def add_moves(
        self, moves: Sequence[NewMove], during: Callable[[Connection], None] | None = None
    ) -> None:
        self.transactions += 1
        time.sleep(0.05)
        super().add_moves(moves, during)


def test_moves_arriving_together_share_transactions_and_a_taken_one_fails_alone(
    db_url: str,
) -> None:
    store = SlowDisk(db_url)
    games = [store.create("cubes", {}, i, [NewSeat(HUMAN), NewSeat(HUMAN)])[0] for i in range(20)]
    writer = Writer(store)
    moves = [NewMove(g, ply, (ply - 1) % 2, "roll") for ply in (1, 2, 3) for g in games]
    taken = NewMove(games[0], 1, 0, "stop")  # move 1 of game 0 is in the batch already

    async def write_all() -> list[BaseException | None]:
        return await asyncio.gather(
            *(writer.write(m) for m in [*moves, taken]), return_exceptions=True
        )

    try:
        outcomes = run(write_all())
    finally:
        writer.close()
    assert outcomes[:-1] == [None] * len(moves)
    assert isinstance(outcomes[-1], IntegrityError)
    for game in games:
        info = store.load(game)
        assert info is not None and [m.move for m in info.moves] == ["roll"] * 3
    # 61 moves: a first batch, then the rest together; that batch fails on the taken move
    # and is written again one move at a time
    assert writer.written == len(moves) and writer.batches <= 3
    store.close()


def test_a_closed_writer_starts_again_on_the_next_move(db_url: str) -> None:
    store = Store(db_url)
    game, _ = store.create("cubes", {}, 1, [NewSeat(HUMAN), NewSeat(HUMAN)])
    writer = Writer(store)
    run(writer.write(NewMove(game, 1, 0, "roll")))
    writer.close()
    run(writer.write(NewMove(game, 2, 1, "roll")))
    writer.close()
    info = store.load(game)
    assert info is not None and len(info.moves) == 2
    with pytest.raises(IntegrityError):
        run(writer.write(NewMove(game, 2, 1, "roll")))
    writer.close()
    store.close()
