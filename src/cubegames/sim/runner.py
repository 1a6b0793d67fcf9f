"""Run many matches in parallel, with a progress bar: in local processes or on Ray.

Each record is a function of its match alone (`play_match`), so the records are the same
whatever the backend and the number of processes; only the order in which they arrive and
their `seconds` differ.

- `processes` (the default): `jobs` worker processes of this machine (`jobs=1` plays in
  this process), a `concurrent.futures.ProcessPoolExecutor` fed small chunks of matches.
  Workers are started with `spawn` and ignore Ctrl-C, which the parent handles, so an
  interrupted run stops cleanly. Should a worker die (killed, out of memory), the run stops
  with `BrokenProcessPool` instead of waiting for ever for the games it held, as a
  `multiprocessing.Pool` would; the runner also watches the workers itself, since the
  pool misses a worker killed while it was handing back its results (`_check_workers`).
- `ray`: tasks on a Ray cluster, see `cubegames.sim.ray_backend`.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, overload

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from cubegames.sim.batch import play_items
from cubegames.sim.play import Match, play_match

if TYPE_CHECKING:
    from cubegames.sim.ray_backend import RaySession

#: the backends `run` and `play_all` know
BACKENDS = ("processes", "ray")

Indexed = tuple[int, dict[str, Any]]

T = TypeVar("T")


class _Written(Protocol):
    """A `multiprocessing.SimpleQueue` as far as `Runner.close` uses it: the end its
    process writes to (typeshed leaves it out)."""

    _writer: Connection


class Lazy(Sequence[T]):
    """`size` items, item `i` made by `make(i)` only when it is asked for: a million
    games' matches are not built (and held) before the first game starts."""

    def __init__(self, size: int, make: Callable[[int], T]) -> None:
        self.size = size
        self.make = make

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return [self.make(k) for k in range(*i.indices(self.size))]
        if not -self.size <= i < self.size:
            raise IndexError(i)
        return self.make(i % self.size)


def numbered(matches: Sequence[Match], start: int, size: int) -> list[tuple[int, Match]]:
    """Matches `start` to `start + size - 1` with their numbers (a chunk of work)."""
    return list(enumerate(matches[start : start + size], start))


def _progress(enabled: bool) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not enabled,
    )


