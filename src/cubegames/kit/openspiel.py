"""What a game's `openspiel` part is built on: a game's OpenSpiel description (`Rules`), the
engine state behind an OpenSpiel state (`Holder`), its pending chance node (`Chance`) and its
history as each seat saw it (`Event`).

The games draw their chance from a seed (`Game.new_state(seed)`); OpenSpiel wants every
random event as a chance node that lists its outcomes with their probabilities. A game's
`Rules` (the class `RULES` of its `openspiel` part, `cubegames.games.cubed.openspiel` for
CUBED) turns the engine's hidden draws into such nodes, through the public API alone
(`to_dict`, `state_from_dict`, `play`): a chance outcome is written into the position file,
so the engine's own way of drawing is never relied on. A game without the part is described
by `cubegames.openspiel.plugin` (its set-up drawn from a seed by one chance node).

Nothing here imports OpenSpiel (`pyspiel`, of the `openspiel` extra): `cubegames.openspiel`
does, and hands each `Rules` the codec of its actions (`cubegames.rl.codec`), so a game's
`openspiel` part imports only what `pip install cubegames` installs.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cubegames.core.game import JSON, Game, Move, State
from cubegames.core.registry import make
from cubegames.kit.encoding import ActionCodec

#: what makes a game's codec from the game and a description's settings (`cubegames.rl.codec`)
Codecs = Callable[..., ActionCodec]


#: a parameter's default value: OpenSpiel's parameters are bool, int, float or str
Param = bool | int | float | str


@dataclass(frozen=True)
class Event:
    """One entry of a game's history as each seat saw it: `private` for `seats`,
    `public` for everyone else."""

    public: str
    private: str = ""
    seats: frozenset[int] = frozenset()
    #: a line per seat instead, when each seat sees it its own way (a plug-in game's)
    each: tuple[str, ...] = ()

    def seen_by(self, seat: int) -> str:
        if self.each:
            return self.each[seat]
        return self.private if seat in self.seats else self.public

    def known_to(self, seat: int) -> Event:
        """The event as far as `seat` knows it: the other seats' private parts become
        the public line (what a world resampled for `seat` may remember)."""
        if self.each:
            return Event(
                self.public,
                each=tuple(line if s == seat else self.public for s, line in enumerate(self.each)),
            )
        return self if not self.seats or seat in self.seats else Event(self.public)


@dataclass
class Chance:
    """A pending chance node, as plain data (states are deep-copied and pickled): what
    kind of event it is, its outcomes (ids and probabilities) and what it needs to go on."""

    kind: str
    outcomes: list[tuple[int, float]]
    data: JSON


class Holder:
    """The engine state behind an OpenSpiel state, its pending chance node and the
    history as each seat saw it. Copied with the engine's own `clone`, pickled as a
    position file."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.inner: State[Any] | None = None
        self.chance: Chance | None = None
        self.log: list[Event] = []
        #: the moves played (chance outcomes not counted)
        self.moves = 0

    def state(self) -> State[Any]:
        assert self.inner is not None
        return self.inner

    def __deepcopy__(self, memo: dict[int, Any]) -> Holder:
        other = Holder(self.game)
        other.inner = None if self.inner is None else self.inner.clone()
        other.chance = copy.deepcopy(self.chance, memo)
        other.log = list(self.log)
        other.moves = self.moves
        return other

    def __getstate__(self) -> JSON:
        return {
            "game": self.game.id,
            "options": self.game.options,
            "position": None if self.inner is None else self.inner.to_dict(),
            "chance": self.chance,
            "log": self.log,
            "moves": self.moves,
        }

    def __setstate__(self, saved: JSON) -> None:
        self.game = _game(saved["game"], json.dumps(saved["options"], sort_keys=True))
        position = saved["position"]
        self.inner = None if position is None else self.game.state_from_dict(position)
        self.chance = saved["chance"]
        self.log = saved["log"]
        self.moves = saved["moves"]


@functools.lru_cache(maxsize=32)
def _game(game_id: str, options: str) -> Game[Any]:
    return make(game_id, **json.loads(options))


class Rules:
    """A game's OpenSpiel description. Subclasses say how the game's chance happens."""

    game_id: str = ""
    long_name: str = ""
    #: OpenSpiel's name of the game, if not `cubegames_<game_id>`
    openspiel_name: str = ""
    #: OpenSpiel parameters and their defaults (`options` turns them into `make`'s options)
    defaults: dict[str, Param] = {}  # noqa: RUF012
    min_players = 2
    max_players = 2
    chance_mode = "deterministic"  # or "explicit"
    hidden = False  # imperfect information
    max_chance_outcomes = 0
    #: whether the information-state tensor is offered (the observation's: the view holds
    #: all that a seat of a built-in game can know)
    infostate_tensor = True
    #: whether public and private observation strings are offered
    factored = False

    def __init__(self, params: dict[str, Param], codec: Codecs) -> None:
        self.params = {**self.defaults, **params}
        self.game: Game[Any] = self.make(self.params)
        #: the actions: the game's codec with this description's settings (made by
        #: `codec`, `cubegames.rl.codec` as `cubegames.openspiel` gives it)
        self.codec: ActionCodec = codec(self.game, **self.settings())

    def make(self, params: dict[str, Param]) -> Game[Any]:
        """The cubegames game of these parameters; a bad one raises ValueError naming it."""
        options = self.options(params)
        try:
            return make(self.game_id, **options)
        except (ValueError, TypeError) as error:
            name = self.culprit(str(error), options)
            raise ValueError(
                f"cubegames_{self.game_id}: bad parameter {name}={params.get(name)!r}: {error}"
            ) from None

    def culprit(self, message: str, options: dict[str, Any]) -> str:
        """The parameter an error from `make` is about (the one it names, else players)."""
        lowered = message.lower()
        for name in options:
            words = {name, name.replace("_", " "), name.rstrip("s")}
            if any(w in lowered for w in words):
                return name
        return "players"

    def options(self, params: dict[str, Param]) -> dict[str, Any]:
        return dict(params)

    def settings(self) -> dict[str, Any]:
        """The codec's and the observer's own settings (CUBED's window)."""
        return {}

    def legal(self, state: State[Any]) -> list[Move]:
        """The moves offered: the engine's legal moves (CUBED may bound its table)."""
        moves: list[Move] = state.legal_moves()
        return moves

    def max_game_length(self) -> int:
        raise NotImplementedError

    # -- play and chance ------------------------------------------------------------------

    def start(self, holder: Holder) -> None:
        """Set up a new game in `holder` (its `inner` state, or a pending chance node)."""
        holder.inner = self.game.new_state(0)

    def after(self, holder: Holder, move: Move) -> None:
        """Play `move` (legal) for the seat to move, leaving any chance it brings pending."""
        holder.state().play(move)

    def resolve(self, holder: Holder, outcome: int) -> Event:
        """Apply chance `outcome` to the pending node; the event to log."""
        raise NotImplementedError

    def move_event(self, seat: int, move: Move) -> Event:
        """How the seats see `move` of `seat` (made before it is played): in notation."""
        return Event(f"seat {seat}: {move}")

    def seen(self, holder: Holder, event: Event) -> Event:
        """The event logged once it has happened (a plug-in game adds each seat's view)."""
        return event

    def cut(self, holder: Holder) -> bool:
        """Whether the game is cut short unfinished (a plug-in game's move bound)."""
        return False

    def chance_text(self, chance: Chance | None, outcome: int) -> str:
        """A chance outcome in words (`chance` the pending node, when there is one)."""
        return f"outcome {outcome}"
