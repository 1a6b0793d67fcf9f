"""128-bit deals (`games.deal`), hosts (`games.host_hash`), one-time invitations and
reissues (`seats.invited`, `seats.reissued`), bot leases (`leases`) and the shared count
of games made (`creations`).

Releases before the migrations added these one by one, so a database they made may hold
some of them already: each is added only where it is missing.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

COLUMNS: dict[str, list[sa.Column[object]]] = {
    "games": [
        sa.Column("deal", sa.String(80), nullable=True),
        sa.Column("host_hash", sa.String(64), nullable=True),
    ],
    "seats": [
        sa.Column("invited", sa.Boolean(), nullable=False, server_default=sa.text("FALSE")),
        sa.Column("reissued", sa.Integer(), nullable=False, server_default=sa.text("0")),
    ],
}


def upgrade() -> None:
    found = sa.inspect(op.get_bind())
    for table, columns in COLUMNS.items():
        have = {c["name"] for c in found.get_columns(table)}
        for column in columns:
            if column.name not in have:
                op.add_column(table, column)
    if not found.has_table("leases"):
        op.create_table(
            "leases",
            sa.Column(
                "game_id",
                sa.String(24),
                sa.ForeignKey("games.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("owner", sa.String(32), nullable=False),
            sa.Column("expires", sa.Double(), nullable=False),
        )
        op.create_index("ix_leases_expires", "leases", ["expires"])
    if not found.has_table("creations"):
        op.create_table(
            "creations",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column("client", sa.String(64), nullable=False),
            sa.Column("at", sa.Double(), nullable=False),
        )
        op.create_index("ix_creations_client", "creations", ["client"])
        op.create_index("ix_creations_at", "creations", ["at"])


def downgrade() -> None:
    op.drop_table("creations")
    op.drop_table("leases")
    for table, columns in COLUMNS.items():
        for column in columns:
            op.drop_column(table, column.name)
