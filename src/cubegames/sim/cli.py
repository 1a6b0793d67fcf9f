"""The `simulate`, `report` and `sweep` commands (registered by `cubegames.cli`).

Heavy libraries (pandas, matplotlib, Ray) are imported only when a command runs, so they
cost nothing to the other commands.
"""

# pandas and pyarrow ship no type information; they are typed as Any here.

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, NoReturn

import click

from cubegames.sim.runner import BACKENDS

if TYPE_CHECKING:
    import pandas as pd

    from cubegames.sim.analysis import Setting, Table
    from cubegames.sim.store import Store
    from cubegames.sim.sweep import Cell


def _fail(message: str) -> NoReturn:
    raise click.UsageError(message)


def _options(game: str, pairs: tuple[str, ...], players: int | None = None) -> dict[str, Any]:
    """The `-o` pairs as game options, with `--players` if given (refused where they
    disagree)."""
    from cubegames.core.registry import options_from_text

    try:
        return options_from_text(game, pairs, players)
    except ValueError as exc:
        _fail(str(exc))


def _lineup(given: tuple[str, ...]) -> list[str]:
    """The bots of every `-b` in order, each a bot or a list `A,B,...` (`split_lineup`):
    `-b mcts -b greedy` is `-b mcts,greedy`; none is `random`."""
    from cubegames.sim.job import split_lineup

    return [bot for text in given or ("random",) for bot in split_lineup(text)]


def _store(out: str | None) -> Store | None:
    from cubegames.sim.store import Store, StoreError

    if out is None:
        return None
    try:
        return Store(out)
    except StoreError as exc:
        _fail(f"--out {exc}")


def _check_backend(backend: str, address: str | None, ray_host: str | None = None) -> None:
    if address is not None and backend != "ray":
        _fail("--address is for --backend ray")
    if ray_host is not None and (backend != "ray" or address is not None):
        _fail("--ray-host is for --backend ray without --address (a Ray started for this run)")


def _check_page(html: str | None) -> None:
    """Refuse, before any game is played, an --html page that could not be written."""
    if html is None:
        return
    from cubegames.sim.store import writable

    problem = writable(html)
    if problem is not None:
        _fail(f"--html {problem}")


def _check_outputs(store: Store | None, html: str | None) -> None:
    """Refuse unusable output paths before any game is played."""
    from cubegames.sim.store import StoreError

    if store is not None:
        try:
            store.check()
        except StoreError as exc:
            _fail(f"--out {exc}")
    _check_page(html)


def _jobs(jobs: int | None, backend: str = "processes") -> int:
    """`--jobs`, or one process per CPU; refused beyond four per CPU (at least 16) when
    they are this machine's processes: each starts Python and the kernels, and past the
    CPUs they only wait for each other (a Ray cluster's tasks are its to count)."""
    cpus = max(1, os.cpu_count() or 1)
    if jobs is None:
        return cpus
    most = max(16, 4 * cpus)
    if backend == "processes" and jobs > most:
        _fail(
            f"--jobs {jobs}: this machine has {cpus} CPUs, so more than {most} processes "
            "only wait for each other; give fewer (or --backend ray for a cluster)"
        )
    return jobs


def _console(quiet: bool) -> Any:
    from rich.console import Console

    # piped output has no width of its own: give it room for the widest table
    width = None if sys.stdout.isatty() else 130
    return None if quiet else Console(highlight=False, width=width)


def _ideal(text: str | None) -> tuple[float, float] | None:
    """`--ideal-turns MIN,MAX` read, or a one-line usage error."""
    if text is None:
        return None
    low, comma, high = text.partition(",")
    try:
        pair = (float(low), float(high)) if comma else None
    except ValueError:
        pair = None
    if pair is None or not 0 < pair[0] <= pair[1] < 1e9:
        _fail(f"--ideal-turns {text!r}: give two numbers MIN,MAX with 0 < MIN <= MAX")
    return pair


_IDEAL_HELP = (
    "The range of turns a game should last, MIN,MAX: the design metrics then score each "
    "game's length against it (Ludii's ideal duration)."
)


