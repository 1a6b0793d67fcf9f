"""The STAKD game: options, setting up, reading positions and moves."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from cubegames.core.game import JSON, Game, State
from cubegames.games.stakd import ai
from cubegames.games.stakd.edition import Edition, load_edition
from cubegames.games.stakd.notation import Place, parse
from cubegames.games.stakd.position import read_position
from cubegames.games.stakd.state import StakdState

#: the longest match one may ask for (any match ends anyway: every round gives one point)
MAX_POINTS = 10


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
    ValueError: the standard edition plays 1 to 8 players, not 9
    """

    id: ClassVar[str] = "stakd"
    option_names: ClassVar[tuple[str, ...]] = (
        "players",
        "edition",
        "points_to_win",
        "uni_opens_beside_bombers",
    )

    def __init__(
        self,
        players: int = 2,
        edition: str = "standard",
        points_to_win: int | None = None,
        uni_opens_beside_bombers: bool = False,
    ) -> None:
        if not isinstance(edition, str):
            raise ValueError("edition must be an edition id (standard) or a .toml file")
        self.edition: Edition = load_edition(edition)
        self.edition_name = edition
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("players must be a whole number")
        if players not in self.edition.counts:
            counts = self.edition.players()
            raise ValueError(
                f"the {self.edition.id} edition plays {counts[0]} to {counts[-1]} players, "
                f"not {players}"
            )
        self.players = players
        if points_to_win is None:
            points_to_win = 1 if players == 1 else 3
        if isinstance(points_to_win, bool) or not isinstance(points_to_win, int):
            raise ValueError("points_to_win must be a whole number")
        if players == 1 and points_to_win != 1:
            raise ValueError("solo play is a single round: points_to_win must be 1")
        if not 1 <= points_to_win <= MAX_POINTS:
            raise ValueError(f"points_to_win must be from 1 to {MAX_POINTS}")
        self.points_to_win = points_to_win
        if not isinstance(uni_opens_beside_bombers, bool):
            raise ValueError("uni_opens_beside_bombers must be true or false")
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

    # -- hooks for search bots (see `ai`) ------------------------------------------------

    def sampler(self, view: Mapping[str, Any], seat: int) -> Callable[[random.Random], StakdState]:
        return ai.sampler(self.determinize(view, seat, random.Random(0)))

    def rollout(self, state: State[Place], rng: random.Random) -> None:
        assert isinstance(state, StakdState)
        ai.rollout(state, rng)

    def rewards(self, state: State[Place]) -> list[float]:
        assert isinstance(state, StakdState)
        return ai.rewards(state)

    def greedy_move(self, state: State[Place], rng: random.Random) -> Place:
        assert isinstance(state, StakdState)
        return ai.greedy_move(state, rng)
