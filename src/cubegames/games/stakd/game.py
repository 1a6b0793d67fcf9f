"""The STAKD game: options, setting up, reading positions and moves."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from cubegames.core.errors import plain
from cubegames.core.game import JSON, Game, Playouts, State
from cubegames.core.info import GameInfo
from cubegames.core.options import check_options, players_field
from cubegames.core.phrase import Worded, edition_phrase
from cubegames.games.stakd import search_hooks
from cubegames.games.stakd.edition import Edition, load_edition
from cubegames.games.stakd.notation import Place, parse
from cubegames.games.stakd.position import read_position
from cubegames.games.stakd.state import StakdState
from cubegames.games.stakd.summary import COLUMNS, StakdSummary

#: the longest match one may ask for (any match ends anyway: every round gives one point)
MAX_POINTS = 10


class StakdOptions(BaseModel):
    """STAKD's options; the players an edition seats and solo's single round are checked
    by the game."""

    model_config = ConfigDict(extra="forbid")

    players: StrictInt = players_field(1, 8, description="1 for a solo game")
    edition: StrictStr = Field(
        "standard",
        title="Edition",
        json_schema_extra={"x-choices": [["standard", "STAKD"]]},
    )
    points_to_win: StrictInt | None = Field(
        None,
        ge=1,
        le=MAX_POINTS,
        title="Points to win",
        description="3 by default, 1 in a solo game",
    )
    uni_opens_beside_bombers: StrictBool = Field(
        False,
        title="A UNI may open a layer beside BOMBERs",
        description="off: a UNI opens a layer only from a hand of nothing but UNIs",
    )


INFO = GameInfo(
    id="stakd",
    title="STAKD",
    pitch="Stack your pieces layer on layer; whoever lays the last piece wins the round.",
    min_players=1,
    max_players=8,
    options=StakdOptions,
    rules=(
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
    columns=COLUMNS,
    summary=StakdSummary,
    report="cubegames.games.stakd.report:report",
    example_options=(
        {"players": 2},
        {"players": 3},
        {"players": 5},
        {"players": 1},
        {"players": 8, "points_to_win": 2},
        {"players": 3, "uni_opens_beside_bombers": True},
    ),
)


class Stakd(Game[Place]):
    """STAKD with one set of options.

    `points_to_win` is the match length (default 3); solo play is a single round.
    `uni_opens_beside_bombers` (default False) lets a UNI open a layer when the hand holds
    only UNIs and BOMBERs, the looser reading of the book's "unless you have no other pieces
    in hand"; by default a BOMBER in hand is another piece and the UNI must wait.

    >>> game = Stakd(players=3)
    >>> game.options
    {'players': 3, 'edition': 'standard', 'points_to_win': 3}
    >>> Stakd(players=9)
    Traceback (most recent call last):
    ...
    cubegames.core.phrase.Worded: the standard edition plays 1 to 8 players, not 9
    """

    info: ClassVar[GameInfo] = INFO

    def __init__(
        self,
        players: int = 2,
        edition: str = "standard",
        points_to_win: int | None = None,
        uni_opens_beside_bombers: bool = False,
    ) -> None:
        # one option at a time: the model; across options (the edition's seats, solo's
        # single round): here
        check_options(
            INFO.id,
            StakdOptions,
            {
                "players": players,
                "edition": edition,
                "points_to_win": points_to_win,
                "uni_opens_beside_bombers": uni_opens_beside_bombers,
            },
        )
        self.edition: Edition = load_edition(edition)
        self.edition_name = edition
        if players not in self.edition.counts:
            counts = self.edition.players()
            raise Worded(
                "error-players-edition",
                f"the {self.edition.id} edition plays {counts[0]} to {counts[-1]} players, "
                f"not {plain(players)}",
                edition=edition_phrase(INFO.id, self.edition.id),
                low=counts[0],
                high=counts[-1],
                players=plain(players),
            )
        self.players = players
        if points_to_win is None:
            points_to_win = 1 if players == 1 else 3
        if players == 1 and points_to_win != 1:
            raise Worded(
                "error-solo-points", "solo play is a single round: points_to_win must be 1"
            )
        self.points_to_win = points_to_win
        self.uni_opens_beside_bombers = uni_opens_beside_bombers

    @property
    def options(self) -> JSON:
        """The options, with `uni_opens_beside_bombers` named only when it is on."""
        out: JSON = {
            "players": self.players,
            "edition": self.edition_name,
            "points_to_win": self.points_to_win,
        }
        if self.uni_opens_beside_bombers:
            out["uni_opens_beside_bombers"] = True
        return out

    def new_state(self, seed: int = 0) -> StakdState:
        """The start of a match. STAKD has no chance: every seed gives the same game."""
        state = StakdState(self)
        state.start()
        return state

    def parse_move(self, text: str) -> Place:
        return parse(text)

    def state_from_dict(self, data: Mapping[str, Any]) -> StakdState:
        state = StakdState(self)
        read_position(state, data)
        return state

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> StakdState:
        """The position itself: STAKD has perfect information, so nothing is sampled."""
        if not isinstance(view, Mapping):
            raise ValueError("a view must be a JSON object")
        return self.state_from_dict({k: v for k, v in view.items() if k != "seat"})

    # -- hooks for search bots (see `search_hooks`) ------------------------------------------------

    def sampler(self, view: Mapping[str, Any], seat: int) -> Callable[[random.Random], StakdState]:
        return search_hooks.sampler(self.determinize(view, seat, random.Random(0)))

    def rollout(self, state: State[Place], rng: random.Random) -> None:
        assert isinstance(state, StakdState)
        search_hooks.rollout(state, rng)

    def rewards(self, state: State[Place]) -> list[float]:
        assert isinstance(state, StakdState)
        return search_hooks.rewards(state)

    def playouts(
        self, view: Mapping[str, Any], seat: int, rng: random.Random
    ) -> Playouts[Place] | None:
        """Compiled playouts for the `mcts` bot's flat search (`search_bridge`): nothing is
        hidden, so they start from the position the view shows."""
        from cubegames.games.stakd import search_bridge

        return search_bridge.playouts(self.determinize(view, seat, rng), rng)

    def greedy_move(self, state: State[Place], rng: random.Random) -> Place:
        """The greedy heuristic (`search_hooks.greedy_move`), its values computed in the
        compiled kernel once the bases are down (the same move)."""
        assert isinstance(state, StakdState)
        if state.to_move is not None and not state.base_phase:
            from cubegames.games.stakd import search_bridge

            if search_bridge.supported(state):
                return search_bridge.greedy_move(state, rng)
        return search_hooks.greedy_move(state, rng)
