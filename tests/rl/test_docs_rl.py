"""docs/rl.md's worked example runs."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_the_worked_example_runs() -> None:
    result = doctest.testfile(
        str(PAGE),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 15 and result.failed == 0
