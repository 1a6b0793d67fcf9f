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

A game's observer is `Observer` in its own `rl` part (`cubegames.games.<game>.rl` documents
each feature's index), written on `cubegames.kit.observation.Observer`.
"""

from __future__ import annotations

from typing import Any

from cubegames.core.game import Game
from cubegames.kit.observation import Array, Observer, View, relative
from cubegames.kit.parts import part

__all__ = ["Array", "Observer", "View", "observer", "relative"]


def observer(game: Game[Any], **settings: Any) -> Observer:
    """The observer of `game` with its options; `settings` are the observer's own (CUBED:
    `radius`, which must match the codec's for the planes and actions to share cells).

    >>> import cubegames
    >>> observer(cubegames.make("unstackable")).plane_shape
    (5, 4, 4, 4)
    """
    module = part(game.id, "rl")
    if module is None:  # a game without an `rl` part: its `Learnable` capability, or generic
        from cubegames.rl.plugin import plug_in_observer

        return plug_in_observer(game, **settings)
    made: Observer = module.Observer(game, **settings)
    return made
