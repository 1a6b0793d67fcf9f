"""`cubegames serve`: the web app on this machine, with no set-up.

cubegames serve                       # http://127.0.0.1:8000/, SQLite in the data dir
cubegames serve --port 8080 --db sqlite:///games.sqlite3
cubegames serve --host 0.0.0.0 --db postgresql+psycopg://user:pw@host/cubegames
cubegames serve --workers 4 --db postgresql+psycopg://user:pw@host/cubegames
cubegames serve --limit max_rooms=2000 --limit connections_per_client=64
cubegames serve --workers 2 --bot-workers --db postgresql+psycopg://user:pw@host/cubegames
cubegames bots work --db postgresql+psycopg://user:pw@host/cubegames --jobs 2
cubegames serve --workers 2 --trust-proxy 127.0.0.1 --db ...   # behind nginx (docs/deploy.md)
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import os
import socket
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # the web stack loads only when `serve` runs, not for every command
    from fastapi import FastAPI

    from cubegames.server.limits import Limits

#: the largest websocket frame the server takes (the app itself reads at most 2 KB)
WS_MAX_SIZE = 64 * 1024
#: the largest request head (request line and headers), in bytes
MAX_HEAD = 16 * 1024
#: seconds an idle keep-alive connection is kept
KEEP_ALIVE = 5


def trusted_proxies(values: tuple[str, ...]) -> tuple[str, ...]:
    """The addresses (or networks, `10.0.0.0/8`) of `--trust-proxy`, each checked and
    written the standard way; ValueError naming the first that is not one."""
    trusted = []
    for value in values:
        for item in value.split(","):
            text = item.strip()
            try:
                network = ipaddress.ip_network(text, strict=False)
            except ValueError:
                raise ValueError(
                    f"{text!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8)"
                ) from None
            single = network.num_addresses == 1
            trusted.append(str(network.network_address) if single else str(network))
    return tuple(dict.fromkeys(trusted))


def run(
    app: FastAPI | str,
    host: str,
    port: int,
    limits: Limits | None = None,
    workers: int = 1,
    proxies: tuple[str, ...] = (),
) -> None:
    """Serve `app` with uvicorn until interrupted (Ctrl-C), with bounds on slow and
    greedy clients: request heads must arrive within `guard.HEAD_TIMEOUT` seconds and be
    at most `MAX_HEAD` bytes, idle keep-alive connections close after `KEEP_ALIVE`
    seconds, websocket frames are at most `WS_MAX_SIZE` bytes and unanswered pings drop
    a connection, and at most `limits.max_connections` connections are served at once
    by each process. With `workers` above 1, `app` is the import string of a factory
    (`cubegames.server.process:from_environment`) that each of the processes calls; they
    share the listening socket.

    `X-Forwarded-For` and `X-Forwarded-Proto` are believed only from a connection whose
    address is one of `proxies` (`trusted_proxies`): then the client's address, which the
    per-client caps count, is the one the proxy forwarded. With no `proxies` (the default)
    the headers are ignored, so a client cannot name another address for itself."""
    import uvicorn

    from cubegames.server.frames import Protocol as FramesProtocol
    from cubegames.server.guard import HeadTimeoutH11
    from cubegames.server.limits import Limits, share

    limits = limits or Limits()
    if not isinstance(app, str):  # each worker process sets its own (`from_environment`)
        from cubegames.server.process import quiet_gc

        quiet_gc()
    # uvicorn's sans-I/O websockets protocol (its older one is built on an API the
    # websockets library has deprecated), which also writes the lobby's frames built
    # once for every watcher (`frames`)
    uvicorn.run(
        app,
        host=host,
        port=port,
        workers=workers,
        factory=isinstance(app, str),
        log_level="warning",
        http=HeadTimeoutH11,
        ws=FramesProtocol,
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD,
        limit_concurrency=share(limits.max_connections, workers),
        proxy_headers=bool(proxies),
        forwarded_allow_ips=",".join(proxies) if proxies else None,
    )


def warm_bots_in_background() -> threading.Thread:
    """Compile (or load from numba's cache) the bots' kernels on a thread of their own, so
    that the first bot move of a fresh machine does not wait for the compiler."""

    def work() -> None:
        from cubegames import kernels

        try:
            kernels.warm(("bots",))
        except Exception:  # a bot compiles on its first move instead
            logging.getLogger("cubegames.server").exception("warming the bots' kernels failed")

    thread = threading.Thread(target=work, name="cubegames-warm-bots", daemon=True)
    thread.start()
    return thread


def _can_listen(host: str, port: int) -> str | None:
    """None if `host:port` can be listened on, else why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"unknown host {host!r} ({exc.strerror})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} is already in use on {host} (try --port)"
            return exc.strerror or str(exc)
    return None


def register(cli: click.Group) -> None:
    """Add the `serve` command to the `cubegames` command, and `work` to its `bots`
    group (the simulator's `cubegames bots`; a group of its own if that is absent)."""
    group = cli.commands.get("bots")
    if not isinstance(group, click.Group):
        group = click.Group(name="bots", help="The bots' commands.")
        cli.add_command(group)
    group.add_command(work)

    @cli.command()
    @click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
    @click.option(
        "--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port."
    )
    @click.option(
        "--db",
        metavar="URL",
        default=None,
        help="SQLAlchemy database URL (default: a SQLite file in "
        "$XDG_DATA_HOME/cubegames, i.e. ~/.local/share/cubegames/cubegames.sqlite3).",
    )
    @click.option(
        "--workers",
        default=1,
        show_default=True,
        type=click.IntRange(1, 64),
        help="Server processes sharing the address (PostgreSQL only): any of them serves "
        "any game; moves reach the others through the database.",
    )
    @click.option(
        "--trust-proxy",
        "proxies",
        multiple=True,
        metavar="ADDRESS",
        help="Believe X-Forwarded-For (the client's address, which the per-address caps "
        "count) and X-Forwarded-Proto from a reverse proxy connecting from ADDRESS (an IP "
        "address or network; may be given several times). Without it those headers are "
        "ignored. See docs/deploy.md.",
    )
    @click.option(
        "--limit",
        "settings",
        multiple=True,
        metavar="NAME=VALUE",
        help="Change one of the server's limits (cubegames.server.limits.Limits), e.g. "
        "--limit max_rooms=2000; may be given several times.",
    )
    @click.option(
        "--bot-workers",
        is_flag=True,
        help="The bots think in `cubegames bots work` workers (PostgreSQL only), not in "
        "these processes.",
    )
    def serve(
        host: str,
        port: int,
        db: str | None,
        workers: int,
        proxies: tuple[str, ...],
        settings: tuple[str, ...],
        bot_workers: bool,
    ) -> None:
        """Serve the web app: play every game in a browser, with friends or bots."""
        from sqlalchemy.exc import SQLAlchemyError

        from cubegames.server.app import create_app
        from cubegames.server.process import environment

        url, backend, shown, limits = _database(db, settings)
        try:
            trusted = trusted_proxies(proxies)
        except ValueError as exc:
            raise click.UsageError(f"--trust-proxy {exc}") from None
        if workers > 1 and backend != "postgresql":
            raise click.UsageError(
                f"--workers {workers} needs PostgreSQL (--db postgresql+psycopg://...): "
                "a SQLite file is written by one process"
            )
        if bot_workers and backend != "postgresql":
            raise click.UsageError(
                "--bot-workers needs PostgreSQL (--db postgresql+psycopg://...): the "
                "workers take the bots' turns from its database"
            )
        try:
            app = create_app(url, limits=limits, bot_workers=bot_workers)
        except ModuleNotFoundError as exc:
            raise click.UsageError(
                f"--db {shown}: its driver is not installed ({exc.name}); for PostgreSQL "
                "install cubegames[postgres]"
            ) from None
        except (SQLAlchemyError, OSError) as exc:
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
            raise click.UsageError(f"--db {shown}: cannot open the database: {reason}") from None
        trouble = _can_listen(host, port)
        if trouble is not None:
            raise click.UsageError(f"cannot listen on {host}:{port}: {trouble}")
        where = f"[{host}]" if ":" in host else host
        from cubegames.kit.terminal import t

        address = f"http://{where}:{port}/"
        for line in (t("cli-serve-open", address=address), t("cli-serve-kept", place=shown)):
            click.echo(f"cubegames: {line}")
        if bot_workers:
            click.echo("cubegames: the bots think in `cubegames bots work` workers")
        else:
            warm_bots_in_background()
        if workers == 1:
            run(app, host, port, limits, proxies=trusted)
            return
        click.echo(f"cubegames: {workers} server processes share the address")
        os.environ.update(environment(url, limits, workers, bot_workers))
        run("cubegames.server.process:from_environment", host, port, limits, workers, trusted)

    _DB = click.option(
        "--db",
        metavar="URL",
        default=None,
        help="SQLAlchemy database URL (default: the SQLite file `cubegames serve` uses).",
    )

    @cli.group()
    def users() -> None:
        """The server's accounts: list them, set a forgotten password."""

    @users.command("list")
    @_DB
    def list_users(db: str | None) -> None:
        """Every account's name and when it was made, oldest first."""
        accounts = _accounts(db)
        for name, made in accounts.users():
            click.echo(f"{name}\t{made.isoformat(timespec='seconds')}")

    @users.command("reset-password")
    @click.argument("name")
    @_DB
    def reset_password(name: str, db: str | None) -> None:
        """Give the account NAME a new password, asked for twice at a terminal or read as
        one line from standard input; every session of the account ends (its browsers
        sign in again)."""
        from cubegames.server.accounts import MAX_PASSWORD, MIN_PASSWORD

        accounts = _accounts(db)
        found = accounts.id_of(name)
        if found is None:
            raise click.UsageError(f"there is no account {name!r} (cubegames users list)")
        if sys.stdin.isatty():
            password = click.prompt(
                f"New password for {found[1]}", hide_input=True, confirmation_prompt=True
            )
        else:
            password = sys.stdin.readline().rstrip("\r\n")
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise click.UsageError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
        accounts.set_password(found[0], password)
        click.echo(f"cubegames: the password of {found[1]} is changed; its sessions ended")


def _accounts(db: str | None) -> Any:
    """The accounts of the database at `db` (a bad URL, or an SQLite file that is not
    there, is a usage error)."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from cubegames.server.accounts import Accounts
    from cubegames.server.storage import Store, sqlite_file

    url, _, _, _ = _database(db, ())
    # a mistyped path must not make (and list) an empty database of its own
    file = sqlite_file(url)
    if file is not None and not Path(file).expanduser().is_file():
        raise click.UsageError(
            f"--db: there is no database at {file} (cubegames serve makes one there)"
        )
    try:
        store = Store(url)
    except (ArgumentError, SQLAlchemyError, OSError, ModuleNotFoundError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise click.UsageError(f"--db: cannot open the database: {reason}") from None
    return Accounts(store, per_account=1, per_client=1, signups_per_client=1)


def _database(db: str | None, settings: tuple[str, ...]) -> tuple[str, str, str, Limits]:
    """`--db` (or the default SQLite file) and `--limit`s: the database URL, its backend
    ("sqlite", "postgresql"), how to show it (no password) and the limits; UsageError for
    either one that is not right."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from cubegames.server.limits import Limits
    from cubegames.server.storage import default_url

    url = db or default_url()
    try:
        parsed = make_url(url)
        shown = parsed.render_as_string(hide_password=True)
    except ArgumentError:
        raise click.UsageError(f"--db {url!r}: not a database URL") from None
    try:
        limits = Limits().changed(settings)
    except ValueError as exc:
        raise click.UsageError(f"--limit {exc}") from None
    return url, parsed.get_backend_name(), shown, limits


def _open(db: str | None, settings: tuple[str, ...]) -> tuple[str, str, Limits]:
    """The database URL (PostgreSQL), how to show it, and the limits; UsageError if not."""
    url, backend, shown, limits = _database(db, settings)
    if backend != "postgresql":
        raise click.UsageError(
            f"--db {shown}: bots workers take turns from PostgreSQL "
            "(--db postgresql+psycopg://...); with SQLite the server's own pool thinks"
        )
    return url, shown, limits


@click.command(name="work")
@click.option(
    "--db",
    metavar="URL",
    required=True,
    help="The servers' PostgreSQL database (postgresql+psycopg://user:pw@host/cubegames).",
)
@click.option(
    "--jobs",
    "-j",
    default=1,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Turns thought at once, each in a process of its own.",
)
@click.option(
    "--limit",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    help="The bounds a bot is held to (bot_seconds, bot_iterations, ...), as the "
    "servers' --limit; may be given several times.",
)
def work(db: str, jobs: int, settings: tuple[str, ...]) -> None:
    """Think the bots' moves of the servers on a PostgreSQL database (`cubegames serve
    --bot-workers`): run any number, on any machine that reaches the database.

    \b
    Examples:
      cubegames bots work --db postgresql+psycopg://user:pw@host/cubegames
      cubegames bots work --db postgresql+psycopg://user:pw@host/cubegames --jobs 4
    """
    import asyncio
    import signal

    from sqlalchemy.exc import SQLAlchemyError

    from cubegames.server.bus import PostgresBus
    from cubegames.server.storage import Store
    from cubegames.server.worker import Worker

    url, shown, limits = _open(db, settings)
    try:
        store = Store(url)
    except ModuleNotFoundError as exc:
        raise click.UsageError(
            f"--db {shown}: its driver is not installed ({exc.name}); install cubegames[postgres]"
        ) from None
    except (SQLAlchemyError, OSError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise click.UsageError(f"--db {shown}: cannot open the database: {reason}") from None
    worker = Worker(store, PostgresBus(store), jobs=jobs, limits=limits)
    click.echo(f"cubegames: thinking bots' moves for {shown}, {jobs} at a time (Ctrl-C stops)")

    async def main() -> None:
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stopping.set)
        await worker.run(stopping)

    try:
        asyncio.run(main())
    finally:
        store.close()
    click.echo(f"cubegames: stopped after {worker.answered} moves")
