"""The deployment recipe of docs/deploy.md, run for real: Debian's nginx with this
project's site file (deploy/nginx/cubegames.conf, only its ports and certificate changed)
in front of `cubegames serve --workers 2 --trust-proxy 127.0.0.1` on PostgreSQL, over
HTTPS with a throwaway certificate authority (trustme). Everything listens on loopback
ports nobody else uses; nginx runs as a process of its own with its own prefix and
configuration in a temporary directory (no system service) and is stopped at the end.

Loopback is all of 127.0.0.0/8 on Linux, so a test client can come from an address of its
own (127.0.0.11, ...): through the proxy, the server sees that address; straight to the
server, its own X-Forwarded-For is not believed."""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import httpx
import pytest
from playwright.sync_api import BrowserType, expect
from websockets.exceptions import InvalidStatus

from cubegames import make
from cubegames.cli import cli
from tests.server import pg
from tests.server.live import Page, Served, free_port

# real servers and a browser
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "cubegames.conf"
NGINX = Path("/usr/sbin/nginx")
#: games one address may make a minute on the server under test (the cap the tests meet)
GAMES_PER_MINUTE = 3
#: the bots worker's command (docs/deploy.md, deploy/systemd/cubegames-bots.service)
BOTS_WORKER = ["bots", "work"]
#: seconds nginx gets to start
START = 20.0
#: seconds `serve --workers 2` gets to start (two processes import the web stack; a
#: loaded two-core machine took over 40 s)
SERVER_START = 120.0
TIMEOUT_MS = 20_000


def missing(words: list[str]) -> str | None:
    """Which command or option of `cubegames WORDS...` this build lacks (e.g. "bots work",
    "serve --bot-workers"), or None. Raises click's error for a bad value."""
    command: click.Command = cli
    path: list[str] = []
    rest = list(words)
    while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
        sub = command.get_command(click.Context(command), rest[0])
        if sub is None:
            return " ".join([*path, rest[0]])
        path.append(rest.pop(0))
        command = sub
    takes_words = any(isinstance(param, click.Argument) for param in command.params)
    if rest and not rest[0].startswith("-") and not takes_words:
        return " ".join([*path, rest[0]])  # a subcommand of a command that has none
    known = {opt for param in command.params for opt in param.opts}
    for word in rest:
        if word.startswith("--") and word.split("=")[0] not in known:
            return " ".join([*path, word])
    command.make_context(" ".join(path), rest)  # parses and checks every value
    return None


