"""Alembic's environment: the migrations run on the connection `migrations.upgrade`
hands over, or, from the `alembic` command line, on the database of `-x db=URL`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from cubegames.server.storage import Base

settings = context.config
connection = settings.attributes.get("connection")


def _run(on: Connection) -> None:
    context.configure(connection=on, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:
    url = context.get_x_argument(as_dictionary=True).get("db")
    if not url:
        raise SystemExit("alembic: give the database, as in: alembic -x db=sqlite:///x.sqlite3 ...")
    with create_engine(url).begin() as opened:
        _run(opened)
