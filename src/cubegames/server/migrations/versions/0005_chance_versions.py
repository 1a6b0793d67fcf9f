"""The chance version each game was made with (`games.chance`): the games stored before it
were dealt by chance version 1 (CUBED drew its later deals and draw3 returns from a hash of
the position), and are replayed that way; the games made from here on store the version
they are dealt in, 2 today (`core.chance`, docs/positions.md). The column's default, 1, is
what the rows already stored get.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("chance", sa.Integer(), nullable=False, server_default=sa.text("1")),
    )


def downgrade() -> None:
    op.drop_column("games", "chance")
