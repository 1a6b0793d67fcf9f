"""Games, seats and moves in a SQL database (SQLAlchemy 2), and nothing else.

Only what the rules need to rebuild a game is stored: the game id, its options, the seed,
its chance version and the moves in order. A position is never stored; the server rebuilds
it by replaying the moves through the engine from `new_state(seed)` (`core.chance.new_state`
in the game's chance version), so a database cannot hold a state
that breaks the rules.

Tables:

- `games`: id (short random text, used in links), game (`cubed`...), options (JSON),
  seed (a seed too large for its 64-bit column, as the server's 128-bit ones are, is kept
  in decimal in `deal`), the chance version the game was dealt in (`chance`: 1 for the
  games stored before chance version 2, whose CUBED draws after the first deal came from a
  hash of the position; see `core.chance`), the SHA-256 of the host's credential
  (`host_hash`), status (`playing` or `finished`), created and finished times, result
  (JSON: scores and winners, once finished);
- `seats`: (game, seat), kind (`human` or `bot`), bot spec, an optional name, and the
  SHA-256 of the seat's secret token (the token itself is shown once and is kept by the
  browser that holds the seat); `invited` while that token is a one-time invitation not
  yet claimed, and how many times the host has `reissued` the seat;
- `moves`: (game, ply), the seat that moved, the move's notation, the time;
- `leases`: the server process that runs a game's bots, and until when (see `lease`);
- `bot_turns`: bot moves waiting for a `cubegames bots work` worker (see `botqueue`);
- `presence`: which server process has a page of which seat open (see `presence`);
- `undo_asks`: a take-back asked of the others, while they answer (see `referee`);
- `creations`: the games each client (a hash of its address) made in the last minute
  (see `limits.SharedRate`).

`default_url()` is where `cubegames serve` keeps its SQLite file when no `--db` is given.

The same code runs on SQLite and PostgreSQL (`postgresql+psycopg://...`; the tests run
both). Times come back as UTC whatever the database's time zone. Text PostgreSQL cannot
hold (too long for its column, or with a NUL character) is refused up front with
`Unstorable`, on every database alike.
A SQLite file is kept in write-ahead-log mode with `synchronous=FULL`: readers never wait
for the writer, and a commit is on disk when it returns. Moves are written in batches
(`add_moves`, one transaction for the moves of many games; on PostgreSQL one
statement too, the batch's columns sent as arrays; see `writer`).
The tables are made, and an older database's upgraded, by the Alembic migrations in
`migrations` when a store opens the database (on PostgreSQL under a lock, so servers
starting together do not trip over each other). On PostgreSQL a game is loaded from one
snapshot, so a move committed meanwhile cannot show in its moves but not in its status.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    ARRAY,
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Double,
    Exists,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    cast,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool

from cubegames.core.chance import CURRENT, VERSIONS
from cubegames.core.phrase import Worded
from cubegames.server import migrations

PLAYING = "playing"
FINISHED = "finished"
HUMAN = "human"
BOT = "bot"

#: the longest text each free-text column takes (PostgreSQL enforces it, SQLite would not)
BOT_LENGTH = 120
NAME_LENGTH = 40
MOVE_LENGTH = 200
CHAT_LENGTH = 300

#: the largest seed the `seed` column holds; larger ones go to `deal`, in decimal
BIGINT_SEED = 2**63 - 1


class Unstorable(Worded):
    """Text the database cannot keep; `str()` names the field and why, `phrase` words it
    (`error-unstorable-…`)."""


def default_url() -> str:
    """The SQLite file used when no database URL is given:
    `$XDG_DATA_HOME/cubegames/cubegames.sqlite3`, by default
    `~/.local/share/cubegames/cubegames.sqlite3`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(base) / 'cubegames' / 'cubegames.sqlite3'}"


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """A stored time in UTC: SQLite hands times back without their zone (they were
    written in UTC), PostgreSQL in the zone of the connection."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else utc(moment)


def iso(moment: datetime | None) -> str | None:
    """A time as ISO 8601 in UTC."""
    if moment is None:
        return None
    return utc(moment).isoformat(timespec="seconds").replace("+00:00", "Z")


def storable(field: str, value: str | None, length: int) -> None:
    """Unstorable if `value` cannot be kept, on every database alike: PostgreSQL refuses
    text longer than its column and NUL characters (SQLite would take both), and no
    database takes half of a surrogate pair (it is not UTF-8)."""
    if value is None:
        return
    if len(value) > length:
        raise Unstorable(
            "error-unstorable-long",
            f"{field}: at most {length} characters can be stored",
            field=field,
            length=length,
        )
    if "\x00" in value:
        raise Unstorable(
            "error-unstorable-nul",
            f"{field}: a NUL character (\\u0000) cannot be stored",
            field=field,
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Unstorable(
            "error-unstorable-surrogate",
            f"{field}: a lone surrogate (half of a UTF-16 pair) cannot be stored",
            field=field,
        ) from None


def new_token() -> str:
    """A fresh secret seat token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def new_game_id() -> str:
    """A fresh game id: 8 URL-safe characters (48 random bits), never beginning with "-",
    which a command line would take for an option (`examples/remote_bot.py URL ID`)."""
    while True:
        found = secrets.token_urlsafe(6)
        if not found.startswith("-"):
            return found


