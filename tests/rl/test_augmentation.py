"""The symmetries for learning code: `cubegames.rl.symmetry` re-exports `cubegames.symmetry`,
and `map_actions` carries policy targets to the images (data augmentation)."""

from __future__ import annotations

from typing import Any

import pytest

import cubegames
import cubegames.symmetry
from cubegames.rl import codec
from cubegames.rl.symmetry import map_actions, symmetries
from tests.rl.helpers import positions


def test_the_old_names_are_the_new_ones() -> None:
    """Code written against `cubegames.rl.symmetry` gets the very objects of
    `cubegames.symmetry`."""
    old, new = cubegames.rl.symmetry, cubegames.symmetry
    assert old.__all__
    for name in old.__all__:
        assert getattr(old, name) is getattr(new, name), name
    assert cubegames.rl.symmetries(cubegames.make("stakd")) == symmetries(cubegames.make("stakd"))


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("cubed", {"players": 2, "rounds": 1}), ("unstackable", {}), ("stakd", {"players": 2})],
)
def test_map_actions_gives_the_mask_of_the_image(game_id: str, options: dict[str, Any]) -> None:
    """For data augmentation: the images of the legal actions are the image's legal actions."""
    game = cubegames.make(game_id, **options)
    c = codec(game)
    for state in positions(game_id, options, range(1), every=8):
        seat = state.to_move
        view = state.view(seat)
        legal = [c.encode(m, view) for m in state.legal_moves()]
        for sym in symmetries(game):
            image = sym.apply_state(state)
            want = c.mask(image.legal_moves(), image.view(seat)).nonzero()[0].tolist()
            assert sorted(map_actions(c, sym, view, legal)) == want
