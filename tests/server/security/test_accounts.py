"""Accounts tried as an attacker: session fixation, CSRF on every state-changing route, password
guessing, user enumeration, names that imitate a bot or hide characters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute

from cubegames.server.accounts import COOKIE, password_hash_of
from cubegames.server.limits import Limits
from cubegames.server.storage import Store
from tests.server.accounting import (
    BASE,
    PASSWORD,
    SAME,
    browser,
    csrf,
    post,
    quick_app,
    sign_in,
    sign_up,
)
from tests.server.helpers import TestClient

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}


@pytest.fixture
def app(db_url: str) -> Any:
    return quick_app(db_url)


def test_a_password_is_kept_as_an_argon2id_hash_and_the_cookie_is_locked_down(
    db_url: str,
) -> None:
    from cubegames.server.app import create_app

    app = create_app(db_url, bot_delay=0)  # the app's own hasher, not the tests' quick one
    with browser(app) as client:
        answer = client.post(
            "/api/account/signup", json={"name": "ada", "password": PASSWORD}, headers=SAME
        )
        assert answer.status_code == 201
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=")
        for flag in ("Secure", "HttpOnly", "SameSite=lax", "Path=/"):
            assert flag in cookie
    store = Store(db_url)
    try:
        stored = password_hash_of(store, "ada")
    finally:
        store.close()
    assert stored is not None and stored.startswith("$argon2id$") and PASSWORD not in stored


def test_signing_in_makes_a_new_session_id_and_signing_out_ends_it_on_the_server(app: Any) -> None:
    with browser(app) as first:
        sign_up(first, "ada")
        signed_up = first.cookies[COOKIE]
    with browser(app) as victim:
        # an attacker plants a session id of their choosing before the victim signs in
        victim.cookies.set(COOKIE, "planted-by-the-attacker", domain="testserver.local")
        assert sign_in(victim, "ada").status_code == 200
        got = victim.cookies[COOKIE]
        assert got not in ("planted-by-the-attacker", signed_up)
        # the planted id opens nothing; the victim's opens the account
        with browser(app) as attacker:
            attacker.cookies.set(COOKIE, "planted-by-the-attacker", domain="testserver.local")
            assert attacker.get("/api/account").json() == {"user": None, "csrf": None}
            attacker.cookies.set(COOKIE, got, domain="testserver.local")
            assert attacker.get("/api/account").json()["user"] == "ada"
        # signing in again replaces the session: the one before opens nothing more
        assert sign_in(victim, "ada").status_code == 200
        again = victim.cookies[COOKIE]
        assert again != got
        with browser(app) as other:
            other.cookies.set(COOKIE, got, domain="testserver.local")
            assert other.get("/api/account").json()["user"] is None
        # signing out ends the session on the server: a copy of the cookie opens nothing
        assert post(victim, "/api/account/signout").status_code == 200
        with browser(app) as thief:
            thief.cookies.set(COOKIE, again, domain="testserver.local")
            assert thief.get("/api/account").json()["user"] is None


def test_an_account_keeps_a_bounded_number_of_sessions(app: Any, db_url: str) -> None:
    """Signing in over and over from a script that never sends its cookie back keeps at
    most `MAX_SESSIONS` sessions of the account: a new one ends the oldest."""
    from sqlalchemy import func, select

    from cubegames.server.accounts import MAX_SESSIONS
    from cubegames.server.storage import SessionRow

    with browser(app) as first:
        sign_up(first, "ada")
        oldest = first.cookies[COOKIE]
    cookies = []
    for _ in range(MAX_SESSIONS + 5):
        with browser(app) as again:
            assert sign_in(again, "ada").status_code == 200
            cookies.append(again.cookies[COOKIE])
    store = Store(db_url)
    try:
        with store.engine.connect() as connection:
            kept = connection.execute(select(func.count()).select_from(SessionRow)).scalar()
    finally:
        store.close()
    assert kept == MAX_SESSIONS
    for cookie, live in ((oldest, False), (cookies[0], False), (cookies[-1], True)):
        with browser(app) as other:
            other.cookies.set(COOKIE, cookie, domain="testserver.local")
            assert (other.get("/api/account").json()["user"] == "ada") is live


def test_sign_ins_that_succeed_count_against_the_address(db_url: str) -> None:
    """Each sign-in costs an Argon2id hash: one address signing in to its own account over
    and over is held at `signins_per_client` too (its account is not held: another
    address signs in at once)."""
    app = quick_app(db_url, Limits(signins_per_client=3))
    with browser(app) as first:
        sign_up(first, "ada")
    for _ in range(3):
        with browser(app) as again:
            assert sign_in(again, "ada").status_code == 200
    with browser(app) as again:
        held = sign_in(again, "ada")
        assert held.status_code == 429 and "retry-after" in held.headers
    with TestClient(app, base_url=BASE, client=("10.9.9.9", 5000)) as other:
        assert sign_in(other, "ada").status_code == 200


def _routes(routes: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Every (method, path) of `routes`, into included routers (FastAPI keeps those as
    wrappers around the router included)."""
    found = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            found += _routes(inner.routes, prefix + route.include_context.prefix)
        elif isinstance(route, APIRoute):
            found += [(m, prefix + route.path_format) for m in route.methods]
    return found


