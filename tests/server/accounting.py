"""Helpers for the tests of accounts: an app whose cookies travel (its test client speaks
to https://testserver, as a `Secure` cookie needs), signing up and in as the page does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from argon2 import PasswordHasher
from fastapi import FastAPI

from cubegames.server.accounts import COOKIE
from cubegames.server.app import create_app
from cubegames.server.limits import Limits
from tests.server.helpers import TestClient

BASE = "https://testserver"
#: what a page of this server sends
SAME = {"Origin": BASE}
PASSWORD = "correct horse battery"
#: a quick Argon2id for tests (the app's own is the library's default, RFC 9106's)
QUICK = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def quick_app(db_url: str, limits: Limits | None = None, clock: Any = None) -> FastAPI:
    """The app with bots that answer at once and a quick password hash."""
    app = create_app(db_url, bot_delay=0, limits=limits, clock=clock)
    app.state.accounts.hasher = QUICK
    return app


@contextmanager
def browser(app: FastAPI) -> Iterator[TestClient]:
    """A client of `app` that keeps its cookies, like one browser."""
    with TestClient(app, base_url=BASE) as client:
        yield client


def sign_up(
    client: TestClient,
    name: str,
    password: str = PASSWORD,
    seats: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """Make an account from this browser (as the page does): the answer, with its CSRF token."""
    answer = client.post(
        "/api/account/signup",
        json={"name": name, "password": password, "seats": seats or []},
        headers={**SAME, **csrf(client)},
    )
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def sign_in(
    client: TestClient,
    name: str,
    password: str = PASSWORD,
    seats: list[dict[str, str]] | None = None,
) -> Any:
    """Sign in from this browser; the response."""
    return client.post(
        "/api/account/signin",
        json={"name": name, "password": password, "seats": seats or []},
        headers={**SAME, **csrf(client)},
    )


def csrf(client: TestClient) -> dict[str, str]:
    """The header that carries this browser's session's CSRF token (none signed out)."""
    if not client.cookies.get(COOKIE):
        return {}
    token = client.get("/api/account").json()["csrf"]
    return {"X-CSRF-Token": token} if token else {}


def post(client: TestClient, path: str, **kwargs: Any) -> Any:
    """A POST as this server's page makes it: same origin, the session's CSRF token."""
    headers = {**SAME, **csrf(client), **kwargs.pop("headers", {})}
    return client.post(path, headers=headers, **kwargs)