def token_hash(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Base(DeclarativeBase):
    """The tables of the web app."""


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    deal: Mapped[str | None] = mapped_column(String(80), nullable=True)
    #: the chance version it was dealt in (`core.chance`); the games stored before the
    #: column existed were dealt in version 1, its default
    chance: Mapped[int] = mapped_column(Integer, server_default=text("1"))
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # no result yet is SQL NULL, not the JSON text `null`
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    #: the time control (`clocks.TimeControl.to_json`; NULL: no clock)
    time_control: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )
    #: when the seat to move runs out of time, seconds since the epoch (NULL: no clock
    #: runs); written with each move of a timed game, read by `Store.due`
    deadline: Mapped[float | None] = mapped_column(Double, nullable=True, index=True)
    #: a rated table (`ratings`): chosen when it was made, between accounts, timed, dealt
    #: by the server; its moves cannot be taken back
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("FALSE"))
    #: its ratings were updated (once, in the transaction that recorded its end)
    rating_done: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("FALSE"))
    #: listed in the lobby (while a seat is free) and among the games in play (`lobby`)
    public: Mapped[bool] = mapped_column(Boolean, server_default=text("FALSE"), index=True)
    #: its maker picked the deal (a seed given), so knows every hand: never rated
    deal_picked: Mapped[bool] = mapped_column(Boolean, server_default=text("FALSE"))
    #: spectators may chat (the host may close their chat; `chat`)
    spectators_chat: Mapped[bool] = mapped_column(Boolean, server_default=text("TRUE"))
    #: the host's own seat (its first person's seat not invited; NULL: none, or unknown)
    host_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: who opened a public table (`token_hash` of the address), while it is in play:
    #: the cap on the open tables of one client (`open_tables_of`); NULL once it ends
    maker: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(BOT_LENGTH))
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    token_hash: Mapped[str] = mapped_column(String(64))
    invited: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("FALSE"))
    reissued: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    #: the seat was handed to the greedy bot (out of time or gone) from this move on
    zombie_from: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the account the seat is bound to (`accounts`; NULL: a guest's or a program's seat)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(MOVE_LENGTH))
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LeaseRow(Base):
    """Which server process runs a game's bots, until when (`lease`)."""

    __tablename__ = "leases"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column(String(32))
    #: seconds since the epoch (a number compares alike on every database)
    expires: Mapped[float] = mapped_column(Double, index=True)


class TakebackRow(Base):
    """Moves taken back (undo): from which move, by which seat, the moves as they were
    (in order) and when. The game's moves keep only the line played on; these rows say
    where it was taken back."""

    __tablename__ = "takebacks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: the first move taken back (the game went on from the move before it)
    ply: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    moves: Mapped[list[str]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """A line of a table's chat (`chat`): said by a seat (`channel` "players") or a
    spectator ("spectators"), or a system line (`system`: its kind, `params` its facts,
    channel "table": everyone sees it). The newest `chat.HISTORY` of a channel are kept."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    who: Mapped[str | None] = mapped_column(String(NAME_LENGTH), nullable=True)
    text: Mapped[str | None] = mapped_column(String(CHAT_LENGTH), nullable=True)
    system: Mapped[str | None] = mapped_column(String(32), nullable=True)
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BotTurnRow(Base):
    """A bot's turn waiting for a `cubegames bots work` worker (`botqueue`): one row per
    game at most, written by the process holding the game's lease, claimed by a worker
    until `claimed_until`, answered with `move` (or `failure`), then deleted by that
    process once it has played the move."""

    __tablename__ = "bot_turns"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: this request's own name: an answer to an earlier request of the game is not taken
    token: Mapped[str] = mapped_column(String(32))
    #: moves played before the turn (the position is the game's after its first `ply`)
    ply: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    bot: Mapped[str] = mapped_column(String(BOT_LENGTH))
    #: a person plays in the game: thought before every turn of a game among bots
    person: Mapped[bool] = mapped_column(Boolean, default=False)
    #: seconds since the epoch: when it was asked (then the oldest is thought first)
    made: Mapped[float] = mapped_column(Double, index=True)
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: seconds since the epoch; a claim that was not renewed (its worker died) expires
    claimed_until: Mapped[float | None] = mapped_column(Double, nullable=True)
    #: times a worker has claimed it (a turn that kills every worker is given up on)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    move: Mapped[str | None] = mapped_column(String(MOVE_LENGTH), nullable=True)
    failure: Mapped[str | None] = mapped_column(Text, nullable=True)


class PresenceRow(Base):
    """Whether a server process has a page of a seat open (`presence`): with several
    processes on one database, a claim that a player is gone asks every process's row."""

    __tablename__ = "presence"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: the server process (its lease owner name)
    owner: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: a page of the seat is open on that process
    here: Mapped[bool] = mapped_column(Boolean)
    #: seconds since the epoch: when `here` last changed
    since: Mapped[float] = mapped_column(Double)
    #: seconds since the epoch: the process renews its rows until it stops or dies
    expires: Mapped[float] = mapped_column(Double, index=True)


class UndoAskRow(Base):
    """A take-back asked of the other people of a game, while they answer: kept here so
    that answers given on different server processes are counted together (`referee`)."""

    __tablename__ = "undo_asks"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    first: Mapped[int] = mapped_column(Integer)
    last: Mapped[int] = mapped_column(Integer)
    waiting: Mapped[list[int]] = mapped_column(JSON)
    agreed: Mapped[list[int]] = mapped_column(JSON)


class CreationRow(Base):
    """A game made in the last minute, by whom (a hash of the address): the cap on games
    per client per minute, shared by every process (`limits.SharedRate`). Rows older than the window
    are deleted as new ones come, so no address is kept for long."""

    __tablename__ = "creations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    #: seconds since the epoch
    at: Mapped[float] = mapped_column(Double, index=True)


class SigninAttemptRow(Base):
    """A sign-in attempt in the last `accounts.SIGNIN_WINDOW` seconds, counted against an
    account (a hash of its name key) or an address (a hash of it), shared by every process
    (`accounts.SigninAttempts`). A sign-in that succeeds takes its rows back; rows older
    than the window are deleted as new ones come."""

    __tablename__ = "signin_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64), index=True)
    #: seconds since the epoch
    at: Mapped[float] = mapped_column(Double, index=True)


class UserRow(Base):
    """An account (`accounts`): its name as shown, the key two names are compared by
    (`accounts.name_key`: one account per key), what it looks like (`names.look`), the
    Argon2 hash of its password."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    key: Mapped[str] = mapped_column(String(NAME_LENGTH * 4), unique=True)
    #: what the name looks like (`names.look`): no name may look like an account's, and
    #: no two accounts share one (NULL: an account made before that, whose look the
    #: oldest account of its look holds; migration 0012)
    look: Mapped[str | None] = mapped_column(
        String(NAME_LENGTH * 4), index=True, unique=True, nullable=True
    )
    password: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie, the account, the session's
    CSRF token (the page sends it back in a header) and when it ends."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    #: seconds since the epoch
    expires: Mapped[float] = mapped_column(Double, index=True)


class SeatKeyRow(Base):
    """A credential of an account's seat given to one of its signed-in browsers (the seat's
    own credential stays with the browser that made or claimed it): `seat_of` takes it as
    the seat's. Reissuing the seat revokes them all."""

    __tablename__ = "seat_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64))