def _report(
    df: pd.DataFrame,
    sources: Sequence[str],
    html: str | None,
    quiet: bool,
    extra: Callable[[Sequence[Setting]], list[Table]] | None = None,
    ideal: tuple[float, float] | None = None,
) -> None:
    from pathlib import Path

    from cubegames.sim.analysis import settings
    from cubegames.sim.metrics import add_metrics
    from cubegames.sim.report import html_report, print_report

    items = settings(df)
    if ideal is not None:
        for item in items:
            add_metrics(item, ideal)
    tables = extra(items) if extra is not None else []
    console = _console(quiet)
    if console is not None:
        print_report(items, console, tables)
    if html is not None:
        try:
            Path(html).write_text(html_report(items, sources, tables), "utf-8")
        except OSError as exc:
            _fail(f"--html: cannot write {html}: {exc.strerror}")
        click.echo(f"wrote {html}", err=True)


def _given(name: str) -> bool:
    """True when the option `name` was given on the command line."""
    source = click.get_current_context().get_parameter_source(name)
    return source is not None and source is not click.core.ParameterSource.DEFAULT


#: the most games `simulate -n` plays in one run
MAX_GAMES = 10**9

#: what a run that lost a worker process says
_BROKEN = "a worker process stopped unexpectedly (killed, or out of memory?)"

_BACKEND_HELP = (
    "Where the games run: processes on this machine, or tasks on a Ray cluster "
    "(pip install 'cubegames[ray]')."
)
_ADDRESS_HELP = (
    "Ray cluster to use, e.g. auto or ray://head:10001 (default: a local Ray instance "
    "started for this run)."
)


def _common(func: Any) -> Any:
    """The options `simulate` and `sweep` share."""
    for decorator in reversed(
        [
            click.option("--players", "-p", type=click.IntRange(1, 20), help="Number of seats."),
            click.option(
                "--option",
                "-o",
                "pairs",
                multiple=True,
                metavar="KEY=VALUE",
                help="A game option, as for `cubegames play` (repeatable).",
            ),
            click.option(
                "--rotate/--no-rotate",
                default=True,
                show_default=True,
                help="Shift the bots one seat on every game, so that no bot keeps seat 0.",
            ),
            click.option(
                "--seed",
                type=int,
                default=0,
                show_default=True,
                help="Seed of the first game; game i uses seed + i.",
            ),
            click.option(
                "--jobs",
                "-j",
                type=click.IntRange(min=1),
                help="Processes playing at once (default: one per CPU).",
            ),
            click.option(
                "--backend",
                type=click.Choice(BACKENDS),
                default="processes",
                show_default=True,
                help=_BACKEND_HELP,
            ),
            click.option("--address", metavar="ADDR", help=_ADDRESS_HELP),
            click.option(
                "--ray-host",
                metavar="HOST",
                help="Where a Ray started for this run listens (default: 127.0.0.1, this "
                "machine only; give its network address to let other machines join).",
            ),
            click.option(
                "--html",
                metavar="FILE.html",
                help="Also write the report, with plots, to this page.",
            ),
            click.option("--quiet", "-q", is_flag=True, help="No progress bar and no tables."),
            click.option("--ideal-turns", metavar="MIN,MAX", help=_IDEAL_HELP),
        ]
    ):
        func = decorator(func)
    return func


