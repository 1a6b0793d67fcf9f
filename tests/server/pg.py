"""A throwaway PostgreSQL server for the tests: `initdb` in a temporary directory, started
with `pg_ctl` on a unix socket only (no TCP port, so parallel test runs cannot collide),
one per test process (each `pytest -n` worker has its own), stopped and removed at the end.
Each test gets a schema of its own as its empty database (the connection's search path
names it): making one takes milliseconds, where copying a whole database takes up to a
second on a busy disk.

The server binaries are Debian's (`/usr/lib/postgresql/<version>/bin`, installed by
`scripts/ensure-postgres.sh`), or the first `pg_ctl` on the PATH. PostgreSQL refuses to run
as root, so under root (as on CI) the server runs as the `postgres` user (or `nobody`)
through `runuser`, in a directory that user owns.

`unavailable()` says why the PostgreSQL tests cannot run here (None if they can).
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlencode

#: the socket file is named after the port; with a private socket directory any port does
PORT = 5432
USER = "cubegames"
DATABASE = "postgres"
#: a zone far from UTC (and not a whole hour from it): stored times must come back right
SERVER_TIMEZONE = "Pacific/Chatham"
#: set to 1 (as on CI) to fail, not skip, when PostgreSQL is missing
REQUIRED = "CUBEGAMES_REQUIRE_POSTGRES"
#: a throwaway server needs no durability
SETTINGS = (
    "-c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    f"-c max_connections=60 -c shared_buffers=16MB -c timezone={SERVER_TIMEZONE}"
)


def bindir() -> Path | None:
    """Where `initdb` and `pg_ctl` are: Debian's newest version, else the PATH."""
    found = glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")
    if found:
        newest = max(found, key=lambda p: [int(n) for n in re.findall(r"\d+", p)])
        return Path(newest).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).resolve().parent if on_path else None


def unavailable() -> str | None:
    """Why the PostgreSQL tests cannot run on this machine, or None."""
    if importlib.util.find_spec("psycopg") is None:
        return (
            "psycopg is not installed (pip install 'psycopg[binary]==3.3.9', cubegames[postgres])"
        )
    where = bindir()
    if where is None or not (where / "initdb").exists():
        return "the PostgreSQL server is not installed (scripts/ensure-postgres.sh, as root)"
    if os.geteuid() == 0:
        if _service_user() is None:
            return "running as root, with neither a 'postgres' nor a 'nobody' user to run it"
        if _runuser() is None:
            return "running as root, without runuser (util-linux) to run it as another user"
    return None


def _runuser() -> str | None:
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
    return shutil.which("runuser", path=path)


def _service_user() -> str | None:
    """Under root: the unprivileged user the server runs as."""
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    return None


class Cluster:
    """A running throwaway server; `fresh()` makes an empty place for one test."""

    def __init__(self, settings: str = SETTINGS) -> None:
        self.settings = settings
        where = bindir()
        assert where is not None
        self.bindir = where
        self.runas = _service_user() if os.geteuid() == 0 else None
        # in /tmp, not pytest's temporary directory (private to root), and with a short path
        # (a unix socket's path has at most 107 bytes)
        self.dir = Path(tempfile.mkdtemp(prefix="cubegames-pg-", dir="/tmp"))
        if self.runas is not None:
            entry = pwd.getpwnam(self.runas)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.runas is not None:
            command = [_runuser() or "runuser", "-u", self.runas, "--", *command]
        done = subprocess.run(
            command, cwd=self.dir, capture_output=True, text=True, timeout=60, check=False
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(args[:2])} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}"
            )

    def start(self) -> None:
        """initdb, then start the server and wait until it takes connections."""
        self._run(
            "initdb",
            "--pgdata",
            str(self.data),
            "--username",
            USER,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",
        )
        self._run(
            "pg_ctl",
            "start",
            "--wait",
            "--timeout",
            "30",
            "--pgdata",
            str(self.data),
            "--log",
            str(self.log),
            "-o",
            f"-k {self.dir} -p {PORT} {self.settings}",
        )

    def pid(self) -> int:
        """The running server's process id (its backends are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        """Stop the server (at once: nothing in it is kept) and remove its directory."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(
                    "pg_ctl", "stop", "--wait", "--pgdata", str(self.data), "--mode", "immediate"
                )
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = DATABASE, schema: str | None = None) -> str:
        """The SQLAlchemy URL of a database on this server (through its unix socket); with
        `schema`, connections work in that schema (and are named after it)."""
        query = {"host": str(self.dir), "port": PORT}
        if schema is not None:
            query |= {"options": f"-csearch_path={schema}", "application_name": schema}
        return f"postgresql+psycopg://{USER}@/{database}?{urlencode(query)}"

    def admin(self, sql: str) -> list[tuple[object, ...]]:
        """Run one statement as the superuser, outside any transaction; its rows."""
        import psycopg

        with psycopg.connect(
            dbname=DATABASE, user=USER, host=str(self.dir), port=PORT, autocommit=True
        ) as connection:
            cursor = connection.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def fresh(self) -> tuple[str, str]:
        """A new empty schema: its name and the URL that works in it."""
        schema = f"test_{os.getpid()}_{next(self._names)}"
        self.admin(f"CREATE SCHEMA {schema}")
        return schema, self.url(schema=schema)

    def drop(self, schema: str) -> None:
        """Close whatever connections a test left open in `schema`, then drop it."""
        self.admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE application_name = '{schema}'"
        )
        self.admin(f"DROP SCHEMA {schema} CASCADE")
