"""Accounts: a username and a password (hashed with Argon2id), a session in a cookie, and
the seats bound to an account.

- **Sessions.** Signing up or in sets `cubegames_session`, a fresh random id (a new one at
  every sign-in: a session id planted before cannot be taken over), `Secure`, `HttpOnly`,
  `SameSite=Lax`; the database keeps only its SHA-256 (`sessions`), with the session's
  CSRF token and when it ends (`SESSION_DAYS`). Signing out deletes the row: the cookie
  opens nothing more, wherever it was copied to. Chromium and Firefox keep a `Secure`
  cookie on http://127.0.0.1 and http://localhost (loopback counts as secure); any other
  address needs HTTPS (docs/security.md).
- **CSRF.** `CsrfGuard`, around the whole app: a request that changes something (any method
  but GET, HEAD, OPTIONS) from a page of another site (its `Origin`) is refused; one made
  with a live session's cookie must also come from this site (`Origin`, or
  `Sec-Fetch-Site: same-origin`) and carry the session's CSRF token in `X-CSRF-Token` (the
  page reads it from `GET /api/account`). Programs and guests, who hold seat credentials
  and no cookie, are not asked for it: their requests carry no ambient authority.
- **Guessing.** Failed sign-ins are capped per account name and per address
  (`Limits.signins_per_account`, `signins_per_client` over `SIGNIN_WINDOW` seconds, on an
  injectable clock), counted in the database (`SigninAttempts`, the `signin_attempts`
  table), so the caps hold for the sum over every process of `serve --workers N`. An
  unknown name and a wrong password get the same status and words, and cost the same: an
  unknown name is checked against a dummy hash.
- **Seats.** Signing up or in binds the seats whose credentials the browser holds (sent
  with the request) to the account, if no other account holds them; a seat made or
  claimed while signed in is bound at once. A signed-in browser asks for its own
  credential of each of its seats (`POST /api/account/games/{id}/keys`), so the account
  plays its seats from any device; seat credentials of today keep working for everyone.

Routes (JSON):

- `GET /api/account`: `{"user": name or null, "csrf": token or null}`;
- `POST /api/account/signup`, `POST /api/account/signin`: `{name, password, seats}`;
- `POST /api/account/signout`;
- `GET /api/account/games`: the account's games, with its seats in each;
- `POST /api/account/games/{id}/keys`: a credential for each of the account's seats there.

A guest browser (any browser, signed in or not) is also given `cubegames_guest` by every
page (`give_guest_cookie`): a random id of its own that opens nothing and is sent to no
one, kept a year. Only a spectator's chat tag is made from it (a keyed HMAC with the
table, `chat.Chats.spectator_tag`), so that two guests behind one address (one NAT) have
tags of their own and a mute of one does not hide the other.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from cubegames.server import names
from cubegames.server.context import client_of
from cubegames.server.guard import HEADERS
from cubegames.server.i18n import Said, language_of, say
from cubegames.server.limits import Clock, RateLimit, share
from cubegames.server.names import BadName, check_name, look, name_key
from cubegames.server.protocol import MAX_TOKEN
from cubegames.server.storage import (
    FINISHED,
    GameRow,
    SeatKeyRow,
    SeatRow,
    SessionRow,
    SigninAttemptRow,
    Store,
    UserRow,
    iso,
    new_token,
    now,
    token_hash,
    utc,
)

COOKIE = "cubegames_session"
#: a guest browser's own random id (`give_guest_cookie`, set by every page), kept a year
GUEST_COOKIE = "cubegames_guest"
GUEST_DAYS = 365
GUEST_BYTES = 24
_GUEST_FORM = re.compile(r"[A-Za-z0-9_-]{32}")
CSRF_HEADER = "x-csrf-token"
#: days a session lasts
SESSION_DAYS = 30
#: sessions one account keeps at once (its browsers); a new one beyond ends the oldest, so
#: signing in over and over (without sending the cookie back) keeps no more rows than this
MAX_SESSIONS = 20
#: seconds over which failed sign-ins are counted
SIGNIN_WINDOW = 15 * 60.0
#: seconds over which accounts made from one address are counted
SIGNUP_WINDOW = 60 * 60.0
MIN_PASSWORD = 8
MAX_PASSWORD = 256
#: seat credentials a signed-in browser may send to be bound at once
MAX_BIND = 200
#: credentials kept per account seat (one per device; the oldest goes)
MAX_KEYS = 8
SAFE = ("GET", "HEAD", "OPTIONS")

router = APIRouter(prefix="/api/account")


@dataclass(frozen=True)
class User:
    """A signed-in account, and its session's CSRF token."""

    id: int
    name: str
    csrf: str


