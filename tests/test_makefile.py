"""`make play` installs what playing needs and no test tools; `make test` installs it all
(issue #23). Read from `make -n -B` (what make would run, nothing run)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _would_run(target: str) -> str:
    done = subprocess.run(
        ["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_play_installs_the_play_extra_and_no_test_tools() -> None:
    play = _would_run("play")
    assert "-e '.[play]'" in play
    assert ".[dev]" not in play and "pytest" not in play
    assert "cubegames serve" in play
    test = _would_run("test")
    assert "-e '.[dev]'" in test and "pytest" in test
