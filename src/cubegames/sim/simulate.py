"""Run a job's games into a results file, in batches, resuming where a run stopped.

>>> from cubegames.sim.job import make_job
>>> job = make_job("cubes", ["random"], seed=1)
>>> result = simulate(job, 5)
>>> len(result.rows), result.played
(5, 5)
"""

# pandas ships no type information; it is typed as Any here.

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cubegames.sim.job import Job
from cubegames.sim.play import Match
from cubegames.sim.runner import Lazy, Runner
from cubegames.sim.store import Store, StoreError, jobs_in, seeds_of

if TYPE_CHECKING:
    import pandas as pd

#: write a batch once this many games are waiting, or once this many seconds have passed
BATCH = 500
FLUSH_SECONDS = 5.0


class JobMismatch(StoreError):
    """The results file holds games of a different job."""


@dataclass
class Outcome:
    """What a call of `simulate` did.

    `rows` are the rows played by this call when there is no store (with a store they are
    on disk and `rows` is empty); `before` counts the job's games already stored; `seeds`
    are the seeds played now.
    """

    job: Job
    before: int = 0
    seeds: list[int] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def played(self) -> int:
        """Games played by this call."""
        return len(self.seeds)


def stored_rows(store: Store, jobs: Sequence[Job]) -> pd.DataFrame | None:
    """The rows `store` holds (None when it holds nothing yet), refusing a store that holds
    rows of any job but `jobs` (`JobMismatch`)."""
    if not store.exists():
        return None
    df = store.read()
    known = {job.id for job in jobs}
    for job_id, held in jobs_in(df).items():
        if job_id not in known:
            lineup = held["lineup"]
            turn = "rotating" if held["rotate"] else "fixed"
            raise JobMismatch(
                f"{store.path} holds a different run ({held['game']} {held['options']}, "
                f"bots {lineup}, {turn} seats, seed {held['seed']}); "
                "give another --out or remove it to start afresh"
            )
    return df


def play_rows(
    matches: Sequence[tuple[Job, Match]],
    store: Store | None,
    runner: Runner,
    *,
    progress: bool = False,
    description: str = "games",
    batch: int = BATCH,
    flush_seconds: float = FLUSH_SECONDS,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play `(job, match)` pairs with `runner`; write their rows to `store` in batches, or
    return them.

    On an interruption (Ctrl-C, or any error) the rows of the games already finished are
    written before the exception goes on, so nothing finished is lost.
    """
    kept: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    last = time.monotonic()
    try:
        for i, record in runner.play(
            Lazy(len(matches), lambda k: matches[k][1]), progress=progress, description=description
        ):
            row = matches[i][0].row(record)
            if on_row is not None:
                on_row(row)
            if store is None:
                kept.append(row)
                continue
            waiting.append(row)
            if len(waiting) >= batch or time.monotonic() - last >= flush_seconds:
                store.append(waiting)
                waiting, last = [], time.monotonic()
    finally:
        if store is not None:
            store.append(waiting)
    return kept


def simulate(
    job: Job,
    n: int,
    store: Store | None = None,
    *,
    jobs: int = 1,
    backend: str = "processes",
    address: str | None = None,
    ray_host: str | None = None,
    progress: bool = False,
    batch: int = BATCH,
    flush_seconds: float = FLUSH_SECONDS,
) -> Outcome:
    """Play games `0..n-1` of `job` that `store` does not hold yet.

    With a store, rows go to disk in batches and, once all `n` games are there, the file
    is merged and sorted; a store holding another job's games is refused (`JobMismatch`).
    `n` is not part of the job: running again with a larger `n` adds the games after the
    ones stored. Without a store the rows come back in `Outcome.rows`, sorted by seed.
    """
    outcome = Outcome(job)
    done: set[int] = set()
    if store is not None:
        held = stored_rows(store, [job])
        done = set() if held is None else seeds_of(held, job.id)
        outcome.before = len(done)
    # made as the runner asks for them: a million games start at once
    left = range(n) if not done else [i for i in range(n) if job.seed + i not in done]
    todo = Lazy(len(left), lambda k: (job, job.match(left[k])))
    label = job.game if not done else f"{job.game} (resuming: {len(done):,} stored)"
    with Runner(jobs=jobs, backend=backend, address=address, ray_host=ray_host) as runner:
        outcome.rows = play_rows(
            todo,
            store,
            runner,
            progress=progress,
            description=label,
            batch=batch,
            flush_seconds=flush_seconds,
            on_row=lambda row: outcome.seeds.append(row["seed"]),
        )
    outcome.rows.sort(key=lambda row: row["seed"])
    if store is not None and outcome.played:
        store.compact()
    return outcome