class SigninAttempts:
    """Sign-in attempts per key (an account, an address) over a moving `window` of seconds,
    counted in the database: every process on it sees the same counts. `take` checks the
    caps of an attempt's keys and counts it against each, in one transaction under a lock
    on each key (PostgreSQL's advisory locks; SQLite's one writer), so two processes
    cannot both let through the last allowed attempt; `forgive` takes back the attempt of a
    sign-in that succeeded (only failures count). `clock` is seconds since the epoch (every
    process's counts alike); a test passes its own."""

    def __init__(self, store: Store, window: float = SIGNIN_WINDOW, clock: Clock = time.time):
        self.store = store
        self.window = window
        self.clock = clock

    @staticmethod
    def _hashed(key: str) -> str:
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()

    def take(self, caps: list[tuple[str, int]]) -> tuple[float | None, list[int]]:
        """Count one attempt against each `(key, cap)`: `(None, ids of the rows counted)`,
        or, when a key is at its cap, `(seconds to wait, [])` and nothing counted. Blocks
        on the database: call it from a worker thread."""
        keys = [(self._hashed(key), cap) for key, cap in caps]
        moment = self.clock()
        with self.store.engine.begin() as connection:
            # the delete comes first: on SQLite it takes the write lock for the whole check
            connection.execute(
                delete(SigninAttemptRow).where(SigninAttemptRow.at <= moment - self.window)
            )
            if connection.dialect.name == "postgresql":
                for key in sorted({k for k, _ in keys}):  # one order: no deadlock
                    lock = int.from_bytes(bytes.fromhex(key)[:8], "big", signed=True)
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock})
            wait: float | None = None
            for key, cap in keys:
                made, oldest = connection.execute(
                    select(func.count(), func.min(SigninAttemptRow.at)).where(
                        SigninAttemptRow.key == key
                    )
                ).one()
                if made >= cap:
                    held = max(0.0, float(oldest) + self.window - moment)
                    wait = held if wait is None else max(wait, held)
            if wait is not None:
                return wait, []
            ids = [
                int(
                    connection.execute(
                        insert(SigninAttemptRow)
                        .values(key=key, at=moment)
                        .returning(SigninAttemptRow.id)
                    ).scalar_one()
                )
                for key, _ in keys
            ]
        return None, ids

    def forgive(self, ids: list[int]) -> None:
        """Take back the attempts `ids` (a sign-in that succeeded)."""
        if ids:
            with self.store.engine.begin() as connection:
                connection.execute(delete(SigninAttemptRow).where(SigninAttemptRow.id.in_(ids)))


