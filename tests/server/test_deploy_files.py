"""The example files of docs/deploy.md hold together: the systemd units pass
`systemd-analyze verify` (where it is installed) and read as INI with the right sections;
the compose file parses and runs the same commands as the units; every command line in
them is one that `cubegames` accepts; nginx's site file fits in Debian's own nginx.conf
(`nginx -t`), and its websocket timeouts outlast the server's own. test_deploy.py runs
the site file for real."""

from __future__ import annotations

import configparser
import itertools
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from cubegames.server.limits import Limits
from tests.server.test_deploy import BOTS_WORKER, NGINX, SITE, missing, site_for_test

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = {name: DEPLOY / "systemd" / f"cubegames-{name}.service" for name in ("web", "bots")}
COMPOSE = DEPLOY / "compose.yaml"
ENV = DEPLOY / "systemd" / "cubegames.env"
#: where the units expect the installation (docs/deploy.md)
INSTALLED = "/opt/cubegames/venv/bin/cubegames"
#: the commands and options the recipe uses that come with the bots worker (issue #24's
#: `cubegames bots work`, built beside this recipe): checked once this build has them
PENDING = {" ".join(BOTS_WORKER), "serve --bot-workers"}
DB = "postgresql+psycopg://cubegames@/cubegames?host=/run/postgresql"


class UnitFile(configparser.ConfigParser):
    """A systemd unit as INI: keys keep their case, `%` and `$` are not interpolated, a
    repeated section or key is an error."""

    def __init__(self) -> None:
        super().__init__(interpolation=None, strict=True)

    def optionxform(self, optionstr: str) -> str:
        return optionstr


def unit(name: str) -> configparser.ConfigParser:
    parser = UnitFile()
    parser.read_string(UNITS[name].read_text())
    return parser


def unit_command(name: str) -> list[str]:
    """The unit's ExecStart as words, its ${CUBEGAMES_DB} given the env file's value."""
    words = shlex.split(unit(name)["Service"]["ExecStart"])
    return [DB if w == "${CUBEGAMES_DB}" else w for w in words]


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def check_command(words: list[str]) -> None:
    """`cubegames WORDS...` is accepted; what of it is still to come (`PENDING`) is left
    out, the rest checked, and the test skipped saying what was left out."""
    left_out = []
    while (absent := missing(words)) is not None:
        assert absent in PENDING, f"`cubegames {' '.join(words)}`: this build has no {absent!r}"
        left_out.append(absent)
        flag = absent.split()[-1]
        if not flag.startswith("--"):
            break  # a whole command to come: nothing of it can be checked
        words = [w for w in words if w != flag]  # a flag without a value
    if left_out:
        pytest.skip(f"this build has no {', '.join(left_out)} yet (the bots worker of #24)")


# -- systemd ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(UNITS))
def test_each_unit_reads_as_ini_with_its_sections(name: str) -> None:
    parsed = unit(name)
    assert parsed.sections() == ["Unit", "Service", "Install"]
    service = parsed["Service"]
    assert service["User"] == "cubegames" and service["Type"] == "exec"
    assert service["EnvironmentFile"] == "/etc/cubegames/cubegames.env"
    assert service["Restart"] == "on-failure"
    assert parsed["Install"]["WantedBy"] == "multi-user.target"
    assert "postgresql.service" in parsed["Unit"]["After"]
    assert shlex.split(service["ExecStart"])[0] == INSTALLED


