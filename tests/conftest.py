"""Settings shared by the whole suite."""

from __future__ import annotations

from hypothesis import settings

# Property tests are about correctness, never speed: a per-example time limit would only turn
# a busy CI machine into a failure. Speed lives in benchmarks/.
settings.register_profile("cubegames", deadline=None, print_blob=True)
settings.load_profile("cubegames")
