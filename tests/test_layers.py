"""Imports go one way. The layers (core <- kit <- games <- bots, symmetry <- sim, rl, render
<- server <- cli), the independence of the games from each other and the rule that a game's
helpers (search hooks, kernels, fast paths) never import its game class are import-linter
contracts in pyproject.toml, checked here and by `make lint`; the compiled kernels load only
when a program asks for them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "3 kept, 0 broken" in done.stdout


def test_the_compiled_kernel_loads_only_when_asked_for() -> None:
    import subprocess
    import sys

    code = (
        "import sys, cubegames, cubegames.sim, cubegames.bots\n"
        "state = cubegames.make('cubed', players=2, rounds=1).new_state(seed=1)\n"
        "state.play(state.legal_moves()[0])\n"
        "print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
