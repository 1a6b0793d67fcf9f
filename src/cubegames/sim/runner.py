"""Run many matches in parallel, with a progress bar: in local processes or on Ray.

Each record is a function of its match alone (`play_match`), so the records are the same
whatever the backend and the number of processes; only the order in which they arrive and
their `seconds` differ.

- `processes` (the default): `jobs` worker processes of this machine (`jobs=1` plays in
  this process). Workers are started with `spawn` and ignore Ctrl-C, which the parent
  handles, so an interrupted run stops cleanly.
- `ray`: tasks on a Ray cluster, see `cubegames.sim.ray_backend`.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

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

from cubegames.sim.play import Match, play_match

#: the backends `run` and `play_all` know
BACKENDS = ("processes", "ray")

Indexed = tuple[int, dict[str, Any]]


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
    for _, record in play_all(
        matches,
        jobs=jobs,
        progress=progress,
        description=description,
        backend=backend,
        address=address,
    ):
        yield record


def play_all(
    matches: Sequence[Match],
    *,
    jobs: int = 1,
    progress: bool = False,
    description: str = "games",
    backend: str = "processes",
    address: str | None = None,
) -> Iterator[Indexed]:
    """Like `run`, but yield `(i, record)` where `i` is the match's index in `matches`.

    For Ray, `address` names the cluster (None: this process's Ray if it has one, else a
    new local instance with `jobs` CPUs).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    with _progress(progress) as bar:
        task = bar.add_task(description, total=len(matches), rate="")
        if not matches:
            return
        if backend == "ray":
            from cubegames.sim.ray_backend import play_on_ray

            yield from _counted(play_on_ray(matches, address=address, cpus=jobs), bar, task)
            return
        if jobs <= 1:
            yield from _counted(map(play_indexed, enumerate(matches)), bar, task)
            return
        context = multiprocessing.get_context("spawn")
        with context.Pool(jobs, initializer=_ignore_interrupts) as pool:
            # small chunks: a slow game at the end keeps one process busy while the others wait
            chunk = max(1, min(8, len(matches) // (jobs * 16)))
            results = pool.imap_unordered(play_indexed, enumerate(matches), chunksize=chunk)
            yield from _counted(results, bar, task)


def play_indexed(item: tuple[int, Match]) -> Indexed:
    """Play one numbered match: `(i, match)` in, `(i, record)` out (the unit of work)."""
    i, match = item
    return i, play_match(match)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _counted(results: Iterable[Indexed], bar: Progress, task: TaskID) -> Iterator[Indexed]:
    for done, item in enumerate(results, 1):
        elapsed = bar.tasks[0].elapsed or 0.0
        rate = f"{done / elapsed:,.1f} games/s" if elapsed > 0 else ""
        bar.update(task, advance=1, rate=rate)
        yield item
