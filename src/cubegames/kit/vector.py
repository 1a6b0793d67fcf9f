"""What the batched learning environments share (`cubegames.rl.vector` over the Python rules,
and a game's compiled `vector` part): the step over every game, and each seat's reward at
the end of a game."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

#: the opponents a compiled environment plays inside its kernel with no bot's help
OPPONENTS = ("self", "random")

#: an opponent's kind, as the compiled environments' kernels read it: none (every seat
#: learns), random, the greedy bot's rule, the mcts bot's flat search
SELF, RANDOM, GREEDY, MCTS = range(4)
#: an opponent as a kernel plays it: its kind and (for `MCTS`) its playouts a move
Opponent = tuple[int, int]


def plain_opponent(opponent: Any, kinds: tuple[int, ...]) -> Opponent | None:
    """`opponent` by name where reading it needs no bot ("self", "random", "greedy"), if
    it is one of a game kernel's `kinds` (`SELF` always is); None for anything else (a bot's
    settings are read by `cubegames.rl.kernel_opponents.spec`)."""
    kind = (
        {"self": SELF, "random": RANDOM, "greedy": GREEDY}.get(opponent)
        if isinstance(opponent, str)
        else None
    )
    if kind is None or (kind != SELF and kind not in kinds):
        return None
    return kind, 0


#: what `step` returns: observations, rewards, terminations, truncations, info
StepResult = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.float64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    dict[str, Any],
]


class StepsRows:
    """`step` for a batched environment that can step some of its games alone
    (`step_rows`, which a factored action space needs): every game at once."""

    num_envs: int

    def step_rows(self, actions: Any, rows: Any) -> StepResult:
        raise NotImplementedError

    def step(self, actions: Any) -> StepResult:
        """Play one action in every game (see `cubegames.rl.vector`)."""
        return self.step_rows(actions, range(self.num_envs))


def seat_outcomes(shares: list[float]) -> list[float]:
    """Every seat's end-of-game reward (`outcome`), in seat order.

    >>> seat_outcomes([0.0, 1.0, 0.0])
    [-1.0, 1.0, -1.0]
    """
    return [outcome(shares, seat) for seat in range(len(shares))]


def outcome(shares: list[float], seat: int) -> float:
    """+1 for a sole win, -1 for a loss, 0 otherwise (a shared win).

    >>> outcome([1.0, 0.0], 0), outcome([1.0, 0.0], 1), outcome([0.5, 0.5], 1)
    (1.0, -1.0, 0.0)
    """
    share = shares[seat]
    return 1.0 if share == 1.0 else -1.0 if share == 0.0 else 0.0
