"""A factored action space for CUBED, and Dict observations, over a batched environment.

CUBED's flat action space names a cell and a slot pattern at once: 219,416 actions for EN
(radius 20), so a policy's output layer alone is huge. The factored space splits a
placement into two decisions, each a step of the environment:

1. *what*: a slot pattern (a piece turned one of its ways), or any move that is not a
   placement (draw, pass, and the variants' moves);
2. *where*: a cell of the window, for the pattern chosen.

    envs = cubegames.rl.vector_env("cubed", 16, seed=0, opponent="random", players=2,
                                   rounds=1, action_space="factored")

Actions (one `Discrete(max(S + E, C))` space for both steps; the mask says which are legal):

    step 1 ("what")   [0, S)        slot pattern p (the codec's `patterns[p]`)
                      [S, S + E)    the flat codec's action `draw + (a - S)`: draw, pass, and
                                    with variants draw3:k, keep, give and skip
    step 2 ("where")  [0, C)        window cell c (the codec's `cells[c]`): places pattern p
                                    there, flat action `c * S + p`

With EN and radius 20: S = 174, E = 2 (no variants), C = 1,261, so 1,261 actions. Only a
pattern with at least one legal cell is offered in step 1, so step 2 always has a legal cell.
Step 1 of a placement returns reward 0 and changes nothing in the game; the game moves when
the move is whole. A pattern whose cells are all illegal, or an illegal cell, ends the game
as any illegal action does.

Observation: the flat one (`observer(game)`) followed by the factor block, `1 + S` values:
1 in step 2, then the pattern chosen in step 1 (one-hot; zeros in step 1).

`observation="dict"` (for CUBED and any other game) gives a `Dict` space instead of one
flat vector, so convolutional policies (SB3's `MultiInputPolicy`) need no custom extractor:
`"planes"`, float32 `(channels, height, width)` as documented per game in its `rl` part
(`cubegames.games.<game>.rl`), and `"vector"`, the vector part (then the factor block,
when factored).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from cubegames.kit.vector import batch_actions
from cubegames.rl.encoding import ActionCodec
from cubegames.rl.observation import Observer

ACTION_SPACES = ("flat", "factored")


@runtime_checkable
class Placements(Protocol):
    """A codec whose placements are a slot pattern on a window cell, flat action
    `cell * len(patterns) + pattern`, and whose other moves follow from `draw` on: what the
    factored space splits (CUBED's, `cubegames.games.cubed.rl.Codec`)."""

    patterns: list[str]
    cells: list[tuple[int, int]]
    draw: int
    size: int


OBSERVATIONS = ("flat", "dict")
_NOT_FACTORED = (
    "the factored action space is CUBED's (a codec of slot patterns on cells); other games "
    "keep 'flat'"
)


class Shaped(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """A batched environment (`cubegames.rl.vector`) seen through the factored CUBED action
    space and/or Dict observations (see the module docstring); the same interface, with
    `restart`, `observations` and `action_masks`."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, envs: Any, *, action_space: str = "flat", observation: str = "flat") -> None:
        if action_space not in ACTION_SPACES:
            raise ValueError(f"action_space must be 'flat' or 'factored', not {action_space!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be 'flat' or 'dict', not {observation!r}")
        self.factored = action_space == "factored"
        if self.factored and not isinstance(envs.codec, Placements):
            raise ValueError(_NOT_FACTORED)
        self.envs = envs
        self.codec = envs.codec
        self.observer = envs.observer
        self.num_envs = n = envs.num_envs
        self.opponent = getattr(envs, "opponent", "self")
        self.dict = observation == "dict"
        if self.factored:
            codec: Placements = envs.codec
            self.patterns = len(codec.patterns)
            self.cells = len(codec.cells)
            self.extras = codec.size - codec.draw
            self.size = max(self.patterns + self.extras, self.cells)
            self.block = 1 + self.patterns
        else:
            self.size = envs.codec.size
            self.block = 0
        self.pending = np.full(n, -1, dtype=np.int64)
        self.flat_masks = np.zeros((n, envs.codec.size), dtype=bool)
        self.masks = np.zeros((n, self.size), dtype=bool)
        self.to_move = np.zeros(n, dtype=np.int64)
        self.base = np.zeros((n, *envs.observer.shape), dtype=np.float32)
        self.cut = int(np.prod(self.observer.plane_shape))
        vector = self.observer.vector_size + self.block
        if self.dict:
            single: spaces.Space[Any] = spaces.Dict(
                {
                    "planes": spaces.Box(0.0, 1.0, self.observer.plane_shape, dtype=np.float32),
                    "vector": spaces.Box(0.0, 1.0, (vector,), dtype=np.float32),
                }
            )
        else:
            single = spaces.Box(0.0, 1.0, (self.cut + vector,), dtype=np.float32)
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(self.size)
        self.observation_space = gymnasium.vector.utils.batch_space(single, n)
        self.action_space = spaces.MultiDiscrete(np.full(n, self.size))

    # -- what the learner sees -----------------------------------------------------------

    def _take(self, obs: Any, info: dict[str, Any]) -> None:
        self.base[:] = obs
        self.flat_masks[:] = info["action_mask"]
        self.to_move[:] = info["to_move"]
        self._mask_rows(np.arange(self.num_envs))

    def _mask_rows(self, rows: npt.NDArray[np.int64]) -> None:
        if not self.factored:
            self.masks[rows] = self.flat_masks[rows]
            return
        cells, patterns = self.cells, self.patterns
        for i in rows:
            flat = self.flat_masks[i]
            placements = flat[: cells * patterns].reshape(cells, patterns)
            self.masks[i] = False
            p = self.pending[i]
            if p < 0:
                self.masks[i, :patterns] = placements.any(axis=0)
                self.masks[i, patterns : patterns + self.extras] = flat[cells * patterns :]
            else:
                self.masks[i, :cells] = placements[:, p]

    def observations(self) -> Any:
        """Every game's observation now, as the observation space has it (copies)."""
        n = self.num_envs
        vector = np.zeros((n, self.observer.vector_size + self.block), dtype=np.float32)
        vector[:, : self.observer.vector_size] = self.base[:, self.cut :]
        if self.factored:
            at = self.observer.vector_size
            waiting = np.flatnonzero(self.pending >= 0)
            vector[waiting, at] = 1.0
            vector[waiting, at + 1 + self.pending[waiting]] = 1.0
        if self.dict:
            planes = self.base[:, : self.cut].reshape(n, *self.observer.plane_shape).copy()
            return {"planes": planes, "vector": vector}
        return np.concatenate([self.base[:, : self.cut], vector], axis=1)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions now, `(num_envs, size)` booleans (a copy)."""
        return self.masks.copy()

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        return {
            "action_mask": self.masks.copy(),
            "to_move": self.to_move.copy(),
            "illegal_action": np.array(info["illegal_action"]),
            "seat_rewards": np.array(info["seat_rewards"]),
            "choosing_cell": self.pending >= 0,
        }

    # -- the interface ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.envs.reset(seed=seed)
        self.pending[:] = -1
        self._take(obs, info)
        return self.observations(), self._info(info)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        chosen = batch_actions(actions, self.num_envs)
        if not self.factored:
            obs, rewards, terminations, truncations, info = self.envs.step(chosen)
            self._take(obs, info)
            return (
                self.observations(),
                rewards.copy(),
                terminations.copy(),
                truncations.copy(),
                self._info(info),
            )
        flat = np.full(self.num_envs, -1, dtype=np.int64)  # -1: illegal in every environment
        rows: list[int] = []
        s, e = self.patterns, self.extras
        for i in range(self.num_envs):
            a = int(chosen[i])
            if self.to_move[i] < 0:  # the game just ended: this step deals the next
                flat[i] = 0
                rows.append(i)
            elif self.pending[i] < 0:
                if 0 <= a < s and self.masks[i, a]:
                    self.pending[i] = a  # a pattern: the cell comes next
                    continue
                if s <= a < s + e:
                    flat[i] = self.codec.draw + a - s
                rows.append(i)
            else:
                if 0 <= a < self.cells:
                    flat[i] = a * s + self.pending[i]
                self.pending[i] = -1
                rows.append(i)
        obs, rewards, terminations, truncations, info = self.envs.step_rows(flat, rows)
        self._take(obs, info)
        return (
            self.observations(),
            np.array(rewards),
            np.array(terminations),
            np.array(truncations),
            self._info(info),
        )

    def restart(self, games: Any) -> None:
        """Deal the games `games` afresh at once (see `cubegames.rl.vector`)."""
        rows = np.asarray(games, dtype=np.int64).reshape(-1)
        self.envs.restart(rows)
        self.pending[rows] = -1
        self.base[rows] = self.envs.observations()[rows]
        self.flat_masks[rows] = self.envs.action_masks()[rows]
        self.to_move[rows] = 0 if self.opponent != "self" else self._to_move_now(rows)
        self._mask_rows(rows)

    def _to_move_now(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        to_move = getattr(self.envs, "to_move", None)
        if to_move is None:
            return np.zeros(len(rows), dtype=np.int64)
        return np.asarray(to_move)[rows]

    def close(self, **kwargs: Any) -> None:
        self.envs.close()


class Factors:
    """The factored action space and Dict observations for one game (one seat's decisions),
    as the single-agent environment uses them: the same layout as `Shaped`."""

    def __init__(
        self, codec: ActionCodec, observer: Observer, action_space: str, observation: str
    ) -> None:
        if action_space not in ACTION_SPACES:
            raise ValueError(f"action_space must be 'flat' or 'factored', not {action_space!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be 'flat' or 'dict', not {observation!r}")
        self.factored = action_space == "factored"
        if self.factored and not isinstance(codec, Placements):
            raise ValueError(_NOT_FACTORED)
        self.codec = codec
        self.observer = observer
        self.dict = observation == "dict"
        placements = codec if isinstance(codec, Placements) else None
        self.patterns = 0 if placements is None else len(placements.patterns)
        self.cells = 0 if placements is None else len(placements.cells)
        self.draw = 0 if placements is None else placements.draw
        extras = codec.size - self.draw
        self.size = max(self.patterns + extras, self.cells) if self.factored else codec.size
        self.block = 1 + self.patterns if self.factored else 0
        #: the pattern chosen in step 1, or -1
        self.pending = -1
        self.cut = int(np.prod(observer.plane_shape))
        vector = observer.vector_size + self.block
        if self.dict:
            self.observation_space: spaces.Space[Any] = spaces.Dict(
                {
                    "planes": spaces.Box(0.0, 1.0, observer.plane_shape, dtype=np.float32),
                    "vector": spaces.Box(0.0, 1.0, (vector,), dtype=np.float32),
                }
            )
        else:
            self.observation_space = spaces.Box(0.0, 1.0, (self.cut + vector,), dtype=np.float32)

    def legal(self, flat: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The legal actions of this space, from the legal flat actions."""
        if not self.factored:
            return flat
        placing = flat[flat < self.draw]
        cells, patterns = np.divmod(placing, self.patterns)
        if self.pending >= 0:
            return np.unique(cells[patterns == self.pending])
        others = flat[flat >= self.draw] - self.draw + self.patterns
        return np.concatenate([np.unique(patterns), np.sort(others)]).astype(np.int64)

    def flat_action(self, action: Any, flat: npt.NDArray[np.int64]) -> int | None:
        """The flat action of `action`, or None after a pattern (step 1 of a placement);
        -1 for an action that cannot be legal (the environment's illegal path)."""
        try:
            a = int(action)
        except (TypeError, ValueError):
            return -1
        if a != action:  # 2.5, or the text "2": no action
            return -1
        if not self.factored:
            return a
        if self.pending < 0:
            if 0 <= a < self.patterns and a in self.legal(flat):
                self.pending = a
                return None
            if self.patterns <= a < self.patterns + self.codec.size - self.draw:
                return self.draw + a - self.patterns
            return -1
        pattern, self.pending = self.pending, -1
        return a * self.patterns + pattern if 0 <= a < self.cells else -1

    def observe(self, flat: npt.NDArray[np.float32]) -> Any:
        """The observation of this space from the flat one."""
        vector = np.zeros(self.observer.vector_size + self.block, dtype=np.float32)
        vector[: self.observer.vector_size] = flat[self.cut :]
        if self.factored and self.pending >= 0:
            vector[self.observer.vector_size] = 1.0
            vector[self.observer.vector_size + 1 + self.pending] = 1.0
        if self.dict:
            return {"planes": flat[: self.cut].reshape(self.observer.plane_shape), "vector": vector}
        return np.concatenate([flat[: self.cut], vector])
