"""The fast incremental generator agrees with the plain reference one, move for move."""

from __future__ import annotations

import itertools
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cubegames
from cubegames.core import chance
from cubegames.core.perft import perft
from cubegames.games.cubed import CubedState
from cubegames.games.cubed.frontier import rebuild
from cubegames.games.cubed.placement import plain_placements

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 4},
    {"players": 3, "edition": "ja"},
    {"players": 2, "strict_colors": False},
    {"players": 1},
    {"players": 5, "edition": "ja", "strict_colors": False, "variants": ["bridging"]},
]


def agree(state: CubedState) -> None:
    seat = state.to_move
    assert seat is not None
    fast = sorted(state.placements())
    if state.give or state.drawn:
        assert fast == []
        return
    plain = sorted(
        plain_placements(
            state.table, state.hands[seat], strict=state.game.strict_colors, ed=state.ed
        )
    )
    assert fast == plain
    # the incremental frontier equals one rebuilt from scratch
    front, playable = rebuild(state.game.frontier, dict(state.table))
    assert front == state.front
    assert playable == state.playable


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize("seed", range(6))
def test_generators_agree_through_whole_games(options: dict[str, Any], seed: int) -> None:
    state = cubegames.make("cubed", rounds=1, **options).new_state(seed=seed)
    assert isinstance(state, CubedState)
    bot = cubegames.bot("random", seed=seed)
    while not state.is_over:
        agree(state)
        state.play(bot.choose(state))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    steps=st.integers(0, 60),
    strict=st.booleans(),
    edition=st.sampled_from(["en", "ja"]),
)
def test_generators_agree_on_random_positions(
    seed: int, steps: int, strict: bool, edition: str
) -> None:
    game = cubegames.make("cubed", players=3, edition=edition, strict_colors=strict, rounds=1)
    state = game.new_state(seed=seed)
    assert isinstance(state, CubedState)
    bot = cubegames.bot("random", seed=seed + 1)
    for _ in range(steps):
        if state.is_over:
            return
        state.play(bot.choose(state))
    if not state.is_over:
        agree(state)
        for move in state.legal_moves():  # every generated move is accepted
            state.clone().play(move)


def plain_moves(state: CubedState) -> list[str]:
    """The moves of `state` with placements from the plain generator, as text."""
    seat = state.to_move
    assert seat is not None
    moves = [str(m) for m in state.legal_moves() if "@" not in str(m)]
    if not (state.give or state.drawn):
        for rot, cell in plain_placements(
            state.table, state.hands[seat], strict=state.game.strict_colors, ed=state.ed
        ):
            moves.append(f"{state.ed.text(rot)}@{cell // 256 - 128},{cell % 256 - 128}")
    return moves


def plain_perft(state: CubedState, depth: int) -> int:
    """Perft where placements come from the plain generator and are played as text."""
    return perft(state, depth, lambda s: plain_moves(cast(CubedState, s)))


def test_perft_counts_match_the_plain_generator() -> None:
    # tests/data/perft/cubed.json's "2p-three-down": seed 1 dealt in chance version 2
    state = chance.new_state(cubegames.make("cubed", players=2, rounds=1), 1, 2)
    for move in ["GPW@0,0", "WLN@-1,1", "GNY@0,1"]:
        state.play(move)
    assert isinstance(state, CubedState)
    assert [perft(state, d) for d in (1, 2)] == [plain_perft(state, d) for d in (1, 2)]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_lean_rollouts_play_the_same_games_on_both_generators(players: int) -> None:
    import random

    from cubegames.games.cubed.lean_playout import playout

    variants = ["bridging"] if players > 1 else []
    game = cubegames.make("cubed", players=players, variants=variants, rounds=1)
    for seed in range(8):
        fast, plain = game.new_state(seed=seed), game.new_state(seed=seed)
        assert isinstance(fast, CubedState) and isinstance(plain, CubedState)
        playout(fast, random.Random(seed))
        playout(plain, random.Random(seed), plain=True)
        assert fast.is_over
        assert fast.to_dict() == plain.to_dict()


def test_games_of_one_edition_share_one_bounded_frontier_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cubegames.games.cubed import frontier

    en, also_en = cubegames.make("cubed"), cubegames.make("cubed", players=4, rounds=1)
    ja = cubegames.make("cubed", edition="ja")
    assert en.frontier is also_en.frontier  # type: ignore[attr-defined]
    assert en.frontier is not ja.frontier  # type: ignore[attr-defined]
    # a full cache starts again instead of growing, and the rules read the same
    monkeypatch.setattr(frontier, "MAX_CELLS", 40)
    cache = en.frontier._cache  # type: ignore[attr-defined]
    cache.clear()
    sizes = []
    for seed in range(3):
        state = cast(CubedState, en.new_state(seed=seed))
        bot = cubegames.bot("random", seed=seed)
        while not state.is_over:
            agree(state)
            sizes.append(len(cache))
            state.play(bot.choose(state))
    assert max(sizes) <= 40
    # it filled, and started again
    assert any(after < before for before, after in itertools.pairwise(sizes))
