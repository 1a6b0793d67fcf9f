"""Bot turns in the database, for `cubegames bots work` workers on any machine (PostgreSQL).

One writer per game stays the rule: the process holding a game's lease (`lease`) plays
every move of its bots, as without workers. Only the thinking moves out:

1. the lease holder's bot runner writes the turn (`post`: the game, the number of moves
   played, the seat and its bot) as the game's one row of `bot_turns`, with a token of its
   own, and notifies `{"kind": "turn"}` on the bus in the same transaction (workers wake);
2. a worker claims the oldest unclaimed turn, those of games with a person first
   (`claim`: `SELECT ... FOR UPDATE SKIP LOCKED`, so two workers never take the same
   one, and neither waits for the other), until `claimed_until`, and renews its claims
   while it thinks (`renew`);
3. the worker rebuilds the position from the stored moves, thinks, and writes the move
   into the row (`answer`), notifying `{"kind": "bot", "game", "token"}`: the lease holder
   reads it (`answer_of`), checks it with the engine and plays it through the room like
   any move (the writer, the clocks, the round's pause, every page told), then deletes
   the row (`drop`).

A worker that dies renews nothing: its claim expires and another worker claims the turn
(`claim` takes expired claims too), so no turn is lost. A turn claimed `MAX_ATTEMPTS`
times without an answer (a position that kills every worker) is answered with a failure
instead, which the room shows as a bot's failure. A lease holder that dies leaves its row:
the process that takes the game over posts the turn again (a new token replaces the row),
and an answer to the old token is never taken.

Times are seconds since the epoch from the caller's clock (tests move a fake one).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection

from cubegames.server.bus import Event
from cubegames.server.storage import BotTurnRow, Store

#: sends bus events inside the caller's transaction (`bus.PostgresBus.notify`)
Notify = Callable[[Connection, Sequence[Event]], None]

#: seconds a worker's claim lasts unrenewed (a worker renews every third of it)
CLAIM_SECONDS = 30.0
#: claims of one turn after which it is given up on (answered with a failure)
MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class Turn:
    """A bot's turn: `seat`'s bot `bot` moves in game `game_id` after its first `ply`
    moves; `token` names this request."""

    game_id: str
    token: str
    ply: int
    seat: int
    bot: str
    #: a person plays in the game (its turns are thought before those of bot games)
    person: bool = False


@dataclass(frozen=True)
class Answer:
    """A worker's answer: the move's notation, or why there is none."""

    move: str | None
    failure: str | None


def new_token() -> str:
    """A request's name."""
    return secrets.token_hex(8)


