"""A simulation run's description, the matches it plays and the rows it records.

A `Job` is everything a row depends on besides its seed: the game, its options, the bots in
seat order, whether seats rotate, and the run's first seed. Game `i` of a job is played with
seed `seed + i`, and with rotation on its seats hold the lineup shifted by `i` (seat `s` gets
`lineup[(s + i) % players]`), so no bot keeps the first seat. A row is therefore a function
of the job and its seed alone, whichever process or machine plays it.

A row (one per game) has these columns, then the game's own (`cubegames.sim.summaries`),
then the timing columns:

- `job`: 12 hex digits naming the job (a hash of its description);
- `game`, `options`: the game id, and its options as canonical JSON (every option,
  defaults included);
- `lineup`, `rotate`, `run_seed`: the bots of game 0 in seat order (comma-joined), whether
  seats rotate, the run's first seed;
- `seed`: this game's seed (`run_seed + i`); `players`: the number of seats;
- `bot_<s>`: the bot that sat in seat `s`;
- `winners`: the winning seats, space-separated (empty when nobody won, as in a lost solo
  game); `win_<s>`: seat `s`'s share of the win (1, 1/k on a k-way tie, else 0);
- `score_<s>`: seat `s`'s score, in the game's own scoring (CUBED: lower is better);
- `moves`, `turns`: the moves played, and the runs of consecutive moves by one seat;
- `kind_<kind>_s<seat>`: the moves of each kind seat `s` played (`cubegames.sim.moves`;
  absent when every seat is the random bot), and `m_<name>`, the game's design metrics
  (`cubegames.sim.metrics`, absent likewise);
- `seconds`: the time spent playing the game; `think_<s>`: the seconds seat `s`'s bot spent
  choosing its moves. These timing columns are the only ones that differ between two runs
  of the same job.

>>> job = make_job("cubed", ["greedy", "random"], seed=10, options={"rounds": 1})
>>> job.lineup, job.players
(('greedy', 'random'), 2)
>>> job.match(1).bots, job.match(1).seed
(('random', 'greedy'), 11)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import cubegames
from cubegames.core.registry import game_class
from cubegames.sim.play import Match

#: version of the row layout; part of every job's description (2: per-seat `think_<s>`;
#: 3: moves by kind and seat, `kind_<kind>_s<seat>`, and design metrics, `m_<name>`)
FORMAT = 3

#: columns every row has before its per-seat columns
BASE_COLUMNS = ("job", "game", "options", "lineup", "rotate", "run_seed", "seed", "players")
#: columns that measure time, not play: they differ between two runs of the same job
TIMING_COLUMNS = ("seconds",)
#: the per-seat timing columns are this prefix and the seat number
THINK_PREFIX = "think_"


def is_timing(column: str) -> bool:
    """True for the columns that measure time (`seconds`, `think_<s>`), not play."""
    return column in TIMING_COLUMNS or column.startswith(THINK_PREFIX)


@dataclass(frozen=True)
class Job:
    """A simulation run: build one with `make_job`, which checks and normalises it."""

    game: str
    options: dict[str, Any]
    lineup: tuple[str, ...]
    rotate: bool = True
    seed: int = 0
    id: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        text = json.dumps(self.describe(), sort_keys=True)
        object.__setattr__(self, "id", hashlib.sha256(text.encode()).hexdigest()[:12])

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.lineup)

    @cached_property
    def options_text(self) -> str:
        """The options as stored in rows (`options_text`), worked out once."""
        return options_text(self.options)

    def describe(self) -> dict[str, Any]:
        """The description rows are checked against when a run is resumed."""
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "bots": list(self.lineup),
            "rotate": self.rotate,
            "seed": self.seed,
        }

    def seats(self, i: int) -> tuple[str, ...]:
        """The bot in each seat in game `i`."""
        if not self.rotate:
            return self.lineup
        p = self.players
        return tuple(self.lineup[(s + i) % p] for s in range(p))

    def match(self, i: int) -> Match:
        """Game `i` of the run."""
        return Match(self.game, self.seats(i), self.seed + i, dict(self.options))

    def mirrored(self, i: int) -> Match:
        """Game `i` of a two-bot duel that plays each seed both ways round: seed
        `seed + i // 2`, the seats of game `i` (with rotation on, games 2k and 2k + 1 have
        the lineup's bots in swapped seats). The luck of a seat on a seed (the deal, the
        dice) then falls to both bots alike, which seeds played once each cannot promise."""
        return Match(self.game, self.seats(i), self.seed + i // 2, dict(self.options))

    def row(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The flat row for one of this job's records (`play_match`'s output)."""
        p = self.players
        winners: list[int] = list(record["winners"])
        row: dict[str, Any] = {
            "job": self.id,
            "game": self.game,
            "options": self.options_text,
            "lineup": ",".join(self.lineup),
            "rotate": self.rotate,
            "run_seed": self.seed,
            "seed": int(record["seed"]),
            "players": p,
        }
        for s, bot in enumerate(record["bots"]):
            row[f"bot_{s}"] = bot
        row["winners"] = " ".join(map(str, winners))
        for s in range(p):
            row[f"win_{s}"] = 1 / len(winners) if s in winners else 0.0
        for s, score in enumerate(record["scores"]):
            row[f"score_{s}"] = float(score)
        row["moves"] = int(record["moves"])
        row["turns"] = int(record["turns"])
        row["final"] = str(record["final"])
        row.update(record["extras"])
        row["seconds"] = float(record["seconds"])
        for s, spent in enumerate(record["think"]):
            row[f"{THINK_PREFIX}{s}"] = float(spent)
        return row

    def __str__(self) -> str:
        opts = " ".join(f"{k}={_text(v)}" for k, v in self.options.items())
        turn = "rotating" if self.rotate else "fixed"
        return (
            f"{self.game} {opts} · bots {','.join(self.lineup)} ({turn} seats) · seed {self.seed}"
        )


def options_text(options: Mapping[str, Any]) -> str:
    """Options as canonical JSON, the form stored in rows.

    >>> options_text({"rounds": 1, "players": 2})
    '{"players": 2, "rounds": 1}'
    """
    return json.dumps(dict(options), sort_keys=True)


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value)) or "-"
    return str(value).lower() if isinstance(value, bool) else str(value)


def split_lineup(text: str) -> list[str]:
    """Bots written one after another, `greedy,random` or `mcts:iterations=200,c=1.4,greedy`:
    a comma starts a new bot unless what follows is a parameter (`key=value`) of the last.

    >>> split_lineup("mcts:iterations=200,c=1.4,greedy,random")
    ['mcts:iterations=200,c=1.4', 'greedy', 'random']
    """
    out: list[str] = []
    for piece in text.split(","):
        if out and "=" in piece and ":" not in piece:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def make_job(
    game: str,
    bots: Sequence[str],
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    rotate: bool = True,
    seed: int = 0,
) -> Job:
    """Check a run's description and normalise it; ValueError says what is wrong.

    The number of seats is `players` if given, else the `players` option, else the number
    of bots when more than one is given (for games that take a number of players), else the
    game's default. Fewer bots than seats are repeated in order to fill them
    (`random,greedy` for 3 seats is `random,greedy,random`); more bots than seats is an
    error. Options are stored as the game reports them, defaults included, so two
    spellings of the same set of options are the same job.

    >>> make_job("cubed", ["random", "greedy", "mcts"]).players
    3
    >>> make_job("cubed", ["random"], players=3).lineup
    ('random', 'random', 'random')
    >>> make_job("unstackable", ["random"], players=3)
    Traceback (most recent call last):
    ...
    cubegames.core.phrase.Worded: unstackable is a game for exactly 2 players, not 3
    """
    cls = game_class(game)
    given = dict(options or {})
    names = [b.strip() for b in bots]
    if not names or any(not b for b in names):
        raise ValueError("give at least one bot, e.g. --bots greedy,random")
    for name in names:
        cubegames.bot(name, game=game)  # a bad name, parameter or game raises ValueError
    if players is not None:
        if "players" not in cls.option_names:
            raise ValueError(f"{game} has a fixed number of seats; leave out --players")
        given["players"] = players
    elif "players" in cls.option_names and "players" not in given and len(names) > 1:
        given["players"] = len(names)
    try:
        built = cubegames.make(game, **given)
    except TypeError as exc:  # an option of the wrong kind
        raise ValueError(f"{game}: {exc}") from None
    seats = built.players
    if len(names) > seats:
        raise ValueError(f"{len(names)} bots for {seats} seats: give one bot a seat or fewer")
    lineup = tuple(names[s % len(names)] for s in range(seats))
    return Job(game, dict(built.options), lineup, rotate, seed)
