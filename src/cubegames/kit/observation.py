"""The base of every observer: float32 tensors for one seat, built from `state.view(seat)`
alone (see `cubegames.rl.observation`, which finds a game's observer). A game's `rl` part
(`<game package>.rl`) writes its `Observer` on this one."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from cubegames.core.game import Game

View = Mapping[str, Any]
Array = npt.NDArray[np.float32]


class Observer(ABC):
    """Observation tensors of one game with one set of options."""

    game: Game[Any]
    #: shape of `planes(view)`; `(0,)` for a game without spatial features
    plane_shape: tuple[int, ...]
    #: length of `vector(view)`
    vector_size: int

    @property
    def shape(self) -> tuple[int]:
        """Shape of `observe(view)`: the planes' size plus the vector's."""
        return (int(np.prod(self.plane_shape)) + self.vector_size,)

    @abstractmethod
    def fill_planes(self, view: View, out: Array) -> None:
        """Write the spatial features of `view` into `out`: zeros of shape `plane_shape`."""

    @abstractmethod
    def vector(self, view: View) -> Array:
        """Non-spatial features of `view`, float32, shape `(vector_size,)`, in [0, 1]."""

    def planes(self, view: View) -> Array:
        """Spatial features of `view`, float32, shape `plane_shape`, values in [0, 1]."""
        out = np.zeros(self.plane_shape, dtype=np.float32)
        self.fill_planes(view, out)
        return out

    def observe(self, view: View) -> Array:
        """Planes (flattened) then vector: one float32 array of shape `shape`.

        Written in place into one fresh array: large short-lived arrays are what a step
        allocates most (see the speed note in `cubegames.rl.session`).
        """
        out = np.zeros(self.shape, dtype=np.float32)
        cut = out.size - self.vector_size
        self.fill_planes(view, out[:cut].reshape(self.plane_shape))
        out[cut:] = self.vector(view)
        return out

    def split(self, flat: Array) -> tuple[Array, Array]:
        """The planes and the vector of an `observe` result (views, not copies)."""
        cut = int(np.prod(self.plane_shape))
        return flat[:cut].reshape(self.plane_shape), flat[cut:]

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"<{name} {self.game.id} planes={self.plane_shape} vector={self.vector_size}>"


def relative(seat: int, players: int) -> list[int]:
    """Seats in the viewer's order: `seat` first, then the next seats in turn.

    >>> relative(2, 4)
    [2, 3, 0, 1]
    """
    return [(seat + k) % players for k in range(players)]
