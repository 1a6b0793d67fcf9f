"""Settings shared by the whole suite."""

from __future__ import annotations

import pytest
from hypothesis import settings

# Property tests are about correctness, never speed: a per-example time limit would only turn
# a busy CI machine into a failure. Speed lives in benchmarks/.
settings.register_profile("cubegames", deadline=None, print_blob=True)
settings.load_profile("cubegames")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test gets one more try (pytest-rerunfailures, shown as R in the summary).

    The suite runs real servers, browsers, processes and numba-compiled code on two workers
    of a loaded two-core machine: one timing miss, or a worker process that dies under it
    (pytest-xdist then reports "worker crashed"; the rerun puts the test on a fresh
    worker), would otherwise fail the whole run. A real fault fails both tries: the rules'
    tests are deterministic, and hypothesis replays a failing example from its database
    first."""
    for item in items:
        if item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=1))


#: the first tries of the tests that passed on their rerun: (test, why it failed)
_FIRST_TRIES: list[tuple[str, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if str(report.outcome) == "rerun":  # (set by pytest-rerunfailures, outside the type)
        _FIRST_TRIES.append((report.nodeid, report.longreprtext[-6000:]))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Why each rerun test failed its first try (the summary only names it), so that a
    timing miss a clean-clone run met can be read afterwards and its wait fixed."""
    if not _FIRST_TRIES:
        return
    terminalreporter.section("why the tests passed on their rerun failed their first try")
    for nodeid, why in _FIRST_TRIES:
        terminalreporter.write_line(f"--- {nodeid}")
        terminalreporter.write_line(why)
