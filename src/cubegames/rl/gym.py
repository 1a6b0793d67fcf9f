"""A Gymnasium environment for one learner: solo games, or any game against bots.

    env = cubegames.rl.single_agent("cubed", players=1)                     # solo CUBED
    env = cubegames.rl.single_agent("unstackable", opponents=("greedy",))   # vs greedy
    env = gymnasium.make("cubegames/SingleAgent-v0", game_id="stakd", players=1)
    env = gymnasium.make("cubegames/Stakd-v0", players=1)          # after import cubegames.rl

- The learner plays `seat` (an int, or `"random"`: a seat drawn at each reset). The other
  seats are played by bots named like `cubegames.bot` specs, in seat order after skipping
  the learner's; the last name fills the remaining seats. A bot moves whenever its seat is
  to move, so `step` returns when it is the learner's turn again or the game is over.
- Observation: the observer's flat float32 features of `view(seat)`, `Box(0, 1, shape)`
  (`cubegames.rl.observation`; `env.unwrapped.observer.split(obs)` gives planes and vector).
- Action: `Discrete(codec.size)` (`cubegames.rl.encoding`); the legal ones are
  `info["action_mask"]` (int8, also `env.action_masks()` as booleans, the name
  sb3-contrib's maskable algorithms look for), and `info["legal_actions"]` lists them as
  int64 indexes. At the end the mask is all zeros and the list empty.
- An illegal action (`illegal="lose"`, the default) ends the episode with reward
  `illegal_reward` (-1) and `info["illegal_action"] = True`; Gymnasium's checker and plain
  random exploration sample actions without a mask, so this must not raise.
  `illegal="raise"` raises `IllegalAction` instead, for debugging a masked agent.
- Reward: 0 until the end, then the learner's `"win"` (1 for a win, shared on a tie) or
  `"shaped"` reward (see `cubegames.rl.session`). Episodes end by termination only.
- `action_space="factored"` (CUBED: a slot pattern, then a cell, each a step) and
  `observation="dict"` (planes and vector apart): see `cubegames.rl.factored`.
- Seeding: `reset(seed=s)` seeds `np_random`, which deals the game and seeds the bots;
  `reset()` continues it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import cubegames
from cubegames.bots import Bot
from cubegames.rl.factored import Factors
from cubegames.rl.session import IllegalAction, Session, draw_text

#: a flat float32 array, or with observation="dict" a dict of two
Obs = Any

#: the id under which `gymnasium.make` finds this environment
ENV_ID = "cubegames/SingleAgent-v0"


class SingleAgentEnv(gymnasium.Env[Obs, np.int64]):
    """One learner at one seat of one game, bots at the others (see the module docstring).

    >>> env = SingleAgentEnv("unstackable", opponents=("random",))
    >>> obs, info = env.reset(seed=3)
    >>> obs.shape, int(info["action_mask"].sum())
    ((356,), 3)
    """

    # gymnasium.make reads the render modes from the class, and Env declares `metadata` an
    # instance attribute (so it cannot be a ClassVar)
    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        *,
        opponents: Sequence[str] = ("random",),
        seat: int | str = 0,
        reward: str = "win",
        illegal: str = "lose",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        radius: int | str | None = None,
        action_space: str = "flat",
        observation: str = "flat",
        **options: Any,
    ) -> None:
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.session = Session(game_id, reward=reward, radius=radius, **options)
        players = self.session.game.players
        if seat != "random" and (isinstance(seat, bool) or seat not in range(players)):
            raise ValueError(f"seat must be 0 to {players - 1} or 'random', not {seat!r}")
        if isinstance(opponents, str) or (players > 1 and not opponents):
            raise ValueError("opponents is a list of bot names, e.g. ('random',)")
        for spec in opponents:
            cubegames.bot(spec)  # a bad name fails here, not at the first reset
        self.opponents = tuple(opponents)
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.codec = self.session.codec
        self.observer = self.session.observer
        self.shape = Factors(self.codec, self.observer, action_space, observation)
        self.observation_space = self.shape.observation_space
        self.action_space = spaces.Discrete(self.shape.size)
        self.bots: dict[int, Bot] = {}
        self._over = True

    def _info(self) -> dict[str, Any]:
        legal = self.shape.legal(self.session.legal(self.seat))
        mask = np.zeros(self.shape.size, dtype=np.int8)
        mask[legal] = 1
        return {"action_mask": mask, "legal_actions": legal}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (all False once the episode is over)."""
        mask = np.zeros(self.shape.size, dtype=bool)
        mask[self.shape.legal(self.session.legal(self.seat))] = True
        return mask

    def _observe(self) -> Any:
        return self.shape.observe(self.session.observe(self.seat))

    def _advance(self) -> None:
        """Let the bots move until the learner is to move or the game is over."""
        session = self.session
        while (seat := session.to_move) is not None and seat != self.seat:
            session.play_move(self.bots[seat].choose(session.state))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        players = self.session.game.players
        if self.seat_choice == "random":
            self.seat = int(rng.integers(players))
        self.session.reset(int(rng.integers(2**31)))
        others = [s for s in range(players) if s != self.seat]
        self.bots = {}
        for k, s in enumerate(others):
            spec = self.opponents[min(k, len(self.opponents) - 1)]
            self.bots[s] = cubegames.bot(spec, seed=int(rng.integers(2**31)))
        self._advance()
        if self.session.to_move is None:
            raise RuntimeError("the game ended before the learner's first move")
        self._over = False
        self.shape.pending = -1
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        session = self.session
        pending = self.shape.pending
        flat = self.shape.flat_action(action, self.session.legal(self.seat))
        if flat is None:  # the first half of a factored placement: the cell comes next
            return self._observe(), 0.0, False, False, self._info()
        move = session.move_of(flat)
        if move is None:
            if self.illegal == "raise":
                self.shape.pending = pending  # a chosen pattern still waits for its cell
                raise IllegalAction(f"action {action!r} is not legal now")
            self._over = True
            info = {
                "action_mask": np.zeros(self.shape.size, dtype=np.int8),
                "legal_actions": np.zeros(0, dtype=np.int64),
                "illegal_action": True,
            }
            return self._observe(), self.illegal_reward, True, False, info
        session.play_move(move)
        self._advance()
        reward = 0.0
        if session.to_move is None:
            self._over = True
            reward = session.rewards()[self.seat]
        return self._observe(), reward, self._over, False, self._info()

    def render(self) -> Any:
        """The learner's view: text (`"ansi"`) or a `(480, 640, 3)` uint8 picture
        (`"rgb_array"`, see `cubegames.rl.picture`); None without a render mode."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            from cubegames.rl.picture import rgb

            return rgb(self.session.state, self.seat)
        return draw_text(self.session.state, self.seat)


def register() -> None:
    """Make `gymnasium.make(ENV_ID, game_id=..., ...)` and the per-game ids find this
    environment (idempotent; `import cubegames.rl` has done it already)."""
    from cubegames.rl.registration import register as register_all

    register_all()


register()
