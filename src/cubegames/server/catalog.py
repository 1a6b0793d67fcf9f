"""The games as the start page offers them: titles, one-line pitches, and the options a
visitor may set, with their kinds and limits.

The web app accepts only these options, and only the built-in editions: `make` would also
read an edition from any `.toml` path, which a server must not let a visitor do.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from cubegames.bots import BOTS
from cubegames.core.game import Game
from cubegames.core.registry import GAMES, make


@dataclass(frozen=True)
class Option:
    """One option of one game. `kind` is `int`, `bool`, `choice` or `multi` (a list of
    choices); `default` None leaves the game's own default (which may depend on others)."""

    name: str
    label: str
    kind: str
    default: Any = None
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""


@dataclass(frozen=True)
class Entry:
    """A game on the start page."""

    id: str
    title: str
    pitch: str
    options: tuple[Option, ...] = field(default_factory=tuple)


CATALOG: dict[str, Entry] = {
    "cubed": Entry(
        "cubed",
        "CUBED",
        "Lay hexagonal three-colour pieces so every touching side matches; empty your hand first.",
        (
            Option("players", "Players", "int", 2, 1, 11, help="1 plays solo"),
            Option(
                "edition",
                "Edition",
                "choice",
                "en",
                choices=(("en", "English (6 players)"), ("ja", "Japanese (2 to 11 players)")),
            ),
            Option(
                "variants",
                "Variants",
                "multi",
                [],
                choices=(
                    ("bridging", "Bridging the gap: joining two groups earns another piece"),
                    ("void", "Fill the void: closing a hole lets you give a piece away"),
                    ("draw3", "Draw 3, keep 1"),
                ),
            ),
            Option("rounds", "Rounds", "int", None, 1, 10, help="3, or 1 for solo"),
            Option(
                "strict_colors",
                "Every touching side must match",
                "bool",
                True,
                help="off: two matching sides are enough",
            ),
        ),
    ),
    "unstackable": Entry(
        "unstackable",
        "Unstackable",
        "Two players build a 4×4×4 cube of coloured cubes, then take it apart for points.",
        (
            Option("players", "Players", "int", 2, 2, 2),
            Option(
                "bag_counts_as_exposed",
                "The face on the bag counts as exposed",
                "bool",
                False,
            ),
        ),
    ),
    "stakd": Entry(
        "stakd",
        "STAKD",
        "Stack your pieces layer on layer; whoever lays the last piece wins the round.",
        (
            Option("players", "Players", "int", 2, 1, 8, help="1 plays solo"),
            Option("points_to_win", "Points to win", "int", None, 1, 10, help="3, or 1 for solo"),
            Option("edition", "Edition", "choice", "standard", choices=(("standard", "STAKD"),)),
        ),
    ),
    "cubes": Entry(
        "cubes",
        "CUBES",
        "Roll six dice, claim the pot or pay in; three sets, most points wins.",
        (
            Option("players", "Players", "int", 2, 2, 10),
            Option("sets", "Sets", "int", 3, 1, 10),
            Option("edition", "Edition", "choice", "standard", choices=(("standard", "Standard"),)),
            Option(
                "referee",
                "Real dice: type what they show",
                "bool",
                False,
                help="for a table with its own dice, e.g. roll 1 C . 6 . 3",
            ),
        ),
    ),
}

#: bots offered by the start page, besides any `name:params` typed by hand
BOT_PRESETS: tuple[tuple[str, str], ...] = (
    ("greedy", "Greedy bot: the best-looking move right now"),
    ("random", "Random bot: any legal move"),
    ("mcts:seconds=1", "Thinking bot: searches for about a second"),
)


def catalog() -> dict[str, Any]:
    """The start page's menu as JSON: games (with options) and bots."""
    games = []
    for game_id in GAMES:
        entry = CATALOG.get(game_id)
        if entry is None:
            continue
        data = asdict(entry)
        data["options"] = [
            {k: v for k, v in asdict(o).items() if v not in (None, (), "")} | {"default": o.default}
            for o in entry.options
        ]
        games.append(data)
    return {
        "games": games,
        "bots": [{"spec": spec, "label": label} for spec, label in BOT_PRESETS],
        "bot_names": list(BOTS),
    }


def _check(option: Option, value: Any) -> Any:
    where = f"option {option.name}"
    if option.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where}: must be a whole number")
        assert option.low is not None and option.high is not None
        if not option.low <= value <= option.high:
            if option.low == option.high:
                raise ValueError(f"{where}: must be {option.low}")
            raise ValueError(f"{where}: must be from {option.low} to {option.high}")
    elif option.kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{where}: must be true or false")
    elif option.kind == "choice":
        names = [c for c, _ in option.choices]
        if value not in names:
            raise ValueError(f"{where}: choose from {', '.join(names)}")
    elif option.kind == "multi":
        names = [c for c, _ in option.choices]
        if not isinstance(value, list) or any(v not in names for v in value):
            raise ValueError(f"{where}: a list of names from {', '.join(names)}")
    return value


def build(game_id: str, options: dict[str, Any]) -> Game[Any]:
    """The game `game_id` with `options`, each checked against the catalog; ValueError
    names the first problem (an unknown game or option, a value out of range, or the
    game's own refusal, such as too many players for an edition)."""
    entry = CATALOG.get(game_id)
    if entry is None or game_id not in GAMES:
        known = ", ".join(g for g in GAMES if g in CATALOG)
        raise ValueError(f"unknown game {game_id!r}; choose from {known}")
    allowed = {o.name: o for o in entry.options}
    checked: dict[str, Any] = {}
    for name, value in options.items():
        option = allowed.get(name)
        if option is None:
            raise ValueError(
                f"{game_id} has no option {name!r} here; it takes {', '.join(allowed)}"
            )
        if value is None:
            continue
        checked[name] = _check(option, value)
    return make(game_id, **checked)
