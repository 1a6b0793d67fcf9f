"""One account per look (issue #25): `users.look` (the name's skeleton, `names.look`) becomes
unique, so that two sign-ups of look-alike names made at the same moment (each checked
before the other was stored) cannot both be stored: the second one's insert fails, and the
sign-up refuses it as it refuses any look-alike name.

A database made by the code before this (revision 0011) may hold accounts whose names look
alike (the check was not atomic). Every account keeps its name, its password and its
games; of each group of accounts sharing one look, the oldest (the lowest id) keeps the
look, and the others' look is set to NULL (a unique index admits any number of NULLs).
Nothing is lost for the check: the look they shared is still held by the oldest account,
so a new name that looks like theirs is still refused. A downgrade computes the missing
looks again from the names.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

users = sa.table(
    "users",
    sa.column("id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("look", sa.String()),
)


def upgrade() -> None:
    older = users.alias("older")
    first = sa.select(sa.func.min(older.c.id)).where(older.c.look == users.c.look).scalar_subquery()
    op.get_bind().execute(
        users.update().where(users.c.look.is_not(None), users.c.id != first).values(look=None)
    )
    op.drop_index("ix_users_look", "users")
    op.create_index("ix_users_look", "users", ["look"], unique=True)


def downgrade() -> None:
    from cubegames.server.names import look

    op.drop_index("ix_users_look", "users")
    op.create_index("ix_users_look", "users", ["look"])
    connection = op.get_bind()
    for row in connection.execute(
        sa.select(users.c.id, users.c.name).where(users.c.look.is_(None))
    ).all():
        connection.execute(users.update().where(users.c.id == row.id).values(look=look(row.name)))
