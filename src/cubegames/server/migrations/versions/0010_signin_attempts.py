"""Sign-in attempts counted in the database (issue #25): the caps on password guessing per
account and per address hold for the sum over every process of `serve --workers N`
(`accounts.SigninAttempts`). A row is one attempt in the window, keyed by a hash of the
account's name key or of the address.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "signin_attempts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
    )
    op.create_index("ix_signin_attempts_key", "signin_attempts", ["key"])
    op.create_index("ix_signin_attempts_at", "signin_attempts", ["at"])


def downgrade() -> None:
    op.drop_table("signin_attempts")