@click.command()
@click.argument("game")
@click.option(
    "--bots",
    "-b",
    multiple=True,
    metavar="A,B,...",
    help="Bots in seat order, e.g. greedy,random or mcts:iterations=500,greedy, or one -b a "
    "bot (-b mcts -b greedy); with fewer bots than seats the list repeats "
    "[default: random].",
)
@click.option(
    "-n",
    "--games",
    # bounded: a count past 2**63 is a one-line refusal, not an OverflowError once the
    # games are listed (a billion games is already days of play)
    type=click.IntRange(1, MAX_GAMES),
    default=100,
    show_default=True,
    help="Number of games.",
)
@_common
@click.option(
    "--out",
    metavar="FILE",
    help="Results file, one row per game: NAME.parquet (a directory of parts) or NAME.csv. "
    "Running again with the same FILE resumes.",
)
@click.option(
    "--batch",
    type=click.IntRange(min=1),
    default=500,
    show_default=True,
    help="Games per batch written to --out (a batch is also written every 5 seconds).",
)
def simulate(
    game: str,
    bots: tuple[str, ...],
    games: int,
    players: int | None,
    pairs: tuple[str, ...],
    rotate: bool,
    seed: int,
    jobs: int | None,
    backend: str,
    address: str | None,
    ray_host: str | None,
    html: str | None,
    quiet: bool,
    ideal_turns: str | None,
    out: str | None,
    batch: int,
) -> None:
    """Play GAME many times between bots and record every game.

    Each game is one row (seed, options, the bot in each seat, winners, scores, moves,
    turns, the game's own counts such as CUBED's leftover pieces, and time). Game i uses
    seed --seed + i, so a run is reproducible whatever the number of jobs or the backend
    (except with bots that think for a number of seconds, such as mcts:seconds=1). An
    interrupted run (Ctrl-C) keeps the games it finished; the same command resumes it.

    \b
    Examples:
      cubegames simulate cubed --bots greedy,random -n 1000 --html report.html
      cubegames simulate cubed --bots mcts:iterations=200,greedy,random -p 3 \\
          -o variants=bridging -o rounds=1 -n 500 --out bridging.parquet
      cubegames simulate cubes -p 4 -n 20000 --out cubes.csv --jobs 2
      cubegames simulate cubed -n 10000 --backend ray --address auto --out big.parquet
    """
    import pandas as pd

    from cubegames.sim.job import make_job
    from cubegames.sim.ray_backend import RayUnavailable
    from cubegames.sim.simulate import simulate as run_job
    from cubegames.sim.store import StoreError

    _check_backend(backend, address, ray_host)
    ideal = _ideal(ideal_turns)
    options = _options(game, pairs, players)
    try:
        job = make_job(
            game, _lineup(bots), players=players, options=options, rotate=rotate, seed=seed
        )
    except ValueError as exc:
        _fail(str(exc))
    store = _store(out)
    _check_outputs(store, html)
    try:
        outcome = run_job(
            job,
            games,
            store,
            jobs=_jobs(jobs, backend),
            backend=backend,
            address=address,
            ray_host=ray_host,
            progress=not quiet,
            batch=batch,
        )
    except RayUnavailable as exc:
        _fail(str(exc))
    except StoreError as exc:
        _fail(str(exc))
    except (KeyboardInterrupt, BrokenProcessPool) as exc:
        what = "interrupted" if isinstance(exc, KeyboardInterrupt) else _BROKEN
        if store is not None:
            saved = len(store.done_seeds(job.id))
            click.echo(
                f"{what}: {saved:,} of {games:,} games are in {store.path}; "
                "run the same command again to finish",
                err=True,
            )
        else:
            click.echo(f"{what} (nothing saved: give --out to keep the games)", err=True)
        sys.exit(130 if isinstance(exc, KeyboardInterrupt) else 1)
    if store is not None:
        note = f" ({outcome.before:,} already there)" if outcome.before else ""
        click.echo(f"played {outcome.played:,} games{note}; results in {store.path}", err=True)
        df = store.read()
        df = df[df["job"] == job.id]
        df = df[df["seed"] < job.seed + games]
        sources = [str(store.path)]
    else:
        df = pd.DataFrame(outcome.rows)
        sources = ["this run"]
    _report(df, sources, html, quiet, ideal=ideal)


