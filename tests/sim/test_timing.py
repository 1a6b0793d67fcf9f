"""Thinking time measures thinking: a process's first game does not carry the loading of
the bots' kernels."""

from __future__ import annotations

import json
import subprocess
import sys

# a fresh process (this one may have loaded the kernels already): STAKD solo games of
# `greedy` take a few hundredths of a second each; loading its kernels takes seconds
SCRIPT = """
import json
from cubegames.sim.play import Match, play_match
print(json.dumps([play_match(Match("stakd", ("greedy",), i, {"players": 1}))["think"][0]
                  for i in range(4)]))
"""


def test_the_first_game_of_a_process_is_timed_like_the_others() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=True
    )
    first, *rest = json.loads(done.stdout)
    assert first <= 3 * max(rest) + 0.25, (first, rest)
