"""The games as the start page offers them: titles, one-line pitches, and the options a
visitor may set, with their kinds and limits, all from each game's declared facts
(`GameInfo`, found through the registry) and its options model.

The web app accepts only the options of a game's form, and only the choices it offers
(built-in editions): `make` would also read an edition from any `.toml` path, which a
server must not let a visitor do.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any

from cubegames.bots import bot_classes
from cubegames.core.game import Game
from cubegames.core.info import GameInfo
from cubegames.core.options import check_form, form, schema
from cubegames.core.registry import PluginError, PluginWarning, game_class, games, make

log = logging.getLogger(__name__)


def entry(facts: GameInfo) -> dict[str, Any]:
    """One game on the start page: its facts, its options form (built from the JSON
    Schema of its options model) and the schema itself."""
    return {
        "id": facts.id,
        "title": facts.title,
        "pitch": facts.pitch,
        "min_players": facts.min_players,
        "max_players": facts.max_players,
        "options": form(facts.options),
        "schema": schema(facts.options),
        "rules": rules(facts.id),  # with the default options' numbers
        "score_better": facts.score_better,
    }


#: bots offered by the start page, besides any `name:params` typed by hand
BOT_PRESETS: tuple[tuple[str, str], ...] = (
    ("greedy", "Greedy bot: the best-looking move right now"),
    ("random", "Random bot: any legal move"),
    ("mcts:seconds=1", "Thinking bot: searches for about a second"),
)


def catalog() -> dict[str, Any]:
    """The start page's menu as JSON: every game that loads (with its options) and bots.
    A registered game that cannot be loaded is left out, with a warning in the log."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PluginWarning)
        listed = games()
    for warning in caught:
        log.warning("%s", warning.message)
    return {
        "games": [entry(facts) for facts in listed],
        "bots": [{"spec": spec, "label": label} for spec, label in BOT_PRESETS],
        "bot_names": list(bot_classes()),
    }


#: how many of something, in words, for the rules' lines ("Three sets")
_COUNTS = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")


def rules(game_id: str, options: dict[str, Any] | None = None) -> list[str]:
    """The rules of a game in a few lines ([] for a game that is not registered), with the
    numbers its `options` chose (a line's `{sets}` becomes "Three sets", "One set").

    >>> rules("cubes", {"sets": 1})[-1].split(". ")[-1]
    'One set; the most points wins.'
    >>> rules("cubes")[-1].split(". ")[-1]
    'Three sets; the most points wins.'
    """
    try:
        facts = game_class(game_id).info
    except ValueError:
        return []
    defaults = {name: spec.default for name, spec in facts.options.model_fields.items()}
    chosen = defaults | (options or {})
    sets = chosen.get("sets")
    words = {"sets": ""}
    if isinstance(sets, int) and not isinstance(sets, bool):
        count = _COUNTS[sets] if 0 <= sets < len(_COUNTS) else str(sets)
        words["sets"] = f"{count} set{'' if sets == 1 else 's'}"
    return [line.format(**words) if "{" in line else line for line in facts.rules]


def build(game_id: str, options: dict[str, Any]) -> Game[Any]:
    """The game `game_id` with `options`, each checked against the game's form (only the
    choices it offers, such as built-in editions, never a file); ValueError names the
    first problem (an unknown game or option, a value out of range, or the game's own
    refusal, such as too many players for an edition)."""
    try:
        cls = game_class(game_id)
    except PluginError as exc:
        log.warning("%s", exc)
        raise ValueError(f"the game {game_id!r} is not available on this server") from None
    return make(game_id, **check_form(game_id, cls.info.options, options))
