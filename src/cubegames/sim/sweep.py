"""A grid of option sets and bot lineups, each cell played until its answer is precise enough.

Every cell is a job (`cubegames.sim.job`) and all cells use the same seeds, so cells whose
options leave the deal alone are compared on the very same deals. Cells are played a batch
at a time, side by side; after each batch a cell stops once the 95% Wilson interval of its
*measure* is narrow enough (half-width at most `precision`), or when it reaches
`max_games`. The measure is the win rate of the lineup's first bot when the lineup has
several bots, else the win rate of seat 0 (`metric` forces one or the other).

The checks happen at fixed points (every `batch` games of a cell), and a cell's rows depend
only on its job and seeds, so a resumed sweep stops each cell at the same point as an
uninterrupted one. Because the rule looks at the data several times, a cell's 95% interval
is a little less than 95% sure; the precision asked for is what the rule guarantees.

A rate far from one half has a narrow interval sooner: 96 wins in 100 games already gives
±0.04, while a coin flip needs about 1,070 games for ±0.03. That is why an obvious result
stops early.
"""

from __future__ import annotations

import itertools
import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cubegames.core.data import FileTooLarge, read_bounded
from cubegames.core.errors import shown
from cubegames.kit.stats import half_width
from cubegames.sim.job import Job, make_job
from cubegames.sim.runner import Runner
from cubegames.sim.simulate import play_rows, stored_rows
from cubegames.sim.store import Store

METRICS = ("auto", "seat", "bot")
#: the largest sweep file read, in bytes (its settings take a few hundred); a larger one, or
#: an endless one (`/dev/zero`), is refused unread, as `cubegames moves` refuses a position
MAX_CONFIG = 1_000_000


def grid_values(key: str, text: str) -> list[Any]:
    """The values of one `--grid key=v1,v2,...` flag, each read like a `-o` option value.

    For `variants` each comma-separated item is one set of variants, with `+` joining
    several and an empty item meaning none:

    >>> grid_values("variants", ",bridging,bridging+draw3")
    [[], ['bridging'], ['bridging', 'draw3']]
    >>> grid_values("strict_colors", "true,false")
    [True, False]
    """
    from cubegames.core.registry import option_value

    items = text.split(",")
    if key == "variants":
        return [[v for v in item.split("+") if v] for item in items]
    return [option_value(key, item) for item in items]


