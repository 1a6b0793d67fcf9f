"""Play matches as tasks on a Ray cluster (`cubegames simulate --backend ray`).

Ray is imported only here, and only when this backend is used. Each task plays a small
chunk of matches with the same `play_match` the local processes use, so a game's record is
the same wherever it is played.

Which cluster: if this process has already called `ray.init` (a notebook, a test), that
connection is used as it is; otherwise `ray.init(address=...)` connects to the given
cluster (`auto` finds one started with `ray start` on this machine), or, with no address,
starts a local instance with `cpus` CPUs which is shut down again at the end. Every node
must be able to import the same version of `cubegames`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

from cubegames.sim.play import Match
from cubegames.sim.runner import Indexed, play_chunk


class RayUnavailable(RuntimeError):
    """Ray is not installed in this environment."""


class RaySession:
    """A connection to Ray for one or more batches of matches; `close` leaves it.

    Connects on creation: to this process's Ray if it has one (left running at the end),
    else with `ray.init(address=...)`, or a new local instance with `cpus` CPUs when there
    is no address (both shut down by `close`).
    """

    def __init__(self, *, address: str | None = None, cpus: int = 1) -> None:
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
            ray.init(address=address, **options)
            self.started = True
        self.task = ray.remote(num_cpus=1)(play_chunk)

    def play(self, matches: Sequence[Match]) -> Iterator[Indexed]:
        """Play every match and yield `(i, record)` as each chunk of tasks finishes."""
        ray = self.ray
        # small chunks keep every CPU of a big cluster busy and the progress bar moving
        size = max(1, min(16, len(matches) // 64))
        items = list(enumerate(matches))
        pending = [self.task.remote(items[i : i + size]) for i in range(0, len(items), size)]
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
