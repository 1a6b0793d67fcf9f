"""The simulator: many seeded games, played in parallel, recorded one row per game."""

from cubegames.sim.play import Match, play_match
from cubegames.sim.runner import run

__all__ = ["Match", "play_match", "run"]
