"""Games, seats and moves in a SQL database (SQLAlchemy 2), and nothing else.

Only what the rules need to rebuild a game is stored: the game id, its options, the seed
and the moves in order. A position is never stored; the server rebuilds it by replaying
the moves through the engine from `new_state(seed)`, so a database cannot hold a state
that breaks the rules.

Tables:

- `games`: id (short random text, used in links), game (`cubed`...), options (JSON),
  seed, status (`playing` or `finished`), created and finished times, result (JSON:
  scores and winners, once finished);
- `seats`: (game, seat), kind (`human` or `bot`), bot spec, an optional name, and the
  SHA-256 of the seat's secret token (the token itself is shown once, when the game is
  made, and lives only in its links);
- `moves`: (game, ply), the seat that moved, the move's notation, the time.

`default_url()` is where `cubegames serve` keeps its SQLite file when no `--db` is given.

The same code runs on SQLite and PostgreSQL (`postgresql+psycopg://...`; the tests run
both). Times come back as UTC whatever the database's time zone. Text PostgreSQL cannot
hold (too long for its column, or with a NUL character) is refused up front with
`Unstorable`, on every database alike.
On PostgreSQL the tables are made under a lock, so servers starting together on an empty
database do not trip over each other, and a game is loaded from one snapshot, so a move
committed meanwhile cannot show in its moves but not in its status.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    func,
    select,
    text,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool

PLAYING = "playing"
FINISHED = "finished"
HUMAN = "human"
BOT = "bot"

#: the longest text each free-text column takes (PostgreSQL enforces it, SQLite would not)
BOT_LENGTH = 120
NAME_LENGTH = 40
MOVE_LENGTH = 200

#: the PostgreSQL advisory lock held while the tables are made ("cubegame" as a number)
SCHEMA_LOCK = int.from_bytes(b"cubegame", "big")


class Unstorable(ValueError):
    """Text the database cannot keep; `str()` names the field and why."""


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
        raise Unstorable(f"{field}: at most {length} characters can be stored")
    if "\x00" in value:
        raise Unstorable(f"{field}: a NUL character (\\u0000) cannot be stored")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Unstorable(
            f"{field}: a lone surrogate (half of a UTF-16 pair) cannot be stored"
        ) from None


def new_token() -> str:
    """A fresh secret seat token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


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
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # no result yet is SQL NULL, not the JSON text `null`
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))


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


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(MOVE_LENGTH))
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class SeatInfo:
    """A seat as the app sees it (the token's hash stays in the database)."""

    seat: int
    kind: str
    bot: str | None
    name: str | None


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


@dataclass(frozen=True)
class NewSeat:
    """A seat of a game being made."""

    kind: str
    bot: str | None = None
    name: str | None = None


class Store:
    """The database behind the app. Every method opens its own session and commits before
    it returns, so it may be called from any thread."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _engine(url)
        postgres = self.engine.dialect.name == "postgresql"
        with self.engine.begin() as connection:
            if postgres:
                # each server starting on an empty database would otherwise find no tables
                # and make them, and all but the first would fail on a duplicate name
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            Base.metadata.create_all(connection)
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
        """Close every pooled connection."""
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
    ) -> tuple[str, list[str]]:
        """Store a new game (with `moves` already played, as (seat, move), for a loaded
        record); returns its id and one fresh token per seat."""
        for i, seat in enumerate(seats):
            storable(f"seats.{i}.bot", seat.bot, BOT_LENGTH)
            storable(f"seats.{i}.name", seat.name, NAME_LENGTH)
        for ply, (_seat_no, move) in enumerate(moves, 1):
            storable(f"moves.{ply}", move, MOVE_LENGTH)
        game_id = secrets.token_urlsafe(6)
        tokens = [new_token() for _ in seats]
        moment = now()
        with self._session() as session:
            session.add(
                GameRow(
                    id=game_id,
                    game=game,
                    options=options,
                    seed=seed,
                    status=FINISHED if result is not None else PLAYING,
                    created_at=moment,
                    finished_at=moment if result is not None else None,
                    result=result,
                )
            )
            session.flush()
            for i, (seat, token) in enumerate(zip(seats, tokens, strict=True)):
                session.add(
                    SeatRow(
                        game_id=game_id,
                        seat=i,
                        kind=seat.kind,
                        bot=seat.bot,
                        name=seat.name,
                        token_hash=token_hash(token),
                    )
                )
            for ply, (seat_no, move) in enumerate(moves, 1):
                session.add(
                    MoveRow(game_id=game_id, ply=ply, seat=seat_no, move=move, played_at=moment)
                )
        return game_id, tokens

    def load(self, game_id: str) -> GameInfo | None:
        """A stored game with its seats and moves, or None."""
        with self._session(snapshot=True) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            ).all()
            moves = session.scalars(
                select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
            ).all()
            return GameInfo(
                id=row.id,
                game=row.game,
                options=dict(row.options),
                seed=row.seed,
                status=row.status,
                created_at=utc(row.created_at),
                finished_at=_utc(row.finished_at),
                result=row.result,
                seats=tuple(_seat(s) for s in seats),
                moves=tuple(MoveInfo(m.ply, m.seat, m.move, utc(m.played_at)) for m in moves),
            )

    def seat_of(self, game_id: str, token: str) -> int | None:
        """The seat that `token` opens in the game, or None."""
        wanted = token_hash(token)
        with self._session() as session:
            hashes = session.execute(
                select(SeatRow.seat, SeatRow.token_hash).where(SeatRow.game_id == game_id)
            ).all()
        for seat, stored in hashes:
            if hmac.compare_digest(stored, wanted):
                return int(seat)
        return None

    def add_move(
        self, game_id: str, ply: int, seat: int, move: str, result: dict[str, Any] | None
    ) -> None:
        """Commit move number `ply`; `result` given means the game is over with it.

        Two writers of the same ply cannot both succeed: (game, ply) is the primary key, so
        the second gets `sqlalchemy.exc.IntegrityError` and nothing of it is kept.
        """
        storable("move", move, MOVE_LENGTH)
        with self._session() as session:
            session.add(MoveRow(game_id=game_id, ply=ply, seat=seat, move=move, played_at=now()))
            if result is not None:
                row = session.get(GameRow, game_id)
                assert row is not None
                row.status = FINISHED
                row.finished_at = now()
                row.result = result

    def summaries(self, status: str | None = None, limit: int = 50) -> list[GameSummary]:
        """The latest games first, optionally only those with `status`."""
        with self._session(snapshot=True) as session:
            counts = (
                select(MoveRow.game_id, func.count().label("n"))
                .group_by(MoveRow.game_id)
                .subquery()
            )
            query = (
                select(GameRow, counts.c.n)
                .outerjoin(counts, counts.c.game_id == GameRow.id)
                .order_by(GameRow.created_at.desc(), GameRow.id)
                .limit(limit)
            )
            if status is not None:
                query = query.where(GameRow.status == status)
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
                )
                for row, n in rows
            ]


def _seat(row: SeatRow) -> SeatInfo:
    return SeatInfo(row.seat, row.kind, row.bot, row.name)


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
        engine = create_engine(url, connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine
