"""The numbers behind a report: win rates by seat and bot with 95% intervals, scores, lengths.

Results are grouped into *settings*, one per job (game, options, bots, seed); a file from
`cubegames sweep`, or several files given to `cubegames report`, holds several. Each
setting's numbers are kept raw (for the plots) and as formatted tables (shared by the HTML
page and the terminal, so both always show the same figures).

A win counts 1, a k-way shared win 1/k for each winner; a seat's or a bot's win rate is its
share of the games it played. The intervals are 95% Wilson score intervals for rates and
normal-approximation intervals for means.
"""

# pandas and pyarrow ship no type information; they are typed as Any here.

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cubegames.core.registry import game_class, lower_is_better, title

# the report's building blocks live in kit (a game's own report sections use them too); the
# simulator's modules import them from here
from cubegames.kit.report import Rate as Rate
from cubegames.kit.report import Spread as Spread
from cubegames.kit.report import Table as Table
from cubegames.kit.report import fair as fair
from cubegames.sim.job import THINK_PREFIX, split_lineup

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Setting:
    """One job's games and what they show."""

    job: str
    label: str
    description: str
    game: str
    options: dict[str, Any]
    players: int
    df: pd.DataFrame
    seats: list[Rate] = field(default_factory=list)
    bots: list[Rate] = field(default_factory=list)
    bot_seats: dict[str, list[Rate]] = field(default_factory=dict)
    turns: Spread | None = None
    moves: Spread | None = None
    headline: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    #: game-specific raw numbers for the plots (a game's report section fills them, see
    #: `cubegames.sim.extras`)
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.df)

    @property
    def distinct_bots(self) -> list[str]:
        """The bots of the lineup, each once, in lineup order."""
        return list(dict.fromkeys(split_lineup(str(self.df["lineup"].iloc[0]))))

    def seat_frame(self) -> pd.DataFrame:
        """One row per seat per game: seat, bot, win share, score (and every column with a
        `_s<seat>` suffix under its bare name)."""
        import pandas as pd

        per_seat = sorted({c.rsplit("_s", 1)[0] for c in self.df.columns if _seat_suffix(c)})
        frames = []
        for s in range(self.players):
            part = pd.DataFrame(
                {
                    "seed": self.df["seed"],
                    "seat": s,
                    "bot": self.df[f"bot_{s}"],
                    "win": self.df[f"win_{s}"],
                    "score": self.df[f"score_{s}"],
                }
            )
            if f"{THINK_PREFIX}{s}" in self.df.columns:
                part["think"] = self.df[f"{THINK_PREFIX}{s}"]
            for name in per_seat:
                column = f"{name}_s{s}"
                if column in self.df.columns:
                    part[name] = self.df[column]
            frames.append(part)
        return pd.concat(frames, ignore_index=True)


def _seat_suffix(column: str) -> bool:
    head, sep, tail = column.rpartition("_s")
    return bool(sep and head and tail.isdigit())


def settings(df: pd.DataFrame) -> list[Setting]:
    """Split results into settings (one per job, in the order first met) and analyse each."""
    from cubegames.sim.extras import add_extras
    from cubegames.sim.lab import add_lab

    jobs = list(dict.fromkeys(df["job"]))
    firsts = {j: df.loc[df["job"] == j].iloc[0] for j in jobs}
    varying = _varying(firsts)
    out = []
    for j in jobs:
        rows = df.loc[df["job"] == j].sort_values("seed").reset_index(drop=True)
        rows = rows.dropna(axis=1, how="all")
        first = firsts[j]
        options = json.loads(first["options"])
        setting = Setting(
            job=j,
            label=_label(first, options, varying)
            if len(jobs) > 1
            else f"{first['game']}: {shown_lineup(str(first['lineup']))}",
            description=_describe(first, options),
            game=str(first["game"]),
            options=options,
            players=int(first["players"]),
            df=rows,
        )
        _analyse(setting)
        add_extras(setting)
        add_lab(setting)
        out.append(setting)
    return out


