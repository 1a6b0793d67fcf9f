"""The lobby and the tables' chat (issue #25): a game may be made public (`games.public`:
listed in the lobby while it has free seats, and in the public list of games), its deal may
have been picked by its maker (`games.deal_picked`: the maker knows every hand, so the game
is never rated; the games stored before it whose seed a person could have picked, those
without a 128-bit `deal`, are marked so), the host may close its spectators' chat
(`games.spectators_chat`), the host's own seat is kept (`games.host_seat`, for the
lobby's list), and each table keeps its chat lines (`chat_lines`, the newest
`chat.HISTORY` of each channel).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.text("FALSE")),
    )
    op.add_column(
        "games",
        sa.Column("deal_picked", sa.Boolean(), nullable=False, server_default=sa.text("FALSE")),
    )
    op.add_column(
        "games",
        sa.Column("spectators_chat", sa.Boolean(), nullable=False, server_default=sa.text("TRUE")),
    )
    op.add_column("games", sa.Column("host_seat", sa.Integer(), nullable=True))
    # a seed a person picks fits the 64-bit column; the server's deals (128 bits) do not
    op.execute("UPDATE games SET deal_picked = TRUE WHERE deal IS NULL")
    op.create_index("ix_games_public", "games", ["public"])
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("who", sa.String(40), nullable=True),
        sa.Column("text", sa.String(300), nullable=True),
        sa.Column("system", sa.String(32), nullable=True),
        sa.Column("params", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_lines_game_id", "chat_lines", ["game_id"])


def downgrade() -> None:
    op.drop_table("chat_lines")
    op.drop_index("ix_games_public", "games")
    op.drop_column("games", "host_seat")
    op.drop_column("games", "spectators_chat")
    op.drop_column("games", "deal_picked")
    op.drop_column("games", "public")
