"""`benchmarks/strength.py` rewrites the rows of the pairings it ran and keeps the other
rows and the sections other runs wrote."""

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

| game | bot A | bot B | score |
|---|---|---|---|
| cubed | `greedy` | `random` | 95% |
| cubed | `mcts` | `greedy` | 90% |

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
    strength.write(["| cubed | `mcts` | `greedy` | 91% |"], 40, 2, out)
    text = out.read_text()
    assert "| cubed | `mcts` | `greedy` | 91% |" in text
    assert "| cubed | `mcts` | `greedy` | 90% |" not in text
    assert text.count("Old notes.") == 1  # the notes under the table stay
    # the pairing not re-run keeps its row, in its place
    assert text.index("| cubed | `greedy` | `random` | 95% |") < text.index("91%")
    assert text.index("91%") < text.index("## CUBED's variants and seat counts")
    assert text.endswith(OLD[OLD.index("## CUBED's variants") :])
    # a second run with a new pairing: nothing doubled or lost
    strength.write(["| stakd | `mcts` | `greedy` | 97% |"], 40, 2, out)
    again = out.read_text()
    assert again.count("## Bot ratings (OpenSkill)") == 1
    assert again.count("## CUBED's variants") == 1
    assert again.count("| cubed |") == 2
    assert "91%" in again and "95%" in again
    assert again.index("91%") < again.index("| stakd | `mcts` | `greedy` | 97% |")
    assert again.count("Old notes.") == 1
    assert again.index("97%") < again.index("Old notes.")
    assert again.endswith(OLD[OLD.index("## CUBED's variants") :])


def test_a_first_run_writes_the_ladder_alone(tmp_path: Path) -> None:
    strength = load()
    out = tmp_path / "strength.md"
    strength.write(["| cubed | `greedy` | `random` | 95% |"], 10, 1, out)
    text = out.read_text()
    assert text.startswith("# Strength ladder")
    assert "| cubed | `greedy` | `random` | 95% |" in text and "## " not in text
    assert strength.NOTES in text