def shown_lineup(text: str) -> str:
    """A lineup as a heading or plot label shows it: a bot that fills several seats in a
    row written once with its count, the bots apart by ", " (so that a long one wraps
    between bots, not inside a name).

    >>> shown_lineup("random,random,random,random,random,random")
    'random ×6'
    >>> shown_lineup("mcts:iterations=200,c=1.4,greedy,greedy")
    'mcts:iterations=200,c=1.4, greedy ×2'
    """
    runs: list[list[Any]] = []
    for bot in split_lineup(text):
        if runs and runs[-1][0] == bot:
            runs[-1][1] += 1
        else:
            runs.append([bot, 1])
    return ", ".join(bot if n == 1 else f"{bot} ×{n}" for bot, n in runs)


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _describe(first: pd.Series[Any], options: dict[str, Any]) -> str:
    opts = ", ".join(f"{k}={_text(v)}" for k, v in options.items())
    seats = "rotating" if bool(first["rotate"]) else "fixed"
    return (
        f"{first['game']} ({opts}); bots {first['lineup']} ({seats} seats); "
        f"seeds from {int(first['run_seed'])}"
    )


def _varying(firsts: dict[str, pd.Series[Any]]) -> list[str]:
    """What differs between the jobs: option names, and `game`/`bots`/`seed` if they do."""
    keys: list[str] = []
    opts = [json.loads(f["options"]) for f in firsts.values()]
    if len({str(f["game"]) for f in firsts.values()}) > 1:
        keys.append("game")
    for key in dict.fromkeys(k for o in opts for k in o):
        if len({json.dumps(o.get(key)) for o in opts}) > 1:
            keys.append(key)
    if len({str(f["lineup"]) for f in firsts.values()}) > 1:
        keys.append("bots")
    if len({int(f["run_seed"]) for f in firsts.values()}) > 1:
        keys.append("seed")
    if len({bool(f["rotate"]) for f in firsts.values()}) > 1:
        keys.append("rotate")
    return keys


def _label(first: pd.Series[Any], options: dict[str, Any], varying: list[str]) -> str:
    parts = []
    for key in varying:
        if key == "game":
            parts.append(str(first["game"]))
        elif key == "bots":
            parts.append(shown_lineup(str(first["lineup"])))
        elif key == "seed":
            parts.append(f"seed {int(first['run_seed'])}")
        elif key == "rotate":
            parts.append("rotating" if bool(first["rotate"]) else "fixed seats")
        elif key in options:
            parts.append(f"{key}={_text(options[key])}")
        elif key in game_class(str(first["game"])).option_names:
            parts.append(f"{key}=default")  # left out of the options when at its default
    return " · ".join(parts) or "(same options)"


def _analyse(setting: Setting) -> None:
    df = setting.df
    n = len(df)
    players = setting.players
    setting.seats = [Rate(f"seat {s}", float(df[f"win_{s}"].sum()), n) for s in range(players)]
    seats = setting.seat_frame()
    setting.bots = [
        Rate(bot, float(group["win"].sum()), len(group))
        for bot, group in sorted(seats.groupby("bot", sort=False), key=lambda g: _order(setting, g))
    ]
    setting.bot_seats = {
        rate.label: [
            Rate(f"seat {s}", float(g["win"].sum()), len(g))
            for s in range(players)
            for g in [seats[(seats["bot"] == rate.label) & (seats["seat"] == s)]]
        ]
        for rate in setting.bots
    }
    setting.turns = Spread.of(df["turns"])
    setting.moves = Spread.of(df["moves"])
    setting.headline = _headline(setting)
    setting.tables.extend(_tables(setting, seats))


def _order(setting: Setting, group: tuple[Any, Any]) -> int:
    order = setting.distinct_bots
    return order.index(group[0]) if group[0] in order else len(order)


def _headline(setting: Setting) -> list[str]:
    lines = []
    share = fair(setting.players)
    if share is None:
        won = setting.seats[0]
        return [f"The solo player won {won.text()} of {won.n:,} games."]
    if len(setting.bots) > 1:
        ranked = sorted(setting.bots, key=lambda r: -r.rate)
        best, rest = ranked[0], ranked[1:]
        others = "; ".join(f"{r.label} {r.text()}" for r in rest)
        lead = best.rate - rest[0].rate
        low, high = best.interval
        verdict = (
            "clearly ahead"
            if low > share
            else "not clearly better than a fair share"
            if low <= share <= high
            else "behind"
        )
        lines.append(
            f"{best.label} wins most: {best.text()} of the games it sat in, against "
            f"{others} (a fair share is {share:.1%}); it leads the next by "
            f"{lead * 100:.1f} percentage points and is {verdict}."
        )
    first = setting.seats[0]
    low, high = first.interval
    diff = first.rate - share
    if low > share or high < share:
        word = "advantage" if diff > 0 else "disadvantage"
        lines.append(
            f"Seat 0 wins {first.text()} against a fair share of {share:.1%}: a first-seat "
            f"{word} of {abs(diff) * 100:.1f} percentage points."
        )
    else:
        lines.append(
            f"Seat 0 wins {first.text()} against a fair share of {share:.1%}: no clear "
            "first-seat advantage at this sample size."
        )
    return lines