class Accounts:
    """The accounts of one app: the password hasher and the caps on guessing."""

    def __init__(
        self,
        store: Store,
        *,
        per_account: int,
        per_client: int,
        signups_per_client: int,
        workers: int = 1,
        clock: Clock = time.monotonic,
        wall: Callable[[], float] = time.time,
        hasher: PasswordHasher | None = None,
        attempts_clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        #: failed sign-ins per account and per address, counted in the database (the
        #: caps hold over every process: not shared out among the workers)
        self.per_account = per_account
        self.per_client = per_client
        self.attempts = SigninAttempts(store, SIGNIN_WINDOW, attempts_clock or time.time)
        self.signups = RateLimit(share(signups_per_client, workers), SIGNUP_WINDOW, clock)
        self.wall = wall
        self._dummy: str | None = None
        names.warm()  # here, not on the event loop at the first guest's name

    @property
    def dummy(self) -> str:
        """A hash no password matches: an unknown name is checked against it, so it costs
        what a known one does."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy

    # -- in worker threads (they block on the hash and the database) ---------------------

    def sign_up(self, name: str, password: str) -> int | str:
        """A new account (its id), or why not, as the refusal's code: `error-name-taken`
        (an account has this name) or `error-name-confusable` (an account's name looks like
        it). The database holds one account per name key and per look (migration 0012),
        so of two sign-ups of look-alike names made at once, each checked before the other
        was stored, the second is refused here as a look-alike name is."""
        hashed = self.hasher.hash(password)
        try:
            with self.store.engine.begin() as connection:
                made = connection.execute(
                    insert(UserRow).values(
                        name=name,
                        key=name_key(name),
                        look=look(name),
                        password=hashed,
                        created_at=now(),
                    )
                )
        except IntegrityError:
            return "error-name-taken" if self.id_of(name) is not None else "error-name-confusable"
        key = made.inserted_primary_key
        assert key is not None
        return int(key[0])

    def check(self, name: str, password: str) -> tuple[int, str] | None:
        """The account (id and name) if `password` is its password; None otherwise, after
        the same work whether or not the account exists."""
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(UserRow.id, UserRow.name, UserRow.password).where(
                    UserRow.key == name_key(name)
                )
            ).first()
        try:
            self.hasher.verify(row.password if row is not None else self.dummy, password)
        except (VerificationError, InvalidHashError):
            return None
        if row is None:
            return None
        if self.hasher.check_needs_rehash(row.password):
            self.set_password(row.id, password, end_sessions=False)
        return int(row.id), str(row.name)

    def set_password(self, user_id: int, password: str, *, end_sessions: bool = True) -> None:
        """A new password (and, by default, every session of the account ends)."""
        hashed = self.hasher.hash(password)
        with self.store.engine.begin() as connection:
            connection.execute(update(UserRow).where(UserRow.id == user_id).values(password=hashed))
            if end_sessions:
                connection.execute(delete(SessionRow).where(SessionRow.user_id == user_id))

    def open_session(self, user_id: int) -> tuple[str, str]:
        """A new session of the account: its cookie's value and its CSRF token (the oldest
        of its sessions ends when it has `MAX_SESSIONS`)."""
        session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        moment = self.wall()
        with self.store.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.expires <= moment))
            connection.execute(
                insert(SessionRow).values(
                    id_hash=token_hash(session),
                    user_id=user_id,
                    csrf=csrf,
                    expires=moment + SESSION_DAYS * 86400,
                )
            )
            kept = (
                select(SessionRow.id_hash)
                .where(SessionRow.user_id == user_id)
                .order_by(SessionRow.expires.desc())
                .limit(MAX_SESSIONS)
            )
            connection.execute(
                delete(SessionRow).where(
                    SessionRow.user_id == user_id, SessionRow.id_hash.not_in(kept.scalar_subquery())
                )
            )
        return session, csrf

    def close_session(self, session: str) -> None:
        """End a session: its cookie opens nothing more."""
        with self.store.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.id_hash == token_hash(session)))

    def user_of(self, session: str) -> User | None:
        """The account of a live session, or None."""
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(UserRow.id, UserRow.name, SessionRow.csrf)
                .join(SessionRow, SessionRow.user_id == UserRow.id)
                .where(
                    SessionRow.id_hash == token_hash(session),
                    SessionRow.expires > self.wall(),
                )
            ).first()
        return None if row is None else User(int(row.id), str(row.name), str(row.csrf))

    def bind(self, user_id: int, held: list[tuple[str, str]]) -> int:
        """Bind to the account the seats that the credentials `held` (game, token) open and
        no account holds yet; how many were bound."""
        bound = 0
        for game_id, token in held[:MAX_BIND]:
            seat = self.store.seat_of(game_id, token)
            if seat is None:
                continue
            with self.store.engine.begin() as connection:
                done = connection.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.game_id == game_id,
                        SeatRow.seat == seat,
                        SeatRow.user_id.is_(None),
                        SeatRow.kind == "human",
                    )
                    .values(user_id=user_id)
                )
                bound += done.rowcount
        return bound

    def games(self, user_id: int, limit: int = 100) -> list[dict[str, Any]]:
        """The account's games, newest first, with its seats in each."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(
                    GameRow.id,
                    GameRow.game,
                    GameRow.status,
                    GameRow.rated,
                    GameRow.created_at,
                    SeatRow.seat,
                )
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(SeatRow.user_id == user_id)
                .order_by(GameRow.created_at.desc(), GameRow.id, SeatRow.seat)
            ).all()
        found: dict[str, dict[str, Any]] = {}
        for r in rows:
            if r.id not in found:
                if len(found) >= limit:
                    break
                found[r.id] = {
                    "id": r.id,
                    "game": r.game,
                    "status": r.status,
                    "rated": bool(r.rated),
                    "created": iso(utc(r.created_at)),
                    "seats": [],
                }
            found[r.id]["seats"].append(r.seat)
        return list(found.values())

    def keys(self, user_id: int, game_id: str) -> dict[int, str]:
        """A fresh credential for each of the account's seats in an unfinished game (each
        seat keeps its newest `MAX_KEYS`)."""
        given: dict[int, str] = {}
        with self.store.engine.begin() as connection:
            status = connection.execute(
                select(GameRow.status).where(GameRow.id == game_id)
            ).scalar()
            if status is None or status == FINISHED:
                return given
            seats = connection.execute(
                select(SeatRow.seat).where(SeatRow.game_id == game_id, SeatRow.user_id == user_id)
            ).scalars()
            for seat in seats:
                token = new_token()
                given[int(seat)] = token
                connection.execute(
                    insert(SeatKeyRow).values(
                        game_id=game_id, seat=seat, user_id=user_id, token_hash=token_hash(token)
                    )
                )
                kept = (
                    select(SeatKeyRow.id)
                    .where(
                        SeatKeyRow.game_id == game_id,
                        SeatKeyRow.seat == seat,
                        SeatKeyRow.user_id == user_id,
                    )
                    .order_by(SeatKeyRow.id.desc())
                    .limit(MAX_KEYS)
                )
                connection.execute(
                    delete(SeatKeyRow).where(
                        SeatKeyRow.game_id == game_id,
                        SeatKeyRow.seat == seat,
                        SeatKeyRow.user_id == user_id,
                        SeatKeyRow.id.not_in(kept.scalar_subquery()),
                    )
                )
        return given

    def taken(self, name: str) -> bool:
        """Whether an account has this name (by `names.name_key`), or one that looks like
        it (`names.look`)."""
        with self.store.engine.connect() as connection:
            return (
                connection.execute(
                    select(UserRow.id).where(
                        or_(UserRow.key == name_key(name), UserRow.look == look(name))
                    )
                ).first()
                is not None
            )

    def looks_taken(self, name: str) -> bool:
        """Whether an account's name looks like this one (`names.look`)."""
        with self.store.engine.connect() as connection:
            return (
                connection.execute(select(UserRow.id).where(UserRow.look == look(name))).first()
                is not None
            )

    def users(self) -> list[tuple[str, datetime]]:
        """Every account's name and when it was made (`cubegames users list`)."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(UserRow.name, UserRow.created_at).order_by(UserRow.id)
            ).all()
        return [(r.name, utc(r.created_at)) for r in rows]

    def id_of(self, name: str) -> tuple[int, str] | None:
        """The account (id and name) of a name, or None."""
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(UserRow.id, UserRow.name).where(UserRow.key == name_key(name))
            ).first()
        return None if row is None else (int(row.id), str(row.name))


def accounts_of(request: Request) -> Accounts:
    """The app's accounts."""
    return accounts_of_app(request.app)


