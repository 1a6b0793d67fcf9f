"""The storage layer, on SQLite and on PostgreSQL: what goes in comes back the same, and
what the server counts on the database for holds on both."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from cubegames.core import chance
from cubegames.server.storage import (
    BOT,
    FINISHED,
    HUMAN,
    PLAYING,
    NewSeat,
    SeatInfo,
    Store,
    Unstorable,
    now,
)
from tests.server.helpers import BOTH

pytestmark = BOTH

TWO = [NewSeat(HUMAN), NewSeat(HUMAN)]
RESULT = {"scores": [3, 1.5], "winners": [0]}


def _raw(store: Store, sql: str, game_id: str) -> tuple[object, ...]:
    with store.engine.connect() as connection:
        return tuple(connection.execute(text(sql), {"id": game_id}).one())


def test_a_game_comes_back_as_it_was_stored(store: Store) -> None:
    # the longest text each column takes, in letters that are two or more bytes in UTF-8
    name, spec, long_move = "é" * 39 + "🎲", "b" * 120, "m" * 200
    options = {"players": 2, "nested": {"list": [1, 2.5, None, True, "ü"]}}
    seats = [NewSeat(HUMAN, None, name), NewSeat(BOT, spec)]
    before = now()
    game_id, tokens = store.create(
        "cubes", options, 2**63 - 1, seats, [(0, "roll"), (1, long_move)]
    )
    after = now()
    info = store.load(game_id)
    assert info is not None and info.id == game_id
    assert (info.game, info.options, info.seed) == ("cubes", options, 2**63 - 1)
    assert (info.status, info.result, info.finished_at) == (PLAYING, None, None)
    assert info.seats == (SeatInfo(0, HUMAN, None, name), SeatInfo(1, BOT, spec, None))
    assert [(m.ply, m.seat, m.move) for m in info.moves] == [(1, 0, "roll"), (2, 1, long_move)]
    for moment in (info.created_at, *(m.played_at for m in info.moves)):
        assert moment.utcoffset() == timedelta(0) and before <= moment <= after
    assert [store.seat_of(game_id, t) for t in (*tokens, "forged")] == [0, 1, None]
    other, _ = store.create("cubes", {}, 1, TWO)
    assert store.seat_of(other, tokens[0]) is None
    assert store.load("nothing") is None


def test_a_game_keeps_the_chance_version_it_was_dealt_in(store: Store) -> None:
    new, _ = store.create("cubed", {}, 1, TWO)
    old, _ = store.create("cubed", {}, 1, TWO, chance=1)
    loaded = [store.load(g) for g in (new, old)]
    assert [i.chance if i is not None else None for i in loaded] == [chance.CURRENT, 1]
    assert _raw(store, "SELECT chance FROM games WHERE id = :id", old) == (1,)
    for bad in (0, 4):
        with pytest.raises(ValueError, match="chance version"):
            store.create("cubed", {}, 1, TWO, chance=bad)
    assert len(store.summaries()) == 2  # nothing stored of a refused one


def test_a_result_is_sql_null_until_the_game_ends(store: Store) -> None:
    game_id, _ = store.create("cubes", {}, 1, TWO)
    query = "SELECT result IS NULL, finished_at IS NULL FROM games WHERE id = :id"
    assert _raw(store, query, game_id) == (True, True)
    store.add_move(game_id, 1, 0, "roll", None)
    store.add_move(game_id, 2, 1, "stop", RESULT)
    assert _raw(store, query, game_id) == (False, False)
    info = store.load(game_id)
    assert info is not None and (info.status, info.result) == (FINISHED, RESULT)
    assert info.finished_at is not None and info.finished_at.utcoffset() == timedelta(0)
    assert info.finished_at >= info.created_at


def test_a_ply_is_stored_once_and_a_refused_write_changes_nothing(store: Store) -> None:
    game_id, _ = store.create("cubes", {}, 1, TWO)
    store.add_move(game_id, 1, 0, "roll", None)
    with pytest.raises(IntegrityError):
        store.add_move(game_id, 1, 1, "other", RESULT)
    info = store.load(game_id)
    assert info is not None and [m.move for m in info.moves] == ["roll"]
    assert (info.status, info.result) == (PLAYING, None)
    store.add_move(game_id, 2, 1, "next", None)  # the pool's connections are fine after it
    with pytest.raises(IntegrityError):
        store.add_move("no-such-game", 1, 0, "roll", None)


def test_writers_racing_for_one_ply_leave_one_move(store: Store) -> None:
    game_id, _ = store.create("cubes", {}, 1, TWO)
    writers = 8
    start = threading.Barrier(writers)

    def write(i: int) -> bool:
        start.wait()
        try:
            store.add_move(game_id, 1, i % 2, f"move{i}", None)
        except IntegrityError:
            return False
        return True

    with ThreadPoolExecutor(writers) as pool:
        won = list(pool.map(write, range(writers)))
    assert won.count(True) == 1
    winner = won.index(True)
    info = store.load(game_id)
    assert info is not None
    assert [(m.ply, m.seat, m.move) for m in info.moves] == [(1, winner % 2, f"move{winner}")]


@pytest.mark.parametrize(
    ("seats", "moves", "field"),
    [
        ([NewSeat(HUMAN, None, "An\x00a"), NewSeat(HUMAN)], [], "seats.0.name: a NUL"),
        ([NewSeat(HUMAN), NewSeat(BOT, "greedy\x00")], [], "seats.1.bot: a NUL"),
        ([NewSeat(HUMAN, None, "An\udc00a"), NewSeat(HUMAN)], [], "seats.0.name: a lone"),
        (TWO, [(0, "roll"), (1, "ro\x00ll")], "moves.2: a NUL"),
        ([NewSeat(HUMAN, None, "é" * 41), NewSeat(HUMAN)], [], "seats.0.name: at most 40"),
        ([NewSeat(HUMAN), NewSeat(BOT, "b" * 121)], [], "seats.1.bot: at most 120"),
        (TWO, [(0, "m" * 201)], "moves.1: at most 200"),
    ],
)
def test_text_the_database_cannot_hold_is_refused_before_anything_is_stored(
    store: Store, seats: list[NewSeat], moves: list[tuple[int, str]], field: str
) -> None:
    with pytest.raises(Unstorable, match=field):
        store.create("cubes", {}, 1, seats, moves)
    assert store.summaries() == []
    game_id, _ = store.create("cubes", {}, 1, TWO)
    with pytest.raises(Unstorable, match="move: a NUL"):
        store.add_move(game_id, 1, 0, "roll\x00", None)
    info = store.load(game_id)
    assert info is not None and info.moves == ()


def test_games_are_listed_newest_first_with_their_move_counts(store: Store) -> None:
    first, _ = store.create("cubes", {"players": 2}, 1, TWO)
    second, _ = store.create("stakd", {}, 2, [NewSeat(HUMAN, None, "Ana"), NewSeat(BOT, "greedy")])
    third, _ = store.create("cubes", {}, 3, TWO, [(0, "roll")], RESULT)
    store.add_move(first, 1, 0, "roll", None)
    store.add_move(first, 2, 1, "roll", None)
    listed = store.summaries()
    assert [(g.id, g.moves, g.status) for g in listed] == [
        (third, 1, FINISHED),
        (second, 0, PLAYING),
        (first, 2, PLAYING),
    ]
    assert listed[1].seats == (SeatInfo(0, HUMAN, None, "Ana"), SeatInfo(1, BOT, "greedy", None))
    assert listed[0].result == RESULT and listed[2].options == {"players": 2}
    assert all(g.created_at.utcoffset() == timedelta(0) for g in listed)
    assert [g.id for g in store.summaries(PLAYING)] == [second, first]
    assert [g.id for g in store.summaries(FINISHED)] == [third]
    assert [g.id for g in store.summaries(limit=1)] == [third]


def test_a_store_opened_again_on_the_same_database_finds_everything(
    store: Store, db_url: str
) -> None:
    game_id, tokens = store.create("cubes", {"players": 2}, 9, TWO)
    store.add_move(game_id, 1, 0, "roll", None)
    again = Store(db_url)  # as after a restart: the tables are there already
    try:
        assert again.load(game_id) == store.load(game_id)
        assert again.seat_of(game_id, tokens[1]) == 1
        again.add_move(game_id, 2, 1, "roll", None)
    finally:
        again.close()
    info = store.load(game_id)
    assert info is not None and len(info.moves) == 2


def test_a_game_id_never_begins_with_a_dash(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """An id is URL-safe text; one beginning with "-" would be read as an option by a
    command line (the remote bot example's `URL ID`), so such a draw is drawn again."""
    import secrets

    draws, real = iter(["-dash-id", "-again-", "k3_-x9Qa"]), secrets.token_urlsafe
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(draws) if n == 6 else real(n))
    game_id, _tokens = store.create("cubes", {}, 1, TWO)
    assert game_id == "k3_-x9Qa"
    assert store.load(game_id) is not None
