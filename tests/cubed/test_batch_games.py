"""Many random games in one kernel call (`games/cubed/batch_games.py`): the games' and the
bots' SplitMix64 generators, started by their seeds as the Python rules and `RandomBot`
start them (`splitmix.from_seed`), and the numbers of the final position's least symmetric image, as
`games.cubed.digest` writes them from the Python position."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cubegames
from cubegames.bots.random import RandomBot
from cubegames.core import splitmix
from cubegames.core.hexgrid import unpack
from cubegames.games.cubed import CubedState, digest, kernel_bridge
from cubegames.games.cubed import batch_games as b
from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed.symmetry import mirror_closed


def test_the_kernel_starts_the_generators_where_splitmix_does() -> None:
    for seed in (0, 1, 999, 2**32 - 1, 2**32 + 7, 2**63 - 1):
        assert int(k.sm_seed(seed)) == splitmix.from_seed(seed) < splitmix.KEYED, seed


def least_image(state: CubedState) -> list[int]:
    mirrors = (False, True) if mirror_closed(state.game) else (False,)
    return min(digest.image(state, t, m) for m in mirrors for t in range(3))


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
def test_the_batch_plays_and_describes_the_games_of_random_bots(options: dict[str, Any]) -> None:
    game = cubegames.make("cubed", **options)
    assert b.supported(game)
    seeds = np.arange(12, dtype=np.int64) * 7919
    bot_seeds = seeds[:, None] * 1000 + np.arange(game.players)
    batch = b.Batch(game)
    res, image, image_len, past_end = batch.play_images(seeds, bot_seeds)
    again, finals, ends = batch.play(seeds, bot_seeds)
    assert (again == res).all() and (ends == past_end).all()
    for g, seed in enumerate(seeds.tolist()):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        bots = [RandomBot(seed=s) for s in bot_seeds[g].tolist()]
        seats = game.random_playout(state, [bot.rng for bot in bots])
        assert seats is not None and res[g, b.R_MOVES] == len(seats)
        # the final position's numbers and digest, as the Python position gives them
        assert image[g, : image_len[g]].tolist() == least_image(state)
        assert finals[g] == digest.final_digest(state)
        data = state.to_dict()
        assert res[g, b.R_PLACED] == len(data["table"]) and res[g, b.R_BAG] == len(data["bag"])
        ended = [kernel_bridge.ENDINGS[code] for code in past_end[g].tolist()]
        assert ended == [r["end"] for r in data["past_rounds"]]
        for s in range(game.players):
            base = b.R_SEATS + s * b.SEAT_FIELDS
            assert res[g, base + b.S_POINTS] == state.totals[s]
            assert res[g, base + b.S_CHOICES] == seats.count(s)
            assert res[g, base + b.S_KINDS : base + b.SEAT_FIELDS].sum() == len(state.hands[s])
    # the digests tell the games apart
    assert len(set(finals)) == len(finals)


def test_the_kernels_endings_are_the_digests() -> None:
    for code, name in kernel_bridge.ENDINGS.items():
        assert digest.END_CODES[name] == code


def test_the_kernels_generators_draw_as_the_positions_does() -> None:
    for state in (0, 1234567, 2**63 + 5, 2**64 - 1):
        rng = np.array([7, state], dtype=np.uint64)
        expected = state
        for n in (1, 2, 3, 6, 74, 2**40 + 3):
            expected, want = splitmix.below(expected, n)
            assert k.sm_below(rng, 1, n) == want and int(rng[1]) == expected, (state, n)
        assert int(rng[0]) == 7  # the other generator did not move
    box = np.arange(74, dtype=np.int64)
    game = cubegames.make("cubed")
    tables = kernel_bridge.tables(game.edition)
    arrays = k.new_game(2)
    rng = np.array([99], dtype=np.uint64)
    k.deal(arrays, tables, box[: len(game.edition.pieces)], 25, rng)
    order = list(range(len(game.edition.pieces)))
    after = splitmix.shuffle(99, order)
    assert arrays.hands[0, :25].tolist() == order[:25] and int(rng[0]) == after


def test_only_the_kernels_rules_are_batched() -> None:
    assert not b.supported(cubegames.make("cubed", rounds=1, variants=["void"]))
    assert b.supported(cubegames.make("cubed", players=1))
    assert b.supported(cubegames.make("cubed", players=1, edition="ja"))


@pytest.mark.parametrize("edition", ["en", "ja"])
def test_the_kernel_deals_a_solo_game_as_the_rules_do(edition: str) -> None:
    """`deal_solo`: the hand, the bag, the pieces set aside, the starting piece as laid and
    the generator afterwards, as `Cubed.new_state` deals a solo game (spec §8), over
    enough deals that pieces go back to the bag and are set aside."""
    game = cubegames.make("cubed", players=1, edition=edition)
    ed = game.edition
    tables = kernel_bridge.tables(ed)
    box = np.array([kernel_bridge.code(p) for p in ed.pieces], dtype=np.int64)
    arrays = k.new_game(1)
    aside = np.zeros(len(box), dtype=np.int64)
    code = kernel_bridge.code
    sent_back = set_aside = 0
    for seed in range(200):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        rng = np.array([splitmix.from_seed(seed)], dtype=np.uint64)
        naside = k.deal_solo(arrays, tables, box, ed.hand_size[1], rng, aside)
        meta = arrays.meta
        assert arrays.hands[0, : arrays.hsize[0]].tolist() == [code(p) for p in state.hands[0]]
        bag = arrays.bag[meta[k.M_BAG_HEAD] : meta[k.M_BAG_END]].tolist()
        assert bag == [code(p) for p in state.bag], seed
        assert aside[:naside].tolist() == [code(p) for p in state.aside], seed
        ((cell, start),) = state.table.items()
        assert (
            unpack(cell) == (0, 0) and meta[k.M_NTAB] == 1 and arrays.tab[k.ORIGIN] == code(start)
        ), seed
        assert int(rng[0]) == state.rng and meta[k.M_TO_MOVE] == 0 and meta[k.M_END] == 0
        # the deal before the setup: more than three blocking pieces in the hand
        order = list(ed.pieces)
        splitmix.shuffle(splitmix.from_seed(seed), order)
        blocking = sum(ed.black in p for p in order[: ed.hand_size[1]])
        sent_back += blocking > 3
        set_aside += naside > 0
    assert sent_back >= 10 and set_aside >= 10, (sent_back, set_aside)


@pytest.mark.parametrize("edition", ["en", "ja"])
def test_the_batch_plays_and_describes_solo_games(edition: str) -> None:
    """Solo games of the random bot in the batch: the moves, the score (the points left in
    hand), the win, the ending and the final position's numbers and digest, as the Python
    position and `random_playout` give them."""
    game = cubegames.make("cubed", players=1, edition=edition)
    seeds = np.arange(60, dtype=np.int64) * 7919
    bot_seeds = seeds[:, None] * 1000
    batch = b.Batch(game)
    res, image, image_len, past_end = batch.play_images(seeds, bot_seeds)
    _, finals, _ = batch.play(seeds, bot_seeds)
    endings = set()
    for g, seed in enumerate(seeds.tolist()):
        state = game.new_state(seed=seed)
        assert isinstance(state, CubedState)
        seats = game.random_playout(state, [RandomBot(seed=int(bot_seeds[g, 0])).rng])
        assert (
            seats is not None and res[g, b.R_MOVES] == len(seats) == res[g, b.R_SEATS + b.S_CHOICES]
        )
        assert image[g, : image_len[g]].tolist() == least_image(state), seed
        assert finals[g] == digest.final_digest(state)
        assert res[g, b.R_SEATS + b.S_POINTS] == state.scores()[0]
        assert (res[g, b.R_WINNER] == 0) == (state.winners() == [0])
        assert kernel_bridge.ENDINGS[int(past_end[g, 0])] == state.end
        data = state.to_dict()
        assert res[g, b.R_PLACED] == len(data["table"]) and res[g, b.R_BAG] == len(data["bag"])
        endings.add(state.end)
    assert {"emptied", "stuck"} <= endings
