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


#: the parts of the package that `make play` runs (the web app, its bots, the terminal game);
#: the learning environments, OpenSpiel and Ray are extras
PLAYED = ("cubegames.server", "cubegames.bots", "cubegames.games", "cubegames.core")
PLAYED_MODULES = ("cubegames.cli", "cubegames.terminal", "cubegames.kernels")

_IMPORTS = """
import importlib, pkgutil, sys
import cubegames
from cubegames.kit.parts import EXTRAS
for name in sys.argv[2:]:
    importlib.import_module(name)
for package in sys.argv[1].split(","):
    module = importlib.import_module(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        # a game's parts of an extra (its vector environment: Gymnasium) are left out
        part = info.name.startswith("cubegames.games.") and info.name.rsplit(".", 1)[1]
        if ".migrations" not in info.name and part not in EXTRAS:
            importlib.import_module(info.name)
print("\\n".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


def _norm(name: str) -> str:
    import re

    return re.sub(r"[-_.]+", "-", name).lower()


def _core_closure() -> set[str]:
    """The distributions `pip install cubegames` brings into a new venv (no extras of
    ours, the extras our requirements ask of theirs), by normalised name: from
    pyproject.toml, then each one's installed metadata."""
    import tomllib
    from importlib.metadata import PackageNotFoundError, requires

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    seen: set[str] = {"pip", "setuptools"}  # what every new venv of Python 3.11 holds
    todo = [Requirement(line) for line in project["dependencies"]]
    while todo:
        requirement = todo.pop()
        key = _norm(requirement.name)
        extras = sorted(requirement.extras)
        if f"{key}{extras}" in seen:
            continue
        seen |= {key, f"{key}{extras}"}
        try:
            wanted = requires(requirement.name) or []
        except PackageNotFoundError:
            continue
        for line in wanted:
            needed = Requirement(line)
            if needed.marker is None or any(
                needed.marker.evaluate({"extra": extra}) for extra in ["", *extras]
            ):
                todo.append(needed)
    return seen


def test_what_make_play_runs_imports_only_the_core_dependencies() -> None:
    """`make play` installs the core dependencies alone (the `play` extra is empty): a
    module of the web app, the bots or the terminal game that imports a package of an extra
    (or of the test tools) would fail on a fresh machine, where no test installed it."""
    import sys
    from importlib.metadata import packages_distributions

    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS, ",".join(PLAYED), *PLAYED_MODULES],
        capture_output=True,
        text=True,
        check=True,
    )
    owners = packages_distributions()
    allowed = _core_closure()
    outside = {
        f"{module} ({', '.join(owners[module])})"
        for module in done.stdout.split()
        if module in owners and not any(_norm(d) in allowed for d in owners[module])
    }
    assert not outside, f"imported by what make play runs, not installed by it: {outside}"
