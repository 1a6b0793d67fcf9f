"""The database's schema is made and upgraded by the Alembic migrations in
`cubegames.server.migrations`: they make exactly the tables `storage` declares, and a
database made before them (by the release before, `tests/data/server-before-alembic.*`,
or by the first release) is upgraded in place and keeps every game: it loads, replays and
plays on."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text

from cubegames.server import migrations
from cubegames.server.app import create_app
from cubegames.server.storage import Base, Store
from tests.server.helpers import BOTH, Socket, TestClient, connect

DATA = Path(__file__).resolve().parents[1] / "data"
BEFORE = DATA / "server-before-alembic.sqlite3"
MADE = json.loads((DATA / "server-before-alembic.json").read_text())


def _differences(url: str) -> list[Any]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))
    finally:
        engine.dispose()


@BOTH
def test_the_migrations_make_exactly_the_tables_storage_declares(db_url: str) -> None:
    Store(db_url).close()
    assert _differences(db_url) == []
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert migrations.current(connection) == migrations.head()
    engine.dispose()


@BOTH
def test_a_database_of_the_first_release_is_upgraded_and_keeps_its_game(db_url: str) -> None:
    """The first release's tables, made before the migrations existed (no
    `alembic_version`), holding a game: opening it adds every later column and table,
    and the game loads as it was, with the defaults of the columns added."""
    engine = create_engine(db_url)
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), migrations.FIRST)
        connection.execute(text("DROP TABLE alembic_version"))
        connection.execute(
            text(
                "INSERT INTO games (id, game, options, seed, status, created_at) VALUES "
                "('old1', 'unstackable', '{}', 7, 'playing', '2026-11-22 10:00:00+00:00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO seats (game_id, seat, kind, token_hash) VALUES "
                "('old1', 0, 'human', 'a'), ('old1', 1, 'human', 'b')"
            )
        )
    engine.dispose()
    store = Store(db_url)
    try:
        info = store.load("old1")
        assert info is not None and info.seed == 7 and info.status == "playing"
        assert [(s.invited, s.reissued) for s in info.seats] == [(False, 0), (False, 0)]
    finally:
        store.close()
    assert _differences(db_url) == []


@pytest.fixture
def before(tmp_path: Path) -> Path:
    """A copy of the database made by the release before the migrations."""
    copy = tmp_path / "games.sqlite3"
    shutil.copyfile(BEFORE, copy)
    return copy


def _rows(path: Path) -> dict[str, Any]:
    with sqlite3.connect(path) as raw:
        games = raw.execute("SELECT id, status, seed, deal, result FROM games").fetchall()
        moves = raw.execute("SELECT game_id, ply, seat, move FROM moves ORDER BY 1, 2").fetchall()
        seats = raw.execute(
            "SELECT game_id, seat, kind, bot, name, token_hash, invited, reissued "
            "FROM seats ORDER BY 1, 2"
        ).fetchall()
    return {"games": sorted(games), "moves": moves, "seats": seats}


def test_the_database_of_the_release_before_is_upgraded_in_place_and_keeps_every_game(
    before: Path,
) -> None:
    kept = _rows(before)
    with sqlite3.connect(before) as raw:  # made before the migrations: nothing stamped
        assert "alembic_version" not in {
            r[0] for r in raw.execute("SELECT name FROM sqlite_master")
        }
    url = f"sqlite:///{before}"
    Store(url).close()  # upgraded, and no bot has played on yet
    assert _rows(before) == kept  # every row as it was: the upgrade only added
    assert _differences(url) == []
    # the app resumes the bots of the games in play: moves may be added after these
    with TestClient(create_app(url, bot_delay=0)) as client:
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert set(listed) == set(MADE["games"].values())
        for game_id, status, *_ in kept["games"]:
            detail = client.get(f"/api/games/{game_id}").json()
            assert detail["status"] == status
            stored = [m for m in kept["moves"] if m[0] == game_id]
            assert [(m["seat"], m["move"]) for m in detail["moves"]][: len(stored)] == [
                (m[2], m[3]) for m in stored
            ]
            last = client.get(f"/api/games/{game_id}/replay", params={"ply": len(stored)})
            assert last.status_code == 200 and last.json()["over"] == (status == "finished")
        finished = MADE["games"]["finished"]
        record = client.get(f"/api/games/{finished}/record")
        assert (
            record.status_code == 200 and len(record.json()["moves"]) == listed[finished]["moves"]
        )
    with sqlite3.connect(before) as raw:
        assert raw.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (migrations.head(),)
        ]


def _play_one(client: TestClient, game_id: str, token: str) -> tuple[int, int]:
    """Play the first legal move with the seat of `token` once it is to move; the game's
    move number before it and after it."""
    with connect(client, game_id, token) as session:
        socket = Socket(session)
        _hello, state = socket.opening()
        while state["to_move"] != state["seat"]:
            state = socket.state()
        socket.move(state["legal"][0], state["ply"])
        return state["ply"], int(socket.state(state["ply"] + 1)["ply"])


def test_the_games_in_play_of_the_release_before_play_on_after_the_upgrade(
    before: Path,
) -> None:
    """A seat's credential from before still opens its seat and moves (and the bot
    answers); a reissued seat's invitation is claimed; the host still reissues."""
    games, tokens = MADE["games"], MADE["tokens"]
    with TestClient(create_app(f"sqlite:///{before}", bot_delay=0)) as client:
        against_bot = games["cubed_playing"]
        was, now = _play_one(client, against_bot, tokens[against_bot][0])
        assert was >= 6 and now == was + 1  # six moves stored before, perhaps a bot's since
        fresh = games["cubed_new"]
        assert _play_one(client, fresh, tokens[fresh][0]) == (0, 1)

        reissued = games["cubes_reissued"]
        claimed = client.post(f"/api/games/{reissued}/claim", json={"invite": tokens[reissued][1]})
        assert claimed.status_code == 200 and claimed.json()["seat"] == 1
        again = client.post(
            f"/api/games/{reissued}/seats/1/reissue",
            headers={"Authorization": f"Bearer {MADE['hosts'][reissued]}"},
        )
        assert again.status_code == 200
        seats = client.get(f"/api/games/{reissued}").json()["seats"]
        assert seats[1]["invited"] and seats[1]["reissued"] == 2
