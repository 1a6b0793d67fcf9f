"""The simulator and balance lab: many seeded games, played in parallel, recorded one row per
game, and reports that say who wins and by how much.

- `play` plays one `Match`; `job` describes a run (`make_job`) and its rows;
- `runner` plays many matches in local processes or on Ray (`ray_backend`);
- `simulate` runs a job into a results file (`store`), in batches, resuming where it stopped;
- `sweep` plays a grid of settings, each until its answer is precise enough;
- `analysis`, `extras`, `plots` and `report` turn results into tables and an HTML page;
- `summaries` holds each game's own columns, `stats` the confidence intervals.
"""

from cubegames.sim.job import Job, make_job
from cubegames.sim.play import Match, play_match
from cubegames.sim.runner import run
from cubegames.sim.simulate import simulate

__all__ = ["Job", "Match", "make_job", "play_match", "run", "simulate"]
