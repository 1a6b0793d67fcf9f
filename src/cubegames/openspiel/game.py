"""The four games as OpenSpiel Python games: `pyspiel.Game` and `pyspiel.State` subclasses
over the engine, and an observer giving information-state and observation tensors and
strings.

Actions are the indexes of `cubegames.rl.codec(game)` (for CUBED with `radius="full"`, the
window no legal placement ever leaves); chance outcomes are described in
`cubegames.openspiel.rules`.

Returns, at the end only (reward model TERMINAL): with P ≥ 2 seats, seat s gets
`P · share_s − 1`, where `share_s` is its share of the win (1 for a sole winner, 1/k for each
of k tied winners, 0 for a loser), and 0 each when the game ends with no winner. So a 2-seat
game gives +1 / −1 and 0 / 0 on a tie, and the returns always add up to 0 (utility
ZERO_SUM). A solo game (STAKD) returns 1 for a win, 0 for a loss (GENERAL_SUM).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import numpy as np
import pyspiel

from cubegames.core.game import Move
from cubegames.openspiel.rules import Holder, Param, Rules
from cubegames.rl.encoding import codec
from cubegames.rl.observation import observer as make_observer


def game_type(rules: type[Rules] | Rules, players: int | None = None) -> Any:
    """The `pyspiel.GameType` of a game (`players` picks the utility of a solo game): of
    its rules class when registered, of its rules (what a plug-in game's options make it)
    once loaded."""
    T = pyspiel.GameType
    explicit = rules.chance_mode == "explicit"
    return T(
        short_name=rules.openspiel_name or f"cubegames_{rules.game_id}",
        long_name=rules.long_name,
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if explicit else T.ChanceMode.DETERMINISTIC,
        information=(
            T.Information.IMPERFECT_INFORMATION
            if rules.hidden
            else T.Information.PERFECT_INFORMATION
        ),
        utility=T.Utility.GENERAL_SUM if players == 1 else T.Utility.ZERO_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=rules.infostate_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=rules.factored,
        parameter_specification=dict(rules.defaults),
    )


class CubegamesGame(pyspiel.Game):  # type: ignore[misc]
    """One of the games with one set of parameters, as OpenSpiel sees it."""

    rules_class: type[Rules] = Rules

    def __init__(self, params: dict[str, Param] | None = None) -> None:
        rules = self.rules_class(dict(params or {}), codec)
        players = rules.game.players
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.codec.size,
            max_chance_outcomes=rules.max_chance_outcomes,
            num_players=players,
            min_utility=0.0 if players == 1 else -1.0,
            max_utility=1.0 if players == 1 else float(players - 1),
            utility_sum=None if players == 1 else 0.0,
            max_game_length=rules.max_game_length(),
        )
        super().__init__(game_type(rules, players), info, rules.params)
        self.rules = rules

    def new_initial_state(self) -> CubegamesState:
        return CubegamesState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"cubegames observers take no parameters, not {params}")
        return Observer(
            self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class CubegamesState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's state, or a pending chance node."""

    def __init__(self, game: CubegamesGame) -> None:
        super().__init__(game)
        self.holder = Holder(game.rules.game)
        game.rules.start(self.holder)

    @property
    def rules(self) -> Rules:
        rules: Rules = self.get_game().rules
        return rules

    def current_player(self) -> int:
        holder = self.holder
        if holder.chance is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = holder.state().to_move
        if seat is None or self.rules.cut(holder):
            return int(pyspiel.PlayerId.TERMINAL)
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        state = self.holder.state()
        if player != state.to_move or self.rules.cut(self.holder):
            return []
        indexes = self.rules.codec.indexes(self.rules.legal(state), state.view(player))
        return sorted(int(i) for i in indexes)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.holder.chance is not None
        return list(self.holder.chance.outcomes)

    def _move(self, player: int, action: int) -> Move:
        state = self.holder.state()
        return self.rules.codec.decode(action, state.view(player))

    def _apply_action(self, action: int) -> None:
        holder = self.holder
        rules = self.rules
        if holder.chance is not None:
            # an outcome the node does not offer (a piece the bag no longer holds, a face
            # the die lacks) would make a position the rules never reach
            offered = [outcome for outcome, _ in holder.chance.outcomes]
            if int(action) not in offered:
                raise ValueError(
                    f"chance outcome {action} is not one of this node's "
                    f"({len(offered)} outcomes: see chance_outcomes())"
                )
            event = rules.resolve(holder, int(action))
        else:
            seat = holder.state().to_move
            if seat is None or rules.cut(holder):
                raise ValueError(f"the game is over: action {action} cannot be applied")
            move = self._move(seat, int(action))
            event = rules.move_event(seat, move)
            rules.after(holder, move)
            holder.moves += 1
        holder.log.append(rules.seen(holder, event))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.rules.chance_text(self.holder.chance, int(action))
        try:
            return str(self._move(player, int(action)))
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        holder = self.holder
        if holder.chance is not None:
            return False
        return holder.state().to_move is None or self.rules.cut(holder)

    def returns(self) -> list[float]:
        players = self.rules.game.players
        if not self.is_terminal() or self.rules.cut(self.holder):
            return [0.0] * players
        won = self.holder.state().winners()
        if not won and players > 1:  # ended with no winner (a plug-in's): a draw
            return [0.0] * players
        shares = [1.0 / len(won) if s in won else 0.0 for s in range(players)]
        if players == 1:
            return shares
        return [players * share - 1.0 for share in shares]

    def resample_from_infostate(self, player: int, sampler: Any) -> CubegamesState:
        """A state `player` cannot tell from this one, the hidden parts drawn afresh (by
        the engine's `determinize`, seeded from `sampler()`, a number in [0, 1)): what
        information-set search (OpenSpiel's ISMCTS) samples its worlds with. Other seats'
        private history is forgotten in the copy (their dealt pieces become "a piece")."""
        inner = self.holder.state()
        seed = int(float(sampler()) * 2**53)
        other: CubegamesState = self.clone()
        game = self.rules.game
        other.holder.inner = game.determinize(inner.view(player), player, random.Random(seed))
        other.holder.log = [e.known_to(player) for e in self.holder.log]
        return other

    def __str__(self) -> str:
        inner = self.holder.inner
        if inner is None:
            return "dealing"
        return json.dumps(inner.to_dict(), sort_keys=True, separators=(",", ":"))


class Observer:
    """OpenSpiel's PyObserver for the games.

    - Observation (`perfect_recall=False`): the tensor of `cubegames.rl.observer(game)` on
      `view(seat)` (pieces `planes` and `vector`, see `cubegames.rl.observation`); the
      string is that view as JSON.
    - Information state (`perfect_recall=True`): the same tensor; the string is the
      seat's whole history, one line per event as the seat saw it (its own dealt and drawn
      pieces, the others' as "a piece"), then its view now as JSON (`now: {...}`), so that
      the string decides the seat's legal actions in a resampled world too. The view
      already holds all a seat can know of the rules' state, except, in CUBED's `void`
      variant, which piece a seat gave away.
    - Public only (`private_info=NONE`): the public view as JSON (`state.public_view()`).
    - Private only (`public_info=False`): the seat's own hand (CUBED) as JSON.
    - A plug-in game offers no information-state tensor (`Rules.infostate_tensor`).

    While CUBED's hands are being dealt, before the seat to move holds a piece, there is no
    position yet: the tensor is all zeros and the observation string "dealing".
    """

    def __init__(self, rules: Rules, iig_obs_type: Any) -> None:
        self.rules = rules
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.observer = make_observer(rules.game, **rules.settings())
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if self.public and self.private and (rules.infostate_tensor or not self.recall):
            self.tensor = np.zeros(self.observer.shape, np.float32)
            planes, vector = self.observer.split(self.tensor)
            if planes.size:
                self.dict["planes"] = planes
            self.dict["vector"] = vector

    def set_from(self, state: CubegamesState, player: int) -> None:
        if self.tensor is None:
            return
        inner = state.holder.inner
        if inner is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.observer.observe(inner.view(player))

    def string_from(self, state: CubegamesState, player: int) -> str:
        holder = state.holder
        inner = holder.inner
        if self.recall and self.public and self.private:
            lines = [f"seat {player}", *(e.seen_by(player) for e in holder.log)]
            if inner is not None:
                # the seat's view now ends it: in a world resampled for another seat (ISMCTS)
                # the history no longer holds this seat's own pieces, and without its view two
                # worlds with other hands and other legal moves would read the same
                lines.append(f"now: {_json(inner.view(player))}")
            return "\n".join(lines)
        if inner is None:
            return "dealing"
        if not self.private:
            return _json(inner.public_view())
        view = inner.view(player)
        if not self.public:
            hand = view.get("hands", [None] * (player + 1))[player]
            return _json({"seat": player, "hand": copy.deepcopy(hand)})
        return _json(view)


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
