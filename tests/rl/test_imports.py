"""Importing the learning layer stays cheap: nothing heavy loads before it is used."""

from __future__ import annotations

import subprocess
import sys

HEAVY = {"gymnasium", "pettingzoo"}


def loaded_after(statement: str) -> set[str]:
    """The modules (full names) a fresh interpreter has loaded after running `statement`."""
    code = f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def tops(modules: set[str]) -> set[str]:
    return {name.partition(".")[0] for name in modules}


def test_import_cubegames_loads_no_learning_code() -> None:
    loaded = loaded_after("import cubegames")
    assert not HEAVY & tops(loaded)
    assert not any(name.startswith("cubegames.rl") for name in loaded)


def test_import_cubegames_rl_defers_pettingzoo_and_the_environments() -> None:
    # gymnasium's registry loads, so that gymnasium.make("cubegames/...") works at once
    loaded = loaded_after("import cubegames.rl\nfrom cubegames.rl.symmetry import symmetries")
    assert not {"pettingzoo", "numba"} & tops(loaded)
    assert not {"cubegames.rl.gym", "cubegames.rl.vector", "cubegames.rl.pz"} & loaded
    assert tops(loaded_after("import cubegames.rl.pz")) >= HEAVY


def test_vector_env_is_exported_lazily() -> None:
    loaded = loaded_after("import cubegames.rl\nfrom cubegames.rl import vector_env")
    assert "numba" not in tops(loaded)
    assert "cubegames.rl.vector" not in loaded


def test_the_command_line_does_not_load_the_learning_layer() -> None:
    loaded = loaded_after("import cubegames.cli")
    assert not HEAVY & tops(loaded)
    assert "cubegames.rl" not in loaded
