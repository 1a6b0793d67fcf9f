"""What only PostgreSQL can show: its column types, a server in another time zone, one
snapshot per read, servers sharing one database, and `cubegames serve` on it.

The rest of the storage and app tests run on PostgreSQL too (`helpers.BOTH`): test_storage,
test_api (games with people and bots, a restart, records), test_rooms and the moving parts
of test_websocket.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import BigInteger, DateTime, String, event, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.types import JSON

from cubegames.server.app import create_app
from cubegames.server.storage import FINISHED, HUMAN, PLAYING, NewMove, NewSeat, Store
from tests.server import pg
from tests.server.helpers import HUMAN as HUMAN_SEAT
from tests.server.helpers import Socket, TestClient, connect, make_game, token

TWO = [NewSeat(HUMAN), NewSeat(HUMAN)]


@pytest.fixture
def backend() -> str:
    """Every test here runs on PostgreSQL (skipped, saying why, where there is none)."""
    return "postgresql"


def test_the_tables_have_postgresqls_own_types(store: Store) -> None:
    found = inspect(store.engine)
    assert found.default_schema_name is not None
    assert found.default_schema_name.startswith("test_")  # the test's own schema
    assert set(found.get_table_names()) == {
        "games",
        "seats",
        "moves",
        "leases",
        "creations",
        "takebacks",
        "bot_turns",
        "presence",
        "undo_asks",
        "users",  # accounts (`accounts`)
        "sessions",
        "seat_keys",
        "signin_attempts",
        "ratings",  # ratings (`ratings`)
        "rating_events",
        "chat_lines",
        "alembic_version",  # the schema's revision (`migrations`)
    }
    columns = {
        (table, c["name"]): c["type"]
        for table in ("games", "seats", "moves")
        for c in found.get_columns(table)
    }
    assert isinstance(columns["games", "options"], JSON)
    assert isinstance(columns["games", "result"], JSON)
    assert isinstance(columns["games", "seed"], BigInteger)
    for when in (("games", "created_at"), ("games", "finished_at"), ("moves", "played_at")):
        kind = columns[when]
        assert isinstance(kind, DateTime) and kind.timezone, when
    lengths = {key: t.length for key, t in columns.items() if isinstance(t, String)}
    assert lengths["seats", "name"] == 40 and lengths["moves", "move"] == 200
    chat = {c["name"]: c["type"] for c in found.get_columns("chat_lines")}
    assert isinstance(chat["text"], String) and chat["text"].length == 300
    assert isinstance(chat["at"], DateTime) and chat["at"].timezone
    keys = {t: found.get_pk_constraint(t)["constrained_columns"] for t in ("seats", "moves")}
    assert keys == {"seats": ["game_id", "seat"], "moves": ["game_id", "ply"]}


def test_times_come_back_in_utc_whatever_the_servers_zone(client: TestClient) -> None:
    store: Store = client.app.state.server.store
    made = make_game(client, "cubes", [HUMAN_SEAT, HUMAN_SEAT])
    with store.engine.connect() as connection:
        zone = connection.execute(text("SHOW timezone")).scalar_one()
        written = connection.execute(text("SELECT created_at::text FROM games")).scalar_one()
    assert zone == pg.SERVER_TIMEZONE and written.endswith(("+12:45", "+13:45"))
    info = store.load(made["id"])
    assert info is not None and info.created_at.tzinfo is UTC
    created = client.get(f"/api/games/{made['id']}").json()["created"]
    assert created.endswith("Z")
    moment = datetime.fromisoformat(created)
    assert abs(moment - datetime.now(UTC)) < timedelta(minutes=1)
    assert client.get(f"/api/games?ids={made['id']}").json()[0]["created"] == created


def test_a_game_is_read_from_one_snapshot(store: Store, db_url: str) -> None:
    """A move that ends the game, committed between the reads of its row and of its
    moves, shows in both or in neither (READ COMMITTED would show it in the moves only)."""
    game_id, _ = store.create("cubes", {}, 1, TWO)
    writer = Store(db_url)
    wrote: list[bool] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def meanwhile(_c: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "FROM moves" in statement and not wrote:
            wrote.append(True)
            writer.add_move(game_id, 1, 0, "roll", {"scores": [1, 0], "winners": [0]})

    try:
        info = store.load(game_id)
    finally:
        event.remove(store.engine, "before_cursor_execute", meanwhile)
        writer.close()
    assert wrote and info is not None
    assert (info.status, len(info.moves)) == (PLAYING, 0)
    now_info = store.load(game_id)
    assert now_info is not None and (now_info.status, len(now_info.moves)) == (FINISHED, 1)


def test_a_batch_of_moves_of_many_games_is_one_insert_in_one_transaction(
    store: Store, db_url: str
) -> None:
    games = [store.create("cubes", {}, i, TWO)[0] for i in range(8)]
    moves = [
        NewMove(game, ply, (ply - 1) % 2, f"m{ply}.{i}")
        for ply in range(1, 6)
        for i, game in enumerate(games)
    ]
    last = NewMove(games[0], 6, 1, "é🎲" * 100, {"scores": [1, 0], "winners": [0]})
    batch = [*moves, last]
    statements: list[tuple[str, bool]] = []
    counted: list[tuple[int, int]] = []
    elsewhere = Store(db_url)

    def during(connection: Connection) -> None:
        """Inside the transaction: every move is in, and no other connection sees one."""
        count = text("SELECT count(*) FROM moves")
        with elsewhere.engine.connect() as other:
            outside = other.execute(count).scalar_one()
        counted.append((connection.execute(count).scalar_one(), outside))

    @event.listens_for(store.engine, "before_cursor_execute")
    def note(_c: Any, _cursor: Any, statement: str, _p: Any, _x: Any, many: bool) -> None:
        statements.append((statement, many))

    try:
        store.add_moves(batch, during)
    finally:
        event.remove(store.engine, "before_cursor_execute", note)
        elsewhere.close()
    assert [many for sql, many in statements if sql.startswith("INSERT")] == [False]
    assert counted == [(len(batch), 0)]
    for i, game in enumerate(games):
        info = store.load(game)
        assert info is not None
        stored = [(m.ply, m.seat, m.move) for m in info.moves]
        wanted = [(ply, (ply - 1) % 2, f"m{ply}.{i}") for ply in range(1, 6)]
        if game == games[0]:
            wanted.append((6, 1, last.move))
        assert stored == wanted
        assert info.status == (FINISHED if game == games[0] else PLAYING)
        assert len({m.played_at for m in info.moves}) == 1


def test_servers_starting_together_on_an_empty_database_all_start(db_url: str) -> None:
    servers = 6
    start = threading.Barrier(servers)
    stores: list[Store] = []
    failures: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            stores.append(Store(db_url))
        except Exception as exc:
            failures.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(servers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert failures == []
        game_id, _ = stores[0].create("cubes", {}, 1, TWO)
        assert all(s.load(game_id) is not None for s in stores)
    finally:
        for opened in stores:
            opened.close()


def test_two_servers_on_one_database_never_both_play_a_move(db_url: str) -> None:
    """Each server serialises moves in its own memory; across servers the (game, ply) key
    does: the slower one's move is not saved, its room catches up with the stored move
    (its pages are shown it) and the move, checked again, is refused as stale."""
    with (
        TestClient(create_app(db_url, bot_delay=0)) as one,
        TestClient(create_app(db_url, bot_delay=0)) as two,
    ):
        made = make_game(one, "cubes", [HUMAN_SEAT, HUMAN_SEAT])
        seat = token(made, 0)
        with connect(one, made["id"], seat) as a:
            first = Socket(a)
            first.opening()
            with connect(two, made["id"], seat) as b:
                second = Socket(b)
                _, seen = second.opening()
                assert seen["ply"] == 0
                first.move("roll", ply=0)
                first.state(ply=1)
                second.move("roll", ply=0)
                caught_up = second.state()
                refused = second.error()
            assert caught_up["ply"] == 1
            assert refused["code"] == "stale" and "moved on" in refused["message"]
            with connect(two, made["id"], seat) as b:
                _, reloaded = Socket(b).opening()
            assert reloaded["ply"] == 1
        moves = one.get(f"/api/games/{made['id']}").json()["moves"]
        assert [m["ply"] for m in moves] == [1]


def test_no_move_is_stored_behind_moves_taken_back_on_another_server(
    store: Store, db_url: str
) -> None:
    """A move may follow only the move before it (migration 0014): one thought before
    another process took moves back is refused like a move number taken, whichever path
    stores it."""
    game_id, _ = store.create("cubes", {}, 1, TWO)
    for ply in (1, 2, 3):
        store.add_move(game_id, ply, (ply - 1) % 2, f"m{ply}", None)
    elsewhere = Store(db_url)
    try:
        assert elsewhere.take_back(game_id, 2, 3, 0, None) == ["m2", "m3"]
    finally:
        elsewhere.close()
    with pytest.raises(IntegrityError):
        store.add_move(game_id, 4, 1, "stale", None)
    with pytest.raises(IntegrityError):  # in a batch, the whole batch
        store.add_moves([NewMove(game_id, 2, 1, "again"), NewMove(game_id, 4, 1, "stale")])
    info = store.load(game_id)
    assert info is not None and [m.move for m in info.moves] == ["m1"]
    store.add_moves([NewMove(game_id, 3, 0, "m3'"), NewMove(game_id, 2, 1, "m2'")])
    info = store.load(game_id)
    assert info is not None and [m.move for m in info.moves] == ["m1", "m2'", "m3'"]


def test_a_move_waits_for_a_take_back_in_progress_and_then_follows_what_it_left(
    store: Store, db_url: str
) -> None:
    """The check waits for the game's row that a take-back holds, then looks at the moves
    the take-back left: move 4 is refused once moves 2 and 3 are gone."""
    game_id, _ = store.create("cubes", {}, 1, TWO)
    for ply in (1, 2, 3):
        store.add_move(game_id, ply, (ply - 1) % 2, f"m{ply}", None)
    elsewhere = Store(db_url)
    failures: list[BaseException] = []

    def move_four() -> None:
        try:
            store.add_move(game_id, 4, 1, "stale", None)
        except BaseException as exc:
            failures.append(exc)

    try:
        with elsewhere.engine.connect() as taking:
            taking.execute(text("SELECT 1 FROM games WHERE id = :id FOR UPDATE"), {"id": game_id})
            taking.execute(
                text("DELETE FROM moves WHERE game_id = :id AND ply >= 2"), {"id": game_id}
            )
            mover = threading.Thread(target=move_four)
            mover.start()
            waiting = text(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO moves%'"
            )
            with elsewhere.engine.connect() as look:
                while mover.is_alive() and not look.execute(waiting).scalar_one():
                    look.rollback()
                    threading.Event().wait(0.01)
            assert mover.is_alive()  # held up by the take-back
            taking.commit()
        mover.join(timeout=30)
    finally:
        elsewhere.close()
    assert len(failures) == 1 and isinstance(failures[0], IntegrityError), failures
    info = store.load(game_id)
    assert info is not None and [m.move for m in info.moves] == ["m1"]


def test_a_room_whose_moves_were_taken_back_on_another_server_shows_the_game_as_left(
    db_url: str,
) -> None:
    """A room that has not heard of a take-back made on another process (its news still on
    the way) gets its next move refused by the database: it reads the game as the take-back
    left it and shows it, and the move, a move behind, is refused as stale (before, the
    move was stored after the gap, or the room gave up and asked for a reload)."""
    with TestClient(create_app(db_url, bot_delay=0)) as one:
        made = make_game(one, "cubes", [HUMAN_SEAT, HUMAN_SEAT])
        game_id = made["id"]
        with (
            connect(one, game_id, token(made, 0)) as a,
            connect(one, game_id, token(made, 1)) as b,
        ):
            sockets = [Socket(a), Socket(b)]
            states = [s.opening()[1] for s in sockets]  # each page hears every state
            for ply in range(3):
                sockets[states[0]["to_move"]].move("roll", ply=ply)
                states = [s.state(ply=ply + 1) for s in sockets]
            elsewhere = Store(db_url)
            try:
                assert elsewhere.take_back(game_id, 2, 3, 0, None) is not None
            finally:
                elsewhere.close()
            mover = sockets[states[0]["to_move"]]
            mover.move("roll", ply=3)
            assert mover.state()["ply"] == 1
            assert mover.error()["code"] == "stale"
        moves = one.get(f"/api/games/{game_id}").json()["moves"]
        assert [m["ply"] for m in moves] == [1]


def _serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cubegames", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"},
    )


@pytest.mark.slow
def test_serve_keeps_its_games_in_postgresql(db_url: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = _serve("--port", str(port), "--db", db_url)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while process.poll() is None:
            try:
                httpx.get(f"{base}/api/catalog", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        body = {"game": "cubed", "options": {"rounds": 1}, "seats": [{"kind": "human"}] * 2}
        made = httpx.post(f"{base}/api/games", json=body, timeout=10)
        assert made.status_code == 201, made.text
        mine = made.json()["id"]
        listed = httpx.get(f"{base}/api/games?ids={mine}", timeout=10).json()
        assert [g["id"] for g in listed] == [made.json()["id"]]
    finally:
        process.terminate()
        out, err = process.communicate(timeout=10)
    assert "games are kept in postgresql+psycopg://" in out, (out, err)
    again = Store(db_url)
    try:
        assert again.load(made.json()["id"]) is not None
    finally:
        again.close()


@pytest.mark.slow
def test_serve_says_in_one_line_why_a_postgresql_database_cannot_be_opened(
    postgres: pg.Cluster,
) -> None:
    url = postgres.url(database="no_such_database")
    done = subprocess.run(
        [sys.executable, "-m", "cubegames", "serve", "--db", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot open the database" in lines[0], done.stderr
    assert 'database "no_such_database" does not exist' in lines[0]
