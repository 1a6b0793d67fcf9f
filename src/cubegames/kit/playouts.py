"""What the games' compiled playout bridges share: a batch of playouts handed to a kernel.

A flat search asks a game's `Playouts` for many playouts at once (`batch(moves, seeds,
seat)`: playout `i` starts with the root move `moves[i]` and draws its chance from
`seeds[i]`); the bridges of CUBED, Unstackable and STAKD hand them to their kernels as int64
arrays and read one reward per playout back.

>>> arms, drawn, out = batch_arrays([0, 2], [7, 8])
>>> arms.dtype.name, drawn.tolist(), out.shape
('int64', [7, 8], (2,))
>>> batch_arrays([0, 2], [7])
Traceback (most recent call last):
ValueError: batch: one seed per move
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt


def batch_arrays(
    moves: Sequence[int], seeds: Sequence[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The root moves and seeds of a batch as int64 arrays (seeds are below 2**63: they fit
    int64, which the kernels read as their generators' state), and room for one reward per
    playout; a `ValueError` unless there is one seed per move."""
    arms = np.array(moves, dtype=np.int64)
    drawn = np.array(seeds, dtype=np.int64)
    if arms.shape != drawn.shape:
        raise ValueError("batch: one seed per move")
    return arms, drawn, np.empty(arms.shape[0], dtype=np.float64)


def rewards(out: npt.NDArray[np.float64]) -> list[float]:
    """The rewards a kernel wrote, as a list of floats."""
    result: list[float] = out.tolist()
    return result