@click.command()
@click.argument("results", nargs=-1, required=True, metavar="RESULTS...")
@click.option("--html", metavar="FILE.html", help="Write the report, with plots, to this page.")
@click.option("--quiet", "-q", is_flag=True, help="No tables in the terminal.")
@click.option("--ideal-turns", metavar="MIN,MAX", help=_IDEAL_HELP)
@click.option(
    "--dedupe",
    is_flag=True,
    help="Count each game once: drop games whose final position repeats another game's of "
    "the same job, up to the game's symmetries.",
)
def report(
    results: tuple[str, ...], html: str | None, quiet: bool, ideal_turns: str | None, dedupe: bool
) -> None:
    """Summarise simulation results: who wins, and by how much.

    Shows each seat's and each bot's win rate with 95% intervals, the seat advantage,
    scores and game length, and the game's own figures (CUBED: leftover pieces against the
    points chart; CUBES: exact odds beside the simulated rolls). When the results hold
    several settings (a sweep, or several files) they are compared side by side.

    \b
    Examples:
      cubegames report results.parquet
      cubegames report results.parquet --html report.html
      cubegames report plain.parquet bridging.parquet --html compare.html
    """
    from cubegames.sim.store import StoreError, read_results

    _check_page(html)
    ideal = _ideal(ideal_turns)
    try:
        df = read_results(results)
    except StoreError as exc:
        _fail(str(exc))
    if dedupe:
        if "final" not in df.columns:
            _fail("these results have no final-position keys (recorded by an older version)")
        before = len(df)
        df = df.drop_duplicates(subset=["job", "final"]).reset_index(drop=True)
        if not quiet:
            click.echo(
                f"{before - len(df)} of {before} games repeat another game's final position "
                "up to symmetry and are counted once"
            )
    _report(df, list(results), html, quiet, ideal=ideal)