def accounts_of_app(app: Any) -> Accounts:
    """The accounts of an app (a websocket's, a request's)."""
    found: Accounts = app.state.accounts
    return found


async def current_user(request: Request) -> User | None:
    """The signed-in account of a request, or None (looked up once per request)."""
    if hasattr(request.state, "user"):
        known: User | None = request.state.user
        return known
    session = request.cookies.get(COOKIE)
    user = None
    if session and len(session) <= MAX_TOKEN:
        user = await asyncio.to_thread(accounts_of(request).user_of, session)
    request.state.user = user
    return user


def checked_name(name: str) -> str:
    """A name as `names.check_name` leaves it, or a 400 with its code's words."""
    try:
        return check_name(name)
    except BadName as exc:
        raise Said(400, exc.code) from None


async def guest_name(request: Request, name: str) -> str:
    """A guest's seat name: checked as an account's, and not an account's name."""
    shown = checked_name(name)
    if await asyncio.to_thread(accounts_of(request).taken, shown):
        raise Said(400, "error-name-account")
    return shown


async def bot_name(request: Request, name: str) -> str:
    """A bot seat's name, which the pages show where a person's would be: checked as a
    guest's (nothing invisible, no account's name), but it may read as a bot's."""
    try:
        shown = check_name(name)
    except BadName as exc:
        if exc.code != "error-name-bot":
            raise Said(400, exc.code) from None
        shown = names.normalise(name)
    if await asyncio.to_thread(accounts_of(request).taken, shown):
        raise Said(400, "error-name-account")
    return shown