def read_config(path: str) -> dict[str, Any]:
    """A sweep file (TOML, or JSON for `.json`): `game`, `bots` (a list of lineups such as
    `"greedy,random"`), `players`, `options` (fixed options), `grid` (option name to a list
    of values), `precision`, `max_games`, `batch`, `seed`, `metric`."""
    file = Path(path)
    try:
        text = read_bounded(path, MAX_CONFIG)
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except FileTooLarge as exc:
        raise ValueError(str(exc)) from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file") from None
    try:
        data = json.loads(text) if file.suffix.lower() == ".json" else tomllib.loads(text)
    except RecursionError:  # brackets nested deeper than Python's stack
        raise ValueError(f"{path}: its brackets nest too deep to read") from None
    except ValueError as exc:  # JSON's and TOML's errors, and a number of 4300 digits
        raise ValueError(f"{path}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: must hold a table of settings")
    known = {"game", "bots", "players", "options", "grid", "precision", "max_games", "batch"}
    known |= {"seed", "metric", "rotate"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(
            f"{path}: unknown field {unknown[0]!r}; fields are {', '.join(sorted(known))}"
        )
    for key in ("options", "grid"):
        if not isinstance(data.get(key, {}), dict):
            raise ValueError(f"{path}: {key} must be a table")
    for key, values in data.get("grid", {}).items():
        if not isinstance(values, list) or not values:
            raise ValueError(f"{path}: grid.{key} must be a non-empty list of values")
    _check_scalars(path, data)
    bots = data.get("bots", [])
    if isinstance(bots, str):
        data["bots"] = [bots]
    elif not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise ValueError(f'{path}: bots must be a list of lineups such as "greedy,random"')
    return data


def _check_scalars(path: str, data: Mapping[str, Any]) -> None:
    """The single-value fields of a sweep file, held to the bounds of their flags: a file
    is no way round them (`precision = nan` played every cell to its cap, `batch = 2.5`
    and `max_games = 1e99` were cut to whole numbers, `rotate = "no"` read as true)."""

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if "precision" in data:
        value = data["precision"]
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or not 0 < value <= 0.5:
            raise ValueError(f"{path}: precision must be a number above 0 and at most 0.5")
    for key in ("max_games", "batch"):
        if key in data and not (whole(data[key]) and data[key] >= 1):
            raise ValueError(f"{path}: {key} must be a whole number of at least 1")
    if "seed" in data and not whole(data["seed"]):
        raise ValueError(f"{path}: seed must be a whole number")
    if "rotate" in data and not isinstance(data["rotate"], bool):
        raise ValueError(f"{path}: rotate must be true or false")
    if "metric" in data and not isinstance(data["metric"], str):
        raise ValueError(f'{path}: metric must be a text such as "auto"')


def make_cells(
    game: str,
    lineups: Sequence[Sequence[str]],
    grid: Mapping[str, Sequence[Any]],
    *,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    rotate: bool = True,
    seed: int = 0,
) -> list[Job]:
    """One job for every combination of the grid's values and every lineup.

    >>> cells = make_cells("cubed", [["random"]], {"variants": [[], ["bridging"]]})
    >>> [c.options["variants"] for c in cells]
    [[], ['bridging']]
    """
    keys = list(grid)
    cells = []
    for values in itertools.product(*(grid[k] for k in keys)):
        setting = dict(zip(keys, values, strict=True))
        chosen = {**(options or {}), **setting}
        for bots in lineups:
            try:
                job = make_job(
                    game, bots, players=players, options=chosen, rotate=rotate, seed=seed
                )
            except ValueError as exc:
                if not setting:
                    raise
                # which cell of the grid: "variants must be a list" alone named none
                named = ", ".join(f"{k} = {shown(v)}" for k, v in setting.items())
                raise ValueError(f"the grid's setting {named}: {exc}") from None
            cells.append(job)
    ids = [c.id for c in cells]
    if len(set(ids)) != len(ids):
        raise ValueError("the grid names the same setting twice")
    return cells


@dataclass
class Cell:
    """One cell's progress: its job, its rows so far, and why it stopped."""

    job: Job
    metric: str
    rows: dict[int, dict[str, Any]] = field(default_factory=dict)
    checked: int = 0
    stopped: str = ""

    def measure(self, upto: int) -> tuple[float, int]:
        """(successes, trials) of the measured rate over the games below `upto`."""
        rows = [r for seed, r in self.rows.items() if seed < self.job.seed + upto]
        if self.metric == "seat":
            return sum(float(r["win_0"]) for r in rows), len(rows)
        bot = self.job.lineup[0]
        wins = 0.0
        seats = 0
        for r in rows:
            for s in range(self.job.players):
                if r[f"bot_{s}"] == bot:
                    wins += float(r[f"win_{s}"])
                    seats += 1
        return wins, seats

    def half_width(self, upto: int) -> float:
        """The half-width of the measure's 95% interval over the games below `upto`."""
        wins, n = self.measure(upto)
        return half_width(wins, n)


def _metric(job: Job, metric: str) -> str:
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose from {', '.join(METRICS)}")
    if metric == "auto":
        return "bot" if len(set(job.lineup)) > 1 else "seat"
    if metric == "bot" and len(set(job.lineup)) == 1:
        raise ValueError(f"--metric bot needs two different bots; {job} has one")
    return metric


def sweep(
    cells: Sequence[Job],
    store: Store | None = None,
    *,
    precision: float = 0.03,
    max_games: int = 2000,
    batch: int = 100,
    metric: str = "auto",
    jobs: int = 1,
    backend: str = "processes",
    address: str | None = None,
    ray_host: str | None = None,
    progress: bool = False,
) -> list[Cell]:
    """Play every cell until precise or capped; return the cells with their rows.

    With a store the rows are written as they come (and rows already there are reused);
    a store holding games of jobs outside the grid is refused.
    """
    if not (math.isfinite(precision) and precision > 0) or max_games < 1 or batch < 1:
        raise ValueError("precision, max_games and batch must be positive")
    state = [Cell(job, _metric(job, metric)) for job in cells]
    held = stored_rows(store, cells) if store is not None else None
    if held is not None:
        for cell in state:
            for row in held.loc[held["job"] == cell.job.id].to_dict("records"):
                cell.rows[int(row["seed"])] = row
    owner = {cell.job.id: cell for cell in state}
    active = list(state)
    rounds = 0
    with Runner(jobs=jobs, backend=backend, address=address, ray_host=ray_host) as runner:
        while active:
            rounds += 1
            todo = []
            for cell in active:
                upto = min(cell.checked + batch, max_games)
                todo += [
                    (cell.job, cell.job.match(i))
                    for i in range(upto)
                    if cell.job.seed + i not in cell.rows
                ]
            play_rows(
                todo,
                store,
                runner,
                progress=progress,
                description=f"sweep round {rounds}: {len(active)} of {len(state)} cells",
                on_row=lambda row: owner[row["job"]].rows.__setitem__(row["seed"], row),
            )
            for cell in active:
                cell.checked = min(cell.checked + batch, max_games)
                if cell.half_width(cell.checked) <= precision:
                    cell.stopped = "precise"
                elif cell.checked >= max_games:
                    cell.stopped = "cap"
            active = [cell for cell in active if not cell.stopped]
    if store is not None and store.exists():
        store.compact()
    return state
