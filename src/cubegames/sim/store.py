"""Simulation results on disk, written in batches so that an interrupted run can resume.

Two layouts, chosen by the name given to `--out`:

- `NAME.parquet` (or `.pq`) is a **directory** of Parquet part files, `part-00000.parquet`,
  `part-00001.parquet`, ... Each batch of finished games becomes a new part, written under a
  hidden temporary name and then renamed, so a part is either whole or absent. When a run
  completes, its parts are merged into one, sorted by setting (game, options, bots) and
  seed. pandas, pyarrow, polars and DuckDB all read such a directory as one table
  (`pandas.read_parquet("NAME.parquet")`).
- `NAME.csv` is one CSV file with a header, appended a batch at a time; a line cut short by
  an interruption is dropped when the file is read or resumed. On completion it is rewritten
  in the same order.

Rows describe their own job (the `job`, `game`, `options`, `lineup`, `rotate` and `run_seed`
columns, see `cubegames.sim.job`), so no side file is needed to resume or to report. Rows
are never edited; should a game's row appear twice (only possible when a merge was cut
short), reading keeps the first.
"""

# pandas and pyarrow ship no type information; they are typed as Any here.

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

PARQUET_SUFFIXES = (".parquet", ".pq")
CSV_SUFFIXES = (".csv",)
#: the order of the rows of a merged file: by setting, then seed
ORDER = ("game", "options", "lineup", "rotate", "run_seed", "job", "seed")
#: columns read as text from CSV (everything else is inferred)
_TEXT = ("job", "game", "options", "lineup", "winners", "final")


class StoreError(ValueError):
    """A results file that cannot be used; the message names the file and the problem."""


