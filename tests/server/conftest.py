"""Fixtures for the web app: an app over a fresh database (a temporary SQLite file, or a
database on a throwaway PostgreSQL server for tests marked `helpers.BOTH`) and its test
client; for the browser tests, a real server per test worker and Debian's Chromium."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import looptime
import pytest
from fastapi import FastAPI

from cubegames.server.app import create_app
from cubegames.server.storage import Store
from tests.server import pg
from tests.server.helpers import FakeClock, TestClient

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def postgres() -> Iterator[pg.Cluster]:
    """A throwaway PostgreSQL server for this test process (each xdist worker has its own).
    Skips the test, saying why, when PostgreSQL or psycopg is missing; with
    CUBEGAMES_REQUIRE_POSTGRES=1 that is a failure instead."""
    reason = pg.unavailable()
    if reason is not None:
        if os.environ.get(pg.REQUIRED) == "1":
            pytest.fail(f"{pg.REQUIRED}=1, but {reason}")
        pytest.skip(f"no PostgreSQL here: {reason}")
    cluster = pg.Cluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database a test runs on: `sqlite`, unless it is parametrized (`helpers.BOTH`)."""
    chosen: str = getattr(request, "param", "sqlite")
    return chosen


@pytest.fixture
def db_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh, empty database for one test: a SQLite file, or a new schema on the
    PostgreSQL server (dropped after the test)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    assert backend == "postgresql", backend
    cluster: pg.Cluster = request.getfixturevalue("postgres")
    schema, url = cluster.fresh()
    yield url
    cluster.drop(schema)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """The storage layer over `db_url` (its connections closed after the test)."""
    opened = Store(db_url)
    yield opened
    opened.close()


@pytest.fixture
def app(db_url: str) -> FastAPI:
    """The app over `db_url`, with bots that answer at once."""
    return create_app(db_url, bot_delay=0)


@pytest.fixture
def clock() -> FakeClock:
    """A fake wall clock for an app made with `now=clock` (the test moves it)."""
    return FakeClock()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A test client with the app started (and stopped after the test)."""
    with TestClient(app) as test_client:
        yield test_client


# -- the browser tests ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Playwright drives Debian's Chromium (no browser download is possible here)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install the Debian chromium package")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


#: the served app; its games-made rate is raised: every browser test of a worker makes its
#: games on this one server from 127.0.0.1, and a run of short ones made more than the
#: 20 a minute a stranger may (the page then says so and stays on the start page, and the
#: test timed out waiting for the game: a different test each time). The rate itself is
#: tested on apps of its own (test_i18n, test_deploy_trust). Likewise its public tables
#: waiting for players (the lobby's browser tests leave theirs open; the cap is tested in
#: test_lobby).
SERVE = """
import sys
from cubegames.server.app import create_app
from cubegames.server.cli import run
from cubegames.server.limits import Limits
{prelude}
limits = Limits(games_per_minute=10_000, open_tables_per_client=10_000)
app = create_app(sys.argv[1], bot_delay=0.1, limits=limits)
run(app, "127.0.0.1", int(sys.argv[2]))
"""


@contextmanager
def serving(db: Path, prelude: str = "") -> Iterator[str]:
    """A real uvicorn server on a free loopback port over the SQLite file `db`, running
    `prelude` (Python) before it makes its app; yields its base URL."""
    script = SERVE.format(prelude=prelude)
    for _attempt in range(3):
        port = _free_port()
        process = subprocess.Popen(
            [sys.executable, "-c", script, f"sqlite:///{db}", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"},
        )
        url = f"http://127.0.0.1:{port}"
        # a machine busy with other work (a load of 20 on 2 cores) may take longer than
        # 20 s to import the web stack: a test must not start before the server listens
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if httpx.get(f"{url}/api/catalog", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        if process.poll() is None:
            break
    else:
        output = process.stdout.read().decode() if process.stdout else ""
        raise RuntimeError(f"the server did not start:\n{output}")
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stdout:
        process.stdout.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn server on a free loopback port, one per test worker (so `pytest -n`
    runs stay apart), over its own SQLite file; yields its base URL."""
    with serving(tmp_path_factory.mktemp("server") / "games.sqlite3") as url:
        yield url


@pytest.fixture(scope="session")
def base_url(server: str) -> str:
    """The server under test, for Playwright's relative URLs. Defined here also because
    pytest-playwright's own fallback `base_url` is a method fixture, which pytest 9
    deprecates with a warning (an error under this project's settings)."""
    return server


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where the browser tests leave pictures of each board (git-ignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# -- async tests (anyio's pytest plugin, `@pytest.mark.anyio`) ---------------------------


@pytest.fixture
def anyio_backend(request: pytest.FixtureRequest) -> Any:
    """Async tests run on asyncio; those marked `virtual_time` on a loop whose clock
    jumps ahead whenever every task waits for a timer (looptime), so a test of a
    timeout of minutes takes no time, and its times are exact."""
    if request.node.get_closest_marker("virtual_time") is not None:
        return ("asyncio", {"loop_factory": looptime.new_event_loop})
    return "asyncio"


@pytest.fixture(autouse=True)
def _browser_loop_set_aside(request: pytest.FixtureRequest) -> Iterator[None]:
    """Playwright's sync API leaves its event loop marked as running in this thread once
    a browser test has run in the process (its session fixtures keep it), and asyncio
    refuses to start another loop there. An async test sets it aside while it runs: the
    browser's loop is not used meanwhile (sync tests and async tests never interleave)."""
    if request.node.get_closest_marker("anyio") is None:
        yield
        return
    browser_loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(browser_loop)
