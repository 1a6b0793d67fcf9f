"""Real servers for the tests that need separate processes (a crash, several servers on one
database): `cubegames serve` started as a child process on a free loopback port, and a
small websocket client (`Page`) that plays through it as the browser page does."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import httpx
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from cubegames.server.protocol import patch

#: seconds a server gets to start (a busy machine imports the web stack slowly)
START = 40.0
#: seconds a page waits for a message
RECEIVE = 15.0


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    """`cubegames serve --db URL [args]` in a child process; `url` is its base URL."""

    def __init__(
        self, db_url: str, *args: str, env: dict[str, str] | None = None, start: float = START
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "cubegames", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--db", db_url, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning", **(env or {})},
            start_new_session=True,  # its own process group: `kill` reaches its children too
        )
        deadline = time.monotonic() + start
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.process.communicate()[1]}")
            try:
                if httpx.get(f"{self.url}/api/catalog", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start within {start:g} s")

    def make_game(self, game: str, seats: list[dict[str, Any]], seed: int = 5) -> dict[str, Any]:
        """Make a game through the API; the answer (with each human seat's token)."""
        answer = httpx.post(
            f"{self.url}/api/games",
            json={"game": game, "options": {}, "seats": seats, "seed": seed},
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        made: dict[str, Any] = answer.json()
        return made

    def page(self, game_id: str, token: str | None) -> Page:
        """A websocket to a game, as the seat of `token` (None: a spectator)."""
        return Page(f"ws://127.0.0.1:{self.port}/ws/games/{game_id}", token)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as in a crash. The whole process group gets it:
        the server's children (uvicorn's `--workers`, started by multiprocessing's spawn) would
        otherwise live on as orphans after the test, as one did for 35 minutes after a CI run."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self._kill_group()
        self._close_pipes()

    def stop(self) -> None:
        """Stop it cleanly (SIGTERM), or kill it if it does not stop."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._kill_group()  # a child its clean stop left behind, if any
        self._close_pipes()

    def _kill_group(self) -> None:
        with contextlib.suppress(ProcessLookupError):  # no process is left in the group
            os.killpg(self.process.pid, signal.SIGKILL)

    def _close_pipes(self) -> None:
        if self.process.stderr is not None:
            self.process.stderr.close()


class Page:
    """A websocket client that says who it is first, as the page does."""

    def __init__(self, address: str, token: str | None, **options: Any) -> None:
        """`options` go to `websockets.sync.client.connect` (`ssl`, `origin`, ...)."""
        self._opening = ws_connect(address, open_timeout=RECEIVE, **options)
        self.socket: ClientConnection = self._opening.__enter__()
        self.socket.send(json.dumps({"type": "auth", "token": token}))
        self.held: dict[str, Any] | None = None  # the last full state, kept up by patches

    def receive(self, timeout: float = RECEIVE) -> dict[str, Any]:
        """The next message; TimeoutError if none comes in time."""
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        return message

    def state(
        self, ply: int | None = None, timeout: float = RECEIVE, expected: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """The next state (at move `ply` or later, if given), kept up to date by the patches
        that follow the first state message; an error message on the way is raised as
        AssertionError, unless its code is one of `expected`."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.01, deadline - time.monotonic()))
            if message["type"] == "error":
                if message.get("code") in expected:
                    continue
                raise AssertionError(f"the server refused: {message}")
            if message["type"] == "state":
                self.held = message
            elif message["type"] == "patch" and self.held is not None:
                # protocol 2: what changed since the last state, and the new log lines
                log = self.held.get("log", []) + message.get("log", [])
                self.held = {**patch(self.held, message["ops"]), "log": log}
            else:
                continue
            if ply is None or self.held["ply"] >= ply:
                return self.held

    def move(self, move: str, ply: int) -> None:
        """Ask to play `move` at move number `ply`."""
        self.socket.send(json.dumps({"type": "move", "move": move, "ply": ply}))

    def close(self) -> None:
        """Close the websocket."""
        self._opening.__exit__(None, None, None)
