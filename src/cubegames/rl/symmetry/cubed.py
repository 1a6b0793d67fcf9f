"""CUBED's symmetries: a re-export of `cubegames.symmetry.cubed`."""

from __future__ import annotations

from cubegames.symmetry.cubed import CubedSymmetry, cubed_symmetries, mirror_closed

__all__ = ["CubedSymmetry", "cubed_symmetries", "mirror_closed"]
