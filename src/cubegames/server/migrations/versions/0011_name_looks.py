"""What each account's name looks like (issue #25): `users.look`, the name's skeleton
(`names.look`, after Unicode's confusables), so that no new name may look like an
account's ("ada1" beside "adal", a Cyrillic "а" for a Latin "a"). Existing accounts get
theirs computed here, with the code of this release; two existing accounts whose names
look alike both keep theirs (the column is not unique).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from cubegames.server.names import look

    op.add_column("users", sa.Column("look", sa.String(160), nullable=True))
    op.create_index("ix_users_look", "users", ["look"])
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("look", sa.String()),
    )
    connection = op.get_bind()
    for row in connection.execute(sa.select(users.c.id, users.c.name)).all():
        connection.execute(users.update().where(users.c.id == row.id).values(look=look(row.name)))


def downgrade() -> None:
    op.drop_index("ix_users_look", "users")
    op.drop_column("users", "look")
