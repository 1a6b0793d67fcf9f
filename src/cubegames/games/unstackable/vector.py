"""Unstackable as a batched Gymnasium vector environment: N games stepped together by the
compiled rules of `cubegames.games.unstackable.vector_rules`.

    from cubegames.games.unstackable.vector import VectorEnv
    envs = VectorEnv(1024, seed=0)                 # opponent="self": both seats learn
    obs, info = envs.reset()                       # obs (N, 356) float32
    obs, rewards, terminated, truncated, info = envs.step(actions)   # actions (N,) ints

Spaces are those of the single-agent environment (`cubegames.rl.gym.SingleAgentEnv`):
an observation is `observer(game)` of a view (planes then vector, 356 float32 values), an
action an index of `codec(game)` (281). `info["action_mask"]` is a bool array (N, 281) of
the legal actions, `info["to_move"]` (N,) the seat to move (-1 for a game that just
ended) and `info["illegal_action"]` (N,) the games whose action was illegal, after `reset`
and after every `step`. The interface is the one of `cubegames.rl.vector`, whose
`vector_env("unstackable", ...)` returns this environment; its arrays are copies.

- `opponent="self"`: each action is for whichever seat is to move in its game; the
  observation is that seat's view; the reward (+1 win, -1 loss, 0 draw, 0 before the end)
  goes to the seat that just moved, and the observation of a game that just ended is from
  that seat too.
- `opponent="random"` (or `"greedy"`, the greedy bot's heuristic in the kernel:
  `games/unstackable/opponents.py`): the learner is seat 0 and the opponent moves inside
  the kernel (its moves happen within `step`); observations and rewards are seat 0's.

Autoreset follows Gymnasium's NEXT_STEP mode: the step that ends a game returns its last
observation with `terminated` set; the next step resets that game (its action is ignored,
reward 0) and returns the new game's first observation. Games never truncate. An illegal
action loses the game for the seat that sent it (reward -1, terminated).

Options are the game's (`exact_counts=False`, `bag_counts_as_exposed=True`).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from cubegames.core.chance import entropy_seed
from cubegames.core.errors import shown
from cubegames.core.registry import make
from cubegames.games.unstackable import Colour, Unstackable, UnstackableState, vector_rules
from cubegames.games.unstackable import opponents as ko
from cubegames.games.unstackable.rl import Codec, Observer
from cubegames.kit.vector import GREEDY, Opponent, batch_actions
from cubegames.kit.vector import plain_opponent as plain

#: the kinds of opponent its kernel plays (`kit.vector`; by bot name:
#: `cubegames.rl.kernel_opponents.spec`)
KINDS = ko.KINDS

Obs = npt.NDArray[np.float32]


class VectorEnv(gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], Any]):
    """`num_envs` Unstackable games stepped together (see the module's docstring).

    >>> envs = VectorEnv(4, seed=1)
    >>> obs, info = envs.reset()
    >>> obs.shape, info["action_mask"].shape, info["action_mask"].sum(axis=1).tolist()
    ((4, 356), (4, 281), [3, 3, 3, 3])
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        *,
        seed: int | None = None,
        opponent: str = "self",
        kernel_opponent: Opponent | None = None,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError("num_envs must be a whole number of at least 1")
        found = kernel_opponent if kernel_opponent is not None else plain(opponent, ko.KINDS)
        if found is None:
            raise ValueError(
                "opponent must be 'self', 'random' or 'greedy', "
                f"not {shown(opponent)} (other bots: cubegames.rl.vector_env)"
            )
        self._kind = found[0]
        game = make("unstackable", **options)
        assert isinstance(game, Unstackable)
        self.game = game
        self.opponent = opponent
        self.codec = Codec(game)
        self.observer = Observer(game)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, self.observer.shape, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.codec.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        box = game.box
        colours = list(Colour)
        self._counts = np.array([box.count[c] for c in colours], dtype=np.int64)
        self._per_turn = np.array([box.per_turn[c] for c in colours], dtype=np.int64)
        self._gains = np.array(
            [[box.points[p][c] for c in colours] for p in (0, 1)], dtype=np.int64
        )
        self._most = self.observer.most
        self._boards = np.zeros((num_envs, 3), dtype=np.uint64)
        self._st = np.zeros((num_envs, vector_rules.FIELDS), dtype=np.int64)
        self._pending = np.zeros(num_envs, dtype=np.bool_)
        self._rng = np.zeros(num_envs, dtype=np.uint64)
        self._obs = np.zeros((num_envs, *self.observer.shape), dtype=np.float32)
        self._rewards = np.zeros(num_envs, dtype=np.float32)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._masks = np.zeros((num_envs, self.codec.size), dtype=np.bool_)
        self._to_move = np.zeros(num_envs, dtype=np.int64)
        self._seat_rewards = np.zeros((num_envs, 2), dtype=np.float64)
        self._seed(seed)

    def _seed(self, seed: int | None) -> None:
        sequence = np.random.SeedSequence(entropy_seed(seed))
        self._rng[:] = sequence.generate_state(self.num_envs, dtype=np.uint64)

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self._masks.copy(),
            "to_move": self._to_move.copy(),
            "illegal_action": self._illegal.copy(),
            "seat_rewards": self._seat_rewards.copy(),
        }

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Every game back to its start (seat 0 to stack); `seed` reseeds the random
        opponent's choices."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None:
            self._seed(seed)
        self._illegal[:] = False
        self._seat_rewards[:] = 0.0
        self._reset_rows(slice(None))
        return self._obs.copy(), self._info()

    def _reset_rows(self, rows: slice) -> None:
        vector_rules.reset_all(
            self._boards[rows],
            self._st[rows],
            self._pending[rows],
            self.game.bag_counts_as_exposed,
            self.game.exact_counts,
            self._counts,
            self._gains,
            self._most,
            self._obs[rows],
            self._masks[rows],
            self._to_move[rows],
        )

    def restart(self, games: npt.ArrayLike) -> None:
        """Start the games `games` (indexes) afresh now and show them in the buffers, as the
        next step would have (see `cubegames.rl.vector`); the compiled `reset_all` runs on
        one-row views, so nothing new is compiled. The arrays `step` returned before are
        copies: read `observations()` and `action_masks()` for the new ones."""
        for i in np.asarray(games, dtype=np.int64).reshape(-1):
            self._reset_rows(slice(int(i), int(i) + 1))

    def observations(self) -> Obs:
        """A copy of every game's current observation."""
        return self._obs.copy()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """A copy of every game's current action mask."""
        return self._masks.copy()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[np.float32], Any, Any, dict[str, Any]]:
        """Play one action in every game (see the module's docstring)."""
        chosen = np.ascontiguousarray(batch_actions(actions, self.num_envs))
        movers = (
            np.zeros(self.num_envs, np.int64) if self.opponent != "self" else self._to_move.copy()
        )
        if self._kind == GREEDY:
            ko.unstackable_step(
                self._boards, self._st, chosen, self._pending, self._rng,
                self.game.bag_counts_as_exposed, self.game.exact_counts, self._per_turn,
                self._counts, self._gains, self._most, self._obs, self._rewards,
                self._terminated, self._illegal, self._masks, self._to_move,
            )  # fmt: skip
        else:
            vector_rules.step(
                self._boards,
                self._st,
                chosen,
                self._pending,
                self._rng,
                self.opponent == "random",
                self.game.bag_counts_as_exposed,
                self.game.exact_counts,
                self._per_turn,
                self._counts,
                self._gains,
                self._most,
                self._obs,
                self._rewards,
                self._terminated,
                self._illegal,
                self._masks,
                self._to_move,
            )
        vector_rules.seat_rewards(
            self._terminated, self._illegal, self._rewards, movers, self._seat_rewards
        )
        return (
            self._obs.copy(),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            self._info(),
        )

    def state(self, index: int) -> UnstackableState:
        """Game `index` as a Python state (built through `state_from_dict`, so the rules
        check it): for tests, and to look at a game.

        >>> envs = VectorEnv(2, seed=0)
        >>> _ = envs.reset()
        >>> envs.state(1).to_move
        0
        """
        boards, st = self._boards[index], self._st[index]
        grid = ["."] * 64
        for c, each in enumerate(Colour):
            for i in range(64):
                if int(boards[c]) >> i & 1:
                    grid[i] = each.value
        letters = [each.value for each in Colour]
        piles = [
            [
                "".join(
                    letters[c] * int(st[vector_rules.PILES + 6 * seat + 3 * pile + c])
                    for c in range(3)
                )
                for pile in (0, 1)
            ]
            for seat in (0, 1)
        ]
        stage = int(st[vector_rules.STAGE])
        turn: dict[str, Any]
        if stage == 0:
            colour = int(st[vector_rules.COLOUR])
            turn = {
                "colour": None if colour < 0 else letters[colour],
                "placed": int(st[vector_rules.PLACED]),
            }
        else:
            turn = {"removed": int(st[vector_rules.REMOVED])}
        last_red = int(st[vector_rules.LAST_RED])
        data = {
            "game": "unstackable",
            "options": self.game.options,
            "stage": "stack" if stage == 0 else "unstack",
            "to_move": None if stage == 2 else int(st[vector_rules.TO_MOVE]),
            "grid": "".join(grid),
            "supply": {letters[c]: int(st[vector_rules.SUPPLY + c]) for c in range(3)},
            "turn": turn,
            "piles": piles,
            "last_red": None if last_red < 0 else last_red,
        }
        return self.game.state_from_dict(data)
