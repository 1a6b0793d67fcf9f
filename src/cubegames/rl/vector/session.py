"""The batched environment over the Python rules, for any game (see `cubegames.rl.vector`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

import cubegames
from cubegames.bots import Bot
from cubegames.core.chance import entropy_seed
from cubegames.core.errors import shown
from cubegames.kit.vector import StepResult, StepsRows, batch_actions, seat_outcomes
from cubegames.rl.session import Session, win_shares

#: a frozen policy playing the opponents' seats: the observations and masks (bool) of the
#: k games where an opponent is to move, each from that seat's view, to k actions
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]


def check_opponent(opponent: Any) -> None:
    """ValueError unless `opponent` is "self", a bot name (`cubegames.bot`'s) or a callable."""
    if callable(opponent) or opponent == "self":
        return
    if not isinstance(opponent, str):
        raise ValueError(
            f"opponent must be 'self', a bot name such as 'greedy' or 'mcts:iterations=50', "
            f"or a policy (a callable), not {opponent!r}"
        )
    try:
        cubegames.bot(opponent)
    except ValueError as error:
        raise ValueError(f"opponent {opponent!r}: {error}") from None


def _policy_actions(chosen: Any, games: int) -> npt.NDArray[np.int64]:
    """What an opponent policy returned for `games` games, as whole actions, or a
    ValueError saying what is wrong with it (NaN, a fraction, the wrong count)."""
    try:
        actions = np.asarray(chosen, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(
            f"the opponent policy must return {games} actions, one per game, "
            f"not {shown(chosen, 60)}"
        ) from None
    if actions.size != games:
        raise ValueError(
            f"the opponent policy must return {games} actions, one per game, not {actions.size}"
        )
    whole = np.isfinite(actions) & (actions == np.round(actions))
    if not whole.all():
        bad = actions[~whole][0]
        raise ValueError(f"the opponent policy chose action {bad!r}, which is not a whole number")
    return actions.astype(np.int64)


class SessionVectorEnv(StepsRows, gymnasium.vector.VectorEnv[Any, Any, Any]):
    """`num_envs` `Session`s stepped one after another (the interface of
    `cubegames.rl.vector`), with any opponent: "self", a bot by name, or a policy.

    >>> envs = SessionVectorEnv("unstackable", 2, seed=1)
    >>> obs, info = envs.reset()
    >>> obs.shape, info["action_mask"].shape, info["to_move"].tolist()
    ((2, 356), (2, 281), [0, 0])
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        *,
        seed: int | None = None,
        opponent: str | Policy = "self",
        **options: Any,
    ) -> None:
        check_opponent(opponent)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        self.sessions = [Session(game_id, **options) for _ in range(num_envs)]
        first = self.sessions[0]
        self.num_envs = num_envs
        self.opponent = opponent
        self.players = first.game.players
        self.codec = first.codec
        self.observer = first.observer
        self.single_observation_space = spaces.Box(0.0, 1.0, self.observer.shape, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.codec.size)
        self.observation_space = spaces.Box(
            0.0, 1.0, (num_envs, *self.observer.shape), dtype=np.float32
        )
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.codec.size))
        self.obs = np.zeros((num_envs, *self.observer.shape), dtype=np.float32)
        self.masks = np.zeros((num_envs, self.codec.size), dtype=bool)
        self.to_move = np.zeros(num_envs, dtype=np.int64)
        self.rewards = np.zeros(num_envs, dtype=np.float64)
        self.terminations = np.zeros(num_envs, dtype=bool)
        self.truncations = np.zeros(num_envs, dtype=bool)
        self.illegal = np.zeros(num_envs, dtype=bool)
        self.ended = np.zeros(num_envs, dtype=bool)
        self.seat_rewards = np.zeros((num_envs, self.players), dtype=np.float64)
        self.bots: list[Bot | None] = [None] * num_envs
        self.rng = np.random.default_rng(entropy_seed(seed))

    @property
    def learner_only(self) -> bool:
        """True when the learner plays seat 0 and the opponent every other seat."""
        return self.opponent != "self"

    def _seat(self, i: int) -> int:
        to_move = self.sessions[i].to_move
        return 0 if self.learner_only or to_move is None else to_move

    def _reset_one(self, i: int) -> None:
        session = self.sessions[i]
        session.reset(int(self.rng.integers(2**31)))
        if isinstance(self.opponent, str) and self.opponent != "self":
            self.bots[i] = cubegames.bot(self.opponent, seed=int(self.rng.integers(2**31)))
        self.ended[i] = False

    def _advance(self, games: list[int]) -> None:
        """The opponents move in `games` until seat 0 is to move or the game is over; a
        policy chooses for every game waiting on it at once."""
        waiting = [i for i in games if self.sessions[i].to_move not in (None, 0)]
        while waiting:
            if callable(self.opponent):
                seats = [self.sessions[i].to_move or 0 for i in waiting]
                obs = np.stack(
                    [self.sessions[i].observe(s) for i, s in zip(waiting, seats, strict=True)]
                )
                masks = np.zeros((len(waiting), self.codec.size), dtype=bool)
                for row, (i, s) in enumerate(zip(waiting, seats, strict=True)):
                    masks[row, self.sessions[i].legal(s)] = True
                chosen = _policy_actions(self.opponent(obs, masks), len(waiting))
                # every choice checked before any is played: a bad one moves no game
                moves = []
                for row, i in enumerate(waiting):
                    move = self.sessions[i].move_of(int(chosen[row]))
                    if move is None:
                        raise ValueError(
                            f"the opponent policy chose action {int(chosen[row])}, which is "
                            f"not legal (game {i}, seat {seats[row]})"
                        )
                    moves.append(move)
                for i, move in zip(waiting, moves, strict=True):
                    self.sessions[i].play_move(move)
            else:
                for i in waiting:
                    bot = self.bots[i]
                    assert bot is not None
                    self.sessions[i].play_move(bot.choose(self.sessions[i].state))
            waiting = [i for i in waiting if self.sessions[i].to_move not in (None, 0)]

    def observations(self) -> npt.NDArray[np.float32]:
        """A copy of every game's current observation (after `restart`, say)."""
        return self.obs.copy()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """A copy of every game's current action mask."""
        return self.masks.copy()

    def restart(self, games: Any) -> None:
        """Deal the games `games` (indexes) afresh now, as the next step would have, and
        show their first observation and mask in the buffers (for adapters that reset a
        game in the step that ended it, as Stable-Baselines3's `VecEnv` does)."""
        chosen = [int(i) for i in np.asarray(games, dtype=np.int64).reshape(-1)]
        for i in chosen:
            self._reset_one(i)
        if self.learner_only:
            self._advance(chosen)
        for i in chosen:
            self._show(i)

    def _show(self, i: int) -> None:
        session = self.sessions[i]
        seat = self._seat(i)
        self.obs[i] = session.observe(seat)
        self.masks[i] = False
        if not self.ended[i]:
            self.masks[i, session.legal(seat)] = True
        self.to_move[i] = -1 if self.ended[i] else seat

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.masks,
            "to_move": self.to_move,
            "illegal_action": self.illegal,
            "seat_rewards": self.seat_rewards,
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if seed is not None:
            self.rng = np.random.default_rng(entropy_seed(seed))
        self.illegal[:] = False
        self.seat_rewards[:] = 0.0
        self.restart(range(self.num_envs))
        return self.obs, self._info()

    def step_rows(self, actions: Any, rows: Any) -> StepResult:
        """`step` for the games `rows` only (their actions are read from `actions`, one per
        game); the others are left as they are, with reward 0 (for a factored action space,
        `cubegames.rl.factored`, which steps a game once its move is whole)."""
        actions = batch_actions(actions, self.num_envs)
        picked = {int(i) for i in rows}
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.illegal[:] = False
        self.seat_rewards[:] = 0.0
        starting = [i for i in range(self.num_envs) if self.ended[i] and i in picked]
        played: list[int] = []
        movers: dict[int, int] = {}
        for i in range(self.num_envs):
            if self.ended[i] or i not in picked:
                continue
            session = self.sessions[i]
            mover = movers[i] = self._seat(i)
            move = session.move_of(int(actions[i]))
            if move is None:
                self.illegal[i] = True
                self.rewards[i] = -1.0
                self.seat_rewards[i, mover] = -1.0
                self.ended[i] = self.terminations[i] = True
                self._show(i)
                continue
            session.play_move(move)
            played.append(i)
        if self.learner_only:
            self._advance(played)
        for i in played:
            session = self.sessions[i]
            mover = movers[i]
            if session.to_move is None:
                outcomes = seat_outcomes(win_shares(session.state))
                self.seat_rewards[i] = outcomes
                self.rewards[i] = outcomes[mover]
                self.ended[i] = self.terminations[i] = True
                # the final observation is the mover's
                self.obs[i] = session.observe(mover)
                self.masks[i] = False
                self.to_move[i] = -1
                continue
            self._show(i)
        if starting:
            self.restart(starting)
        return self.obs, self.rewards, self.terminations, self.truncations, self._info()
