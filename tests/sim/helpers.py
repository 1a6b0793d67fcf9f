"""Helpers for the simulator tests."""

from __future__ import annotations

from typing import Any

import pandas as pd

from cubegames.sim.job import Job, is_timing, make_job

#: small jobs that cover every game, their own columns and both kinds of bot
JOBS: list[Job] = [
    make_job(
        "cubed",
        ["greedy", "random", "random"],
        options={"rounds": 1, "variants": ["bridging"]},
        seed=3,
    ),
    make_job("cubes", ["random"], players=4, options={"sets": 2}, seed=5),
    make_job("stakd", ["random"], seed=7),
    make_job("unstackable", ["greedy", "random"], seed=11),
]


def without_timing(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows sorted by job and seed, without the columns that measure time."""
    out = [{k: v for k, v in row.items() if not is_timing(k)} for row in rows]
    return sorted(out, key=lambda row: (row["job"], row["seed"]))


def frame_without_timing(df: pd.DataFrame) -> pd.DataFrame:
    """A results table sorted by job and seed, without timing, with a fresh index."""
    df = df.drop(columns=[c for c in df.columns if is_timing(c)])
    return df.sort_values(["job", "seed"]).reset_index(drop=True)