def site_for_test(text: str, https: int, http: int, upstream: int, cert: Path, key: Path) -> str:
    """The site file with only what a test machine must change: loopback ports instead
    of 80 and 443 (IPv6 left out), the throwaway certificate, the server's port. Each
    change must find exactly what it expects, so a test never runs a file it misread."""
    changes = [
        (r"^\s*listen \[::\]:(80|443)( ssl)?;\n", "", 2),
        (r"listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;", 1),
        (r"listen 80;", f"listen 127.0.0.1:{http};", 1),
        (r"ssl_certificate \S+;", f"ssl_certificate {cert};", 1),
        (r"ssl_certificate_key \S+;", f"ssl_certificate_key {key};", 1),
        (r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{upstream};", 1),
    ]
    for pattern, replacement, count in changes:
        text, made = re.subn(pattern, replacement, text, flags=re.MULTILINE)
        assert made == count, f"{SITE.name}: {pattern!r} found {made} times, expected {count}"
    return text


def main_config(prefix: Path) -> str:
    """nginx.conf for a private nginx under `prefix`, including the site file as Debian's
    nginx.conf includes sites-enabled/* (in its http block)."""
    user = ""
    if os.geteuid() == 0:  # as on CI: nginx's workers drop to an unprivileged user
        for name in ("www-data", "nobody"):
            try:
                entry = pwd.getpwnam(name)
            except KeyError:
                continue
            user = f"user {name} {grp.getgrgid(entry.pw_gid).gr_name};"
            break
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{user}
daemon off;
worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
events {{ worker_connections 256; }}
http {{
    access_log {prefix / "access.log"};
{temp}
    include {prefix / "cubegames.conf"};
}}
"""


@dataclass
class Stack:
    """nginx in front of `serve --workers 2` on PostgreSQL."""

    https: str  # https://127.0.0.1:PORT, through nginx
    http: str  # http://127.0.0.1:PORT, nginx's plain port (a redirect)
    direct: str  # http://127.0.0.1:PORT, the server itself
    ca: Any  # trustme.CA: the throwaway authority the certificate comes from
    ca_file: Path
    spki: str  # base64 SHA-256 of the certificate's public key (Chromium's pin)
    prefix: Path
    bots_worker: bool  # whether a `cubegames bots work` worker thinks the bots' moves

    def tls(self) -> ssl.SSLContext:
        """A client TLS context that trusts the throwaway authority only."""
        context = ssl.create_default_context()
        self.ca.configure_trust(context)
        return context

    def client(self, source: str, base: str | None = None) -> httpx.Client:
        """An HTTP client whose connections come from loopback address `source`."""
        return httpx.Client(
            base_url=base or self.https,
            verify=self.tls(),
            transport=httpx.HTTPTransport(local_address=source, verify=self.tls()),
            timeout=15,
        )


def _spki_of(cert_pem: bytes) -> str:
    import base64
    import hashlib

    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    public = x509.load_pem_x509_certificate(cert_pem).public_key()
    der = public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def _wait_for(url: str, context: ssl.SSLContext, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + START
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx stopped: {process.communicate()[1]}")
        try:
            httpx.get(url, verify=context, timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"nginx did not answer within {START:g} s")


@pytest.fixture(scope="module")
def stack(postgres: pg.Cluster) -> Iterator[Stack]:
    if not NGINX.exists():
        pytest.skip(f"{NGINX} is missing: scripts/ensure-nginx.sh (as root) installs it")
    import trustme

    schema, db_url = postgres.fresh()
    # the bots think in a bots worker, as in the recipe, once this build has one
    worker_command = [*BOTS_WORKER, "--db", db_url, "--jobs", "1"]
    with_worker = missing(worker_command) is None and missing(["serve", "--bot-workers"]) is None
    served = Served(
        db_url,
        *(["--bot-workers"] if with_worker else []),
        "--workers",
        "2",
        "--trust-proxy",
        "127.0.0.1",
        "--limit",
        f"games_per_minute={GAMES_PER_MINUTE}",
        start=SERVER_START,
    )
    # in /tmp, readable by nginx's unprivileged workers (pytest's directory is private)
    prefix = Path(tempfile.mkdtemp(prefix="cubegames-nginx-", dir="/tmp"))
    prefix.chmod(0o755)
    nginx: subprocess.Popen[str] | None = None
    worker: subprocess.Popen[str] | None = None
    try:
        if with_worker:
            worker = subprocess.Popen(
                [sys.executable, "-m", "cubegames", *worker_command],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"},
            )
        ca = trustme.CA()
        leaf = ca.issue_cert("127.0.0.1", "localhost")
        cert, key, ca_file = prefix / "cert.pem", prefix / "key.pem", prefix / "ca.pem"
        leaf.cert_chain_pems[0].write_to_path(str(cert))
        for extra in leaf.cert_chain_pems[1:]:
            extra.write_to_path(str(cert), append=True)
        leaf.private_key_pem.write_to_path(str(key))
        ca.cert_pem.write_to_path(str(ca_file))
        https, http = free_port(), free_port()
        site = site_for_test(SITE.read_text(), https, http, served.port, cert, key)
        (prefix / "cubegames.conf").write_text(site)
        (prefix / "nginx.conf").write_text(main_config(prefix))
        command = [str(NGINX), "-e", str(prefix / "error.log"), "-p", f"{prefix}/"]
        command += ["-c", str(prefix / "nginx.conf")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        nginx = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        stack = Stack(
            https=f"https://127.0.0.1:{https}",
            http=f"http://127.0.0.1:{http}",
            direct=served.url,
            ca=ca,
            ca_file=ca_file,
            spki=_spki_of(leaf.cert_chain_pems[0].bytes()),
            prefix=prefix,
            bots_worker=with_worker,
        )
        _wait_for(f"{stack.https}/api/catalog", stack.tls(), nginx)
        yield stack
    finally:
        if worker is not None:
            worker.terminate()
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
            if worker.stderr is not None:
                worker.stderr.close()
        if nginx is not None:
            if nginx.poll() is None:
                nginx.send_signal(signal.SIGQUIT)  # graceful: finish what is open, then go
                try:
                    nginx.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    nginx.kill()
                    nginx.wait()
            if nginx.stderr is not None:
                nginx.stderr.close()
        served.stop()
        shutil.rmtree(prefix, ignore_errors=True)
        postgres.drop(schema)


def new_game(client: httpx.Client, game: str = "cubed") -> httpx.Response:
    return client.post(
        "/api/games",
        json={"game": game, "options": {}, "seats": [{"kind": "human"}] * 2, "seed": 5},
    )


def test_https_through_the_proxy_with_the_certificate_checked(stack: Stack) -> None:
    with stack.client("127.0.0.10") as client:
        page = client.get("/")
        assert page.status_code == 200 and "cubegames" in page.text
        assert page.headers["strict-transport-security"].startswith("max-age=")
        # the server's own headers come through
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert client.get("/api/catalog").json()
    # a client that does not trust the throwaway authority refuses the certificate
    with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        httpx.get(f"{stack.https}/", timeout=5)
    # plain HTTP only points to HTTPS
    moved = httpx.get(f"{stack.http}/play/x?y=1", timeout=5)
    assert moved.status_code == 301
    assert moved.headers["location"] == "https://127.0.0.1/play/x?y=1"


def test_a_websocket_through_the_proxy_plays_a_move(stack: Stack) -> None:
    with stack.client("127.0.0.10") as client:
        answer = new_game(client)
    assert answer.status_code == 201, answer.text
    made = answer.json()
    tokens = [seat["token"] for seat in made["seats"]]
    address = stack.https.replace("https://", "wss://") + f"/ws/games/{made['id']}"
    # as a browser sends it: the page's origin, which the server compares with Host
    options = {"ssl": stack.tls(), "origin": stack.https}
    first = Page(address, tokens[0], **options)
    second = Page(address, tokens[1], **options)
    try:
        state = first.state()
        assert state["ply"] == 0 and state["seat"] == 0 and state["legal"]
        second.state()
        expected = make("cubed").new_state(seed=5).legal_moves()
        assert state["legal"] == [str(m) for m in expected]
        first.move(state["legal"][0], 0)
        # the other seat's page, on either server process, hears it through the proxy
        assert second.state(ply=1)["ply"] == 1
        assert first.state(ply=1)["ply"] == 1
    finally:
        first.close()
        second.close()
    # a page of another site is refused at the proxy's address as at the server's
    with pytest.raises(InvalidStatus, match="403"):
        Page(address, tokens[0], ssl=stack.tls(), origin="https://evil.example")


def test_the_per_address_cap_counts_the_players_address(stack: Stack) -> None:
    """Two players behind the one proxy are counted apart: the server sees the address
    nginx forwards, not the proxy's; an X-Forwarded-For a player sends changes nothing."""
    with stack.client("127.0.0.11") as one, stack.client("127.0.0.12") as two:
        for _ in range(GAMES_PER_MINUTE):
            assert new_game(one).status_code == 201
        spoofed = {"X-Forwarded-For": "203.0.113.7"}
        refused = one.post(
            "/api/games",
            json={"game": "cubed", "options": {}, "seats": [{"kind": "human"}] * 2},
            headers=spoofed,
        )
        assert refused.status_code == 429, refused.text
        assert "retry-after" in refused.headers
        # the other player's address has its own count
        assert new_game(two).status_code == 201


def test_a_direct_client_cannot_name_another_address(stack: Stack) -> None:
    """Straight to the server, from an address that is not the proxy's, X-Forwarded-For
    is ignored: each made-up address still counts against the client's own."""
    with stack.client("127.0.0.13", base=stack.direct) as direct:
        for n in range(GAMES_PER_MINUTE):
            made = direct.post(
                "/api/games",
                json={"game": "cubed", "options": {}, "seats": [{"kind": "human"}] * 2},
                headers={"X-Forwarded-For": f"198.51.100.{n + 1}"},
            )
            assert made.status_code == 201, made.text
        refused = direct.post(
            "/api/games",
            json={"game": "cubed", "options": {}, "seats": [{"kind": "human"}] * 2},
            headers={"X-Forwarded-For": "198.51.100.99", "X-Forwarded-Proto": "https"},
        )
        assert refused.status_code == 429, refused.text


# one more try, as every browser test of the suite (tests/server/conftest.py)
@pytest.mark.flaky(reruns=1)
def test_a_browser_plays_a_move_through_the_proxy(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], stack: Stack
) -> None:
    """Headless Chromium that accepts exactly the throwaway certificate (its public key
    pinned with --ignore-certificate-errors-spki-list) starts a game against a bot on the
    start page and rolls the dice, and the bot answers; the page's websocket goes through
    nginx over TLS."""
    args = [
        *browser_type_launch_args["args"],
        f"--ignore-certificate-errors-spki-list={stack.spki}",
    ]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    try:
        context = browser.new_context(base_url=stack.https)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/")
        page.click("label[for=game-cubes]")
        page.select_option("#seat-0", "here")
        page.select_option("#seat-1", "greedy")
        page.click("button:has-text('Start playing')")
        expect(page.locator("button.roll")).to_be_visible(timeout=TIMEOUT_MS)
        page.click("button.roll")
        page.wait_for_function(
            "() => window.cubegamesPage.current && window.cubegamesPage.current.ply >= 1",
            timeout=TIMEOUT_MS,
        )
        # the bot answers (in the bots worker, when this build has one)
        expect(page.locator(".log")).to_contain_text("Greedy bot", timeout=60_000)
        assert sockets and all(
            url.startswith(stack.https.replace("https", "wss")) for url in sockets
        )
        assert errors == []
        context.close()
    finally:
        browser.close()
