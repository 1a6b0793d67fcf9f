"""`cubegames serve --trust-proxy ADDRESS`: X-Forwarded-For is believed from the proxy's
address only, and from nobody without the flag (docs/deploy.md). The whole recipe behind
nginx is tested in test_deploy.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from cubegames.server.cli import trusted_proxies
from tests.server.live import Served


def test_trusted_proxies_are_addresses_or_networks_written_the_standard_way() -> None:
    assert trusted_proxies(()) == ()
    assert trusted_proxies(("127.0.0.1",)) == ("127.0.0.1",)
    assert trusted_proxies(("10.0.0.7/8", " ::1 , 127.0.0.1", "127.0.0.1/32")) == (
        "10.0.0.0/8",
        "::1",
        "127.0.0.1",
    )
    for bad in ("nope", "*", "", "127.0.0.300", "10.0.0.0/33"):
        with pytest.raises(ValueError, match="is not an IP address or network"):
            trusted_proxies((bad,))


@pytest.mark.slow
def test_a_bad_trust_proxy_is_one_line_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cubegames", "serve", "--trust-proxy", "proxy.example"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "cubegames: --trust-proxy 'proxy.example' is not an IP address or network "
        "(e.g. 127.0.0.1, 10.0.0.0/8)"
    ]


def _made(url: str, forwarded_for: str) -> int:
    answer = httpx.post(
        f"{url}/api/games",
        json={"game": "cubes", "options": {}, "seats": [{"kind": "human"}] * 2},
        headers={"X-Forwarded-For": forwarded_for},
        timeout=15,
    )
    return answer.status_code


@pytest.mark.slow
@pytest.mark.parametrize("trusted", [False, True])
def test_forwarded_addresses_count_only_from_a_trusted_proxy(tmp_path: Path, trusted: bool) -> None:
    """One game a minute per address; two requests from 127.0.0.1 that name two
    addresses. Without --trust-proxy they are one client (the second is refused); with
    --trust-proxy 127.0.0.1 they are two."""
    args = ["--limit", "games_per_minute=1"]
    if trusted:
        args += ["--trust-proxy", "127.0.0.1"]
    served = Served(f"sqlite:///{tmp_path / 'games.sqlite3'}", *args)
    try:
        assert _made(served.url, "203.0.113.1") == 201
        assert _made(served.url, "203.0.113.2") == (201 if trusted else 429)
        assert _made(served.url, "203.0.113.2") == 429
    finally:
        served.stop()
