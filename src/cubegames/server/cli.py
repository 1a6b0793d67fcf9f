"""`cubegames serve`: the web app on this machine, with no set-up.

cubegames serve                       # http://127.0.0.1:8000/, SQLite in the data dir
cubegames serve --port 8080 --db sqlite:///games.sqlite3
cubegames serve --host 0.0.0.0 --db postgresql+psycopg://user:pw@host/cubegames
"""

from __future__ import annotations

import errno
import socket
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # the web stack loads only when `serve` runs, not for every command
    from fastapi import FastAPI

#: the largest websocket frame the server takes (the app itself reads at most 2 KB)
WS_MAX_SIZE = 64 * 1024
#: the largest request head (request line and headers), in bytes
MAX_HEAD = 16 * 1024
#: seconds an idle keep-alive connection is kept
KEEP_ALIVE = 5
#: connections and requests served at once; beyond, uvicorn answers 503
MAX_CONCURRENCY = 1000


def run(app: FastAPI, host: str, port: int) -> None:
    """Serve `app` with uvicorn until interrupted (Ctrl-C), with bounds on slow and
    greedy clients: request heads must arrive within `slow.HEAD_TIMEOUT` seconds and be
    at most `MAX_HEAD` bytes, idle keep-alive connections close after `KEEP_ALIVE`
    seconds, websocket frames are at most `WS_MAX_SIZE` bytes and unanswered pings drop
    a connection, and at most `MAX_CONCURRENCY` connections are served at once."""
    import uvicorn

    from cubegames.server.slow import HeadTimeoutH11

    # the sans-I/O websockets protocol: uvicorn's older one is built on an API the
    # websockets library has deprecated
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=HeadTimeoutH11,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD,
        limit_concurrency=MAX_CONCURRENCY,
    )


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
    """Add the `serve` command to the `cubegames` command."""

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
    def serve(host: str, port: int, db: str | None) -> None:
        """Serve the web app: play every game in a browser, with friends or bots."""
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        from cubegames.server.app import create_app
        from cubegames.server.storage import default_url

        url = db or default_url()
        try:
            shown = make_url(url).render_as_string(hide_password=True)
        except ArgumentError:
            raise click.UsageError(f"--db {url!r}: not a database URL") from None
        try:
            app = create_app(url)
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
        click.echo(f"cubegames: open http://{where}:{port}/ in a browser (Ctrl-C stops)")
        click.echo(f"cubegames: games are kept in {shown}")
        run(app, host, port)