class RatingRow(Base):
    """A player's rating in a pool (`ratings`: a game, and its edition where rules differ):
    OpenSkill's mu and sigma, and the rated games it comes from. A player is `user:ID` or
    `bot:NAME`."""

    __tablename__ = "ratings"

    player: Mapped[str] = mapped_column(String(BOT_LENGTH + 8), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    pool: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer)


class RatingEventRow(Base):
    """One seat's rating change at the end of one rated game (the player page's history)."""

    __tablename__ = "rating_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player: Mapped[str] = mapped_column(String(BOT_LENGTH + 8), index=True)
    game: Mapped[str] = mapped_column(String(32))
    pool: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    #: 1 for the best place (ties share it)
    rank: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class SeatInfo:
    """A seat as the app sees it (the token's hash stays in the database)."""

    seat: int
    kind: str
    bot: str | None
    name: str | None
    #: its invitation is not claimed yet
    invited: bool = False
    #: times the host reissued it
    reissued: int = 0
    #: handed to the bot (a person out of time or gone) from this move on (None: never)
    zombie_from: int | None = None
    #: the account it is bound to (None: a guest's or a program's)
    user_id: int | None = None


@dataclass(frozen=True)
class MoveInfo:
    """One stored move."""

    ply: int
    seat: int
    move: str
    played_at: datetime


@dataclass(frozen=True)
class GameInfo:
    """A stored game: what is needed to rebuild it, and its status."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    created_at: datetime
    finished_at: datetime | None
    result: dict[str, Any] | None
    seats: tuple[SeatInfo, ...]
    moves: tuple[MoveInfo, ...]
    #: the time control as stored (`clocks.TimeControl.from_json`; None: no clock)
    time_control: dict[str, Any] | None = None
    #: where moves were taken back, in order
    takebacks: tuple[Takeback, ...] = ()
    #: the chance version it was dealt in: rebuild it with `core.chance.new_state`
    chance: int = CURRENT
    #: a rated table (`ratings`)
    rated: bool = False
    #: listed in the lobby and among the games in play
    public: bool = False
    #: its maker picked the deal (knows every hand): never rated
    deal_picked: bool = False
    #: spectators may chat
    spectators_chat: bool = True


@dataclass(frozen=True)
class Takeback:
    """Moves taken back: the first one's number, the seat that asked, the moves."""

    ply: int
    seat: int
    moves: tuple[str, ...]


@dataclass(frozen=True)
class GameSummary:
    """A line of the list of games."""

    id: str
    game: str
    options: dict[str, Any]
    status: str
    created_at: datetime
    finished_at: datetime | None
    result: dict[str, Any] | None
    seats: tuple[SeatInfo, ...]
    moves: int
    public: bool = False
    deal_picked: bool = False
    time_control: dict[str, Any] | None = None
    host_seat: int | None = None
    #: a rated table (`ratings`)
    rated: bool = False


@dataclass(frozen=True)
class ChatLine:
    """A stored chat line (`ChatRow`)."""

    id: int
    channel: str
    seat: int | None
    who: str | None
    text: str | None
    system: str | None
    params: dict[str, Any] | None
    at: datetime


@dataclass(frozen=True)
class NewMove:
    """A move to store: move number `ply` of a game, and the game's result if it ends it."""

    game_id: str
    ply: int
    seat: int
    move: str
    result: dict[str, Any] | None = None
    #: when it was played, on the server's clock (None: the time it is written)
    at: datetime | None = None
    #: a timed game: `deadline` is the game's new deadline (seconds since the epoch, or
    #: None when no clock runs), written with the move
    timed: bool = False
    deadline: float | None = None


@dataclass(frozen=True)
class NewSeat:
    """A seat of a game being made."""

    kind: str
    bot: str | None = None
    name: str | None = None
    #: a person elsewhere: the seat's token is a one-time invitation
    invited: bool = False
    #: the account the seat is bound to (`accounts`)
    user_id: int | None = None