@click.command()
@click.argument("game", required=False)
@click.option(
    "--config",
    "-c",
    metavar="FILE",
    help="Sweep settings in TOML (or JSON): game, bots, players, options, grid, precision, "
    "max_games, batch, seed, metric. Flags given on the command line win.",
)
@click.option(
    "--bots",
    "-b",
    "lineups",
    multiple=True,
    metavar="A,B,...",
    help="A lineup of bots; repeat to compare lineups (default: random).",
)
@click.option(
    "--grid",
    "-g",
    multiple=True,
    metavar="KEY=V1,V2,...",
    help="An option and its values to sweep, e.g. -g variants=,bridging,draw3 (an empty item "
    "is no variant; + joins variants) or -g strict_colors=true,false.",
)
@_common
@click.option(
    "--precision",
    type=click.FloatRange(min=0, min_open=True, max=0.5),
    help="Stop a cell once the 95% interval of its measure is this narrow either side "
    "[default: 0.03].",
)
@click.option(
    "--max-games",
    type=click.IntRange(min=1),
    help="At most this many games a cell [default: 2000].",
)
@click.option(
    "--batch",
    type=click.IntRange(min=1),
    help="Games a cell plays between two checks [default: 100].",
)
@click.option(
    "--metric",
    type=click.Choice(["auto", "seat", "bot"]),
    help="What must be precise: the win rate of seat 0, or of the lineup's first bot "
    "[default: auto, the bot when the lineup has two different bots].",
)
@click.option(
    "--out",
    metavar="FILE.parquet",
    help="Results of every cell (a directory of parts); running again resumes.",
)
def sweep(
    game: str | None,
    config: str | None,
    lineups: tuple[str, ...],
    grid: tuple[str, ...],
    players: int | None,
    pairs: tuple[str, ...],
    rotate: bool,
    seed: int,
    jobs: int | None,
    backend: str,
    address: str | None,
    ray_host: str | None,
    html: str | None,
    quiet: bool,
    ideal_turns: str | None,
    precision: float | None,
    max_games: int | None,
    batch: int | None,
    metric: str | None,
    out: str | None,
) -> None:
    """Play a grid of option sets and bot lineups, each until its answer is precise.

    Every cell (one combination of the grid's values and one lineup) plays --batch games
    at a time and stops once the 95% Wilson interval of its measure is within --precision
    either side, or at --max-games. All cells share their seeds. One report covers them all.

    \b
    Examples:
      cubegames sweep cubed -o rounds=1 -g variants=,bridging,draw3 -b greedy,random \\
          --html variants.html
      cubegames sweep cubed -o rounds=1 -g strict_colors=true,false -b random -p 3 \\
          --precision 0.02 --max-games 5000 --out strict.parquet --html strict.html
      cubegames sweep --config sweep.toml --html sweep.html
    """
    import pandas as pd

    from cubegames.sim.job import split_lineup
    from cubegames.sim.ray_backend import RayUnavailable
    from cubegames.sim.store import StoreError
    from cubegames.sim.sweep import grid_values, make_cells, read_config
    from cubegames.sim.sweep import sweep as run_sweep

    _check_backend(backend, address, ray_host)
    ideal = _ideal(ideal_turns)
    settings: dict[str, Any] = {}
    if config is not None:
        try:
            settings = read_config(config)
        except ValueError as exc:
            _fail(str(exc))
    game = game or settings.get("game")
    if not game:
        _fail("give a GAME, or a --config file that names one")
    options = dict(settings.get("options", {}))
    given = _options(game, pairs, players)
    options.update(given)
    values: dict[str, list[Any]] = dict(settings.get("grid", {}))
    swept: set[str] = set()
    for flag in grid:
        key, eq, text = flag.partition("=")
        if not eq or not key:
            _fail(f"--grid {flag!r}: write it as key=value1,value2,...")
        _options(game, (f"{key}={text}",))  # checks that the game has this option
        # flags win over the config file, but two flags of one option would leave one unsaid
        if key in swept:
            _fail(f"--grid {key} is given twice; give its values once: -g {key}=A,B,...")
        if key in given:
            flag_name = "--players" if key == "players" and players is not None else "--option"
            _fail(f"{key} is both swept (--grid) and fixed ({flag_name}): give one of them")
        swept.add(key)
        values[key] = grid_values(key, text)
    lines = list(lineups) or list(settings.get("bots", [])) or ["random"]
    store = _store(out)
    if store is not None and store.kind != "parquet":
        _fail("--out: a sweep writes Parquet; give a name ending in .parquet")
    _check_outputs(store, html)
    try:
        cells = make_cells(
            game,
            [split_lineup(line) for line in lines],
            values,
            options=options,
            players=players if players is not None else settings.get("players"),
            rotate=rotate if _given("rotate") else bool(settings.get("rotate", rotate)),
            seed=seed if _given("seed") else int(settings.get("seed", seed)),
        )
    except ValueError as exc:
        _fail(str(exc))
    try:
        done = run_sweep(
            cells,
            store,
            precision=precision or float(settings.get("precision", 0.03)),
            max_games=max_games or int(settings.get("max_games", 2000)),
            batch=batch or int(settings.get("batch", 100)),
            metric=metric or str(settings.get("metric", "auto")),
            jobs=_jobs(jobs, backend),
            backend=backend,
            address=address,
            ray_host=ray_host,
            progress=not quiet,
        )
    except (RayUnavailable, StoreError, ValueError) as exc:
        _fail(str(exc))
    except (KeyboardInterrupt, BrokenProcessPool) as exc:
        what = "interrupted" if isinstance(exc, KeyboardInterrupt) else _BROKEN
        where = f"the games played are in {store.path}; " if store is not None else ""
        click.echo(f"{what}: {where}run the same command again to go on", err=True)
        sys.exit(130 if isinstance(exc, KeyboardInterrupt) else 1)
    df = pd.DataFrame([row for cell in done for _, row in sorted(cell.rows.items())])
    sources = [str(store.path)] if store is not None else ["this sweep"]
    _report(df, sources, html, quiet, extra=lambda items: [_sweep_table(done, items)], ideal=ideal)


def _sweep_table(cells: Sequence[Cell], items: Sequence[Setting]) -> Table:
    from cubegames.kit.stats import wilson
    from cubegames.sim.analysis import Table

    labels = {item.job: item.label for item in items}
    rows = []
    for cell in cells:
        wins, n = cell.measure(cell.checked)
        low, high = wilson(wins, n)
        what = "seat 0" if cell.metric == "seat" else cell.job.lineup[0]
        stop = (
            f"precise after {cell.checked:,}"
            if cell.stopped == "precise"
            else f"cap of {cell.checked:,}"
        )
        rows.append(
            [
                labels.get(cell.job.id, str(cell.job)),
                f"{what} wins",
                f"{wins / n:.1%} ({low:.1%}–{high:.1%})" if n else "—",
                f"±{(high - low) / 2:.3f}",
                stop,
            ]
        )
    return Table(
        "Sweep: where each cell stopped",
        ["cell", "measure", "rate (95% CI)", "half-width", "stopped"],
        rows,
        "A cell stops at the first check where its interval is narrow enough, or at the cap.",
    )


