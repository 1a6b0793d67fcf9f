"""Run many matches in parallel processes, with a progress bar."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from cubegames.sim.play import Match, play_match


def _progress(enabled: bool) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        disable=not enabled,
    )


def run(
    matches: Sequence[Match],
    *,
    jobs: int = 1,
    progress: bool = False,
    description: str = "games",
) -> Iterator[dict[str, Any]]:
    """Play every match and yield its record as soon as it is done (in any order).

    `jobs` processes play at once (1: in this process). Each record is a function of its
    match alone, so the set of records is the same whatever `jobs` is.
    """
    with _progress(progress) as bar:
        task = bar.add_task(description, total=len(matches), rate="")
        results: Iterable[dict[str, Any]]
        if jobs <= 1:
            results = map(play_match, matches)
            yield from _counted(results, bar, task)
            return
        context = multiprocessing.get_context("spawn")
        with context.Pool(jobs) as pool:
            chunk = max(1, min(16, len(matches) // (jobs * 8) or 1))
            results = pool.imap_unordered(play_match, matches, chunksize=chunk)
            yield from _counted(results, bar, task)


def _counted(
    results: Iterable[dict[str, Any]], bar: Progress, task: Any
) -> Iterator[dict[str, Any]]:
    for done, record in enumerate(results, 1):
        elapsed = bar.tasks[0].elapsed or 0.0
        rate = f"{done / elapsed:,.1f} games/s" if elapsed > 0 else ""
        bar.update(task, advance=1, rate=rate)
        yield record
