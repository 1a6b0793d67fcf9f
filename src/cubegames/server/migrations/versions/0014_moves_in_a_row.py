"""PostgreSQL: a game's moves stay in a row. A move may be stored only after the move
before it, checked in the database as it is inserted (a trigger, `moves_in_a_row`), so
that a move thought on one process cannot land behind a take-back made on another: with
`--workers`, a bot's move for move number n + 1 that arrives after another process took
back move n and the moves before it down to some m is refused like a move number taken
(unique_violation: the server's `IntegrityError`), and its room catches up instead.

A take-back and a move of one game cannot overlap: the take-back holds the game's row
(`FOR UPDATE`, `Store.take_back`), and the check first waits for that row (`FOR KEY
SHARE`, as the move's foreign key does), so it looks at what the take-back left. SQLite
needs none of it: one process writes it.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

# an AFTER trigger: it runs once the whole statement is in, so a batch that holds moves
# n and n + 1 of one game (in any order) finds move n
_FUNCTION = """
CREATE FUNCTION moves_in_a_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.ply > 1 THEN
        -- waits for a take-back of the game that holds its row, then sees what it left
        PERFORM 1 FROM games WHERE id = NEW.game_id FOR KEY SHARE;
        PERFORM 1 FROM moves WHERE game_id = NEW.game_id AND ply = NEW.ply - 1;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'move % of game % follows no move %', NEW.ply, NEW.game_id, NEW.ply - 1
                USING ERRCODE = 'unique_violation';
        END IF;
    END IF;
    RETURN NULL;
END
$$
"""

_TRIGGER = """
CREATE TRIGGER moves_in_a_row AFTER INSERT ON moves
FOR EACH ROW EXECUTE FUNCTION moves_in_a_row()
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(_FUNCTION)
    op.execute(_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER moves_in_a_row ON moves")
    op.execute("DROP FUNCTION moves_in_a_row()")
