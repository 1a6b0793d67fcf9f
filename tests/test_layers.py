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


def test_a_games_modules_import_no_extra_but_its_extra_parts() -> None:
    """A game's package is imported by the web app and the terminal game, which `make play`
    installs without extras: no module of it imports a package of an extra, but the parts
    named in `cubegames.kit.parts.EXTRAS` (a compiled batched environment is gymnasium's),
    which only the layer with the extra imports."""
    code = (
        "import importlib, pkgutil, sys\n"
        "import cubegames.games\n"
        "from cubegames.kit.parts import EXTRAS\n"
        "for info in pkgutil.walk_packages(cubegames.games.__path__, 'cubegames.games.'):\n"
        "    if info.name.rsplit('.', 1)[-1] not in EXTRAS:\n"
        "        importlib.import_module(info.name)\n"
        "print(' '.join(sorted({name.split('.')[0] for name in sys.modules})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert "numpy" in loaded and "rich" in loaded  # the parts were imported
    extras = {"gymnasium", "pettingzoo", "resvg_py", "torch", "stable_baselines3", "ray"}
    assert not extras & loaded, extras & loaded
