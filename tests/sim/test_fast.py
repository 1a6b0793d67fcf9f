"""Games of random bots take the game's compiled path and give the very same records."""

from __future__ import annotations

from typing import Any

import pytest

from cubegames.core.game import Game
from cubegames.sim.play import Match, play_match


@pytest.mark.parametrize(
    "match",
    [Match("cubed", ("random", "random"), seed=seed, options={"rounds": 1}) for seed in range(5)]
    + [Match("cubed", ("random",) * 3, seed=9, options={"players": 3, "rounds": 3})],
)
def test_the_fast_path_gives_the_records_of_the_bots(
    match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = play_match(match)
    calls: list[Any] = []

    def none(self: Game[Any], state: Any, rngs: Any) -> None:
        calls.append(state)
        return None

    from cubegames.games.cubed import Cubed

    monkeypatch.setattr(Cubed, "random_playout", none)
    slow = play_match(match)
    assert calls, "the simulator asked for the compiled path"
    timing = ("seconds", "think")
    assert {k: v for k, v in fast.items() if k not in timing} == {
        k: v for k, v in slow.items() if k not in timing
    }
    assert sum(fast["choices"]) == fast["moves"] == slow["moves"]
