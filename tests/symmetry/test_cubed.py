"""CUBED's symmetries (`cubegames.games.cubed.symmetry`): no mirror without mirrored pieces, and
moves found in a canonical image map back to legal moves."""

from __future__ import annotations

import cubegames
from cubegames.games.cubed.symmetry import CubedSymmetry
from cubegames.symmetry import canonical
from tests.symmetry.helpers import positions


def test_the_english_box_has_no_mirror() -> None:
    """Mirroring turns every single over, and the EN box has each single in one order only:
    the mirror image of a dealt hand holds pieces the box does not."""
    game = cubegames.make("cubed", players=2, rounds=1)
    state = game.new_state(seed=4)
    texts = {game.edition.text(p) for p in game.edition.pieces}
    spellings = {t[k:] + t[:k] for t in texts for k in range(3)}
    mirrored = CubedSymmetry(game, 0, True).apply_position(state.to_dict())
    assert any(p not in spellings for p in mirrored["hands"][0])
    assert all(p in spellings for p in state.to_dict()["hands"][0])


def test_cubed_canonical_maps_moves_back() -> None:
    """A move chosen in the canonical image maps back to a legal move of the position."""
    game = cubegames.make("cubed", players=2, rounds=1)
    for state in positions("cubed", {"players": 2, "rounds": 1}, range(1), every=6):
        data = state.to_dict()
        sym, image = canonical(game, data)
        legal = {str(m) for m in state.legal_moves()}
        for move in game.state_from_dict(image).legal_moves():
            assert str(sym.inverse().apply_move(move, image)) in legal
