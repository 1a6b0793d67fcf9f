"""The database's schema is made and upgraded by the Alembic migrations in
`cubegames.server.migrations`: they make exactly the tables `storage` declares, and a
database made before them (by the release before, `tests/data/server-before-alembic.*`,
or by the first release) is upgraded in place and keeps every game: it loads, replays and
plays on. The games stored before chance version 2 (`tests/data/server-format1.*`: CUBED
games past their first deal, made by that release) are of chance version 1 and replay to
exactly the positions that release gave them; their records say so."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text

import cubegames
from cubegames.core import chance
from cubegames.server import migrations
from cubegames.server.app import create_app
from cubegames.server.protocol import read_record
from cubegames.server.records import load_record, to_record
from cubegames.server.replays import Replays
from cubegames.server.rooms import Room, replay
from cubegames.server.storage import Base, NewSeat, Store
from tests.server.helpers import BOTH, HUMAN, Socket, TestClient, connect, make_game

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
        ids = ",".join(MADE["games"].values())  # private, as every game made before
        assert client.get("/api/games").json() == []
        listed = {g["id"]: g for g in client.get(f"/api/games?ids={ids}").json()}
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


# -- chance version 1: games stored before chance version 2 replay with its draws ---------------

FORMAT1 = DATA / "server-format1.sqlite3"
#: `scripts/server_db_format1.py`, run with the code of commit 35f0638: its games' ids and
#: credentials, and the position of every game of both databases after its last stored move
#: as that code rebuilt it
OLD = json.loads((DATA / "server-format1.json").read_text())
DATABASES = {
    "before-alembic": (BEFORE, "before_alembic_positions"),
    "format1": (FORMAT1, "positions"),
}


@pytest.fixture(params=sorted(DATABASES))
def old_db(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A copy of a database made by the release before chance version 2, and the position
    that release rebuilt for each of its games."""
    source, key = DATABASES[request.param]
    copy = tmp_path / "games.sqlite3"
    shutil.copyfile(source, copy)
    return copy, OLD[key]


def _read_only(path: Path) -> sqlite3.Connection:
    """A committed database file read as it is (no journal files made beside it)."""
    return sqlite3.connect(f"file:{path}?immutable=1", uri=True)


def test_the_old_databases_hold_what_chance_version_1_changes() -> None:
    """The games of `server-format1.sqlite3` are CUBED games that drew after their first
    deal (a later round, draw3 returns, a finished 3-round match), one with a secret."""
    positions = OLD["positions"]
    rounds = {name: positions[OLD["games"][name]].get("round") for name in OLD["games"]}
    assert rounds["cubed_round2"] == 2 and rounds["cubed_bot"] == 2
    assert rounds["cubed_finished"] == 3 and positions[OLD["games"]["cubed_finished"]]["end"]
    assert "secret" in positions[OLD["games"]["cubed_round2"]]
    with closing(_read_only(FORMAT1)) as raw:
        keeps = raw.execute(
            "SELECT count(*) FROM moves WHERE game_id = ? AND move LIKE 'keep:%'",
            (OLD["games"]["cubed_draw3"],),
        ).fetchone()[0]
    assert keeps >= 4


def test_every_old_game_is_of_chance_version_1_and_replays_to_its_stored_position(
    old_db: tuple[Path, dict[str, Any]],
) -> None:
    path, positions = old_db
    kept = _rows(path)
    store = Store(f"sqlite:///{path}")  # upgraded in place
    try:
        assert set(positions) == {row[0] for row in kept["games"]}
        for game_id, position in positions.items():
            info = store.load(game_id)
            assert info is not None and info.chance == 1
            # the room's rebuild, the replays' and a record's, each to the very position
            assert replay(info)[1].to_dict() == position
            assert Replays().at(info, len(info.moves))[1].to_dict() == position
            record = to_record(info)
            assert record["chance"] == 1 and record["seed"] == info.seed
            loaded = load_record(read_record(json.dumps(record).encode()))
            assert loaded.chance == 1 and [m for _, m in loaded.moves] == record["moves"]
    finally:
        store.close()
    assert _rows(path) == kept


def _seat_to_move(position: dict[str, Any]) -> int:
    seat = position["to_move"]
    assert isinstance(seat, int)
    return seat


