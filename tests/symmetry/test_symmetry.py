"""The symmetry API (`cubegames.symmetry`): group laws, symmetric legal moves, equal values,
canonical images, and a package that stands on the games alone."""

from __future__ import annotations

import ast
import itertools
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cubegames
import cubegames.symmetry
from cubegames.core.game import State
from cubegames.core.perft import perft
from cubegames.symmetry import canonical, orbit, position_key, symmetries
from tests.symmetry.helpers import positions

#: the packages `cubegames.symmetry` may import (and itself)
LOWER = ("cubegames.core", "cubegames.kit", "cubegames.games", "cubegames.symmetry")

#: option sets whose play the symmetries map exactly: CUBED's later chance (a new round's
#: deal, draw3's returns) is drawn from a hash of the position text, so one round, no draw3
EXACT = [
    ("cubed", {"players": 2, "rounds": 1}),
    ("cubed", {"players": 3, "edition": "ja", "variants": ["bridging", "void"], "rounds": 1}),
    ("cubed", {"players": 1}),
    ("cubed", {"players": 1, "edition": "ja"}),
    ("cubed", {"players": 2, "rounds": 1, "strict_colors": False}),
    ("unstackable", {}),
    ("unstackable", {"bag_counts_as_exposed": True}),
    ("stakd", {"players": 1}),
    ("stakd", {"players": 2}),
    ("stakd", {"players": 3, "points_to_win": 2}),
    ("cubes", {"players": 3}),
]
EXACT_IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in EXACT]


def test_group_sizes() -> None:
    make = cubegames.make
    assert [s.name for s in symmetries(make("cubed", players=2))] == [
        "identity",
        "rotate 120°",
        "rotate 240°",
    ]
    assert len(symmetries(make("cubed", players=3, edition="ja"))) == 6
    assert len(symmetries(make("unstackable"))) == 8
    assert len(symmetries(make("stakd", players=4))) == 8
    assert len(symmetries(make("cubes", players=4))) == 1


@pytest.mark.parametrize(("game_id", "options"), EXACT, ids=EXACT_IDS)
def test_group_laws(game_id: str, options: dict[str, Any]) -> None:
    """Identity first, closed under composition, inverses, and composition acts as doing
    one symmetry after the other, on real positions."""
    game = cubegames.make(game_id, **options)
    syms = symmetries(game)
    assert syms[0].is_identity and not any(s.is_identity for s in syms[1:])
    assert len(set(syms)) == len(syms)
    for a, b in itertools.product(syms, repeat=2):
        assert a.then(b) in syms
    for a in syms:
        assert a.then(a.inverse()).is_identity and a.inverse().then(a).is_identity
    for a, b, c in itertools.product(syms, repeat=3):
        assert a.then(b).then(c) == a.then(b.then(c))
    state = next(s for i, s in enumerate(positions(game_id, options, range(1))) if i == 12)
    data = state.to_dict()
    for a, b in itertools.product(syms, repeat=2):
        assert a.then(b).apply_position(data) == b.apply_position(a.apply_position(data))
    for a in syms:
        assert a.inverse().apply_position(a.apply_position(data)) == data


def _same_moves(state: State[Any], sym: Any) -> State[Any]:
    """The image state; checks it has exactly the images of the legal moves."""
    data = state.to_dict()
    image = sym.apply_state(state)
    assert image.to_dict() == sym.apply_position(data)
    mapped = {str(sym.apply_move(m, data)) for m in state.legal_moves()}
    assert mapped == {str(m) for m in image.legal_moves()}, sym
    assert image.to_move == state.to_move
    return image