def _state_changing(app: Any) -> list[tuple[str, str]]:
    found = []
    for method, path in _routes(app.routes):
        if method in ("GET", "HEAD", "OPTIONS"):
            continue
        path = path.replace("{seat}", "0")
        found.append((method, path.replace("{game_id}", "nosuchgame").replace("{game}", "cubed")))
    return sorted(set(found))


def test_every_state_changing_route_refuses_a_request_with_the_cookie_but_no_csrf_token(
    app: Any,
) -> None:
    """Enumerated from the app: a route added later without the check fails here."""
    routes = _state_changing(app)
    assert ("POST", "/api/games") in routes and ("POST", "/api/account/signout") in routes
    with browser(app) as client:
        sign_up(client, "ada")
        token = csrf(client)["X-CSRF-Token"]
        for method, path in routes:
            for headers in (
                SAME,  # no token
                {**SAME, "X-CSRF-Token": "guessed"},  # a wrong one
                {"X-CSRF-Token": token},  # the token, but no word of where it comes from
                {"Origin": "https://evil.example", "X-CSRF-Token": token},  # another site
            ):
                answer = client.request(method, path, headers=headers, json={})
                assert answer.status_code == 403, (method, path, headers, answer.text)
                assert answer.json()["code"] == "error-csrf"
        # still signed in: nothing was done
        assert client.get("/api/account").json()["user"] == "ada"
        # with the token from this site's page, the request goes through to the route
        made = client.post(
            "/api/games",
            json={"game": "cubes", "seats": [HUMAN, BOT]},
            headers={**SAME, "X-CSRF-Token": token},
        )
        assert made.status_code == 201
        # Sec-Fetch-Site: same-origin stands for a missing Origin
        fetched = client.post(
            "/api/games",
            json={"game": "cubes", "seats": [HUMAN, BOT]},
            headers={"Sec-Fetch-Site": "same-origin", "X-CSRF-Token": token},
        )
        assert fetched.status_code == 201


def test_a_program_without_the_cookie_needs_no_token_but_another_sites_page_is_refused(
    app: Any,
) -> None:
    with browser(app) as program:
        assert (
            program.post("/api/games", json={"game": "cubes", "seats": [HUMAN, BOT]}).status_code
            == 201
        )
        forged = program.post(
            "/api/games",
            json={"game": "cubes", "seats": [HUMAN, BOT]},
            headers={"Origin": "https://evil.example"},
        )
        assert forged.status_code == 403 and forged.json()["code"] == "error-csrf"
        # a login from another site's page (login CSRF) is refused too
        sign_up(program, "ada")
        post(program, "/api/account/signout")
        forged_in = program.post(
            "/api/account/signin",
            json={"name": "ada", "password": PASSWORD},
            headers={"Origin": "https://evil.example"},
        )
        assert forged_in.status_code == 403


def test_a_second_session_cookie_or_cookie_header_does_not_slip_past_the_csrf_check(
    app: Any,
) -> None:
    """The check and the routes read the session from the same cookie: a bogus session
    cookie first and the live one last (or the live one in a first Cookie header and
    anything in a second) is refused without the token, as the live cookie alone is."""
    with browser(app) as ada:
        sign_up(ada, "ada")
        session = ada.cookies.get(COOKIE)
    body = {"game": "cubes", "seats": [HUMAN, BOT]}
    with TestClient(app) as program:
        for cookies in (
            [f"{COOKIE}={session}"],
            [f"{COOKIE}=bogus; {COOKIE}={session}"],
            [f"{COOKIE}={session}", "other=1"],
        ):
            headers = [("cookie", c) for c in cookies]
            made = program.post("/api/games", json=body, headers=headers)
            assert made.status_code == 403, (cookies, made.text)
            assert made.json()["code"] == "error-csrf"


class Moment:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_password_guessing_is_capped_per_account(db_url: str) -> None:
    clock = Moment()
    app = quick_app(db_url, Limits(signins_per_account=3, signins_per_client=100), clock)
    with browser(app) as owner:
        sign_up(owner, "ada")
    with browser(app) as guesser:
        for guess in ("a" * 8, "b" * 8, "c" * 8):
            assert sign_in(guesser, "ada", guess).status_code == 401
        # the right password is not even tried now, from anywhere: the account is held
        held = sign_in(guesser, "ADA", PASSWORD)
        assert held.status_code == 429 and held.json()["code"] == "error-too-many-signins"
        assert int(held.headers["Retry-After"]) > 0
        # another account from the same address is not held
        with browser(app) as other:
            sign_up(other, "bob")
        assert sign_in(guesser, "bob", "x" * 8).status_code == 401
        clock.now += 15 * 60
        assert sign_in(guesser, "ada", PASSWORD).status_code == 200