def test_the_env_file_sets_the_database_the_units_use() -> None:
    values = dict(
        line.split("=", 1)
        for line in ENV.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
    assert values == {"CUBEGAMES_DB": DB, "NUMBA_CACHE_DIR": "/var/cache/cubegames"}
    for name in UNITS:
        assert "${CUBEGAMES_DB}" in unit(name)["Service"]["ExecStart"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    """With the executable pointed at this installation's `cubegames` (verify checks it
    exists), systemd reports nothing about either unit (an unknown key or a bad value is
    a warning only, so the test reads what it says)."""
    here = str(Path(sys.executable).with_name("cubegames"))
    for path in UNITS.values():
        (tmp_path / path.name).write_text(path.read_text().replace(INSTALLED, here))
    done = subprocess.run(
        ["systemd-analyze", "verify", *(str(tmp_path / p.name) for p in UNITS.values())],
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = [line for line in (done.stdout + done.stderr).splitlines() if "cubegames-" in line]
    assert done.returncode == 0 and said == [], done.stdout + done.stderr


def test_the_web_unit_serves_what_nginx_proxies_to() -> None:
    """The server listens where the site file's upstream points, and believes
    X-Forwarded-For from the address nginx connects from (loopback, same machine)."""
    words = unit_command("web")
    options = dict(itertools.pairwise(words))
    assert words[1] == "serve"
    upstream = re.search(r"upstream cubegames \{\s*server ([\d.]+):(\d+);", SITE.read_text())
    assert upstream is not None
    assert (options["--host"], options["--port"]) == upstream.groups()
    assert options["--trust-proxy"] == "127.0.0.1" == upstream.group(1)
    assert options["--workers"] == "2"


@pytest.mark.parametrize("name", sorted(UNITS))
def test_each_unit_runs_a_command_cubegames_accepts(name: str) -> None:
    check_command(unit_command(name)[1:])


def test_the_bots_unit_runs_the_bots_worker_the_web_unit_leaves_the_bots_to() -> None:
    assert unit_command("bots")[1 : 1 + len(BOTS_WORKER)] == BOTS_WORKER
    assert "--bot-workers" in unit_command("web")


def test_make_test_installs_nginx_and_the_script_does_nothing_once_it_is_there() -> None:
    if shutil.which("make") is not None:
        would = subprocess.run(
            ["make", "-n", "-B", "test"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.splitlines()
        assert "scripts/ensure-nginx.sh" in would
        assert would.index("scripts/ensure-nginx.sh") < next(
            i for i, line in enumerate(would) if "pytest" in line
        )
    if not NGINX.exists():
        pytest.skip("nginx is not installed here")
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "ensure-nginx.sh")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


# -- compose ------------------------------------------------------------------------------


def test_the_compose_file_has_its_services_and_runs_the_units_commands() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "web", "bots", "nginx"}
    password = "${CUBEGAMES_DB_PASSWORD}"
    for name in ("web", "bots"):
        command = services[name]["command"]
        assert command[0] == "cubegames"
        db = command.index("--db") + 1
        assert command[db] == f"postgresql+psycopg://cubegames:{password}@db/cubegames"
        # the same command as the unit's, but for where the database is
        assert [*command[1:db], *command[db + 1 :]] == [
            w for w in unit_command(name)[1:] if w != DB
        ]
        assert services[name]["depends_on"]["db"]["condition"] == "service_healthy"
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
    nginx = services["nginx"]
    assert nginx["network_mode"] == "service:web"  # so it reaches 127.0.0.1:8000
    assert "./nginx/cubegames.conf:/etc/nginx/conf.d/default.conf:ro" in nginx["volumes"]
    assert services["web"]["ports"] == ["80:80", "443:443"]
    assert "games:/var/lib/postgresql/data" in services["db"]["volumes"]
    assert (DEPLOY / "Dockerfile").exists()


@pytest.mark.parametrize("name", ["web", "bots"])
def test_each_compose_service_runs_a_command_cubegames_accepts(name: str) -> None:
    command = compose()["services"][name]["command"]
    check_command([DB if "${" in w else w for w in command[1:]])


def test_a_command_this_build_lacks_is_caught() -> None:
    assert missing(["serve", "--no-such-flag"]) == "serve --no-such-flag"
    assert missing(["nosuch", "thing"]) == "nosuch"
    assert missing(["moves", "--db", "x"]) == "moves --db"
    assert missing(["serve", "--workers", "2", "--trust-proxy", "127.0.0.1"]) is None
    with pytest.raises(click.BadParameter):
        missing(["serve", "--workers", "zero"])


# -- nginx --------------------------------------------------------------------------------


def _location(site: str, path: str) -> str:
    found = re.search(rf"location {re.escape(path)} \{{(.*?)\}}", site, re.DOTALL)
    assert found is not None, path
    return found.group(1)


def _seconds(value: str) -> float:
    found = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value)
    assert found is not None, value
    number, unit_ = found.groups()
    return int(number) * {"ms": 0.001, "s": 1, None: 1, "m": 60, "h": 3600, "d": 86400}[unit_]


def test_websockets_go_through_with_timeouts_that_outlast_the_server() -> None:
    site = SITE.read_text()
    # every location inherits the server block's upgrade headers (none sets its own)
    assert "proxy_set_header Upgrade $http_upgrade;" in site
    assert "proxy_set_header Connection $cubegames_connection;" in site
    assert "proxy_http_version 1.1;" in site
    served = site[site.index("listen 443 ssl;") :]  # the HTTPS server block
    for path in ("/", "/api/", "/ws/"):
        assert "proxy_pass http://cubegames;" in _location(served, path)
        assert "proxy_set_header" not in _location(served, path)
    sockets = _location(served, "/ws/")
    read = re.search(r"proxy_read_timeout (\S+);", sockets)
    sent = re.search(r"proxy_send_timeout (\S+);", sockets)
    assert read is not None and sent is not None
    # the server closes a socket silent for idle_seconds; the proxy must not cut one first
    for timeout in (read.group(1), sent.group(1)):
        assert _seconds(timeout) >= 10 * Limits().idle_seconds
    # the player's address replaces whatever the client said
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site
    assert "proxy_set_header Host $http_host;" in site


def test_the_site_file_fits_debians_nginx_conf(tmp_path: Path) -> None:
    """`nginx -t` on Debian's own nginx.conf, with the site file (its certificate and
    ports made local) where sites-enabled/* is included."""
    stock = Path("/etc/nginx/nginx.conf")
    if not NGINX.exists() or not stock.exists():
        pytest.skip("nginx is missing: scripts/ensure-nginx.sh (as root) installs it")
    import trustme

    leaf = trustme.CA().issue_cert("localhost")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    leaf.cert_chain_pems[0].write_to_path(str(cert))
    leaf.private_key_pem.write_to_path(str(key))
    site = tmp_path / "cubegames.conf"
    site.write_text(site_for_test(SITE.read_text(), 1443, 1080, 1800, cert, key))
    text = stock.read_text()
    assert "include /etc/nginx/sites-enabled/*;" in text
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        text.replace("include /etc/nginx/sites-enabled/*;", f"include {site};")
        .replace("pid /run/nginx.pid;", f"pid {tmp_path / 'nginx.pid'};")
        .replace("/var/log/nginx/", f"{tmp_path}/")
    )
    done = subprocess.run(
        [str(NGINX), "-t", "-e", str(tmp_path / "error.log"), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert "[warn]" not in done.stderr and "[emerg]" not in done.stderr, done.stderr
