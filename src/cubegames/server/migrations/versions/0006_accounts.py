"""Accounts and ratings (issue #25): users and their sessions, seats bound to an account
(`seats.user_id`) and the credentials its signed-in browsers were given (`seat_keys`),
rated tables (`games.rated`, `games.rating_done`), ratings and their history. Every game
already stored is unrated and every seat a guest's.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("password", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("expires", sa.Double(), nullable=False),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])
    op.create_table(
        "seat_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_seat_keys_game_id", "seat_keys", ["game_id"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_table(
        "rating_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("player", sa.String(128), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_events_game_id", "rating_events", ["game_id"])
    op.create_index("ix_rating_events_player", "rating_events", ["player"])
    op.add_column(
        "games", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.text("FALSE"))
    )
    op.add_column(
        "games",
        sa.Column("rating_done", sa.Boolean(), nullable=False, server_default=sa.text("FALSE")),
    )
    # SQLite cannot add a foreign key to a table but inline with a new column; a batch
    # copy of the table is no way either (dropping the old games or seats table would
    # cascade to the rows that refer to it)
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE seats ADD COLUMN user_id INTEGER REFERENCES users (id)")
    else:
        op.add_column("seats", sa.Column("user_id", sa.Integer(), nullable=True))
        op.create_foreign_key("fk_seats_user_id", "seats", "users", ["user_id"], ["id"])
    op.create_index("ix_seats_user_id", "seats", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_user_id", "seats")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE seats DROP COLUMN user_id")
    else:
        op.drop_constraint("fk_seats_user_id", "seats", type_="foreignkey")
        op.drop_column("seats", "user_id")
    op.drop_column("games", "rating_done")
    op.drop_column("games", "rated")
    op.drop_table("rating_events")
    op.drop_table("ratings")
    op.drop_table("seat_keys")
    op.drop_table("sessions")
    op.drop_table("users")