def _tables(setting: Setting, seats: pd.DataFrame) -> list[Table]:
    share = fair(setting.players)
    fair_text = "—" if share is None else f"{share:.1%}"
    tables = [
        Table(
            "Win rate by seat",
            ["seat", "games", "wins", "win rate (95% CI)", "fair share", "difference"],
            [
                [
                    str(s),
                    f"{r.n:,}",
                    f"{r.wins:,.1f}",
                    r.text(),
                    fair_text,
                    "—" if share is None else f"{r.rate - share:+.1%}",
                ]
                for s, r in enumerate(setting.seats)
            ],
            "A shared win counts 1/k for each of the k winners.",
            topic="wins",
        )
    ]
    if len(setting.bots) > 1:
        columns = ["bot", "seat-games", "win rate (95% CI)"]
        columns += [f"in seat {s}" for s in range(setting.players)]
        rows = []
        for r in setting.bots:
            by_seat = setting.bot_seats[r.label]
            rows.append(
                [r.label, f"{r.n:,}", r.text()]
                + [f"{b.text()} n={b.n:,}" if b.n else "—" for b in by_seat]
            )
        tables.append(
            Table(
                "Win rate by bot",
                columns,
                rows,
                "Seat-games: the seats a bot filled, summed over games.",
                topic="wins",
            )
        )
    score_rows = []
    for label, group in [(f"seat {s}", seats[seats["seat"] == s]) for s in range(setting.players)]:
        score_rows.append([label, Spread.of(group["score"]).text()])
    if len(setting.bots) > 1:
        for r in setting.bots:
            score_rows.append(
                [r.label, Spread.of(seats.loc[seats["bot"] == r.label, "score"]).text()]
            )
    note = f"{title(setting.game)}: lower is better." if lower_is_better(setting.game) else ""
    tables.append(
        Table("Mean score (95% CI)", ["who", "mean score"], score_rows, note, topic="length")
    )
    assert setting.turns is not None and setting.moves is not None
    tables.append(
        Table(
            "Game length",
            ["measure", "mean (95% CI)", "median", "10th–90th percentile"],
            [
                [name, s.text(), f"{s.median:g}", f"{s.p10:g}–{s.p90:g}"]
                for name, s in (("turns", setting.turns), ("moves", setting.moves))
            ],
            "A turn is a run of consecutive moves by one seat.",
            topic="length",
        )
    )
    if "think" in seats.columns:
        tables.append(_thinking(setting, seats))
    return tables


def _thinking(setting: Setting, seats: pd.DataFrame) -> Table:
    """Seconds each bot spent choosing moves, per game, and its share of all play time."""
    total = float(setting.df["seconds"].sum()) or 1.0
    rows = []
    for bot in setting.distinct_bots:
        spent = seats.loc[seats["bot"] == bot, "think"]
        rows.append([bot, Spread.of(spent).text(3), f"{float(spent.sum()) / total:.0%}"])
    return Table(
        "Thinking time by bot",
        ["bot", "seconds a game (95% CI)", "share of playing time"],
        rows,
        "Wall-clock time measured where each game was played; it depends on the machine "
        "and on what else it was doing, unlike every other number here.",
        topic="time",
    )


def comparison(items: list[Setting]) -> Table:
    """One line per setting: games, seat 0's win rate, the leading bot's, the length."""
    rows = []
    for s in items:
        leader = ""
        if len(s.bots) > 1:
            first = s.bots[0]
            leader = f"{first.label}: {first.text()}"
        assert s.turns is not None
        rows.append(
            [
                s.label,
                f"{s.games:,}",
                s.seats[0].text(),
                leader or "—",
                s.turns.text(),
                Spread.of(s.df["score_0"]).text(),
            ]
        )
    same_deals = len({(s.game, int(s.df["run_seed"].iloc[0])) for s in items}) == 1
    return Table(
        "Settings side by side",
        [
            "setting",
            "games",
            "seat 0 wins",
            "first bot of the lineup wins",
            "turns",
            "seat 0 score",
        ],
        rows,
        "Settings share their seeds, so each deals the same games where the options allow."
        if same_deals
        else "",
    )