def test_the_old_games_in_play_play_on_from_their_own_positions(tmp_path: Path) -> None:
    """Each CUBED game in play (and the CUBES one) opens to the seat to move with the hand
    the old release dealt it, takes a move, and a bot answers from the right position; a
    game made now is of the current chance version."""
    path = tmp_path / "games.sqlite3"
    shutil.copyfile(FORMAT1, path)
    url = f"sqlite:///{path}"
    games, tokens, positions = OLD["games"], OLD["tokens"], OLD["positions"]
    with TestClient(create_app(url, bot_delay=0)) as client:
        for name in ("cubed_round2", "cubed_draw3", "cubed_bot", "cubes_playing"):
            game_id = games[name]
            position = positions[game_id]
            seat = _seat_to_move(position)
            with connect(client, game_id, tokens[game_id][seat]) as session:
                socket = Socket(session)
                _hello, state = socket.opening()
                game = cubegames.make(position["game"], **position["options"])
                assert state["view"] == game.state_from_dict(position).view(seat), name
                socket.move(state["legal"][0], state["ply"])
                after = socket.state(state["ply"] + 1)
                if name == "cubed_bot":  # the bot (seat 1) answers
                    after = socket.until(
                        lambda m, me=seat: m["type"] == "state" and m["to_move"] == me
                    )
                assert after["ply"] > state["ply"]
        made = make_game(client, "cubed", [HUMAN, HUMAN], {"players": 2})
        finished = games["cubed_finished"]
        record = client.get(f"/api/games/{finished}/record")
        assert record.status_code == 200 and record.json()["chance"] == 1
    store = Store(url)
    try:
        fresh = store.load(made["id"])
        assert fresh is not None and fresh.chance == chance.CURRENT
        for name in ("cubed_round2", "cubed_draw3", "cubed_bot"):
            info = store.load(games[name])
            assert info is not None and info.chance == 1
            # what was played on replays: the room's moves were the rules' of version 1
            assert replay(info)[1].to_dict()["round"] == positions[info.id]["round"]
    finally:
        store.close()


@pytest.mark.anyio
async def test_a_room_catching_up_with_stored_moves_deals_as_the_game_was_dealt(
    tmp_path: Path,
) -> None:
    """A room a few moves behind (another server played them) takes the stored moves in,
    through the next round's deal: it reaches the old release's position."""
    path = tmp_path / "games.sqlite3"
    shutil.copyfile(FORMAT1, path)
    store = Store(f"sqlite:///{path}")
    try:
        info = store.load(OLD["games"]["cubed_round2"])
        assert info is not None
        game, state, _ = replay(info)
        first = chance.new_state(game, info.seed, info.chance)
        dealt = 0  # the move that ended round 1 (and dealt round 2)
        while first.to_dict()["round"] == 1:
            first.play(info.moves[dealt].move)
            dealt += 1
        behind = dealt - 3
        _, state, played = replay(info, behind)
        room = Room(info, game, state, played, store)
        assert room.ply == behind and await room.catch_up()
        assert room.ply == len(info.moves)
        assert room.state.to_dict() == OLD["positions"][info.id]
    finally:
        store.close()


def test_an_old_record_uploaded_again_replays_to_the_old_releases_end(tmp_path: Path) -> None:
    """The finished 3-round match's record (chance 1) loads as a new game of chance
    version 1, which ends where the old release's did; the same record claiming chance
    version 2 does not replay to its result, and is refused."""
    path = tmp_path / "games.sqlite3"
    shutil.copyfile(FORMAT1, path)
    url = f"sqlite:///{path}"
    finished = OLD["games"]["cubed_finished"]
    with TestClient(create_app(url, bot_delay=0)) as client:
        record = client.get(f"/api/games/{finished}/record").json()
        without = {k: v for k, v in record.items() if k != "chance"}  # as old records are
        loaded = client.post("/api/records", content=json.dumps(without))
        assert loaded.status_code == 201, loaded.text
        claimed = client.post("/api/records", content=json.dumps({**record, "chance": 2}))
        assert claimed.status_code == 400
    store = Store(url)
    try:
        info = store.load(loaded.json()["id"])
        assert info is not None and info.chance == 1
        assert replay(info)[1].to_dict() == OLD["positions"][finished]
    finally:
        store.close()


#: the columns of a game's rows copied from one database into another
TABLES_0001 = {
    "games": ("id", "game", "options", "seed", "deal", "status", "created_at"),
    "seats": ("game_id", "seat", "kind", "token_hash"),
    "moves": ("game_id", "ply", "seat", "move", "played_at"),
}


@BOTH
def test_a_database_at_the_revision_before_gets_chance_version_1_for_its_games(
    db_url: str,
) -> None:
    """On SQLite and PostgreSQL alike: the tables as revision 0002 made them, holding a
    CUBED game of the old release in its round 2, are upgraded; the game is of chance
    version 1 and replays to the old release's position."""
    game_id = OLD["games"]["cubed_round2"]
    rows: dict[str, list[dict[str, Any]]] = {}
    with closing(_read_only(FORMAT1)) as raw:
        raw.row_factory = sqlite3.Row
        for table, columns in TABLES_0001.items():
            rows[table] = [
                dict(r)
                for r in raw.execute(
                    f"SELECT {', '.join(columns)} FROM {table} WHERE "
                    f"{'id' if table == 'games' else 'game_id'} = ?",
                    (game_id,),
                )
            ]
    engine = create_engine(db_url)
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0002")
        for table, columns in TABLES_0001.items():
            names = ", ".join(columns)
            values = ", ".join(f":{c}" for c in columns)
            connection.execute(
                text(f"INSERT INTO {table} ({names}) VALUES ({values})"), rows[table]
            )
    engine.dispose()
    store = Store(db_url)
    try:
        info = store.load(game_id)
        assert info is not None and info.chance == 1 and len(info.moves) == len(rows["moves"])
        assert replay(info)[1].to_dict() == OLD["positions"][game_id]
        made, _ = store.create("cubed", info.options, 7, [NewSeat("human"), NewSeat("human")])
        fresh = store.load(made)
        assert fresh is not None and fresh.chance == chance.CURRENT
    finally:
        store.close()
    assert _differences(db_url) == []


