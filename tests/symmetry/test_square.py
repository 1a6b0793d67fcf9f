"""The square symmetries on Unstackable's bitboards (`cubegames.games.unstackable.symmetry`),
and the one set of footprint maps shared with the game's solver: the `alphabeta` bot's transposition
table is keyed on exactly the canonical images this API gives."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import cubegames
from cubegames.bots.alphabeta import AlphaBetaBot
from cubegames.games.unstackable import Stage, Unstackable
from cubegames.games.unstackable import bitboard as bb
from cubegames.games.unstackable.search import Position, Solver
from cubegames.games.unstackable.symmetry import FOOTPRINT, UnstackableSymmetry, canonical_boards
from cubegames.kit.square import ELEMENTS
from cubegames.symmetry import orbit, symmetries
from tests.bots.helpers import seeded
from tests.symmetry.helpers import positions

MASK = (1 << 64) - 1


def boards(data: Mapping[str, Any]) -> dict[Any, int]:
    """The bitboard of each colour of an Unstackable position (a `to_dict()`)."""
    game = cubegames.make("unstackable")
    state = game.state_from_dict(data)
    return dict(state.boards)


def pack(yellow: int, red: int, black: int) -> int:
    """Three boards as the solver packs them into one key."""
    return black | red << 64 | yellow << 128


def unpack(key: int) -> tuple[int, int, int]:
    """The boards (yellow, red, black) of a solver key."""
    return key >> 128, (key >> 64) & MASK, key & MASK


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


def test_each_element_is_numbered_as_the_game_numbers_its_maps() -> None:
    """`FOOTPRINT` names every element of D4 once, an element acts as the game's map of that
    number, on boards and on cells, and that map is the element's matrix turned about the
    footprint's centre (in doubled coordinates, `2x - 3`), z kept."""
    game = cubegames.make("unstackable")
    assert sorted(FOOTPRINT) == sorted(m for _, m in ELEMENTS)
    assert sorted(FOOTPRINT.values()) == list(range(bb.SYMMETRIES))
    rng = random.Random(1)
    for sym in symmetries(game):
        assert isinstance(sym, UnstackableSymmetry)
        for _ in range(20):
            board = rng.getrandbits(64)
            assert sym.apply_bitboard(board) == bb.images(board)[sym.footprint]
        for i in range(64):
            assert bb.index(*sym.cell(*bb.coords(i))) == bb.CELL_TO[sym.footprint][i]
            x, y, z = bb.coords(i)
            u, v, w = sym.cell(x, y, z)
            assert (2 * u - 3, 2 * v - 3, w) == (*sym.point(2 * x - 3, 2 * y - 3), z)


def test_the_solver_keys_positions_on_the_canonical_images() -> None:
    """For many positions (every position of ten random games, and random boards), the
    solver's symmetric table key is the API's canonical image of the boards, packed; the
    symmetry it reports is one that gives that image. Without `symmetry` the key is the
    position's own."""
    game = cubegames.make("unstackable")
    assert isinstance(game, Unstackable)
    solver = Solver(game.box, symmetry=True, symmetry_from=0)
    plain = Solver(game.box)
    by_number = {}
    for sym in symmetries(game):
        assert isinstance(sym, UnstackableSymmetry)
        by_number[sym.footprint] = sym
    rng = random.Random(7)
    samples = [Position.of(state) for state in positions("unstackable", {}, range(10))]
    samples += [Position(*(rng.getrandbits(64) for _ in range(3))) for _ in range(200)]
    assert len({pack(*p) for p in samples}) > 500
    for position in samples:
        boards3 = list(position)
        least, _ = canonical_boards(game, boards3)
        key, which = solver.key(position)
        assert key == pack(*least)
        assert tuple(by_number[which].apply_bitboard(b) for b in boards3) == least
        assert plain.key(position) == (pack(*boards3), 0)


def test_the_alphabeta_table_is_keyed_on_the_canonical_images() -> None:
    """The bot with `symmetry=true`: every table entry it stores for a position with at least
    `symmetry_from` cubes left is under a key that is its own canonical image."""
    game = cubegames.make("unstackable")
    assert isinstance(game, Unstackable)
    bot = cubegames.bot("alphabeta:depth=4,exact=0,symmetry=true")
    assert isinstance(bot, AlphaBetaBot)
    for seed in range(3):
        state = seeded(seed, 40)
        assert state.stage is Stage.UNSTACK
        bot.choose(state)
    solver = bot.solver(game)
    assert solver.symmetry
    keyed = [key for key in solver.table if key.bit_count() >= solver.symmetry_from]
    assert len(keyed) > 100
    for key in keyed:
        assert pack(*canonical_boards(game, unpack(key))[0]) == key


def test_a_solved_position_answers_for_each_of_its_images() -> None:
    """Solved once with symmetric keys, a position's every image (built by the API) is found
    in the table with its value, without a node searched; where the position has no
    symmetry of its own, the best removal found is the image of the position's."""
    game = cubegames.make("unstackable")
    assert isinstance(game, Unstackable)
    distinct = 0
    for seed in range(4):
        state = seeded(seed, 10)
        position = Position.of(state)
        solver = Solver(game.box, symmetry=True, symmetry_from=0)
        found = solver.search(position)
        assert found.exact
        size, nodes = len(solver.table), solver.stats.nodes
        whole = len(orbit(game, state.to_dict())) == 8
        distinct += whole
        for sym in symmetries(game):
            assert isinstance(sym, UnstackableSymmetry)
            again = solver.search(Position.of(sym.apply_state(state)))
            assert (again.value, again.exact) == (found.value, True)
            if whole:
                assert bb.coords(again.cell) == sym.cell(*bb.coords(found.cell))
        assert (len(solver.table), solver.stats.nodes) == (size, nodes)
    assert distinct


def test_moves_before_the_structure_map_with_its_bounding_rectangle() -> None:
    """While stacking, the footprint turned is the structure's bounding rectangle in the
    grid's corner, so a move on x = -1 maps to one on the far side or on y = -1."""
    game = cubegames.make("unstackable")
    state = game.new_state()
    for move in ("K@0,0,0", "K@1,0,0", "K@1,1,0"):  # an L, 2 wide and 2 deep
        state.play(move)
    data = state.to_dict()
    mirror_x = UnstackableSymmetry(game, (-1, 0, 0, 1))
    assert mirror_x.apply_position(data)["grid"][:8] == "KK..K..."
    assert str(mirror_x.apply_move(game.parse_move("R@-1,0,0"), data)) == "R@2,0,0"
    assert str(mirror_x.apply_move(game.parse_move("R@0,-1,0"), data)) == "R@1,-1,0"
    transpose = UnstackableSymmetry(game, (0, 1, 1, 0))
    assert str(transpose.apply_move(game.parse_move("R@-1,0,0"), data)) == "R@0,-1,0"
    for sym in symmetries(game):
        image = sym.apply_state(state)
        mapped = {str(sym.apply_move(m, data)) for m in state.legal_moves()}
        assert mapped == {str(m) for m in image.legal_moves()}
        for move in state.legal_moves():
            after, image_after = state.clone(), image.clone()
            after.play(move)
            image_after.play(sym.apply_move(move, data))
            assert image_after.to_dict() == sym.apply_position(after.to_dict())
