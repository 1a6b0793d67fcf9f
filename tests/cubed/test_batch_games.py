"""Many random games in one kernel call (`games/cubed/batch_games.py`): Python's seeding of
the first deal and the bots, the position's generator behind later deals, and the text of the
final position's least symmetric image, as the Python rules write them."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.games.cubed import CubedState, kernel_bridge
from cubegames.games.cubed import batch_games as b
from cubegames.symmetry import canonical, position_key


def test_generators_are_seeded_as_python_seeds_them() -> None:
    seeds = [0, 1, 999, 2**31, 2**32 - 1, 2**32, 2**32 + 7, 123456789012345, 2**63 - 1]
    mt, pos = b.seeded(np.array(seeds, dtype=np.int64))
    for i, seed in enumerate(seeds):
        state = random.Random(seed).getstate()[1]
        assert mt[i].tolist() == list(state[:624]) and pos[i] == state[624], seed


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "rounds": 1},
        {"players": 3, "edition": "ja", "rounds": 1},
        {"players": 4, "rounds": 1},
        {"players": 2, "rounds": 3},
        {"players": 3, "edition": "ja", "rounds": 2},
    ],
    ids=["en-2", "ja-3", "en-4", "en-2-3rounds", "ja-3-2rounds"],
)
def test_the_batch_plays_and_writes_the_games_of_random_bots(options: dict[str, Any]) -> None:
    game = cubegames.make("cubed", **options)
    assert b.supported(game)
    seeds = np.arange(12, dtype=np.int64) * 7919
    bot_seeds = seeds[:, None] * 1000 + np.arange(game.players)
    res, text, text_len, past_end = b.Batch(game).play(seeds, bot_seeds)
    for g, seed in enumerate(seeds.tolist()):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        seats = game.random_playout(state, [random.Random(s) for s in bot_seeds[g].tolist()])
        assert seats is not None and res[g, b.R_MOVES] == len(seats)
        data = state.to_dict()
        assert bytes(text[g, : text_len[g]]).decode() == position_key(canonical(game, data)[1])
        assert res[g, b.R_PLACED] == len(data["table"]) and res[g, b.R_BAG] == len(data["bag"])
        ended = [kernel_bridge.ENDINGS[code] for code in past_end[g].tolist()]
        assert ended == [r["end"] for r in data["past_rounds"]]
        for s in range(game.players):
            base = b.R_SEATS + s * b.SEAT_FIELDS
            assert res[g, base + b.S_POINTS] == state.totals[s]
            assert res[g, base + b.S_CHOICES] == seats.count(s)
            assert res[g, base + b.S_KINDS : base + b.SEAT_FIELDS].sum() == len(state.hands[s])


def test_the_kernels_generator_draws_as_the_positions_does() -> None:
    from cubegames.core import splitmix
    from cubegames.games.cubed import compiled_rules as k

    for state in (0, 1234567, 2**63 + 5, 2**64 - 1):
        rng = np.array([state], dtype=np.uint64)
        expected = state
        for n in (1, 2, 3, 6, 74, 2**40 + 3):
            expected, want = splitmix.below(expected, n)
            assert k.sm_below(rng, n) == want and int(rng[0]) == expected, (state, n)
    box = np.arange(74, dtype=np.int64)
    game = cubegames.make("cubed")
    tables = kernel_bridge.tables(game.edition)
    arrays = k.new_game(2)
    rng = np.array([99], dtype=np.uint64)
    k.deal_later(arrays, tables, box[: len(game.edition.pieces)], 25, rng)
    order = list(range(len(game.edition.pieces)))
    after = splitmix.shuffle(99, order)
    assert arrays.hands[0, :25].tolist() == order[:25] and int(rng[0]) == after


def test_only_the_kernels_rules_are_batched() -> None:
    assert not b.supported(cubegames.make("cubed", rounds=1, variants=["void"]))
    assert not b.supported(cubegames.make("cubed", players=1))