# -- the routes -----------------------------------------------------------------------------


class HeldSeat(BaseModel):
    """A seat credential this browser holds."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(min_length=1, max_length=24)]
    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]


class Credentials(BaseModel):
    """A sign-up or sign-in."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=200)]
    password: Annotated[str, Field(max_length=MAX_PASSWORD)]
    seats: Annotated[list[HeldSeat], Field(max_length=MAX_BIND)] = Field(default_factory=list)


def guest_of(cookies: Mapping[str, str]) -> str | None:
    """A browser's guest id (its `GUEST_COOKIE`), or None if it has none, or none of the
    form this server gives."""
    found = cookies.get(GUEST_COOKIE)
    return found if found is not None and _GUEST_FORM.fullmatch(found) else None


def give_guest_cookie(cookies: Mapping[str, str], response: Response) -> None:
    """Give a browser that has no guest id (`guest_of` its `cookies`) a new one, on
    `response`: a random id that names this browser and nothing else, `Secure`,
    `HttpOnly`, `SameSite=Lax`. It opens nothing; what it does is tell two guests apart
    (a spectator's chat tag, `chat.Chats.spectator_tag`), where their address would not."""
    if guest_of(cookies) is None:
        # a shared cache must not hand one browser's id to another
        response.headers["Cache-Control"] = "no-cache, private"
        response.set_cookie(
            GUEST_COOKIE,
            secrets.token_urlsafe(GUEST_BYTES),
            max_age=GUEST_DAYS * 86400,
            path="/",
            secure=True,
            httponly=True,
            samesite="lax",
        )


def _set_cookie(response: Response, session: str) -> None:
    response.set_cookie(
        COOKIE,
        session,
        max_age=SESSION_DAYS * 86400,
        path="/",
        secure=True,
        httponly=True,
        samesite="lax",
    )


async def _signed_in(
    request: Request, response: Response, user_id: int, name: str, body: Credentials
) -> dict[str, Any]:
    accounts = accounts_of(request)
    old = request.cookies.get(COOKIE)
    if old and len(old) <= MAX_TOKEN:
        await asyncio.to_thread(accounts.close_session, old)
    session, csrf = await asyncio.to_thread(accounts.open_session, user_id)
    bound = await asyncio.to_thread(accounts.bind, user_id, [(s.game, s.token) for s in body.seats])
    _set_cookie(response, session)
    return {"user": name, "csrf": csrf, "bound": bound}


@router.get("")
async def whoami(request: Request) -> dict[str, Any]:
    """Who is signed in here, and the session's CSRF token."""
    user = await current_user(request)
    return {"user": user.name if user else None, "csrf": user.csrf if user else None}


@router.post("/signup", status_code=201)
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Make an account and sign in; the browser's seats move into it."""
    accounts = accounts_of(request)
    wait = accounts.signups.wait(client_of(request))
    if wait is not None:
        raise Said(429, "error-too-many-signups", headers={"Retry-After": str(math.ceil(wait))})
    name = checked_name(body.name)
    if len(body.password) < MIN_PASSWORD:
        raise Said(400, "error-password-short", count=MIN_PASSWORD)
    accounts.signups.allow(client_of(request))
    if await asyncio.to_thread(accounts.looks_taken, name):
        if await asyncio.to_thread(accounts.id_of, name) is not None:
            raise Said(409, "error-name-taken")
        raise Said(409, "error-name-confusable")
    user_id = await asyncio.to_thread(accounts.sign_up, name, body.password)
    if isinstance(user_id, str):  # another sign-up of the name or a look-alike came first
        raise Said(409, user_id)
    return await _signed_in(request, response, user_id, name, body)


@router.post("/signin")
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in (a new session id); the browser's seats move into the account."""
    accounts = accounts_of(request)
    caps = [
        ("account:" + name_key(body.name)[:200], accounts.per_account),
        ("address:" + client_of(request), accounts.per_client),
    ]
    wait, counted = await asyncio.to_thread(accounts.attempts.take, caps)
    if wait is not None:
        raise Said(
            429,
            "error-too-many-signins",
            headers={"Retry-After": str(math.ceil(wait))},
            wait=timedelta(seconds=math.ceil(wait)),
        )
    found = await asyncio.to_thread(accounts.check, body.name, body.password)
    if found is None:
        raise Said(401, "error-signin-failed")
    # the account's count is taken back (its owner is not held by their own sign-ins);
    # the address's is kept: every sign-in costs an Argon2id hash, and a script signing in
    # over and over must not spend them without end
    await asyncio.to_thread(accounts.attempts.forgive, counted[:1])
    return await _signed_in(request, response, found[0], found[1], body)


