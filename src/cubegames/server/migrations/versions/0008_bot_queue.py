"""The bots' queue (issue #24): bot turns waiting for a `cubegames bots work` worker
(`bot_turns`, one row per game at most; see `server.botqueue`).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_turns",
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("bot", sa.String(120), nullable=False),
        sa.Column("person", sa.Boolean(), nullable=False),
        sa.Column("made", sa.Double(), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Double(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(200), nullable=True),
        sa.Column("failure", sa.Text(), nullable=True),
    )
    op.create_index("ix_bot_turns_made", "bot_turns", ["made"])


def downgrade() -> None:
    op.drop_table("bot_turns")