def run(
    matches: Sequence[Match],
    *,
    jobs: int = 1,
    progress: bool = False,
    description: str = "games",
    backend: str = "processes",
    address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Play every match and yield its record as soon as it is done (in any order).

    `jobs` processes play at once (1: in this process). Each record is a function of its
    match alone, so the set of records is the same whatever `jobs` or `backend` is.
    """
    with Runner(jobs=jobs, backend=backend, address=address) as runner:
        for _, record in runner.play(matches, progress=progress, description=description):
            yield record


class Runner:
    """Plays batches of matches on one backend, keeping its worker processes (or its Ray
    connection) from one batch to the next; use it as a context manager.

    For Ray, `address` names the cluster (None: this process's Ray if it has one, else a
    new local instance with `jobs` CPUs, listening on `ray_host`, loopback by default), see
    `cubegames.sim.ray_backend`.
    """

    def __init__(
        self,
        *,
        jobs: int = 1,
        backend: str = "processes",
        address: str | None = None,
        ray_host: str | None = None,
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
        self.jobs = jobs
        self.backend = backend
        self.address = address
        #: where a local Ray instance started for this run listens (None: loopback only)
        self.ray_host = ray_host
        self._pool: ProcessPoolExecutor | None = None
        #: how many worker processes the pool may start (0: no pool)
        self.processes = 0
        self._ray: RaySession | None = None

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        self.close(abort=kind is not None)

    def close(self, *, abort: bool = False) -> None:
        """Stop the worker processes (or leave Ray), if any were started; `abort` stops
        them at once, mid-game, rather than letting them finish the chunk in hand."""
        if self._pool is not None:
            if abort:
                # ProcessPoolExecutor has no way to stop running work before Python 3.14
                # (terminate_workers), so its processes are stopped one by one
                processes = list(self._pool._processes.values())
                for process in processes:
                    process.terminate()
                for process in processes:
                    process.join(5)
                    if process.exitcode is None:
                        process.kill()
                        process.join()
                # the pool's manager thread may be waiting for the rest of a result a
                # dead worker was writing (see `_check_workers`); with every worker gone,
                # closing this process's end of that pipe ends its wait (EOFError), so
                # the shutdown below does not wait for ever
                cast(_Written, self._pool._result_queue)._writer.close()
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            self.processes = 0
        if self._ray is not None:
            self._ray.close()
            self._ray = None

    def play(
        self, matches: Sequence[Match], *, progress: bool = False, description: str = "games"
    ) -> Iterator[Indexed]:
        """Play `matches`, yielding `(i, record)` as each game finishes."""
        with _progress(progress) as bar:
            task = bar.add_task(description, total=len(matches), rate="")
            if matches:
                yield from _counted(self._results(matches), bar, task)

    def _results(self, matches: Sequence[Match]) -> Iterator[Indexed]:
        if self.backend == "ray":
            if self._ray is None:
                from cubegames.sim.ray_backend import LOOPBACK, RaySession

                self._ray = RaySession(
                    address=self.address, cpus=self.jobs, host=self.ray_host or LOOPBACK
                )
            return self._ray.play(matches)
        if self.jobs <= 1:
            return play_items(enumerate(matches))
        return self._pooled(matches)

    def _pooled(self, matches: Sequence[Match]) -> Iterator[Indexed]:
        # small chunks: a slow game at the end keeps one process busy while the others wait;
        # a few chunks per process in flight keep every process fed. Games of random bots
        # take well under a millisecond in a batch kernel (`sim.batch`), so their chunks are
        # larger: handing a chunk over costs more than its games
        most = 128 if all(b == "random" for b in matches[0].bots) else 8
        size = max(1, min(most, len(matches) // (self.jobs * 16)))
        # never more processes than chunks: each one starts Python, numba and the kernels
        # (seconds), so `--jobs 1000` for ten games starts ten, not a thousand; a later,
        # bigger call on the same runner gets a bigger pool
        wanted = min(self.jobs, -(-len(matches) // size))
        if self._pool is not None and self.processes < wanted:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._pool is None:
            self.processes = wanted
            self._pool = ProcessPoolExecutor(
                wanted,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_ignore_interrupts,
            )
        starts = iter(range(0, len(matches), size))
        pending: set[Future[list[Indexed]]] = set()
        while True:
            while len(pending) < 4 * self.jobs and (start := next(starts, None)) is not None:
                pending.add(self._pool.submit(play_chunk, numbered(matches, start, size)))
            if not pending:
                return
            done, pending = wait(pending, timeout=WATCH, return_when=FIRST_COMPLETED)
            if not done:
                self._check_workers()
            for future in done:
                yield from future.result()

    def _check_workers(self) -> None:
        """Raise `BrokenProcessPool` if a worker process has died.

        The pool notices a dead worker by itself only while its manager thread waits for a
        result: a worker killed while it was writing its results leaves half a message in
        the pipe, the manager thread waits in `recv` for the rest (the other workers and
        this process hold the pipe open), nothing completes again and the run would wait
        for ever. So the run looks at the workers itself whenever nothing finished for
        `WATCH` seconds (the pool never retires a worker while it runs).
        """
        assert self._pool is not None
        for process in list(self._pool._processes.values()):
            if process.exitcode is not None:
                raise BrokenProcessPool(
                    f"worker process {process.pid} stopped with exit code {process.exitcode}"
                )


def play_indexed(item: tuple[int, Match]) -> Indexed:
    """Play one numbered match: `(i, match)` in, `(i, record)` out (the unit of work)."""
    i, match = item
    return i, play_match(match)


def play_chunk(items: list[tuple[int, Match]]) -> list[Indexed]:
    """Play a few numbered matches (what a worker process or a Ray task is given); those
    a game's batch kernel covers in one call (`cubegames.sim.batch`)."""
    return list(play_items(items))


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: seconds without a finished chunk after which the workers are looked at (`_check_workers`)
WATCH = 1.0

#: seconds between two updates of the progress bar (games can finish thousands a second)
TICK = 0.1


def _counted(results: Iterable[Indexed], bar: Progress, task: TaskID) -> Iterator[Indexed]:
    shown = done = 0
    last = time.monotonic()
    for item in results:
        done += 1
        now = time.monotonic()
        if now - last >= TICK or done == 1:
            _show(bar, task, done - shown, done)
            shown, last = done, now
        yield item
    if done > shown:
        _show(bar, task, done - shown, done)


def _show(bar: Progress, task: TaskID, advance: int, done: int) -> None:
    elapsed = bar.tasks[0].elapsed or 0.0
    rate = f"{done / elapsed:,.1f} games/s" if elapsed > 0 else ""
    bar.update(task, advance=advance, rate=rate)
