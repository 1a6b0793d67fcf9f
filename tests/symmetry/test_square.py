"""The square symmetries on Unstackable's bitboards (`cubegames.symmetry.square`), the game's
own footprint maps."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import cubegames
from cubegames.games.unstackable import bitboard as bb
from cubegames.symmetry import symmetries
from cubegames.symmetry.square import canonical_boards
from tests.symmetry.helpers import positions


def boards(data: Mapping[str, Any]) -> dict[Any, int]:
    """The bitboard of each colour of an Unstackable position (a `to_dict()`)."""
    game = cubegames.make("unstackable")
    state = game.state_from_dict(data)
    return dict(state.boards)


def test_unstackable_bitboards() -> None:
    game = cubegames.make("unstackable")
    syms = symmetries(game)
    for state in positions("unstackable", {}, range(1), every=15):
        data = state.to_dict()
        for sym in syms:
            found = boards(sym.apply_position(data))
            assert [sym.apply_bitboard(b) for b in boards(data).values()] == list(found.values())
        least, sym = canonical_boards(game, list(boards(data).values()))
        assert least == min(tuple(s.apply_bitboard(b) for b in boards(data).values()) for s in syms)
        assert least == tuple(sym.apply_bitboard(b) for b in boards(data).values())


def test_bitboards_agree_with_the_search_kernel() -> None:
    """The API's Unstackable symmetries are the game's footprint maps (`bitboard.images`, the
    search kernel's delta swaps): both give every board the same 8 images."""
    syms = symmetries(cubegames.make("unstackable"))
    rng = random.Random(0)
    for _ in range(50):
        board = rng.getrandbits(64)
        assert sorted(s.apply_bitboard(board) for s in syms) == sorted(bb.images(board))
