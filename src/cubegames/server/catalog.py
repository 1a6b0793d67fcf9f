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
    #: the rules in a few lines, shown beside the table
    rules: tuple[str, ...] = ()


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
        (
            "Lay one piece a turn. From the third piece on it must touch at least two pieces, "
            "and every side it touches must show the same colour (white matches any colour "
            "except a blocking piece's).",
            "Black sides touch nothing: the cells next to them are dead (×).",
            "You may draw one piece instead, then lay or pass; with an empty bag you may pass.",
            "Empty your hand to win the round. Pieces left in hand cost points: single 1, "
            "double 2, triple 3, blocking 5, wild 10. The lowest total wins.",
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
            Option(
                "exact_counts",
                "A turn places exactly its colour's count",
                "bool",
                True,
                help="off: 1 up to the count, then end the turn",
            ),
        ),
        (
            "Stage 1: pick a colour and stack black ×3, red ×2 or yellow ×1. A cube on the bag "
            "must touch another cube on the bag; a higher cube needs a cube right under it. "
            "The cube may grow any way while it stays at most 4 wide, deep and tall.",
            "When only black is left, the rest of the box fills with black.",
            "Stage 2: take two cubes a turn. A cube can go when nothing sits on it and at "
            "least 3 of its faces are free. Whoever stacked the last red cube goes second.",
            "Your first cube each turn goes to pile 1 (yellow 5, red 3), the second to pile 2 "
            "(black 1). Most points wins.",
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
            Option(
                "uni_opens_beside_bombers",
                "A UNI may open a layer beside BOMBERs",
                "bool",
                False,
                help="off: a UNI opens a layer only from a hand of nothing but UNIs",
            ),
        ),
        (
            "First everyone lays their bases (2×3) on layer 0, each touching the others.",
            "Then lay one piece a turn on the current layer: every node rests on a piece "
            "below, it touches a piece already on the layer, and no piece carries two pieces "
            "of one type.",
            "The BLUE BOMBER ends the piece under it: nothing more goes on that one.",
            "A new layer may start once the current one holds 6 pieces, or when you cannot "
            "lay on it; never with a bomber, and with a UNI only if you hold nothing but UNIs. "
            "Whoever cannot lay at all is out for the round.",
            "Whoever lays the last piece (not a bomber) wins the round and a point.",
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
        (
            "Roll the six dice. Numbers only: take their sum from the pot.",
            "CUBES and 1 or 2 numbers: everyone else pays 5, then take twice the sum.",
            "CUBES and 3 or more numbers: everyone else pays 5, then take the whole pot. "
            "Only CUBES: everyone else pays 5. All blank: pay 2.",
            "If the pot holds too little, you take nothing and pay in the difference.",
            "Whoever cannot pay in full ends the set and scores 0 for it. {sets}; the most "
            "points wins.",
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
        data["rules"] = rules(game_id)  # with the default options' numbers
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


#: how many of something, in words, for the rules' lines ("Three sets")
_COUNTS = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")


def rules(game_id: str, options: dict[str, Any] | None = None) -> list[str]:
    """The rules of a game in a few lines ([] for a game the catalog does not list), with
    the numbers its `options` chose.

    >>> rules("cubes", {"sets": 1})[-1].split(". ")[-1]
    'One set; the most points wins.'
    >>> rules("cubes")[-1].split(". ")[-1]
    'Three sets; the most points wins.'
    """
    entry = CATALOG.get(game_id)
    if entry is None:
        return []
    chosen = {o.name: o.default for o in entry.options} | (options or {})
    sets = chosen.get("sets")
    words = {"sets": ""}
    if isinstance(sets, int):
        count = _COUNTS[sets] if sets < len(_COUNTS) else str(sets)
        words["sets"] = f"{count} set{'' if sets == 1 else 's'}"
    return [line.format(**words) for line in entry.rules]


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