def test_password_guessing_is_capped_per_address(db_url: str) -> None:
    clock = Moment()
    app = quick_app(db_url, Limits(signins_per_account=100, signins_per_client=3), clock)
    with browser(app) as guesser:
        for name in ("ada", "bob", "cyd"):
            assert sign_in(guesser, name, "a" * 8).status_code == 401
        held = sign_in(guesser, "dee", "a" * 8)
        assert held.status_code == 429
        clock.now += 15 * 60 + 1
        assert sign_in(guesser, "dee", "a" * 8).status_code == 401


def test_an_unknown_name_and_a_wrong_password_look_and_cost_the_same(app: Any) -> None:
    calls: list[str] = []
    hasher = app.state.accounts.hasher

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(hasher, name)

        def verify(self, stored: str, password: str) -> bool:
            calls.append(stored[:9])
            return bool(hasher.verify(stored, password))

    with browser(app) as client:
        sign_up(client, "ada")
        post(client, "/api/account/signout")
        app.state.accounts.hasher = Counting()
        for lang in ("en", "ja"):
            headers = {**SAME, "Accept-Language": lang}
            body = {"password": "not the password"}
            known = client.post(
                "/api/account/signin", json={"name": "ada", **body}, headers=headers
            )
            unknown = client.post(
                "/api/account/signin", json={"name": "nobody", **body}, headers=headers
            )
            assert known.status_code == unknown.status_code == 401
            assert known.json() == unknown.json()
            assert (
                known.headers.get("set-cookie") is None
                and unknown.headers.get("set-cookie") is None
            )
        # each one checked a password against an Argon2id hash: the unknown name a dummy's
        assert calls == ["$argon2id"] * 4


@pytest.mark.parametrize(
    "name",
    [
        "Random bot",
        "random  BOT",
        "ＲＡＮＤＯＭ ＢＯＴ",  # full-width: NFKC makes it plain
        "Greedy bot 2",
        "Thinking bot",
        "Deep bot",
        "ランダムボット",
        "欲ばり ボット",
        "αβボット",
        "bot",
    ],
)
def test_a_name_imitating_a_bot_is_refused_for_an_account_and_for_a_guest(
    app: Any, name: str
) -> None:
    with browser(app) as client:
        account = client.post(
            "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=SAME
        )
        assert account.status_code == 400 and account.json()["code"] == "error-name-bot"
        guest = client.post(
            "/api/games",
            json={"game": "cubes", "seats": [{"kind": "human", "name": name}, BOT]},
            headers={"Accept-Language": "ja"},
        )
        assert guest.status_code == 400 and guest.json()["code"] == "error-name-bot"
        assert guest.json()["detail"] == "その名前はボットのものです。人は使えません"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ad\u202ea", "error-name-invisible"),  # right-to-left override
        ("ad\u2067a\u2069", "error-name-invisible"),  # isolates
        ("a\u200bda", "error-name-invisible"),  # zero-width space
        ("a\u200dda", "error-name-invisible"),  # zero-width joiner
        ("\ufeffada", "error-name-invisible"),  # byte order mark
        ("ad\u0007a", "error-name-control"),
        ("ad\na", "error-name-control"),
        ("   ", "error-name-blank"),
        ("\u3000", "error-name-blank"),
        ("x" * 25, "error-name-long"),
    ],
)
def test_names_hiding_characters_are_refused(app: Any, name: str, code: str) -> None:
    with browser(app) as client:
        account = client.post(
            "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=SAME
        )
        assert account.status_code == 400 and account.json()["code"] == code
        guest = client.post(
            "/api/games", json={"game": "cubes", "seats": [{"kind": "human", "name": name}, BOT]}
        )
        assert guest.status_code == 400 and guest.json()["code"] == code
        assert client.get("/api/games").json() == []


def test_a_guest_cannot_take_an_accounts_name_nor_a_second_account_the_same_name(
    app: Any,
) -> None:
    with browser(app) as client:
        sign_up(client, "Ada Lovelace")
    with browser(app) as guest:
        for name in ("ada lovelace", "ＡＤＡ  Lovelace", "AdaLovelace"):
            made = guest.post(
                "/api/games",
                json={"game": "cubes", "seats": [{"kind": "human", "name": name}, BOT]},
            )
            assert made.status_code == 400 and made.json()["code"] == "error-name-account"
            again = guest.post(
                "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=SAME
            )
            assert again.status_code == 409 and again.json()["code"] == "error-name-taken"
        # a bot seat may carry any name
        named = guest.post(
            "/api/games",
            json={"game": "cubes", "seats": [HUMAN, {**BOT, "name": "Ada's rival"}]},
        )
        assert named.status_code == 201


def test_every_name_refusal_has_words_in_both_catalogs() -> None:
    from cubegames.server.i18n import bundle

    codes = {
        "error-name-blank",
        "error-name-control",
        "error-name-invisible",
        "error-name-long",
        "error-name-bot",
        "error-name-account",
        "error-name-taken",
        "error-signin-failed",
        "error-csrf",
    }
    source = (Path(__file__).parents[3] / "src/cubegames/server/names.py").read_text()
    assert {c for c in codes if c.startswith("error-name-") and c in source} >= {
        "error-name-blank",
        "error-name-bot",
    }
    for lang in ("en", "ja"):
        for code in codes:
            assert bundle(lang).has_message(code), (lang, code)
