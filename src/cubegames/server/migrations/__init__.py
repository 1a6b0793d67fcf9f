"""The database schema's history, as Alembic migrations shipped inside the package, and
`upgrade`, run by `storage.Store` whenever a server opens its database (SQLite or
PostgreSQL): an empty database gets every table, an older one is brought up to date in
place, keeping every game.

- `versions/0001_first_release.py`: games, seats and moves as the first release made them;
- `versions/0002_deals_invitations_leases.py`: 128-bit deals, hosts and invitations
  (columns), bot leases and the shared count of games made (tables).
- `versions/0003_time_controls.py`, `versions/0004_takebacks.py`: time controls and each
  move's time (deadlines stored with the game), and the moves taken back;
- `versions/0005_chance_versions.py`: the chance version each game was made with
  (`games.chance`: 1 for every game stored before it, whose CUBED draws came from a hash of
  the position; 2 for the games made since), which the game is replayed in;
- `versions/0007_lobby_chat.py`: public tables, picked deals, the spectators' chat switch,
  the host's seat (`games` columns) and the tables' chat (`chat_lines`).

A database made before the migrations existed (its tables made by `create_all` and a
hand-written `ALTER TABLE` at start) has no `alembic_version` table: it is stamped as the
first release, and the second migration adds what it lacks, whichever of the releases
between made it.

A change to the tables in `storage` comes with a new migration (`alembic revision
--autogenerate` with `alembic.ini` at the project's root, or written by hand), and
`tests/server/test_migrations.py` checks that the migrations make exactly the tables that
`storage` declares. See docs/server.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

if TYPE_CHECKING:
    from alembic.config import Config

# alembic is imported where it is used: a process that never opens a database (a command
# line tool's --help) does not pay for it

HERE = Path(__file__).parent
#: the revision of the first release's tables
FIRST = "0001"
#: the PostgreSQL advisory lock held while the schema is upgraded ("cubegame" as a number):
#: servers starting together on one database upgrade it once, one after the other
SCHEMA_LOCK = int.from_bytes(b"cubegame", "big")


def config(connection: Connection | None = None) -> Config:
    """Alembic's settings for this package's migrations (on `connection`, if given)."""
    from alembic.config import Config

    settings = Config()
    settings.set_main_option("script_location", str(HERE))
    if connection is not None:
        settings.attributes["connection"] = connection
    return settings


def head() -> str:
    """The newest revision."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    """The revision the database is at (None: no migration has run on it)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection) -> None:
    """Bring the database of `connection` up to the newest revision, inside the
    connection's transaction (on PostgreSQL under `SCHEMA_LOCK`)."""
    from alembic import command

    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
    if current(connection) is None and inspect(connection).has_table("games"):
        command.stamp(config(connection), FIRST)  # made before the migrations existed
    command.upgrade(config(connection), "head")


__all__ = ["FIRST", "SCHEMA_LOCK", "config", "current", "head", "upgrade"]
