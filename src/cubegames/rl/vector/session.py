"""The batched environment over the Python rules, for any game (see `cubegames.rl.vector`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

import cubegames
from cubegames.bots import Bot
from cubegames.rl.session import Session, win_shares

OPPONENTS = ("self", "random")


def outcome(shares: list[float], seat: int) -> float:
    """+1 for a sole win, -1 for a loss, 0 otherwise (a shared win).

    >>> outcome([1.0, 0.0], 0), outcome([1.0, 0.0], 1), outcome([0.5, 0.5], 1)
    (1.0, -1.0, 0.0)
    """
    share = shares[seat]
    return 1.0 if share == 1.0 else -1.0 if share == 0.0 else 0.0


class SessionVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """`num_envs` `Session`s stepped one after another (the interface of
    `cubegames.rl.vector`).

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
        opponent: str = "self",
        **options: Any,
    ) -> None:
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, not {opponent!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        self.sessions = [Session(game_id, **options) for _ in range(num_envs)]
        first = self.sessions[0]
        self.num_envs = num_envs
        self.opponent = opponent
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
        self.bots: list[Bot | None] = [None] * num_envs
        self.rng = np.random.default_rng(seed)

    def _seat(self, i: int) -> int:
        to_move = self.sessions[i].to_move
        return 0 if self.opponent == "random" or to_move is None else to_move

    def _reset_one(self, i: int) -> None:
        session = self.sessions[i]
        session.reset(int(self.rng.integers(2**31)))
        if self.opponent == "random":
            self.bots[i] = cubegames.bot("random", seed=int(self.rng.integers(2**31)))
            self._advance(i)
        self.ended[i] = False
        self._show(i)

    def _advance(self, i: int) -> None:
        """The random opponent moves until seat 0 is to move or the game is over."""
        session, bot = self.sessions[i], self.bots[i]
        assert bot is not None
        while (seat := session.to_move) is not None and seat != 0:
            session.play_move(bot.choose(session.state))

    def _show(self, i: int) -> None:
        session = self.sessions[i]
        seat = self._seat(i)
        self.obs[i] = session.observe(seat)
        self.masks[i] = False
        if not self.ended[i]:
            self.masks[i, session.legal(seat)] = True
        self.to_move[i] = -1 if self.ended[i] else seat

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.masks, "to_move": self.to_move, "illegal_action": self.illegal}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        for i in range(self.num_envs):
            self._reset_one(i)
        self.illegal[:] = False
        return self.obs, self._info()

    def step(
        self, actions: Any
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        actions = np.asarray(actions)
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.illegal[:] = False
        for i in range(self.num_envs):
            if self.ended[i]:
                self._reset_one(i)
                continue
            session = self.sessions[i]
            mover = self._seat(i)
            move = session.move_of(int(actions[i]))
            if move is None:
                self.illegal[i] = True
                self.rewards[i] = -1.0
                self.ended[i] = self.terminations[i] = True
                self._show(i)
                continue
            session.play_move(move)
            if self.opponent == "random":
                self._advance(i)
            if session.to_move is None:
                self.rewards[i] = outcome(win_shares(session.state), mover)
                self.ended[i] = self.terminations[i] = True
                # the final observation is the mover's
                self.obs[i] = session.observe(mover)
                self.masks[i] = False
                self.to_move[i] = -1
                continue
            self._show(i)
        return self.obs, self.rewards, self.terminations, self.truncations, self._info()
