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


def _python_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    from cubegames.games.cubed import Cubed

    def none(self: Game[Any], state: Any, rngs: Any) -> None:
        return None

    monkeypatch.setattr(Cubed, "random_playout", none)


def test_batched_games_give_the_records_of_the_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    from cubegames.sim import batch

    one = {"rounds": 1}
    matches = (
        [Match("cubed", ("random", "random"), seed=seed, options=one) for seed in range(8)]
        # not covered: another bot, a variant; they are played one by one, in order
        + [Match("cubed", ("random", "greedy"), seed=3, options=one)]
        + [Match("cubed", ("random", "random"), seed=4, options={"variants": ["void"], **one})]
        + [Match("cubed", ("random",) * 3, seed=s, options={"players": 3, **one}) for s in (5, 6)]
        + [Match("cubed", ("random",) * 4, seed=7, options={"players": 4, "edition": "ja", **one})]
        + [Match("cubed", ("random", "random"), seed=2**55, options=one)]
        + [Match("cubed", ("random",) * 3, seed=s, options={"players": 3}) for s in (8, 9)]
        # solo, in both editions
        + [Match("cubed", ("random",), seed=s, options={"players": 1}) for s in range(6)]
        + [
            Match("cubed", ("random",), seed=s, options={"players": 1, "edition": "ja"})
            for s in (3, 4)
        ]
    )
    items = list(enumerate(matches))
    batched = list(batch.play_items(items, size=5))
    assert [i for i, _ in batched] == list(range(len(matches)))
    assert batch.batcher(matches[0]) is not None and batch.batcher(matches[-1]) is not None
    assert batch.batcher(matches[8]) is None and batch.batcher(matches[9]) is None
    _python_bots(monkeypatch)
    timing = ("seconds", "think")
    for (_, got), match in zip(batched, matches, strict=True):
        want = play_match(match)
        assert {k: v for k, v in got.items() if k not in timing} == {
            k: v for k, v in want.items() if k not in timing
        }, match
        assert sum(got["choices"]) == got["moves"]
        assert got["seconds"] >= 0 and len(got["think"]) == len(got["bots"])