class Store:
    """The database behind the app. Every method opens its own session and commits before
    it returns, so it may be called from any thread."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _engine(url)
        postgres = self.engine.dialect.name == "postgresql"
        with self.engine.begin() as connection:
            # an empty database gets its tables, an older one is upgraded in place; on
            # PostgreSQL under a lock, so servers starting together upgrade it once
            migrations.upgrade(connection)
        # reads of several tables see one snapshot (SQLite's transactions always do;
        # PostgreSQL's default, READ COMMITTED, takes a new one for each statement)
        self._reader = (
            self.engine.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
            if postgres
            else self.engine
        )

    def close(self) -> None:
        """Close every pooled connection. An in-memory SQLite database has one connection
        that every thread shares (`StaticPool`): it is left to go with the engine, since a
        thread still finishing a read (a page's chat history, as the app stops) would be
        using it, and closing it under that read crashes the process."""
        if isinstance(self.engine.pool, StaticPool):
            return
        self.engine.dispose()

    @contextmanager
    def _session(self, *, snapshot: bool = False) -> Iterator[Session]:
        with Session(self._reader if snapshot else self.engine) as session, session.begin():
            yield session

    def create(
        self,
        game: str,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[NewSeat],
        moves: Sequence[tuple[int, str]] = (),
        result: dict[str, Any] | None = None,
        host: str | None = None,
        time_control: dict[str, Any] | None = None,
        at: datetime | None = None,
        *,
        chance: int = CURRENT,
        rated: bool = False,
        public: bool = False,
        deal_picked: bool = False,
        maker: str | None = None,
    ) -> tuple[str, list[str]]:
        """Store a new game (with `moves` already played, as (seat, move), for a loaded
        record), hosted by the holder of the credential `host`, with `time_control`
        (`clocks.TimeControl.to_json`), made at `at` (default: now), dealt in chance version
        `chance` (a loaded record's may be older), `public` (listed in the lobby) and
        `deal_picked` (its maker chose the deal), opened by `maker` (a hash, kept for a
        public table in play); returns its id and one fresh token per seat (an invitation
        for an invited seat)."""
        if chance not in VERSIONS:
            raise ValueError(f"chance version {chance!r} is not one of {VERSIONS}")
        for i, seat in enumerate(seats):
            storable(f"seats.{i}.bot", seat.bot, BOT_LENGTH)
            storable(f"seats.{i}.name", seat.name, NAME_LENGTH)
        for ply, (_seat_no, move) in enumerate(moves, 1):
            storable(f"moves.{ply}", move, MOVE_LENGTH)
        game_id = new_game_id()
        tokens = [new_token() for _ in seats]
        moment = at if at is not None else now()
        # Core statements made once, not ORM objects: a game is made for every table
        # sat down at, and the ORM's unit of work cost the event loop's thread more
        # than the rest of a game's set-up
        with self.engine.begin() as connection:
            connection.execute(
                _INSERT_GAME,
                {
                    "id": game_id,
                    "game": game,
                    "options": options,
                    "seed": seed if seed <= BIGINT_SEED else seed & BIGINT_SEED,
                    "deal": str(seed) if seed > BIGINT_SEED else None,
                    "chance": chance,
                    "host_hash": token_hash(host) if host is not None else None,
                    "status": FINISHED if result is not None else PLAYING,
                    "created_at": moment,
                    "finished_at": moment if result is not None else None,
                    "result": result,
                    "time_control": time_control,
                    "rated": rated,
                    "rating_done": False,
                    "public": public,
                    "deal_picked": deal_picked,
                    "maker": maker if public and result is None else None,
                    "spectators_chat": True,
                    "host_seat": next(
                        (i for i, s in enumerate(seats) if s.kind == HUMAN and not s.invited),
                        None,
                    )
                    if host is not None
                    else None,
                },
            )
            connection.execute(
                _INSERT_SEAT,
                [
                    {
                        "game_id": game_id,
                        "seat": i,
                        "kind": seat.kind,
                        "bot": seat.bot,
                        "name": seat.name,
                        "token_hash": token_hash(token),
                        "invited": seat.invited,
                        "reissued": 0,
                        "user_id": seat.user_id,
                    }
                    for i, (seat, token) in enumerate(zip(seats, tokens, strict=True))
                ],
            )
            if moves:
                connection.execute(
                    _INSERT_MOVE,
                    [
                        {
                            "game_id": game_id,
                            "ply": ply,
                            "seat": seat_no,
                            "move": move,
                            "played_at": moment,
                        }
                        for ply, (seat_no, move) in enumerate(moves, 1)
                    ],
                )
        return game_id, tokens

    def load(self, game_id: str) -> GameInfo | None:
        """A stored game with its seats and moves, or None."""
        with self._reader.connect() as connection, connection.begin():  # one snapshot
            row = connection.execute(_LOAD_GAME, {"id": game_id}).first()
            if row is None:
                return None
            seats = connection.execute(_LOAD_SEATS, {"id": game_id}).all()
            moves = connection.execute(_LOAD_MOVES, {"id": game_id}).all()
            takebacks = connection.execute(_LOAD_TAKEBACKS, {"id": game_id}).all()
        return GameInfo(
            id=row.id,
            game=row.game,
            options=dict(row.options),
            seed=int(row.deal) if row.deal else row.seed,
            status=row.status,
            created_at=utc(row.created_at),
            finished_at=_utc(row.finished_at),
            result=row.result,
            seats=tuple(_seat(s) for s in seats),
            moves=tuple(MoveInfo(m.ply, m.seat, m.move, utc(m.played_at)) for m in moves),
            time_control=row.time_control,
            takebacks=tuple(Takeback(t.ply, t.seat, tuple(t.moves)) for t in takebacks),
            chance=row.chance,
            rated=bool(row.rated),
            public=bool(row.public),
            deal_picked=bool(row.deal_picked),
            spectators_chat=bool(row.spectators_chat),
        )

    def seat_of(self, game_id: str, token: str, *, invited: bool = False) -> int | None:
        """The seat that the credential `token` opens in the game, or None (with
        `invited`, the seat whose unclaimed invitation `token` is)."""
        wanted = token_hash(token)
        with self.engine.connect() as connection:
            hashes = connection.execute(_SEAT_HASHES, {"id": game_id}).all()
            found = None
            for seat, stored, pending in hashes:
                if hmac.compare_digest(stored, wanted) and bool(pending) == invited:
                    found = int(seat)
            if found is not None or invited:
                return found
            # a credential an account's signed-in browser was given (`accounts`)
            keys = connection.execute(_SEAT_KEYS, {"id": game_id}).all()
        for seat, stored in keys:
            if hmac.compare_digest(stored, wanted):
                found = int(seat)
        return found

    def is_host(self, game_id: str, token: str) -> bool:
        """Whether `token` is the credential of the game's host."""
        with self._session() as session:
            stored = session.scalar(select(GameRow.host_hash).where(GameRow.id == game_id))
        return stored is not None and hmac.compare_digest(stored, token_hash(token))

    def claim(
        self, game_id: str, invite: str, user_id: int | None = None, name: str | None = None
    ) -> tuple[int, str] | None:
        """Spend the invitation `invite`: its seat gets a fresh credential, returned with
        the seat number, and is bound to the account `user_id` (a signed-in claimer, whose
        `name` the seat takes);
        None if `invite` is no unclaimed invitation of this game. Two browsers claiming
        at once cannot both win: the update names the old hash."""
        seat = self.seat_of(game_id, invite, invited=True)
        if seat is None:
            return None
        credential = new_token()
        with self._session() as session:
            done = session.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.token_hash == token_hash(invite),
                    SeatRow.invited.is_(True),
                )
                .values(
                    token_hash=token_hash(credential),
                    invited=False,
                    user_id=user_id,
                    **({"name": name} if name is not None else {}),
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                return None
        return seat, credential

    def reissue(self, game_id: str, seat: int) -> str:
        """A new invitation for `seat`: the credential that held it opens nothing more."""
        invite = new_token()
        with self._session() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(
                    token_hash=token_hash(invite),
                    invited=True,
                    reissued=SeatRow.reissued + 1,
                    user_id=None,
                )
            )
            # the account that held it (and its browsers' credentials) lose it too
            session.execute(
                delete(SeatKeyRow).where(SeatKeyRow.game_id == game_id, SeatKeyRow.seat == seat)
            )
        return invite

    def add_move(
        self, game_id: str, ply: int, seat: int, move: str, result: dict[str, Any] | None
    ) -> None:
        """Commit move number `ply`; `result` given means the game is over with it.

        Two writers of the same ply cannot both succeed: (game, ply) is the primary key, so
        the second gets `sqlalchemy.exc.IntegrityError` and nothing of it is kept.
        """
        self.add_moves([NewMove(game_id, ply, seat, move, result)])

    def add_moves(
        self, moves: Sequence[NewMove], during: Callable[[Connection], None] | None = None
    ) -> None:
        """Commit several moves (of any games) in one transaction: all of them or none
        (IntegrityError if any ply is taken already). `during(connection)` runs inside the
        transaction just before it commits (the bus announces the moves there, so the
        announcement goes out exactly when they are durable)."""
        with self.engine.connect() as connection:
            self.add_moves_on(connection, moves, during)

    def add_moves_on(
        self,
        connection: Connection,
        moves: Sequence[NewMove],
        during: Callable[[Connection], None] | None = None,
    ) -> None:
        """`add_moves` on a connection of this store's engine that the caller keeps open
        from one transaction to the next (the group-commit writer's own, saving a pool
        checkout and return per transaction)."""
        for m in moves:
            storable("move", m.move, MOVE_LENGTH)
        moment = now()
        with connection.begin():
            if connection.dialect.name == "postgresql":
                # one statement for the batch: an executemany costs Python work per row
                connection.execute(
                    _INSERT_MOVES,
                    {
                        "games": [m.game_id for m in moves],
                        "plies": [m.ply for m in moves],
                        "seats": [m.seat for m in moves],
                        "moves": [m.move for m in moves],
                        "played_at": [m.at or moment for m in moves],
                    },
                )
            else:  # SQLite's executemany is one loop in C already
                connection.execute(
                    _INSERT_MOVE,
                    [
                        {
                            "game_id": m.game_id,
                            "ply": m.ply,
                            "seat": m.seat,
                            "move": m.move,
                            "played_at": m.at or moment,
                        }
                        for m in moves
                    ],
                )
            for m in moves:
                if m.result is not None:
                    connection.execute(
                        update(GameRow)
                        .where(GameRow.id == m.game_id)
                        .values(
                            status=FINISHED,
                            finished_at=m.at or moment,
                            result=m.result,
                            deadline=None,
                            maker=None,
                        )
                    )
                    _rate(connection, m.game_id, m.at or moment)
                elif m.timed:
                    connection.execute(
                        update(GameRow).where(GameRow.id == m.game_id).values(deadline=m.deadline)
                    )
            if during is not None:
                during(connection)

    def add_moves_at_once(
        self, driver: Any, moves: Sequence[NewMove], news: tuple[str, str] | None = None
    ) -> None:
        """PostgreSQL: `add_moves` as one statement on `driver`, a psycopg connection in
        autocommit mode that the caller keeps, or a cursor of one (the group-commit
        writer's own). One
        statement is one transaction: the moves, the games they finish and `news` (the
        bus's channel and its payloads, a line each, `bus.PostgresBus.news`) are
        committed together, or nothing is, in one round trip where the same through
        SQLAlchemy takes four (begin, insert, notify, commit), each with Python work the
        event loop waits for. IntegrityError (SQLAlchemy's, as from `add_moves`) if a move
        number is taken or a game is gone."""
        import psycopg

        for m in moves:
            storable("move", m.move, MOVE_LENGTH)
        ended = [m for m in moves if m.result is not None]
        timed = [m for m in moves if m.timed and m.result is None]
        channel, lines = news if news is not None else (None, None)
        if ended:
            # a game's end updates its ratings in the same transaction (`ratings`), which
            # one statement cannot: the (rare) batch that ends a game goes through
            # `add_moves`, its news sent by the same transaction
            def notify(connection: Connection) -> None:
                if channel is not None and lines:
                    connection.execute(_NOTIFY, {"channel": channel, "news": lines})

            self.add_moves(moves, notify)
            return
        moment = now()
        if len(moves) == 1 and not ended and not timed:  # most batches: no arrays
            m = moves[0]
            row = (m.game_id, m.ply, m.seat, m.move, m.at or moment, channel, lines)
            try:
                driver.execute(_ONE_AT_ONCE, row)
            except psycopg.IntegrityError as exc:
                raise IntegrityError(_ONE_AT_ONCE, row, exc) from None
            return
        parameters = {
            "games": [m.game_id for m in moves],
            "plies": [m.ply for m in moves],
            "seats": [m.seat for m in moves],
            "moves": [m.move for m in moves],
            "ats": [m.at or moment for m in moves],
            "at": moment,
            "finished": FINISHED,
            "ended": [m.game_id for m in ended],
            "ended_at": [m.at or moment for m in ended],
            "results": [json.dumps(m.result) for m in ended],
            "timed": [m.game_id for m in timed],
            "deadlines": [m.deadline for m in timed],
            "channel": channel,
            "news": lines,
        }
        try:
            driver.execute(_AT_ONCE, parameters)
        except psycopg.IntegrityError as exc:
            raise IntegrityError(_AT_ONCE, parameters, exc) from None

    def finish(
        self, game_id: str, result: dict[str, Any], ply: int, at: datetime | None = None
    ) -> bool:
        """End a game that no move ended (out of time, resigned, aborted) with `result`,
        as it stood after move `ply`; False if it had ended already or has moved on
        since (another process was first)."""
        later = select(MoveRow.ply).where(MoveRow.game_id == game_id, MoveRow.ply > ply)
        moment = at or now()
        with self.engine.begin() as connection:
            done = connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == PLAYING, ~later.exists())
                .values(
                    status=FINISHED, finished_at=moment, result=result, deadline=None, maker=None
                )
            )
            if done.rowcount != 1:
                return False
            _rate(connection, game_id, moment)
        return True

    def take_back(
        self,
        game_id: str,
        ply: int,
        last: int,
        seat: int,
        deadline: float | None,
        at: datetime | None = None,
    ) -> list[str] | None:
        """Take back moves `ply` to `last` of a game in play, asked by `seat`: they are
        deleted, and kept in `takebacks`; the game's deadline becomes `deadline`. The moves
        taken back, or None if the game has moved on from `last` (or is over)."""
        with self.engine.begin() as connection:
            status = connection.execute(
                select(GameRow.status).where(GameRow.id == game_id).with_for_update()
            ).scalar()
            rows = connection.execute(
                select(MoveRow.ply, MoveRow.move)
                .where(MoveRow.game_id == game_id, MoveRow.ply >= ply)
                .order_by(MoveRow.ply)
            ).all()
            if status != PLAYING or [r.ply for r in rows] != list(range(ply, last + 1)):
                return None
            moves = [r.move for r in rows]
            connection.execute(
                delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= ply)
            )
            connection.execute(
                insert(TakebackRow).values(
                    game_id=game_id, ply=ply, seat=seat, moves=moves, at=at or now()
                )
            )
            connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(deadline=deadline)
            )
        return moves

    def set_deadline(self, game_id: str, deadline: float | None) -> None:
        """Put a game's stored deadline right (seconds since the epoch; None: no clock
        runs)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(deadline=deadline)
            )

    def zombify(self, game_id: str, seat: int, ply: int, bot: str, deadline: float | None) -> bool:
        """Hand a person's `seat` to `bot` from move `ply` on (out of time or gone), and
        set the game's new deadline; False if the seat was handed over already."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == HUMAN,
                )
                .values(kind=BOT, bot=bot, zombie_from=ply)
            )
            if done.rowcount != 1:
                return False
            connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(deadline=deadline)
            )
        return True

    def due(self, moment: float, limit: int = 100) -> list[str]:
        """Unfinished games whose deadline is at or before `moment` (seconds since the
        epoch), the longest overdue first."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(GameRow.id)
                .where(GameRow.status == PLAYING, GameRow.deadline <= moment)
                .order_by(GameRow.deadline)
                .limit(limit)
            ).scalars()
            return list(found)

    def moves_after(self, game_id: str, ply: int) -> list[MoveInfo]:
        """The game's moves after move `ply`, in order (what another server added)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(MoveRow.ply, MoveRow.seat, MoveRow.move, MoveRow.played_at)
                .where(MoveRow.game_id == game_id, MoveRow.ply > ply)
                .order_by(MoveRow.ply)
            ).all()
        return [MoveInfo(r.ply, r.seat, r.move, utc(r.played_at)) for r in rows]

    def join(
        self, game_id: str, name: str | None, user_id: int | None = None
    ) -> tuple[int, str] | None:
        """Sit at a free seat of a public table in play (the lobby's join): the first seat
        whose invitation is unclaimed gets a fresh credential (returned with the seat
        number) and the name `name`; None if the game is not a public one in play or has
        no free seat. Two browsers joining at once cannot take the same seat: the update
        names the seat's old hash, and the loser tries the next free seat. A signed-in
        joiner's seat is bound to the account `user_id`."""
        storable("name", name, NAME_LENGTH)
        for _attempt in range(8):
            with self.engine.connect() as connection:
                game = connection.execute(
                    select(GameRow.public, GameRow.status).where(GameRow.id == game_id)
                ).first()
                if game is None or not game.public or game.status != PLAYING:
                    return None
                free = connection.execute(
                    select(SeatRow.seat, SeatRow.token_hash)
                    .where(SeatRow.game_id == game_id, SeatRow.invited.is_(True))
                    .order_by(SeatRow.seat)
                ).first()
            if free is None:
                return None
            credential = new_token()
            with self.engine.begin() as connection:
                done = connection.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.game_id == game_id,
                        SeatRow.seat == free.seat,
                        SeatRow.token_hash == free.token_hash,
                        SeatRow.invited.is_(True),
                    )
                    .values(
                        token_hash=token_hash(credential),
                        invited=False,
                        name=name,
                        user_id=user_id,
                    )
                )
            if done.rowcount == 1:
                return int(free.seat), credential
        return None

    def set_spectators_chat(self, game_id: str, open_: bool) -> None:
        """Open or close a table's spectators' chat."""
        with self.engine.begin() as connection:
            connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(spectators_chat=open_)
            )

    def add_chat(
        self,
        game_id: str,
        channel: str,
        *,
        seat: int | None = None,
        who: str | None = None,
        said: str | None = None,
        system: str | None = None,
        params: dict[str, Any] | None = None,
        at: datetime | None = None,
        keep: int = 200,
    ) -> ChatLine:
        """Store a chat line (`said` by `seat` or `who`, or a `system` line with its
        `params`) and forget the channel's lines older than its newest `keep`."""
        storable("text", said, CHAT_LENGTH)
        storable("who", who, NAME_LENGTH)
        moment = at if at is not None else now()
        with self.engine.begin() as connection:
            line_id = connection.execute(
                insert(ChatRow)
                .values(
                    game_id=game_id,
                    channel=channel,
                    seat=seat,
                    who=who,
                    text=said,
                    system=system,
                    params=params,
                    at=moment,
                )
                .returning(ChatRow.id)
            ).scalar_one()
            oldest_kept = (
                select(ChatRow.id)
                .where(ChatRow.game_id == game_id, ChatRow.channel == channel)
                .order_by(ChatRow.id.desc())
                .offset(keep - 1)
                .limit(1)
                .scalar_subquery()
            )
            connection.execute(
                delete(ChatRow).where(
                    ChatRow.game_id == game_id,
                    ChatRow.channel == channel,
                    ChatRow.id < oldest_kept,
                )
            )
        return ChatLine(line_id, channel, seat, who, said, system, params, moment)

    def chat(self, game_id: str, channels: Sequence[str], limit: int = 200) -> list[ChatLine]:
        """A table's newest chat lines of `channels`, oldest first (at most `limit`)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ChatRow)
                .where(ChatRow.game_id == game_id, ChatRow.channel.in_(list(channels)))
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
        return [
            ChatLine(r.id, r.channel, r.seat, r.who, r.text, r.system, r.params, utc(r.at))
            for r in reversed(rows)
        ]

    def open_tables_of(self, maker: str) -> int:
        """How many public tables opened by `maker` (a hash) are in play and still wait
        for a player (an invitation not yet claimed): what the lobby lists of theirs."""
        query = (
            select(func.count())
            .select_from(GameRow)
            .where(
                GameRow.maker == maker,
                GameRow.status == PLAYING,
                GameRow.public.is_(True),
                _waiting(),
            )
        )
        with self.engine.connect() as connection:
            return int(connection.execute(query).scalar_one())

    def summaries(
        self,
        status: str | None = None,
        limit: int = 50,
        *,
        public: bool | None = None,
        also: Sequence[str] = (),
        open_seats: bool = False,
    ) -> list[GameSummary]:
        """The latest games first, optionally only those with `status`, only the public
        ones (`public=True`; with `also`, those and the games of these ids), and with
        `open_seats` only those with an invitation not yet claimed (a free seat)."""
        with self._session(snapshot=True) as session:
            # each listed game's moves counted by the moves' key, not every game's moves
            # grouped first (the lobby reads its list at every change)
            counts = (
                select(func.count())
                .where(MoveRow.game_id == GameRow.id)
                .correlate(GameRow)
                .scalar_subquery()
                .label("n")
            )
            query = (
                select(GameRow, counts).order_by(GameRow.created_at.desc(), GameRow.id).limit(limit)
            )
            if status is not None:
                query = query.where(GameRow.status == status)
            if public is not None:
                shown = GameRow.public.is_(public)
                query = query.where(or_(shown, GameRow.id.in_(list(also))) if also else shown)
            if open_seats:
                query = query.where(_waiting())
            rows = session.execute(query).all()
            ids = [row.id for row, _ in rows]
            seats: dict[str, list[SeatInfo]] = {i: [] for i in ids}
            if ids:
                for s in session.scalars(
                    select(SeatRow).where(SeatRow.game_id.in_(ids)).order_by(SeatRow.seat)
                ):
                    seats[s.game_id].append(_seat(s))
            return [
                GameSummary(
                    id=row.id,
                    game=row.game,
                    options=dict(row.options),
                    status=row.status,
                    created_at=utc(row.created_at),
                    finished_at=_utc(row.finished_at),
                    result=row.result,
                    seats=tuple(seats[row.id]),
                    moves=int(n or 0),
                    public=bool(row.public),
                    deal_picked=bool(row.deal_picked),
                    time_control=row.time_control,
                    host_seat=row.host_seat,
                    rated=bool(row.rated),
                )
                for row, n in rows
            ]


#: the statements that store moves, games and seats, made once (not per transaction)
_INSERT_MOVE = insert(MoveRow)


def _waiting() -> Exists:
    """The condition that a game (the `GameRow` of the query) has a seat waiting for a
    person: an invitation not yet claimed."""
    return (
        select(SeatRow.game_id)
        .where(SeatRow.game_id == GameRow.id, SeatRow.invited.is_(True))
        .exists()
    )


_INSERT_GAME = insert(GameRow)
_INSERT_SEAT = insert(SeatRow)
#: `Store.load`'s and `Store.seat_of`'s reads, in Core (rows, not ORM objects), made once
_GAMES, _SEATS, _MOVES = GameRow.__table__, SeatRow.__table__, MoveRow.__table__
_LOAD_GAME = select(_GAMES).where(_GAMES.c.id == bindparam("id"))
_LOAD_SEATS = select(_SEATS).where(_SEATS.c.game_id == bindparam("id")).order_by(_SEATS.c.seat)
_LOAD_MOVES = select(_MOVES).where(_MOVES.c.game_id == bindparam("id")).order_by(_MOVES.c.ply)
_TAKEBACKS = TakebackRow.__table__
_LOAD_TAKEBACKS = (
    select(_TAKEBACKS).where(_TAKEBACKS.c.game_id == bindparam("id")).order_by(_TAKEBACKS.c.id)
)
_SEAT_HASHES = select(_SEATS.c.seat, _SEATS.c.token_hash, _SEATS.c.invited).where(
    _SEATS.c.game_id == bindparam("id")
)
_KEYS = SeatKeyRow.__table__
_SEAT_KEYS = select(_KEYS.c.seat, _KEYS.c.token_hash).where(_KEYS.c.game_id == bindparam("id"))
#: the news of a batch of moves sent from a transaction (PostgreSQL; `add_moves_at_once`)
_NOTIFY = text(
    "SELECT count(pg_notify(:channel, p)) FROM unnest(string_to_array(:news, chr(10))) AS p"
)


def _rate(connection: Connection, game_id: str, at: datetime) -> None:
    """Update the ratings of a rated game that just ended, in the transaction that
    records its end (`ratings.settle`: at most once per game, whichever process ends it)."""
    from cubegames.server import ratings  # it reads these tables: imported when used

    ratings.settle(connection, game_id, at)


#: on PostgreSQL, a whole batch of moves in one statement: one array per column, unnested
#: into rows. The text arrays are `text[]`, not `varchar(n)[]`: a cast to varchar(n) would
#: cut a long text short without a word, where the insert into the column refuses it.
_BATCH = (
    func.unnest(
        cast(bindparam("games"), ARRAY(Text)),
        cast(bindparam("plies"), ARRAY(Integer)),
        cast(bindparam("seats"), ARRAY(Integer)),
        cast(bindparam("moves"), ARRAY(Text)),
        cast(bindparam("played_at"), ARRAY(DateTime(timezone=True))),
    )
    .table_valued("game_id", "ply", "seat", "move", "played_at")
    .render_derived(name="batch")
)
_INSERT_MOVES = insert(MoveRow).from_select(
    ["game_id", "ply", "seat", "move", "played_at"],
    select(
        _BATCH.c.game_id,
        _BATCH.c.ply,
        _BATCH.c.seat,
        _BATCH.c.move,
        _BATCH.c.played_at,
    ),
)


#: `Store.add_moves_at_once`: the moves inserted, the games they end marked finished
#: and the news sent, by one statement. Its data-modifying parts run to completion
#: whether or not the query reads them, and notifications go out when (and only if) the
#: statement's transaction commits.
_AT_ONCE = f"""
WITH saved AS (
    INSERT INTO {MoveRow.__tablename__} (game_id, ply, seat, move, played_at)
    SELECT b.game_id, b.ply, b.seat, b.move, b.at
    FROM unnest(%(games)s::text[], %(plies)s::integer[], %(seats)s::integer[],
                %(moves)s::text[], %(ats)s::timestamptz[]) AS b(game_id, ply, seat, move, at)
    RETURNING 1
), ended AS (
    UPDATE {GameRow.__tablename__} AS g
    SET status = %(finished)s, finished_at = e.at, result = e.result::json, deadline = NULL
    FROM unnest(%(ended)s::text[], %(results)s::text[], %(ended_at)s::timestamptz[])
        AS e(id, result, at)
    WHERE g.id = e.id
    RETURNING 1
), timed AS (
    UPDATE {GameRow.__tablename__} AS g
    SET deadline = t.deadline
    FROM unnest(%(timed)s::text[], %(deadlines)s::float8[]) AS t(id, deadline)
    WHERE g.id = t.id
    RETURNING 1
)
SELECT count(pg_notify(%(channel)s, p))
FROM unnest(string_to_array(%(news)s::text, chr(10))) AS p
"""

#: `_AT_ONCE` for one move that ends no game, the writer's usual batch when moves come
#: one at a time: its values as they are, not arrays (psycopg dumps those in Python)
_ONE_AT_ONCE = f"""
WITH saved AS (
    INSERT INTO {MoveRow.__tablename__} (game_id, ply, seat, move, played_at)
    VALUES (%s, %s, %s, %s, %s)
    RETURNING 1
)
SELECT count(pg_notify(%s, p))
FROM unnest(string_to_array(%s::text, chr(10))) AS p
"""


def _seat(row: Any) -> SeatInfo:
    return SeatInfo(
        row.seat,
        row.kind,
        row.bot,
        row.name,
        bool(row.invited),
        row.reissued or 0,
        row.zombie_from,
        row.user_id,
    )


def sqlite_file(url: str) -> str | None:
    """The file an SQLite database URL names (None for another backend, or an SQLite
    database in memory).

    >>> sqlite_file("sqlite:///games.sqlite3"), sqlite_file("sqlite://")
    ('games.sqlite3', None)
    """
    parsed = make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return None
    return database


def _engine(url: str) -> Engine:
    """An engine for `url`. SQLite gets foreign keys switched on; an in-memory SQLite
    database is shared by every thread (otherwise each thread would see its own)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    if database in ("", ":memory:"):
        engine = create_engine(url, connect_args={"check_same_thread": False}, poolclass=StaticPool)
    else:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        # a write waits up to 30 s for another's lock (Python's default is 5 s): a disk
        # that stalls a commit's sync for seconds must slow a new game, not fail it
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if database not in ("", ":memory:"):
            # write-ahead log: readers never wait for the writer, and a commit appends to
            # the log instead of rewriting pages; FULL syncs the log at every commit, so a
            # committed move survives a crash of the machine, not only of the process
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    return engine
