"""A PettingZoo AEC environment for every game: `cubegames.rl.env("cubed", players=3)`.

- Agents `player_0` ... `player_{n-1}` are the seats; `agent_selection` is the seat to
  move. A seat may move several times in a row (a CUBED draw then a placement, the three
  cubes of an Unstackable black turn); a STAKD seat that is out for a round is skipped.
- `observe(agent)` is `{"observation": float32 array, "action_mask": int8 array}`: the
  observer's flat features of `view(seat)` (`cubegames.rl.observation`) and the codec's
  mask (`cubegames.rl.encoding`), all zeros for a seat that is not to move. The mask is
  also in `infos[agent]["action_mask"]` for the agent to move, and the legal actions as
  int64 indexes in `infos[agent]["legal_actions"]` (in the order of `legal_moves()`;
  cheaper than `np.flatnonzero` of a CUBED mask of 219,416 entries).
- Actions are `Discrete(codec.size)`. An illegal action raises `IllegalAction` (a
  `ValueError`) and changes nothing; `illegal="lose"` instead ends the game with reward -1
  for the offender and 0 for everyone else (its info says `"illegal_action": True`).
- Rewards come at the end of the game only: `reward="win"` (default: 1 for a win, shared on
  a tie) or `"shaped"` (see `cubegames.rl.session`). Every agent is then terminated and
  leaves with the usual dead step (`step(None)`); nothing is ever truncated, since every
  game ends by itself. A `step` once every agent has left (or before
  `reset`) raises `RuntimeError`, as the Gymnasium environment's does.
- Chance: `reset(seed=s)` deals the game from a generator seeded with `s`; `reset()`
  without a seed continues that generator (first use: fresh entropy).
- `render()` with `render_mode="ansi"` returns the terminal drawing of what the seat to
  move sees; with `"rgb_array"` its picture, `(480, 640, 3)` uint8 (`cubegames.rl.picture`).

Options are the game's (`players`, `edition`, `variants`, ...) plus `reward`, `illegal`,
`render_mode` and, for CUBED, the window `radius`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cubegames.core.chance import entropy_seed
from cubegames.rl.session import IllegalAction, Session, draw_text

Observation = dict[str, Any]


class CubegamesAEC(AECEnv[str, Observation, Any]):
    """The AEC environment of one game with one set of options (see the module docstring).

    >>> from cubegames.rl import env
    >>> aec = env("unstackable")
    >>> aec.reset(seed=1)
    >>> aec.agent_selection, int(aec.observe("player_0")["action_mask"].sum())
    ('player_0', 3)
    """

    def __init__(
        self,
        game_id: str,
        *,
        reward: str = "win",
        illegal: str = "raise",
        render_mode: str | None = None,
        radius: int | str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}"
            )
        self.session = Session(game_id, reward=reward, radius=radius, **options)
        self.illegal = illegal
        self.render_mode = render_mode
        self.metadata = {
            "name": f"cubegames_{game_id}_v0",
            "render_modes": ["ansi", "rgb_array"],
            "is_parallelizable": False,
        }
        players = self.session.game.players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.session.codec.size
        observation = spaces.Box(0.0, 1.0, self.session.observer.shape, dtype=np.float32)
        mask = spaces.Box(0, 1, (size,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.agents: list[str] = []
        self.infos: dict[str, dict[str, Any]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_now(self) -> Any:
        """The game state being played (for inspection; learners should use `observe`)."""
        return self.session.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(entropy_seed(seed))
        self.session.reset(int(self._rng.integers(2**31)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._select()

    def _select(self) -> None:
        """Point `agent_selection` at the seat to move and give it its mask."""
        seat = self.session.to_move
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        self.infos = {a: {} for a in self.agents}
        self.infos[self.agent_selection] = {
            "action_mask": self.session.mask(seat),
            "legal_actions": self.session.legal(seat),
        }

    def observe(self, agent: str) -> Observation:
        seat = self.agent_name_mapping[agent]
        return {
            "observation": self.session.observe(seat),
            "action_mask": self.session.mask(seat),
        }

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise RuntimeError(
                "no game in progress (every agent has left, or reset() was never called): "
                "call reset()"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        session = self.session
        move = session.move_of(action)
        if move is None:
            if self.illegal == "raise":
                raise IllegalAction(f"{agent}: action {action!r} is not legal now")
            self._finish({agent: -1.0})
            self.infos[agent]["illegal_action"] = True
        else:
            session.play_move(move)
            if session.to_move is None:
                rewards = session.rewards()
                self._finish({a: rewards[i] for i, a in enumerate(self.possible_agents)})
            else:
                self._select()
        self._accumulate_rewards()

    def _finish(self, rewards: dict[str, float]) -> None:
        """End the game for every agent with these rewards (0 for any not named)."""
        for a in self.agents:
            self.rewards[a] = rewards.get(a, 0.0)
            self.terminations[a] = True
        self.infos = {a: {} for a in self.agents}

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        # the drawings are made for a seat (CUBED's needs a hand to show), so this draws
        # what the seat to move sees (seat 0 once the game is over)
        state = self.session.state
        if self.render_mode == "rgb_array":
            from cubegames.rl.picture import rgb

            return rgb(state, state.to_move or 0)
        return draw_text(state, state.to_move or 0)

    def close(self) -> None:
        """Nothing to release."""
