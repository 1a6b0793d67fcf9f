"""Take-backs (issue #24): the moves a seat took back, from which move, and when; a game's
moves keep the line played on.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "takebacks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_takebacks_game_id", "takebacks", ["game_id"])


def downgrade() -> None:
    op.drop_table("takebacks")
