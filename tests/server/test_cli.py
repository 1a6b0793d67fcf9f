"""`cubegames serve`: it serves, and bad arguments give one line and exit status 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

# each test runs the command in a process of its own
pytestmark = pytest.mark.slow


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cubegames", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_serve_is_a_command_with_its_options() -> None:
    done = run("serve", "--help")
    assert done.returncode == 0
    for option in ("--host", "--port", "--db"):
        assert option in done.stdout


def test_a_bad_database_url_is_one_line_and_exit_2() -> None:
    done = run("serve", "--db", "nonsense")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["cubegames: --db 'nonsense': not a database URL"]


def test_a_database_that_cannot_be_opened_is_one_line_and_exit_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    done = run("serve", "--db", f"sqlite:///{blocker}/games.sqlite3")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot open the database" in lines[0]


def test_a_missing_driver_is_one_line_and_exit_2() -> None:
    done = run("serve", "--db", "postgresql+nosuchdriver://u@localhost/x")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cubegames: --db")


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run("serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'g.sqlite3'}")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"cubegames: cannot listen on 127.0.0.1:{port}: port {port} is already in use on "
        "127.0.0.1 (try --port)"
    ]


def test_serve_serves_the_page(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "games.sqlite3"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cubegames",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{db}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"},
    )
    try:
        page = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and process.poll() is None:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert page is not None and page.status_code == 200
        assert "cubegames" in page.text
        assert db.exists()
    finally:
        process.terminate()
        out, _err = process.communicate(timeout=10)
    assert f"open http://127.0.0.1:{port}/" in out
    assert str(db) in out


def test_workers_need_postgresql(tmp_path: Path) -> None:
    done = run("serve", "--workers", "2", "--db", f"sqlite:///{tmp_path}/games.sqlite3")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--workers 2 needs PostgreSQL" in lines[0]


def test_a_bad_limit_is_one_line_and_exit_2() -> None:
    for setting, problem in (
        ("max_room=5", "expected NAME=VALUE"),
        ("max_rooms=many", "is not a number"),
        ("bot_seconds=nan", "positive number"),
    ):
        done = run("serve", "--limit", setting)
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and problem in lines[0], lines


def test_serve_warms_the_bots_kernels_on_a_thread_of_its_own() -> None:
    """`serve` starts compiling the bots' kernels beside the server, so a fresh machine's
    first bot move does not wait for the compiler; the thread ends once they are ready."""
    from cubegames.server.cli import warm_bots_in_background

    thread = warm_bots_in_background()
    assert thread.daemon
    thread.join(timeout=300)
    assert not thread.is_alive()