def register(cli: click.Group) -> None:
    """Add `simulate`, `report`, `sweep`, `compare` and `bots` to the `cubegames` command."""
    cli.add_command(simulate)
    cli.add_command(report)
    cli.add_command(sweep)
    cli.add_command(compare)
    cli.add_command(bots_command)


@click.command()
@click.argument("game")
@click.option(
    "--setting",
    "-s",
    "settings_text",
    multiple=True,
    metavar="KEY=VALUE;...",
    help="A setting to compare: game options and/or bots=A,B,..., joined by ';' "
    '(e.g. -s "variants=" -s "variants=bridging"); the first is the baseline.',
)
@click.option(
    "--bots",
    "-b",
    multiple=True,
    metavar="A,B,...",
    help="Bots of every setting that names none, in seat order (A,B,... or one -b a bot) "
    "[default: random].",
)
@click.option(
    "--measure",
    "-m",
    "measures",
    multiple=True,
    metavar="NAME",
    help="What to compare, game by game (repeatable): seatK (seat K's win rate), "
    "bot:SPEC (a bot's win rate), turns, moves, scoreK, or a column such as m_drama_avg "
    "[default: seat0 and turns].",
)
@click.option("-n", "--games", type=click.IntRange(min=2), default=500, show_default=True)
@click.option(
    "--precision",
    type=click.FloatRange(min=0, min_open=True),
    help="Instead of -n: add games until every difference's 95% interval is within this "
    "either side, in the measure's units (0.02: two points of a win rate).",
)
@click.option("--max-games", type=click.IntRange(min=2), default=20000, show_default=True)
@click.option("--batch", type=click.IntRange(min=2), default=200, show_default=True)
@click.option(
    "--skill-trace",
    is_flag=True,
    help="Instead of settings: play mcts at 2k iterations against k for k = 2, 4, 8, ... "
    "(--steps steps, -n games a step) and score how much more skill keeps winning.",
)
@click.option("--steps", type=click.IntRange(1, 12), default=4, show_default=True)
@_common
def compare(
    game: str,
    settings_text: tuple[str, ...],
    bots: tuple[str, ...],
    measures: tuple[str, ...],
    games: int,
    precision: float | None,
    max_games: int,
    batch: int,
    skill_trace: bool,
    steps: int,
    players: int | None,
    pairs: tuple[str, ...],
    rotate: bool,
    seed: int,
    jobs: int | None,
    backend: str,
    address: str | None,
    ray_host: str | None,
    html: str | None,
    quiet: bool,
    ideal_turns: str | None,
) -> None:
    """Compare two or more settings of GAME on shared seeds: does a rule change who wins?

    Every setting plays the same seeds; each measure's paired difference against the first
    setting comes with its 95% interval and p-value, and a sentence says it plainly. Each
    setting's seat balance is tested (chi-square against equal shares).

    \b
    Examples:
      cubegames compare cubed -o rounds=1 -b greedy,random -s "variants=" \\
          -s "variants=bridging" -n 2000 --html bridging.html
      cubegames compare cubed -o rounds=1 -s "bots=greedy,random" -s "bots=mcts,random" \\
          -m bot:greedy -m bot:mcts --precision 0.03
    """
    import pandas as pd

    from cubegames.sim.compare import compare as run_compare
    from cubegames.sim.job import make_job, split_lineup
    from cubegames.sim.ray_backend import RayUnavailable
    from cubegames.sim.runner import Runner

    _check_backend(backend, address, ray_host)
    ideal = _ideal(ideal_turns)
    _check_page(html)
    if skill_trace:
        if settings_text:
            _fail("--skill-trace compares mcts budgets: give no --setting")
        _skill(game, _options(game, pairs), steps, games, seed, _jobs(jobs), quiet)
        return
    if len(settings_text) < 2:
        _fail("give two or more settings with -s, e.g. -s 'variants=' -s 'variants=bridging'")
    base = _options(game, pairs, players)
    built = []
    labels = []
    for text in settings_text:
        options = dict(base)
        lineup = _lineup(bots)
        named: set[str] = set()
        for part in filter(None, (p.strip() for p in text.split(";"))):
            key, eq, value = part.partition("=")
            if not eq:
                _fail(f"--setting {text!r}: write it as key=value;key=value")
            if key.strip() in named:  # the second value would silently replace the first
                _fail(f"--setting {text!r}: {key.strip()} is given twice; give it once")
            named.add(key.strip())
            if key.strip() == "bots":
                lineup = split_lineup(value)
            else:
                options.update(_options(game, (f"{key.strip()}={value}",)))
        try:
            built.append(
                make_job(
                    game,
                    lineup,
                    # a setting's own `players` wins over --players, as its other options
                    # win over -o
                    players=None if "players" in options else players,
                    options=options,
                    rotate=rotate,
                    seed=seed,
                )
            )
        except ValueError as exc:
            _fail(f"--setting {text!r}: {exc}")
        parts = [p.strip() for p in text.split(";") if p.strip()]
        # "variants=" reads as "variants=none" (no variant), as the report writes it
        labels.append(
            "; ".join(p + "none" if p.endswith("=") else p for p in parts) or "the defaults"
        )
    chosen = list(measures) or ["seat0", "turns"]
    try:
        with Runner(
            jobs=_jobs(jobs, backend), backend=backend, address=address, ray_host=ray_host
        ) as run:
            result = run_compare(
                built,
                labels,
                chosen,
                games=games,
                precision=precision,
                max_games=max_games,
                batch=batch,
                runner=run,
                progress=not quiet,
            )
    except (RayUnavailable, ValueError) as exc:
        _fail(str(exc))
    except (KeyboardInterrupt, BrokenProcessPool) as exc:
        what = "interrupted" if isinstance(exc, KeyboardInterrupt) else _BROKEN
        click.echo(f"{what}: nothing saved", err=True)
        sys.exit(130 if isinstance(exc, KeyboardInterrupt) else 1)
    df = pd.DataFrame([row for rows in result.rows for _, row in sorted(rows.items())])
    _report(
        df,
        ["this comparison"],
        html,
        quiet,
        extra=lambda items: _compare_tables(result),
        ideal=ideal,
    )


