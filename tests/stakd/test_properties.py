"""Properties of random legal play: the stack never breaks the rules, nothing is lost."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import cubegames
from cubegames.games.stakd import load_edition


def check_invariants(data: dict[str, Any]) -> None:
    pieces = data["pieces"]
    layers: dict[int, dict[tuple[int, int], int]] = {}
    for i, p in enumerate(pieces):
        here = layers.setdefault(p["z"], {})
        for x, y in p["nodes"]:
            assert (x, y) not in here, "two pieces overlap"
            here[x, y] = i
        assert (p["z"] == 0) == (p["type"] == "BASE")
    for i, p in enumerate(pieces):
        if p["z"] == 0:
            continue
        below = layers[p["z"] - 1]
        assert all((x, y) in below for x, y in p["nodes"]), "a piece overhangs"
        supports = {below[x, y] for x, y in p["nodes"]}
        for s in supports:
            assert sorted(pieces[s]["nodes"]) != sorted(p["nodes"]), "identical stacking"
            # nothing is laid on a support after a bomber
            bombers = [
                j
                for j in range(s + 1, len(pieces))
                if pieces[j]["type"] == "BOMBER"
                and pieces[j]["z"] == p["z"]
                and any(tuple(n) in below and below[tuple(n)] == s for n in pieces[j]["nodes"])
            ]
            assert not bombers or i <= bombers[0], "a piece on a terminated support"
    resting: dict[int, Counter[str]] = {}
    for p in pieces:
        if p["z"] == 0 or p["type"] == "BOMBER":
            continue
        below = layers[p["z"] - 1]
        for s in {below[x, y] for x, y in p["nodes"]}:
            resting.setdefault(s, Counter())[p["type"]] += 1
    assert all(n == 1 for c in resting.values() for n in c.values()), "a type repeats on a piece"
    per_layer = Counter(p["z"] for p in pieces if p["type"] == "BOMBER")
    assert all(n == 1 for n in per_layer.values()), "two bombers on a layer"
    stacked = [p["z"] for p in pieces if p["z"] > 0]
    assert stacked == sorted(stacked), "a piece went on a closed layer"
    assert data["layer"] == max((p["z"] for p in pieces), default=0)
    players = data["options"]["players"]
    box = load_edition(data["options"]["edition"]).counts[players]
    for seat in range(players):
        laid = Counter(p["type"] for p in pieces if p["owner"] == seat)
        for t, n in box.items():
            assert data["hands"][seat][t.value] + laid[t.value] == n, "a piece was lost"
    assert sum(data["points"]) == len(data["round_winners"])
    if data["to_move"] is not None:
        assert data["to_move"] not in data["out"]


@settings(max_examples=30, deadline=None)
@given(
    players=st.sampled_from([1, 2, 3, 4, 6, 8]),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=20, max_size=300),
)
def test_random_play_keeps_the_invariants(players: int, picks: list[int]) -> None:
    game = cubegames.make("stakd", players=players, points_to_win=1 if players == 1 else 2)
    state = game.new_state()
    check_invariants(state.to_dict())
    for pick in picks:
        if state.is_over:
            break
        moves = state.legal_moves()
        assert moves
        state.play(moves[pick % len(moves)])
        check_invariants(state.to_dict())
