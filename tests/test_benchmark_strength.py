"""`benchmarks/strength.py` rewrites its ladder and keeps the sections other runs wrote."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "strength.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OLD = """# Strength ladder

| game | bot A | bot B |
|---|---|---|
| old row |

Old notes.

## CUBED's variants and seat counts

| setting | score |
| plain | 90% |

## Bot ratings (OpenSkill)

| rank | bot |
| 1 | `mcts` |
"""


def test_a_rerun_keeps_every_section_after_the_ladder(tmp_path: Path) -> None:
    strength = load()
    out = tmp_path / "strength.md"
    out.write_text(OLD)
    strength.write(["| new row |"], 40, 2, out)
    text = out.read_text()
    assert "| new row |" in text
    assert "| old row |" not in text and "Old notes." not in text
    assert text.index("| new row |") < text.index("## CUBED's variants and seat counts")
    assert text.endswith(OLD[OLD.index("## CUBED's variants") :])
    strength.write(["| newer row |"], 40, 2, out)  # a second run: nothing doubled or lost
    again = out.read_text()
    assert again.count("## Bot ratings (OpenSkill)") == 1
    assert again.count("## CUBED's variants") == 1
    assert "| newer row |" in again and "| new row |" not in again
    assert again.endswith(OLD[OLD.index("## CUBED's variants") :])


def test_a_first_run_writes_the_ladder_alone(tmp_path: Path) -> None:
    strength = load()
    out = tmp_path / "strength.md"
    strength.write(["| row |"], 10, 1, out)
    text = out.read_text()
    assert text.startswith("# Strength ladder")
    assert "| row |" in text and "## " not in text
