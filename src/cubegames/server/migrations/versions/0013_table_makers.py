"""Who opened each public table that still waits for players (`games.maker`): a hash of
the client's address, so that one client may keep only a few tables open in the lobby at
once (`Limits.open_tables_per_client`) instead of filling it with tables nobody will play.
It is written only for public tables and cleared when the game ends; the games stored
before it have none (they count for nobody).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("maker", sa.String(64), nullable=True))
    op.create_index("ix_games_maker", "games", ["maker"])


def downgrade() -> None:
    op.drop_index("ix_games_maker", "games")
    op.drop_column("games", "maker")
