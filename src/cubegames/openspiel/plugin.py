"""A plug-in game (registered by another package in the entry-point group
`cubegames.games`, see docs/plugins.md) as an OpenSpiel game, through the same adapter as
the four: `import cubegames.openspiel` registers it as `cubegames_<id>`.

All the adapter knows of such a game is the game contract, so:

- Parameters: one per option of the game's options model, typed by its default (bool, int,
  float, str); an option with another default (a list, None) is a text parameter, "" for
  the game's own default and a list joined by "+" (`variants=a+b`), read as the command
  line reads `-o key=value`. Two parameters are the adapter's own: `max_game_length`
  (default 1000), since OpenSpiel needs a bound that the contract does not give: a game
  still going after that many moves ends there, unfinished, every return 0; and `deals`
  (default 1000), below.
- Chance: a game whose `new_state(seed)` is the same position for every seed has no chance
  (the contract draws chance from the seed and the position alone): deterministic.
  Otherwise one chance node opens the game and picks one of `deals` seeds, each as likely;
  what the seed decides later is hidden from every seat, so the game is then of imperfect
  information.
- Information: perfect when the game has no chance and every seat's view was the whole
  state (`to_dict`, less `"seat"`) in every position of a few random games; else imperfect.
- Actions: the game's codec (`cubegames.rl.codec`: its `Learnable` one, else the i-th
  legal move). Observation: the tensor of its observer (`cubegames.rl.observer`) and the
  view as JSON. Information state: the seat's history, each move as the seat may read it
  (`SecretMoves`) and the seat's view after it, then its view now. No information-state
  tensor (a view need not hold all that a seat remembers) and no public/private observation
  strings.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from cubegames.core.capabilities import SecretMoves
from cubegames.core.game import JSON, Game, Move
from cubegames.core.options import from_text, option_names
from cubegames.core.registry import PluginError, info, make
from cubegames.openspiel.rules import Chance, Codecs, Event, Holder, Param, Rules
from cubegames.rl.encoding import codec

#: the adapter's own parameters, and their defaults
OWN: dict[str, Param] = {"max_game_length": 1000, "deals": 1000}

#: the random games, and the moves of each at most, that decide whether a game hides nothing
PROBE_GAMES = 3
PROBE_MOVES = 300


class PluginRules(Rules):
    """The OpenSpiel description of a plug-in game (subclassed per game by `plugin_rules`)."""

    chance_mode = "explicit"  # as registered; each set of options finds its own
    hidden = True
    infostate_tensor = False
    #: the options read from text (defaults neither bool, int, float nor str)
    text_options: frozenset[str] = frozenset()

    def __init__(self, params: dict[str, Param], codec: Codecs = codec) -> None:
        super().__init__(params, codec)
        chance, hidden = _probe(self.game)
        self.chance_mode = "explicit" if chance else "deterministic"
        self.hidden = hidden
        self.max_moves = int(self.params["max_game_length"])
        self.deals = int(self.params["deals"])
        self.max_chance_outcomes = self.deals if chance else 0

    def options(self, params: dict[str, Param]) -> dict[str, Any]:
        for name in OWN:
            value = params[name]
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"cubegames_{self.game_id}: bad parameter {name}={value!r}: a whole "
                    "number, 1 or more"
                )
        model = info(self.game_id).options
        out: dict[str, Any] = {}
        for name in option_names(model):
            value = params[name]
            if name in self.text_options:
                if value == "":
                    continue  # the game's own default
                value = from_text(model, name, str(value).replace("+", ","))
            out[name] = value
        return out

    def max_game_length(self) -> int:
        return self.max_moves

    def cut(self, holder: Holder) -> bool:
        return holder.moves >= self.max_moves and holder.state().to_move is not None

    def start(self, holder: Holder) -> None:
        if self.chance_mode == "deterministic":
            holder.inner = self.game.new_state(0)
            return
        holder.chance = Chance("deal", [(i, 1.0 / self.deals) for i in range(self.deals)], {})

    def resolve(self, holder: Holder, outcome: int) -> Event:
        holder.inner = self.game.new_state(outcome)
        holder.chance = None
        return Event("the game is set up")

    def chance_text(self, chance: Chance | None, outcome: int) -> str:
        return f"deal {outcome}"

    def move_event(self, seat: int, move: Move) -> Event:
        """A move in notation, or "a move" to a seat that may not read it (`SecretMoves`)."""
        text = str(move)
        game = self.game
        if not isinstance(game, SecretMoves):
            return Event(f"seat {seat}: {text}")

        def shown(viewer: int | None) -> str:
            return text if game.move_visible(text, seat, viewer) else "a move"

        return Event(
            f"seat {seat}: {shown(None)}",
            each=tuple(f"seat {seat}: {shown(v)}" for v in range(game.players)),
        )

    def seen(self, holder: Holder, event: Event) -> Event:
        """Each seat's line gains the seat's view once the event has happened."""
        state = holder.state()
        return Event(
            event.public,
            each=tuple(
                f"{event.seen_by(s)} -> {_json(state.view(s))}" for s in range(self.game.players)
            ),
        )


def plugin_rules(game_id: str) -> type[PluginRules]:
    """The `Rules` of a plug-in game, its parameters read from its options model.

    Raises `PluginError` for a game that does not load, or whose options take a name of
    the adapter's own parameters."""
    facts = info(game_id)
    model = facts.options
    defaults: dict[str, Param] = {}
    text: set[str] = set()
    for name in option_names(model):
        if name in OWN:
            raise PluginError(
                "error-plugin-openspiel-name",
                f"game {game_id!r}: its option {name!r} has the name of an OpenSpiel "
                "parameter of the adapter's own, so it is not registered with OpenSpiel",
                game=game_id,
                option=name,
            )
        default = model.model_fields[name].default
        if isinstance(default, bool | int | float | str):
            defaults[name] = default
        else:
            defaults[name] = ""
            text.add(name)
    attributes = {
        "game_id": game_id,
        "long_name": f"{facts.title} (cubegames plug-in)",
        "defaults": {**defaults, **OWN},
        "min_players": facts.min_players,
        "max_players": facts.max_players,
        "text_options": frozenset(text),
    }
    name = "".join(part.capitalize() for part in game_id.split("_"))
    return type(f"{name}Rules", (PluginRules,), attributes)


def _probe(game: Game[Any]) -> tuple[bool, bool]:
    """(whether the game has chance, whether it hides anything) for one set of options."""
    return _probed(game.id, _json(game.options))


@functools.lru_cache(maxsize=64)
def _probed(game_id: str, options: str) -> tuple[bool, bool]:
    game = make(game_id, **json.loads(options))
    first = game.new_state(0).to_dict()
    if any(game.new_state(seed).to_dict() != first for seed in (1, 2, 3)):
        return True, True
    rng = random.Random(0)
    for _ in range(PROBE_GAMES):
        state = game.new_state(0)
        for _ in range(PROBE_MOVES):
            whole = state.to_dict()
            for seat in range(game.players):
                view = {k: v for k, v in state.view(seat).items() if k != "seat"}
                if view != whole:
                    return False, True
            if state.to_move is None:
                break
            state.play(rng.choice(state.legal_moves()))
    return False, False


def _json(data: JSON) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