class BotQueue:
    """The `bot_turns` table (PostgreSQL). `notify(connection, events)` sends bus events in
    the caller's transaction (`bus.PostgresBus.notify`)."""

    def __init__(self, store: Store, notify: Notify | None = None) -> None:
        if store.engine.dialect.name != "postgresql":
            raise ValueError("the bots' queue needs PostgreSQL")
        self.store = store
        self._notify = notify

    def _tell(self, connection: Connection, events: list[Event]) -> None:
        if self._notify is not None:
            self._notify(connection, events)

    # -- the lease holder's side ----------------------------------------------------------

    def post(self, turn: Turn, moment: float) -> None:
        """Ask the workers for `turn` (replacing any earlier request of its game)."""
        values = {
            "token": turn.token,
            "ply": turn.ply,
            "seat": turn.seat,
            "bot": turn.bot,
            "person": turn.person,
            "made": moment,
            "claimed_by": None,
            "claimed_until": None,
            "attempts": 0,
            "move": None,
            "failure": None,
        }
        statement = postgresql.insert(BotTurnRow).values(game_id=turn.game_id, **values)
        statement = statement.on_conflict_do_update(
            index_elements=[BotTurnRow.game_id], set_=values
        )
        with self.store.engine.begin() as connection:
            connection.execute(statement)
            self._tell(connection, [{"kind": "turn", "game": turn.game_id}])

    def answer_of(self, game_id: str, token: str) -> Answer | None:
        """The answer to request `token` (Answer(None, None): not yet); None if the
        request is gone (replaced by another process's, or dropped)."""
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(BotTurnRow.move, BotTurnRow.failure).where(
                    BotTurnRow.game_id == game_id, BotTurnRow.token == token
                )
            ).first()
        return None if row is None else Answer(row.move, row.failure)

    def drop(self, game_id: str, token: str) -> None:
        """Forget request `token` (answered, or no longer wanted)."""
        with self.store.engine.begin() as connection:
            connection.execute(
                delete(BotTurnRow).where(BotTurnRow.game_id == game_id, BotTurnRow.token == token)
            )

    # -- a worker's side ------------------------------------------------------------------

    def claim(self, owner: str, moment: float, seconds: float = CLAIM_SECONDS) -> Turn | None:
        """The oldest turn nobody holds (unclaimed, or its claim expired), now held by
        `owner` until `moment + seconds`; None if there is none. A turn claimed
        `MAX_ATTEMPTS` times already is answered with a failure instead (and the next
        one looked at)."""
        while True:
            with self.store.engine.begin() as connection:
                row = connection.execute(
                    select(BotTurnRow)
                    .where(
                        BotTurnRow.move.is_(None),
                        BotTurnRow.failure.is_(None),
                        or_(BotTurnRow.claimed_until.is_(None), BotTurnRow.claimed_until < moment),
                    )
                    .order_by(BotTurnRow.person.desc(), BotTurnRow.made)
                    .limit(1)
                    .with_for_update(skip_locked=True)
                ).first()
                if row is None:
                    return None
                where = (BotTurnRow.game_id == row.game_id, BotTurnRow.token == row.token)
                if row.attempts >= MAX_ATTEMPTS:
                    connection.execute(
                        update(BotTurnRow)
                        .where(*where)
                        .values(
                            failure=f"no worker could think this move in {MAX_ATTEMPTS} tries",
                            claimed_by=None,
                            claimed_until=None,
                        )
                    )
                    self._tell(
                        connection, [{"kind": "bot", "game": row.game_id, "token": row.token}]
                    )
                    continue
                connection.execute(
                    update(BotTurnRow)
                    .where(*where)
                    .values(
                        claimed_by=owner,
                        claimed_until=moment + seconds,
                        attempts=BotTurnRow.attempts + 1,
                    )
                )
                return Turn(row.game_id, row.token, row.ply, row.seat, row.bot, row.person)

    def renew(
        self, owner: str, tokens: set[str], moment: float, seconds: float = CLAIM_SECONDS
    ) -> set[str]:
        """Push back `owner`'s claims of the requests `tokens`; the tokens still held."""
        if not tokens:
            return set()
        with self.store.engine.begin() as connection:
            held = connection.execute(
                update(BotTurnRow)
                .where(BotTurnRow.claimed_by == owner, BotTurnRow.token.in_(tokens))
                .values(claimed_until=moment + seconds)
                .returning(BotTurnRow.token)
            ).scalars()
            return set(held)

    def answer(self, turn: Turn, move: str | None, failure: str | None = None) -> bool:
        """Answer `turn` with a move's notation (or a failure) and tell its lease holder;
        False if there was nothing to answer (the request was replaced or dropped, or
        another worker answered first)."""
        with self.store.engine.begin() as connection:
            done = connection.execute(
                update(BotTurnRow)
                .where(
                    BotTurnRow.game_id == turn.game_id,
                    BotTurnRow.token == turn.token,
                    BotTurnRow.move.is_(None),
                    BotTurnRow.failure.is_(None),
                )
                .values(move=move, failure=failure, claimed_until=None)
                .returning(BotTurnRow.token)
            ).first()
            if done is None:
                return False
            self._tell(connection, [{"kind": "bot", "game": turn.game_id, "token": turn.token}])
            return True

    def release(self, owner: str) -> None:
        """Give back every claim of `owner` unanswered (the worker is stopping): other
        workers may take the turns at once."""
        with self.store.engine.begin() as connection:
            connection.execute(
                update(BotTurnRow)
                .where(BotTurnRow.claimed_by == owner, BotTurnRow.move.is_(None))
                .values(claimed_by=None, claimed_until=None, attempts=BotTurnRow.attempts - 1)
            )

    def skip(self, turn: Turn) -> None:
        """Drop `turn`, which no longer fits its game (it moved on, or ended): its lease
        holder finds its request gone and looks at the game again."""
        self.drop(turn.game_id, turn.token)


__all__ = ["CLAIM_SECONDS", "MAX_ATTEMPTS", "Answer", "BotQueue", "Turn", "new_token"]