def _compare_tables(result: Any) -> list[Table]:
    from cubegames.sim.analysis import Table
    from cubegames.sim.compare import describe, p_text

    answer = Table(
        "The answer",
        ["finding"],
        [[line] for line in result.sentences()],
        f"Settings played on the same seeds, paired game by game; stopped: {result.stopped}.",
    )
    rows = []
    for measure in result.measures:
        what, rate = describe(measure)
        scale = 100.0 if rate else 1.0
        unit = " points" if rate else ""
        for k in range(1, len(result.jobs)):
            d = result.differences[measure, k]
            rows.append(
                [
                    what,
                    f"{result.labels[k]} − {result.labels[0]}",
                    f"{d.mean * scale:+.2f}{unit}",
                    f"{d.low * scale:+.2f} to {d.high * scale:+.2f}",
                    p_text(d.p),
                    f"{d.n:,}",
                ]
            )
    differences = Table(
        "Paired differences",
        ["measure", "settings", "difference", "95% CI", "p-value", "paired games"],
        rows,
        "Second setting minus the first, game by game on the same seeds; Student's t "
        "interval and paired t-test.",
    )
    return [answer, differences]  # seat balance: the report's comparison section


@click.group(name="bots", invoke_without_command=True)
@click.option(
    "--ratings",
    "game",
    metavar="GAME",
    help="Rate bots on one scale for GAME from a round robin of two-player games "
    "(OpenSkill, Plackett-Luce), with 95% intervals.",
)
@click.option(
    "--bot",
    "-b",
    "names",
    multiple=True,
    metavar="SPEC",
    help="A bot to rate (repeatable; default: every built-in bot that plays GAME at its "
    "defaults, and mcts at 30 and 100 iterations).",
)
@click.option(
    "-n",
    "--games",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Games per pair of bots.",
)
@click.option("--option", "-o", "pairs", multiple=True, metavar="KEY=VALUE", help="A game option.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Processes playing at once.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def bots_command(
    game: str | None,
    names: tuple[str, ...],
    games: int,
    pairs: tuple[str, ...],
    seed: int,
    jobs: int | None,
    quiet: bool,
) -> None:
    """List the bots, or rate them for a game (--ratings GAME); `cubegames bots work`
    thinks the bots' moves of servers on PostgreSQL (`cubegames bots work --help`).

    \b
    Examples:
      cubegames bots
      cubegames bots --ratings cubed -o rounds=1 -n 50 --jobs 2
      cubegames bots --ratings unstackable -b greedy -b alphabeta -b mcts -n 20
    """
    if click.get_current_context().invoked_subcommand is not None:
        if game is not None or names or pairs:
            _fail("--ratings, --bot and --option are not for a subcommand")
        return  # a subcommand of the server's (`cubegames bots work`) runs next
    from cubegames.bots import bot_classes

    if game is None:
        if names or pairs:
            _fail("--bot and --option are for --ratings GAME")
        for cls in bot_classes().values():
            paragraph = (cls.__doc__ or "").strip().split("\n\n")[0]
            summary = " ".join(paragraph.split()).split("; ")[0].rstrip(".")
            for spec, plays_in in cls.presets():
                plays = ", ".join(plays_in) if plays_in is not None else "every game"
                click.echo(f"{spec}: {summary} (plays {plays})")
        return
    from rich.table import Table as RichTable

    from cubegames.sim.ratings import default_bots, round_robin
    from cubegames.sim.runner import Runner

    options = _options(game, pairs)
    chosen = list(names) or default_bots(game)
    try:
        with Runner(jobs=_jobs(jobs)) as runner:
            rated = round_robin(
                game,
                chosen,
                games=games,
                options=options,
                seed=seed,
                runner=runner,
                progress=not quiet,
            )
    except ValueError as exc:
        _fail(str(exc))
    except (KeyboardInterrupt, BrokenProcessPool) as exc:
        what = "interrupted" if isinstance(exc, KeyboardInterrupt) else _BROKEN
        click.echo(f"{what}: nothing rated", err=True)
        sys.exit(130 if isinstance(exc, KeyboardInterrupt) else 1)
    table = RichTable(
        title=f"Bot ratings for {game} (OpenSkill Plackett-Luce, {games} games a pair)",
        caption="rating: mean skill mu; 95% interval mu ± 1.96 sigma",
        title_justify="left",
    )
    for column in ("rank", "bot", "rating", "95% interval", "games", "win rate"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for i, r in enumerate(rated, 1):
        table.add_row(
            str(i),
            r.bot,
            f"{r.mu:.1f}",
            f"{r.low:.1f} to {r.high:.1f}",
            f"{r.games:,}",
            f"{r.wins / r.games:.1%}",
        )
    console = _console(False)
    console.print(table)


def _skill(
    game: str, options: dict[str, Any], steps: int, games: int, seed: int, jobs: int, quiet: bool
) -> None:
    from rich.table import Table as RichTable

    from cubegames.sim.runner import Runner
    from cubegames.sim.skill import score, skill_trace

    try:
        with Runner(jobs=jobs) as runner:
            done = skill_trace(
                game,
                options=options,
                steps=steps,
                games=games,
                seed=seed,
                runner=runner,
                progress=not quiet,
            )
    except ValueError as exc:
        _fail(str(exc))
    value = score([s.rate.rate for s in done])
    table = RichTable(
        title=f"Skill trace of {game}: mcts at 2k iterations against k",
        caption=f"skill trace score {value:.3f} (docs/lab.md)",
        title_justify="left",
    )
    for column in ("k", "2k", "2k's win rate (95% CI)", "games"):
        table.add_column(column, justify="right")
    for step in done:
        table.add_row(str(step.budget // 2), str(step.budget), step.rate.text(), f"{step.rate.n:,}")
    _console(False).print(table)
