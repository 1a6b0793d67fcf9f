"""Time controls (issue #24): a game's time control (`games.time_control`, JSON; NULL:
no clock) and its current deadline (`games.deadline`, seconds since the epoch, indexed:
the referee's look for games out of time), and the move from which a seat was handed to
the bot (`seats.zombie_from`).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("time_control", sa.JSON(none_as_null=True), nullable=True))
    op.add_column("games", sa.Column("deadline", sa.Double(), nullable=True))
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.add_column("seats", sa.Column("zombie_from", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("zombie_from")
    op.drop_index("ix_games_deadline", "games")
    with op.batch_alter_table("games") as games:
        games.drop_column("deadline")
        games.drop_column("time_control")