@pytest.mark.parametrize(("game_id", "options"), EXACT, ids=EXACT_IDS)
def test_symmetric_positions_have_symmetric_moves(game_id: str, options: dict[str, Any]) -> None:
    """At positions of random games, the image read back through `state_from_dict` has
    exactly the images of the legal moves, and views map like positions."""
    game = cubegames.make(game_id, **options)
    syms = symmetries(game)
    for state in positions(game_id, options, range(2), every=4):
        for sym in syms:
            image = _same_moves(state, sym)
            for seat in range(game.players):
                assert sym.apply_position(state.view(seat)) == image.view(seat)


@pytest.mark.parametrize(("game_id", "options"), EXACT, ids=EXACT_IDS)
def test_symmetric_games_play_out_alike(game_id: str, options: dict[str, Any]) -> None:
    """Playing the images of the same moves from the image of a position gives the image of
    every position on the way, and the same scores and winners at the end."""
    game = cubegames.make(game_id, **options)
    for sym in symmetries(game):
        for seed in range(2):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(6)):
                state.play(rng.choice(state.legal_moves()))
            image = sym.apply_state(state)
            while not state.is_over:
                move = rng.choice(state.legal_moves())
                image.play(sym.apply_move(move, state.to_dict()))
                state.play(move)
                assert image.to_dict() == sym.apply_position(state.to_dict())
            assert image.scores() == state.scores() and image.winners() == state.winners()


@pytest.mark.parametrize(
    ("game_id", "options", "skip", "depth"),
    [
        ("cubed", {"players": 2, "rounds": 1}, 5, 2),
        ("cubed", {"players": 2, "edition": "ja", "rounds": 1}, 4, 2),
        ("unstackable", {}, 6, 3),
        ("stakd", {"players": 2}, 5, 2),
    ],
)
def test_symmetric_positions_have_equal_perft(
    game_id: str, options: dict[str, Any], skip: int, depth: int
) -> None:
    game = cubegames.make(game_id, **options)
    state = game.new_state(seed=2)
    rng = random.Random(2)
    for _ in range(skip):
        state.play(rng.choice(state.legal_moves()))
    counts = {perft(sym.apply_state(state), depth) for sym in symmetries(game)}
    assert len(counts) == 1 and counts.pop() == perft(state, depth) > 1


def test_canonical_images_and_orbits() -> None:
    """Every image of a position has the same canonical image; orbit sizes divide 8."""
    game = cubegames.make("unstackable")
    for state in positions("unstackable", {}, range(1), every=10):
        data = state.to_dict()
        sym, image = canonical(game, data)
        assert sym.apply_position(data) == image
        assert position_key(image) == min(
            position_key(s.apply_position(data)) for s in symmetries(game)
        )
        for other in symmetries(game):
            assert canonical(game, other.apply_position(data))[1] == image
        assert 8 % len(orbit(game, data)) == 0


def test_the_package_stands_on_the_games_alone() -> None:
    """`cubegames.symmetry` stands on the layers below it (the layering: core ← kit ← games ←
    symmetry ← bots, sim, rl; it finds each game's `symmetry` part), and using it loads
    nothing that `import cubegames` had not loaded already from the layers above, nor numpy."""
    package = Path(cubegames.symmetry.__file__).parent
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.startswith("cubegames."):
                    assert name.startswith(LOWER), f"{path.name} imports {name}"
    code = """
import sys
import cubegames
before = set(sys.modules)
from cubegames.symmetry import canonical, symmetries
from cubegames.core.registry import built_in
for game_id in cubegames.GAMES:
    if not built_in(game_id):
        continue  # a plug-in (tests/plugin_game) imports what it likes
    game = cubegames.make(game_id)
    canonical(game, game.new_state(seed=1).to_dict())
print(" ".join(sorted(set(sys.modules) - before)))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    added = set(out.stdout.split())
    assert "cubegames.games.unstackable.symmetry" in added and "cubegames.kit.square" in added
    assert not [
        name for name in added if name.startswith("cubegames.") and not name.startswith(LOWER)
    ]
    assert not {"numpy", "gymnasium", "pettingzoo"} & {name.partition(".")[0] for name in added}
