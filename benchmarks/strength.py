"""The bots' strength ladder: head-to-head win rates with 95% confidence intervals.

    .venv/bin/python benchmarks/strength.py [--games 400] [--jobs 2] [--only greedy]

Each pairing plays `--games` games with the seats swapped every game, so neither bot keeps
the first move. A win scores 1, a shared win 1/2. Writes benchmarks/strength.md.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import time
from pathlib import Path

from cubegames.kit.stats import wilson
from cubegames.sim import Match, run

OUT = Path(__file__).parent / "strength.md"

#: (game, options, bot A, bot B): A's score against B is reported
LADDER: list[tuple[str, dict[str, object], str, str]] = [
    ("cubed", {"players": 2, "rounds": 1}, "greedy", "random"),
    ("unstackable", {}, "alphabeta", "greedy"),
    # budgets are fixed iteration counts (not seconds), so the win rates do not depend on
    # how busy the machine is: the default flat search (300 playouts) is about 5 ms of CPU
    # a move on the 2-core development machine; the tree search (ISMCTS, the default before
    # the compiled kernel) 0.3 s at 400 iterations and 0.8 s at its default 1000
    ("cubed", {"players": 2, "rounds": 1}, "mcts", "greedy"),
    ("cubed", {"players": 2, "rounds": 1}, "mcts:tree=true,iterations=400", "greedy"),
    ("cubed", {"players": 2, "rounds": 1}, "mcts:tree=true", "greedy"),
    # the flat search over compiled playouts in the other two games with decisions
    ("unstackable", {}, "mcts", "greedy"),
    ("stakd", {"players": 2}, "mcts", "greedy"),
]

NOTES = """\
A's seconds a move is bot A's own thinking time per move it chose, measured in the process
that played the game: it depends on the machine and on what else it was doing, the win
rates do not, as every bot here runs a fixed budget. `mcts` is the bot with its defaults:
in 2-player CUBED a flat search of 300 compiled playouts (sequential halving over the root
moves, on shared deals; playouts of 8 moves, then the points in hand are judged);
`mcts:tree=true` is the information-set tree search, the default before, 1000 iterations
a move (UCB1 weight `c=0.35`). The weight was chosen with this script for the tree
search: at 400 iterations against `greedy`, `c=0.35` scored 77.6% (73.3% – 81.4%) where
`c=0.7` scored 69.9% (65.2% – 74.2%), 400 games each (2026-11-22).
`alphabeta` runs with its defaults, depth 8 and exact solving of the last 32 cubes (the
compiled solver); it stacks like `greedy`, so its edge comes from the second stage. Each
game's outcome depends only on its seed, so a pairing can be re-run, or split across runs,
and give the same rows.
"""


def pairing(
    game: str, options: dict[str, object], a: str, b: str, games: int, jobs: int
) -> tuple[float, float, float, float, float]:
    """A's score against B over `games` seats-swapped games: (rate, low, high, A's seconds
    a move, wall-clock seconds)."""
    matches = [
        Match(game, (a, b) if i % 2 == 0 else (b, a), seed=i, options=dict(options))
        for i in range(games)
    ]
    score = think = 0.0
    choices = 0
    start = time.perf_counter()
    for record in run(matches, jobs=jobs, progress=True, description=f"{a} v {b}"):
        seat_a = 0 if record["seed"] % 2 == 0 else 1
        won = record["winners"]
        if seat_a in won:
            score += 1 / len(won)
        think += record["think"][seat_a]
        choices += record["choices"][seat_a]
    low, high = wilson(score, games)
    return score / games, low, high, think / max(choices, 1), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="run only pairings whose bots contain this text")
    args = parser.parse_args()
    rows = []
    for game, options, a, b in LADDER:
        if args.only and args.only not in a + b:
            continue
        rate, low, high, per_move, seconds = pairing(game, options, a, b, args.games, args.jobs)
        opts = ", ".join(f"{k}={v}" for k, v in options.items())
        setting = f"{game} ({opts})" if opts else game
        rows.append(
            f"| {setting} | `{a}` | `{b}` | {rate:.1%} | {low:.1%} – {high:.1%} "
            f"| {args.games} | {per_move:.3g} s | {seconds / 60:.1f} min |"
        )
        print(rows[-1], flush=True)
        write(rows, args.games, args.jobs)  # after each pairing: a long run keeps its rows
    print(f"wrote {OUT}")


def write(rows: list[str], games: int, jobs: int, out: Path = OUT) -> None:
    """Write the ladder's rows into `out`: the rows of the pairings in `rows` replace theirs
    (`merged`), and everything after the table (its notes, and the sections other scripts
    and runs write: variants, ratings, baselines) is kept as it is; a new file gets
    `NOTES`."""
    today = datetime.date.today().isoformat()
    head = (
        "# Strength ladder\n\n"
        "Head-to-head results, seats swapped every game; a win scores 1, a shared win 1/2.\n"
        "The interval is the 95% Wilson score interval. Regenerate with\n\n"
        f"```\n.venv/bin/python benchmarks/strength.py --games {games} --jobs {jobs}\n```\n\n"
        f"Measured {today} on the 2-core development machine, Python "
        f"{platform.python_version()}, {jobs} processes, seeds 0 to {games - 1}.\n\n"
        "| game | bot A | bot B | A's score | 95% interval | games | A's seconds a move "
        "| wall clock |\n"
        "|---|---|---|---|---|---|---|---|\n"
    )
    out.write_text(head + "\n".join(merged(rows, out)) + "\n" + after_ladder(out))


def after_ladder(path: Path) -> str:
    """The text of `path` after its ladder table, to the end (`NOTES` and a blank line
    before them when there is no file or no table)."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return "\n" + NOTES
    end = text.find("\n## ")
    top = text if end < 0 else text[:end]
    lines = top.splitlines(keepends=True)
    last = max((i for i, line in enumerate(lines) if line.startswith("| ")), default=-1)
    if last < 0:
        return "\n" + NOTES + ("" if end < 0 else text[end:])
    return "".join(lines[last + 1 :]) + ("" if end < 0 else text[end:])


def _key(row: str) -> tuple[str, ...]:
    """A ladder row's pairing: its game, bot A and bot B cells."""
    return tuple(cell.strip() for cell in row.strip().strip("|").split("|")[:3])


def merged(rows: list[str], path: Path) -> list[str]:
    """The ladder rows of `path` with those of the pairings in `rows` replaced by them, and
    the new pairings after them: a run of some pairings (`--only`) keeps the others' rows."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return list(rows)
    end = text.find("\n## ")
    old = [
        line
        for line in (text if end < 0 else text[:end]).splitlines()
        if line.startswith("| ") and not line.startswith("| game |")
    ]
    new = {_key(r): r for r in rows}
    out = [new.pop(_key(line), line) for line in old]
    return out + [r for r in rows if _key(r) in new]


if __name__ == "__main__":
    main()
