"""Moves counted by kind in every row, per bot in the report, and a warning at the top when a
variant's moves were never or almost never played."""

from __future__ import annotations

import pandas as pd

from cubegames.sim.analysis import settings
from cubegames.sim.job import make_job
from cubegames.sim.simulate import simulate


def _rows(game: str, bots: list[str], n: int, **options: object) -> pd.DataFrame:
    job = make_job(game, bots, options=options, seed=4)
    return pd.DataFrame(simulate(job, n).rows)


def test_every_move_is_counted_once_by_kind_and_seat() -> None:
    df = _rows("cubed", ["greedy", "random"], 4, rounds=1, variants=["bridging", "void", "draw3"])
    kinds = [c for c in df.columns if c.startswith("kind_")]
    assert {c.rsplit("_s", 1)[0] for c in kinds} == {
        f"kind_{k}"
        for k in ("place", "draw", "pass", "bonus_place", "draw3", "keep", "give", "skip")
    }
    assert (df[kinds].sum(axis=1) == df["moves"]).all()
    df = _rows("unstackable", ["greedy", "random"], 2)
    kinds = [c for c in df.columns if c.startswith("kind_")]
    assert (df[kinds].sum(axis=1) == df["moves"]).all()
    assert (df[["kind_stack_s0", "kind_stack_s1"]].sum(axis=1) > 0).all()
    assert (df[["kind_unstack_s0", "kind_unstack_s1"]].sum(axis=1) > 0).all()


def test_random_lineups_have_no_counts_and_no_table() -> None:
    df = _rows("cubed", ["random"], 3, rounds=1)
    assert not [c for c in df.columns if c.startswith("kind_")]
    (setting,) = settings(df)
    assert "Moves played by kind" not in [t.title for t in setting.tables]


def test_a_variant_left_unplayed_is_named_at_the_top() -> None:
    df = _rows("cubed", ["greedy", "random"], 4, rounds=1, variants=["draw3"])
    (setting,) = settings(df)
    table = next(t for t in setting.tables if t.title == "Moves played by kind")
    assert [row[0] for row in table.rows] == ["greedy", "random"]
    assert not any(line.startswith("Warning") for line in setting.headline)
    # the same games with greedy's draw-3s taken out: a study of draw3 with greedy measures
    # nothing, and the report says so first
    for seat in (0, 1):
        df.loc[df[f"bot_{seat}"] == "greedy", f"kind_draw3_s{seat}"] = 0
    (setting,) = settings(df)
    first = setting.headline[0]
    assert first.startswith("Warning: greedy never played draw-3s, the move the draw3 variant adds")
    assert not any("random never" in line for line in setting.headline)
    # one game in forty is "almost never"
    df = pd.concat([df] * 10, ignore_index=True)
    df["seed"] = range(len(df))
    df.loc[0, "kind_draw3_s0" if df.loc[0, "bot_0"] == "greedy" else "kind_draw3_s1"] = 1
    (setting,) = settings(df)
    assert setting.headline[0].startswith("Warning: greedy almost never played draw-3s (in 2.5%")
