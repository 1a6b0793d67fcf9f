"""Password guessing capped across processes: the failed sign-ins per account and per
address are counted in the database (`accounts.SigninAttempts`), so two stores (two
processes of `serve --workers N`) on one database share one count, on SQLite and on
PostgreSQL, on a clock the test moves."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from cubegames.server.accounts import SIGNIN_WINDOW, SigninAttempts
from cubegames.server.limits import Limits
from cubegames.server.storage import Store
from tests.server.accounting import PASSWORD, browser, quick_app, sign_in, sign_up
from tests.server.helpers import BOTH

pytestmark = BOTH


class Moment:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[SigninAttempts, SigninAttempts, Moment]]:
    clock = Moment()
    stores = [Store(db_url), Store(db_url)]
    try:
        yield SigninAttempts(stores[0], clock=clock), SigninAttempts(stores[1], clock=clock), clock
    finally:
        for store in stores:
            store.close()


def test_two_stores_on_one_database_share_the_counts(
    two: tuple[SigninAttempts, SigninAttempts, Moment],
) -> None:
    a, b, clock = two
    ada = [("account:ada", 3), ("address:10.0.0.1", 100)]
    assert a.take(ada)[0] is None
    assert b.take(ada)[0] is None
    clock.now += 60
    assert a.take(ada)[0] is None
    # the cap is reached over both processes: neither lets a fourth through
    for side in (a, b):
        wait, counted = side.take(ada)  # until the oldest, 60 s ago, leaves the window
        assert counted == [] and wait == pytest.approx(SIGNIN_WINDOW - 60)
    # another account from the same address is not held, nor is the address
    assert b.take([("account:bob", 3), ("address:10.0.0.1", 100)])[0] is None
    # a sign-in that succeeded is taken back, on whichever process
    clock.now += SIGNIN_WINDOW - 60  # the first two leave the window
    wait, counted = a.take(ada)
    assert wait is None and len(counted) == 2
    b.forgive(counted)
    assert b.take(ada)[0] is None
    assert a.take(ada)[0] is None
    assert b.take(ada)[0] == pytest.approx(60.0)  # the one made at +60 leaves last


def test_the_address_cap_holds_across_accounts_and_stores(
    two: tuple[SigninAttempts, SigninAttempts, Moment],
) -> None:
    a, b, clock = two
    for i, side in enumerate((a, b, a)):
        assert side.take([(f"account:n{i}", 5), ("address:10.0.0.2", 3)])[0] is None
    assert b.take([("account:fresh", 5), ("address:10.0.0.2", 3)])[0] == pytest.approx(
        SIGNIN_WINDOW
    )
    clock.now += SIGNIN_WINDOW
    assert b.take([("account:fresh", 5), ("address:10.0.0.2", 3)])[0] is None


def test_racing_processes_let_through_exactly_the_cap(
    two: tuple[SigninAttempts, SigninAttempts, Moment],
) -> None:
    a, b, _ = two
    allowed: list[bool] = []
    lock = threading.Lock()

    def guess(side: SigninAttempts) -> None:
        for _ in range(6):
            wait, _counted = side.take([("account:ada", 5), ("address:10.0.0.3", 1000)])
            with lock:
                allowed.append(wait is None)

    threads = [threading.Thread(target=guess, args=(side,)) for side in (a, b, a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(allowed) == 5 and len(allowed) == 24


def test_two_apps_on_one_database_hold_the_cap_on_their_sum(db_url: str) -> None:
    """Two processes of one server, each with the whole cap: guesses alternating between
    them are refused after the cap, not after twice the cap."""
    clock = Moment()
    limits = Limits(signins_per_account=4, signins_per_client=100)
    first: Any = quick_app(db_url, limits, clock)
    second: Any = quick_app(db_url, limits, clock)
    with browser(first) as one, browser(second) as other:
        sign_up(one, "ada")
        answers = [
            sign_in(side, "ada", f"wrong-{i}-guess").status_code
            for i, side in enumerate((one, other) * 3)
        ]
        assert answers == [401, 401, 401, 401, 429, 429]
        assert sign_in(one, "ada", PASSWORD).status_code == 429
        clock.now += SIGNIN_WINDOW
        assert sign_in(other, "ada", PASSWORD).status_code == 200
