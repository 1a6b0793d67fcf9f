"""Shared fixtures for the simulator tests: a small job, and one local Ray instance."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

# no display here; the report draws through Agg whatever the environment says
os.environ.setdefault("MPLBACKEND", "Agg")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "ray: starts a local Ray instance (about 5 s); one test per session"
    )


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """An in-process local Ray cluster with 2 CPUs, started once and shut down at the end.

    Never `ray stop`: that would stop every Ray process on the machine.
    """
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        yield ray
    finally:
        ray.shutdown()
