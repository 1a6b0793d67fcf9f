"""Play matches as tasks on a Ray cluster (`cubegames simulate --backend ray`).

Ray is imported only here, and only when this backend is used. Each task plays a small
chunk of matches with the same `play_match` the local processes use, so a game's record is
the same wherever it is played.

Which cluster: if this process has already called `ray.init` (a notebook, a test), that
connection is used as it is; otherwise `ray.init(address=...)` connects to the given
cluster (`auto` finds one started with `ray start` on this machine), or, with no address,
starts a local instance with `cpus` CPUs which is shut down again at the end. Every node
must be able to import the same version of `cubegames`.

A local instance listens on `host`, the loopback address 127.0.0.1 unless told otherwise
(`--ray-host`), so no other machine can reach the tasks it runs. An address given as
`HOST:PORT` (or `ray://HOST:PORT`) is tried first with a plain TCP connection: Ray itself
keeps retrying an address nobody answers at for minutes, printing warnings, where a
designer needs one line saying the cluster is not there; and an address where something
answers that is no Ray cluster gets `CONNECT_SECONDS` to join it, then one line.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from cubegames.sim.play import Match
from cubegames.sim.runner import Indexed, numbered, play_chunk


class RayUnavailable(RuntimeError):
    """Ray is not installed in this environment, or the cluster named cannot be reached."""


#: the address a local Ray instance started by the lab listens on, unless told otherwise
LOOPBACK = "127.0.0.1"
#: seconds to wait for a cluster's port to answer before giving up
PROBE_SECONDS = 5.0


def probe(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Check that something answers at `address` when it names a host and port
    (`HOST:PORT`, `ray://HOST:PORT`); RayUnavailable in one sentence otherwise. Other
    addresses (`auto`, `local`) are left to Ray.

    >>> probe("auto")
    >>> probe("head:port")
    Traceback (most recent call last):
    ...
    cubegames.sim.ray_backend.RayUnavailable: --address head:port: the port must be a number
    """
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    if not colon:
        return
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise RayUnavailable(f"--address {address}: the port must be a number")
    try:
        with socket.create_connection((host.strip("[]") or LOOPBACK, int(port)), timeout):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__.replace("Error", " error").lower()
        raise RayUnavailable(f"cannot reach a Ray cluster at {address}: {why}") from None


#: seconds `ray.init` may take to join a cluster at an address that answers
CONNECT_SECONDS = 20.0


def _connect(ray: Any, address: str, options: dict[str, Any]) -> None:
    """`ray.init(address=address)`, given at most `CONNECT_SECONDS`.

    Something that answers at HOST:PORT but is no Ray head (another service, a port of the
    machine that Ray reaches under another name) passes `probe`, and `ray.init` then
    retries for minutes, printing warnings, with no way to give it a deadline. So it runs
    on a thread of its own; past the deadline the run gives up in one line (the thread is
    left behind: the command is about to end; a later warning of its would be Ray's)."""
    failed: list[BaseException] = []

    def connect() -> None:
        try:
            ray.init(address=address, **options)
        except BaseException as exc:  # handed over to the waiting thread
            failed.append(exc)

    # Ray's core writes its retries' warnings straight to file descriptor 2: they are
    # kept aside while it connects, shown if it joins, dropped if it fails (one line then)
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as said:
        os.dup2(said.fileno(), 2)
        try:
            thread = threading.Thread(target=connect, name="cubegames-ray-connect", daemon=True)
            thread.start()
            thread.join(CONNECT_SECONDS)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        if thread.is_alive():
            raise RayUnavailable(
                f"cannot use the Ray cluster at {address}: something answers there, but "
                f"no Ray cluster was joined within {CONNECT_SECONDS:g} seconds"
            )
        if failed:
            raise failed[0]
        said.seek(0)
        sys.stderr.write(said.read().decode(errors="replace"))


class RaySession:
    """A connection to Ray for one or more batches of matches; `close` leaves it.

    Connects on creation: to this process's Ray if it has one (left running at the end),
    else with `ray.init(address=...)`, or a new local instance with `cpus` CPUs when there
    is no address (both shut down by `close`).
    """

    def __init__(self, *, address: str | None = None, cpus: int = 1, host: str = LOOPBACK) -> None:
        try:
            import ray
        except ImportError:
            raise RayUnavailable(
                "the ray backend needs Ray: pip install 'cubegames[ray]'"
            ) from None
        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {
                "include_dashboard": False,
                "logging_level": logging.ERROR,
            }
            if address is None:
                options["num_cpus"] = max(1, cpus)
                options["_node_ip_address"] = host
            else:
                probe(address)
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            try:
                if address is None:
                    ray.init(address=address, **options)
                else:
                    _connect(ray, address, options)
            except RayUnavailable:
                raise
            except Exception as exc:  # Ray raises many kinds (ConnectionError, ValueError, ...)
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise RayUnavailable(f"cannot use {where}: {first}") from None
            self.started = True
        self.task = ray.remote(num_cpus=1)(play_chunk)

    def play(self, matches: Sequence[Match]) -> Iterator[Indexed]:
        """Play every match and yield `(i, record)` as each chunk of tasks finishes."""
        ray = self.ray
        # small chunks keep every CPU of a big cluster busy and the progress bar moving
        size = max(1, min(16, len(matches) // 64))
        pending = [
            self.task.remote(numbered(matches, i, size)) for i in range(0, len(matches), size)
        ]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield from ray.get(done[0])
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        """Shut Ray down if this session started it."""
        if self.started:
            self.ray.shutdown()
            self.started = False
