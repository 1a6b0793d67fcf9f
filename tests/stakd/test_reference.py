"""The fast move generator agrees, move for move, with the plain one in `reference.py`."""

from __future__ import annotations

import random

import pytest

import cubegames
from cubegames.games.stakd import Place, StakdState
from tests.stakd.reference import reference_moves

GAMES = [
    ({"players": 2, "points_to_win": 1}, 1),
    ({"players": 2, "points_to_win": 1}, 2),
    ({"players": 3, "points_to_win": 1}, 3),
    ({"players": 5, "points_to_win": 1}, 4),
    ({"players": 8, "points_to_win": 1}, 5),
    ({"players": 1}, 6),
    ({"players": 1}, 7),
    ({"players": 1}, 8),
    ({"players": 2, "points_to_win": 1, "uni_opens_beside_bombers": True}, 9),
    ({"players": 3, "points_to_win": 1, "uni_opens_beside_bombers": True}, 10),
]


def near_misses(state: StakdState, rng: random.Random) -> list[Place]:
    """Moves close to legal ones: shifted by a node, a layer up or down, another type."""
    legal = state.legal_moves()
    out: list[Place] = []
    for move in rng.sample(legal, min(4, len(legal))):
        dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        out.append(Place(move.piece, move.z, tuple((x + dx, y + dy) for x, y in move.nodes)))
        out.append(Place(move.piece, move.z + rng.choice([-1, 1]), move.nodes))
    seat = state.to_move
    assert seat is not None
    for other in range(state.game.players):
        if other != seat:
            out.extend(rng.sample(state.moves_for(other), min(3, len(state.moves_for(other)))))
    return out


@pytest.mark.parametrize(("options", "seed"), GAMES)
def test_fast_and_plain_generators_agree(options: dict[str, object], seed: int) -> None:
    state = cubegames.make("stakd", **options).new_state()
    assert isinstance(state, StakdState)
    bot = cubegames.bot("random", seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        plain = reference_moves(state.to_dict())
        fast = [str(m) for m in state.legal_moves()]
        assert sorted(fast) == plain, f"at {state.to_dict()}"
        for move in near_misses(state, rng):
            assert state.is_legal(move) == (str(move) in plain), str(move)
        state.play(bot.choose(state))
