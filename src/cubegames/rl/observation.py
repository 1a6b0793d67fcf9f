"""Observation tensors for one seat, built from `state.view(seat)` and nothing else.

An observer turns a view into two float32 arrays and their concatenation:

    planes = obs.planes(view)    # spatial features, shape `obs.plane_shape`
    vector = obs.vector(view)    # everything else, shape `(obs.vector_size,)`
    flat = obs.observe(view)     # planes.ravel() then vector: shape `obs.shape`, float32

`obs.split(flat)` gives the planes and the vector back. Every value lies in [0, 1] (counts
are divided by what the box could hold), so the Gymnasium space is `Box(0, 1, obs.shape)`.
Seats are written *relative to the viewer*: entry 0 of a per-seat feature is the viewer,
entry 1 the next seat in turn order, and so on, so one policy can play any seat.

Because an observer reads only the view, two positions that one seat cannot tell apart
(`game.determinize(view, seat, rng)`) give that seat equal observations.

- CUBED: planes `(3·K + 4, 2R + 1, 2R + 1)`, rows r and columns q of a hex window: slot ×
  colour one-hot, occupied, dead, playable, window; vector: hand counts per piece, hand
  sizes, bag, turn, scores.
- Unstackable: planes `(5, 4, 4, 4)` as `[c, z, y, x]`: yellow, red, black, stack targets,
  removable; vector: supply, stage, turn, piles.
- STAKD: planes `(25, W, W)`: the current layer and the one below (type, owner, carried
  types) and layer 0; vector: hands, out, points per seat, layer facts.
- CUBES: no planes (`(0,)`); vector: chips, pot, totals per seat, set, last roll.

Module `cubegames.rl.games.<game>` documents each feature's index.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from cubegames.core.game import Game
from cubegames.core.registry import built_in

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


def observer(game: Game[Any], **settings: Any) -> Observer:
    """The observer of `game` with its options; `settings` are the observer's own (CUBED:
    `radius`, which must match the codec's for the planes and actions to share cells).

    >>> import cubegames
    >>> observer(cubegames.make("unstackable")).plane_shape
    (5, 4, 4, 4)
    """
    if not built_in(game.id):  # a plug-in game
        from cubegames.rl.plugin import plug_in_observer

        return plug_in_observer(game, **settings)
    module = importlib.import_module(f"cubegames.rl.games.{game.id}")
    made: Observer = module.Observer(game, **settings)
    return made


def relative(seat: int, players: int) -> list[int]:
    """Seats in the viewer's order: `seat` first, then the next seats in turn.

    >>> relative(2, 4)
    [2, 3, 0, 1]
    """
    return [(seat + k) % players for k in range(players)]