class Store:
    """One results file (CSV) or directory (Parquet). Open it with `Store(path)`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix in PARQUET_SUFFIXES:
            self.kind = "parquet"
            if self.path.exists() and not self.path.is_dir():
                raise StoreError(
                    f"{self.path} is a file; results in Parquet are a directory of parts "
                    "written by cubegames simulate"
                )
        elif suffix in CSV_SUFFIXES:
            self.kind = "csv"
            if self.path.is_dir():
                raise StoreError(f"{self.path} is a directory, not a CSV file")
        else:
            raise StoreError(f"{self.path}: give a name ending in .parquet or .csv")
        self._header: list[str] | None = None  # the CSV's columns, once known

    def check(self) -> None:
        """Refuse, before any game is played, a path the results could not go to: an
        existing file that is not results of `cubegames simulate`, a directory holding other
        files, a place that cannot be written (StoreError naming the problem)."""
        if self.kind == "parquet" and self.path.is_dir():
            others = [
                p.name
                for p in self.path.iterdir()
                if not p.name.startswith(".") and not (p.name.startswith("part-"))
            ]
            if others and not self._parts():
                raise StoreError(
                    f"{self.path} is a directory holding other files ({others[0]}, ...), "
                    "not results written by cubegames simulate"
                )
        if self.exists():
            self.read()  # raises StoreError for a file that is not results
            if self.kind == "csv" and self.path.stat().st_size:
                with open(self.path, "rb") as f:
                    line = f.readline(100_000).decode("utf-8", "replace").strip()
                header = line.split(",")
                if "job" not in header or "seed" not in header:
                    raise StoreError(f"{self.path}: not results written by cubegames simulate")
        first = self.path if self.kind == "csv" else self.path / "part-00000.parquet"
        problem = writable(first, make_dirs=True)
        if problem is not None:
            raise StoreError(problem)

    def exists(self) -> bool:
        """True when the file or directory is there (it may still hold no rows)."""
        return self.path.exists()

    # -- reading ---------------------------------------------------------------------------

    def read(self) -> pd.DataFrame:
        """Every row, one per game, in the order stored (duplicates dropped)."""
        import pandas as pd

        if not self.path.exists():
            raise StoreError(f"{self.path}: no such file")
        frames = [self._read_csv()] if self.kind == "csv" else self._read_parts()
        frames = [f for f in frames if len(f)]
        if not frames:
            return pd.DataFrame({c: [] for c in ("job", "seed")})
        df = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
        if "job" not in df.columns or "seed" not in df.columns:
            raise StoreError(f"{self.path}: not results written by cubegames simulate")
        return df.drop_duplicates(["job", "seed"], keep="first").reset_index(drop=True)

    def _parts(self) -> list[Path]:
        return sorted(self.path.glob("part-*.parquet")) if self.path.is_dir() else []

    def _read_parts(self) -> list[pd.DataFrame]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        frames = []
        for part in self._parts():
            try:
                frames.append(pq.read_table(part).to_pandas())
            except (OSError, pa.ArrowInvalid) as exc:
                raise StoreError(f"{part}: not a readable Parquet file ({exc})") from None
        return frames

    def _complete_text(self) -> str:
        """The CSV's text up to its last complete line."""
        try:
            text = self.path.read_text("utf-8")
        except UnicodeDecodeError:
            raise StoreError(f"{self.path}: not a text file") from None
        end = text.rfind("\n")
        return text[: end + 1] if end >= 0 else ""

    def _read_csv(self) -> pd.DataFrame:
        import pandas as pd

        text = self._complete_text()
        if not text.strip():
            return pd.DataFrame()
        header = text.split("\n", 1)[0].split(",")
        text_columns = {c: str for c in header if c in _TEXT or c.startswith("bot_")}
        try:
            df = pd.read_csv(io.StringIO(text), dtype=text_columns, keep_default_na=False)
        except (pd.errors.ParserError, ValueError) as exc:
            raise StoreError(f"{self.path}: not a results CSV ({exc})") from None
        return df

    def done_seeds(self, job_id: str) -> set[int]:
        """The seeds of the games of `job_id` already stored."""
        return seeds_of(self.read(), job_id) if self.exists() else set()

    # -- writing ---------------------------------------------------------------------------

    def append(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Add a batch of rows: a new part file, or lines at the end of the CSV; a place
        that refuses the write after all (a file system that takes no new files, a full
        disk) is a StoreError naming it, for one line on stderr."""
        if not rows:
            return
        try:
            self._append(rows)
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise StoreError(f"{self.path}: the results could not be written ({why})") from None

    def _append(self, rows: Sequence[Mapping[str, Any]]) -> None:
        import pandas as pd

        df = pd.DataFrame(list(rows))
        if self.kind == "parquet":
            self.path.mkdir(parents=True, exist_ok=True)
            parts = self._parts()
            number = int(parts[-1].stem.split("-")[1]) + 1 if parts else 0
            self._write_parquet(df, self.path / f"part-{number:05d}.parquet")
            return
        if self._header is None:
            self._repair()
            if self.path.exists() and self.path.stat().st_size:
                self._header = self._complete_text().split("\n", 1)[0].split(",")
        if self._header is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            df.to_csv(self.path, index=False)
            self._header = [str(c) for c in df.columns]
            return
        extra = sorted(set(df.columns) - set(self._header))
        if extra:
            raise StoreError(
                f"{self.path}: these rows have columns the file lacks ({', '.join(extra)}); "
                "a CSV holds one kind of run: use .parquet for a sweep"
            )
        df.reindex(columns=self._header).to_csv(self.path, mode="a", header=False, index=False)

    def _repair(self) -> None:
        """Cut a line left unfinished by an interruption off the end of the CSV."""
        if not self.path.exists():
            return
        with open(self.path, "rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)

    @staticmethod
    def _write_parquet(df: pd.DataFrame, target: Path) -> None:
        temp = target.with_name(f".{target.name}.tmp")
        df.to_parquet(temp, index=False)
        os.replace(temp, target)

    def compact(self) -> None:
        """Merge everything into one sorted file (Parquet: one part; CSV: rewritten)."""
        if not self.exists():
            return
        df = self.read()
        if not len(df):
            return
        df = df.sort_values(list(ORDER), kind="stable").reset_index(drop=True)
        if self.kind == "parquet":
            old = self._parts()
            number = int(old[-1].stem.split("-")[1]) + 1 if old else 0
            self._write_parquet(df, self.path / f"part-{number:05d}.parquet")
            for part in old:
                part.unlink()
            return
        temp = self.path.with_name(f".{self.path.name}.tmp")
        df.to_csv(temp, index=False)
        os.replace(temp, self.path)
        self._header = [str(c) for c in df.columns]


def writable(path: str | os.PathLike[str], *, make_dirs: bool = False) -> str | None:
    """Why a file could not be written at `path` (None when it could): a directory in its
    place, a missing (unless `make_dirs`: the writer makes them) or unwritable directory
    above it. Nothing is created.

    >>> writable("/no/such/dir/report.html")
    '/no/such/dir/report.html: there is no directory /no/such/dir'
    """
    target = Path(path)
    if target.is_dir():
        return f"{target} is a directory; give a file name"
    # the nearest directory that exists above it is where the first write happens
    above = target.parent
    while not above.exists() and above != above.parent:
        above = above.parent
    if not above.is_dir():
        return f"{target}: {above} is a file, not a directory"
    if above != target.parent and not make_dirs:
        return f"{target}: there is no directory {target.parent}"
    if target.exists() and not os.access(target, os.W_OK):
        return f"{target}: not allowed to write it"
    if not os.access(above, os.W_OK | os.X_OK):
        return f"{target}: not allowed to write in {above}"
    return None


def jobs_in(df: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """The jobs whose rows `df` holds: id to game, options, lineup, rotate and first seed."""
    if not len(df):
        return {}
    return {
        str(r.job): {
            "game": r.game,
            "options": r.options,
            "lineup": r.lineup,
            "rotate": bool(r.rotate),
            "seed": int(r.run_seed),
        }
        for r in df.drop_duplicates("job").itertuples()
    }


def seeds_of(df: pd.DataFrame, job_id: str) -> set[int]:
    """The seeds of the rows of `job_id` in `df`."""
    if not len(df):
        return set()
    return {int(s) for s in df.loc[df["job"] == job_id, "seed"]}


def read_results(paths: Iterable[str | os.PathLike[str]]) -> pd.DataFrame:
    """The rows of one or more results files, as one table."""
    import pandas as pd

    frames = []
    for path in paths:
        frame = Store(path).read()
        if not len(frame):
            raise StoreError(f"{path}: holds no games yet")
        frames.append(frame)
    if not frames:
        raise StoreError("give at least one results file")
    if len(frames) == 1:
        return frames[0]
    df = pd.concat(frames, ignore_index=True)
    return df.drop_duplicates(["job", "seed"], keep="first").reset_index(drop=True)
