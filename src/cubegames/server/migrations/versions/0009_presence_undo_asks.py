"""Presence and take-back requests across server processes (issue #24): which process has
a page of which seat open (`presence`), and a take-back asked while the others answer
(`undo_asks`), so that claims and take-back requests work with `serve --workers N`.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _game_id() -> sa.Column[str]:
    return sa.Column(
        "game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )


def upgrade() -> None:
    op.create_table(
        "presence",
        _game_id(),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("owner", sa.String(32), primary_key=True),
        sa.Column("here", sa.Boolean(), nullable=False),
        sa.Column("since", sa.Double(), nullable=False),
        sa.Column("expires", sa.Double(), nullable=False),
    )
    op.create_index("ix_presence_expires", "presence", ["expires"])
    op.create_table(
        "undo_asks",
        _game_id(),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("first", sa.Integer(), nullable=False),
        sa.Column("last", sa.Integer(), nullable=False),
        sa.Column("waiting", sa.JSON(), nullable=False),
        sa.Column("agreed", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("undo_asks")
    op.drop_table("presence")