ACCOUNTS_BEFORE = DATA / "server-before-accounts.sqlite3"
ACCOUNTS_MADE = json.loads((DATA / "server-before-accounts.json").read_text())


def test_a_database_made_before_accounts_is_upgraded_and_its_guests_games_move_into_accounts(
    tmp_path: Path,
) -> None:
    """The database of the code before accounts (scripts/server_db_before_accounts.py, at
    revision 0005): upgraded in place, every game keeps its moves, every seat credential
    still opens its seat, and a guest's seat moves into the account made with it."""
    from tests.server.accounting import browser, post, quick_app, sign_up

    copy = tmp_path / "games.sqlite3"
    shutil.copyfile(ACCOUNTS_BEFORE, copy)
    kept = _rows(copy)
    url = f"sqlite:///{copy}"
    Store(url).close()
    assert _rows(copy) == kept
    with sqlite3.connect(copy) as raw:
        assert raw.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (migrations.head(),)
        ]
        assert raw.execute("SELECT count(*) FROM users").fetchone() == (0,)
        assert set(raw.execute("SELECT rated, rating_done FROM games").fetchall()) == {(0, 0)}
    assert _differences(url) == []
    app = quick_app(url)
    with browser(app) as client:
        for entry in ACCOUNTS_MADE.values():
            detail = client.get(f"/api/games/{entry['id']}").json()
            assert [[m["seat"], m["move"]] for m in detail["moves"]] == entry["moves"]
        bot_game = ACCOUNTS_MADE["cubes_bot"]
        with connect(client, bot_game["id"], bot_game["tokens"][0]) as session:
            hello, _state = Socket(session).opening()
            assert hello["seat"] == 0
        invited = ACCOUNTS_MADE["cubed_invite"]
        sign_up(client, "ada", seats=[{"game": bot_game["id"], "token": bot_game["tokens"][0]}])
        assert [g["id"] for g in client.get("/api/account/games").json()] == [bot_game["id"]]
        claimed = post(
            client, f"/api/games/{invited['id']}/claim", json={"invite": invited["invites"][1]}
        )
        assert claimed.status_code == 200 and claimed.json()["seat"] == 1


@BOTH
def test_accounts_of_one_look_made_before_0012_keep_their_names_and_one_keeps_the_look(
    db_url: str,
) -> None:
    """A database of revision 0011 may hold accounts whose names look alike (its check
    was not atomic): the upgrade keeps every account (each still signs in), the oldest of
    each look keeps it, the others' look is NULL, the look becomes unique, and a new
    look-alike is still refused; a downgrade computes the looks again from the names."""
    from cubegames.server.names import look, name_key
    from tests.server.accounting import PASSWORD, QUICK, SAME, browser, quick_app, sign_in

    made = ["adal", "AdaI", "Oscar", "ada|", "0scar", "Bea"]  # ids 1..6, oldest first
    assert look("adal") == look("AdaI") == look("ada|") and look("Oscar") == look("0scar")
    engine = create_engine(db_url)
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), "0011")
        connection.execute(
            text(
                "INSERT INTO users (id, name, key, look, password, created_at) "
                "VALUES (:id, :name, :key, :look, :password, :at)"
            ),
            [
                {
                    "id": i,
                    "name": name,
                    "key": name_key(name),
                    "look": look(name),
                    "password": QUICK.hash(PASSWORD),
                    "at": "2026-11-27 10:00:00+00:00",
                }
                for i, name in enumerate(made, 1)
            ],
        )
    engine.dispose()
    Store(db_url).close()  # upgraded to the head
    assert _differences(db_url) == []
    engine = create_engine(db_url)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT id, name, look FROM users ORDER BY id")).all()
    engine.dispose()
    assert [(r.id, r.name) for r in rows] == list(enumerate(made, 1))
    assert [r.look for r in rows] == ["adal", None, "oscar", None, None, "bea"]
    app = quick_app(db_url)
    with browser(app) as client:
        for name, code in (("ada1", "error-name-confusable"), ("AdaI", "error-name-taken")):
            answer = client.post(
                "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=SAME
            )
            assert answer.status_code == 409 and answer.json()["code"] == code, answer.text
    for name in ("ada|", "0scar"):  # an account whose look went keeps its sign-in
        with browser(app) as client:
            assert sign_in(client, name).status_code == 200
    with engine.begin() as connection:
        command.downgrade(migrations.config(connection), "0011")
        looks = connection.execute(text("SELECT look FROM users ORDER BY id")).scalars().all()
    engine.dispose()
    assert looks == [look(name) for name in made]
