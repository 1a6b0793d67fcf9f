"""Properties over any sequence of rolls: points are never made or lost, never negative."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import cubegames
from cubegames.games.cubes import Roll

FACES = cubegames.make("cubes").edition.faces

rolls = st.lists(st.tuples(*[st.sampled_from(faces) for faces in FACES]), max_size=120)


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 10), sets=st.integers(1, 3), sequence=rolls)
def test_points_in_play_are_conserved(
    players: int, sets: int, sequence: list[tuple[str, ...]]
) -> None:
    game = cubegames.make("cubes", players=players, sets=sets, referee=True)
    state = game.new_state(seed=0)
    in_play = 100 if players >= 5 else 20 * players
    totals = list(state.totals)
    for faces in sequence:
        if state.is_over:
            break
        state.play(Roll(faces))
        # within a set and across the re-deal that starts the next one
        assert sum(state.chips) + state.pot == in_play
        assert min(state.chips) >= 0 and state.pot >= 0
        assert all(a >= b for a, b in zip(state.totals, totals, strict=True))
        totals = list(state.totals)
        last = state.last
        assert last is not None
        if last.bust is None:
            assert last.pot - sum(last.changes) == state.pot
        assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_random_games_end_and_keep_the_score_pad(players: int, seed: int) -> None:
    state = cubegames.make("cubes", players=players).new_state(seed=seed)
    steps = 0
    while not state.is_over:
        state.play("roll")
        steps += 1
        assert steps < 5000
    assert len(state.past_sets) == 3
    for result in state.past_sets:
        assert result.scores[result.bust] == 0
    assert state.totals == [sum(p.scores[s] for p in state.past_sets) for s in range(players)]