@router.post("/signout")
async def sign_out(request: Request, response: Response) -> dict[str, Any]:
    """End this browser's session (on the server: its cookie opens nothing more)."""
    session = request.cookies.get(COOKIE)
    if session and len(session) <= MAX_TOKEN:
        await asyncio.to_thread(accounts_of(request).close_session, session)
    response.delete_cookie(COOKIE, path="/", secure=True, httponly=True, samesite="lax")
    return {"user": None}


async def signed_in(request: Request) -> User:
    """The signed-in account, or 401."""
    user = await current_user(request)
    if user is None:
        raise Said(401, "error-signed-out")
    return user


@router.get("/games")
async def my_games(request: Request) -> list[dict[str, Any]]:
    """The signed-in account's games, newest first."""
    user = await signed_in(request)
    return await asyncio.to_thread(accounts_of(request).games, user.id)


@router.post("/games/{game_id}/keys")
async def my_keys(game_id: str, request: Request) -> dict[str, Any]:
    """A credential of this browser's own for each of the account's seats in a game."""
    user = await signed_in(request)
    given = await asyncio.to_thread(accounts_of(request).keys, user.id, game_id[:24])
    return {"id": game_id, "tokens": {str(s): t for s, t in given.items()}}


# -- CSRF -----------------------------------------------------------------------------------


def same_site(headers: dict[bytes, bytes]) -> bool | None:
    """True if a request's `Origin` (or `Sec-Fetch-Site`) says it comes from a page of
    this server, False if from another site, None if it says nothing (a program)."""
    origin = headers.get(b"origin")
    if origin is not None:
        text = origin.decode("latin-1")
        host = headers.get(b"host", b"").decode("latin-1").lower()
        return text != "null" and urlsplit(text).netloc.lower() == host
    fetched = headers.get(b"sec-fetch-site")
    if fetched is not None:
        return fetched in (b"same-origin", b"none")
    return None


class CsrfGuard:
    """Refuses a request that changes something (403, its words from the catalogs) when it
    comes from another site's page, or when it is made with a live session's cookie
    without coming from this site and carrying that session's CSRF token."""

    def __init__(self, app: ASGIApp, accounts: Accounts) -> None:
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        site = same_site(headers)
        refused = site is False
        if not refused:
            # the session the routes will read (`current_user`), read the same way: a
            # request carrying two session cookies, or two Cookie headers, must not pass
            # here on one and act on the other
            session = _cookie(HTTPConnection(scope).cookies)
            if session is not None:
                user = await asyncio.to_thread(self.accounts.user_of, session)
                if user is not None:
                    given = headers.get(CSRF_HEADER.encode(), b"").decode("latin-1")
                    refused = site is not True or not hmac.compare_digest(
                        given.encode(), user.csrf.encode()
                    )
                    scope.setdefault("state", {})["user"] = user
        if refused:
            await _refuse(scope, send)
            return
        await self.app(scope, receive, send)


def _cookie(cookies: Mapping[str, str]) -> str | None:
    """The session id of a request's cookies, as `current_user` takes it."""
    value = cookies.get(COOKIE)
    return value if value and len(value) <= MAX_TOKEN else None


async def _refuse(scope: Scope, send: Send) -> None:
    from starlette.requests import Request as Plain

    lang = language_of(Plain(scope))
    body = f'{{"detail": {_json(say(lang, "error-csrf"))}, "code": "error-csrf"}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _json(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def password_hash_of(store: Store, name: str) -> str | None:
    """The stored hash of an account's password (tests: it is Argon2id)."""
    with store.engine.connect() as connection:
        found = connection.execute(
            select(UserRow.password).where(UserRow.key == name_key(name))
        ).scalar()
    return None if found is None else str(found)


__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "Accounts",
    "CsrfGuard",
    "SigninAttempts",
    "User",
    "current_user",
    "guest_name",
    "router",
    "same_site",
    "signed_in",
]
