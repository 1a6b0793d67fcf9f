"""Unstackable's and STAKD's symmetries (D4): a re-export of `cubegames.symmetry.square`."""

from __future__ import annotations

from cubegames.symmetry.square import (
    ELEMENTS,
    FOOTPRINT,
    NAMES,
    Matrix,
    SquareSymmetry,
    StakdSymmetry,
    UnstackableSymmetry,
    canonical_boards,
    cell_map,
    mirrors_kept,
    multiply,
    square_symmetries,
)

__all__ = [
    "ELEMENTS",
    "FOOTPRINT",
    "NAMES",
    "Matrix",
    "SquareSymmetry",
    "StakdSymmetry",
    "UnstackableSymmetry",
    "canonical_boards",
    "cell_map",
    "mirrors_kept",
    "multiply",
    "square_symmetries",
]
