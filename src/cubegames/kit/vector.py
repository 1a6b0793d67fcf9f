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


def batch_actions(actions: Any, num_envs: int) -> npt.NDArray[np.int64]:
    """`actions` as one whole number per game, read before any game moves: a batch of
    another length or of another shape than `(N,)` (or `(N, 1)`), or an entry that is no
    whole number (NaN, 2.5, text), raises ValueError and changes nothing. A whole number out
    of range is an action like any other, an illegal one (its game is lost, as docs/rl.md
    says).

    >>> batch_actions([3, 0.0, -1], 3).tolist()
    [3, 0, -1]
    >>> batch_actions([0, float("nan")], 2)
    Traceback (most recent call last):
    ...
    ValueError: actions must be whole numbers, one per game: game 1 has nan
    """
    raw = np.asarray(actions)
    if raw.size != num_envs:
        raise ValueError(f"step needs {num_envs} actions, not {raw.size} (one per game)")
    if raw.ndim > 1 and raw.shape != (num_envs, 1):
        # six actions shaped (2, 3) for six games are a policy's mistake, not a batch
        raise ValueError(
            f"step needs {num_envs} actions shaped ({num_envs},), not an array of shape {raw.shape}"
        )
    raw = raw.reshape(num_envs)
    if raw.dtype.kind in "iu":
        # an unsigned number past int64 wraps to a negative one: illegal all the same
        return raw.astype(np.int64)
    if raw.dtype.kind == "f":
        whole = np.isfinite(raw) & (raw == np.floor(raw))
        if not whole.all():
            game = int(np.flatnonzero(~whole)[0])
            raise ValueError(
                f"actions must be whole numbers, one per game: game {game} has {raw[game]}"
            )
        # beyond int64 a cast is undefined; any number past 2**62 is as illegal as 2**62
        whole_numbers: npt.NDArray[np.int64] = np.clip(raw, -1, 2**62).astype(np.int64)
        return whole_numbers
    raise ValueError(f"actions must be whole numbers, one per game, not {raw.dtype} values")


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
