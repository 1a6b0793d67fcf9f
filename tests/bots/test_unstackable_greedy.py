"""Unstackable's greedy heuristic (`Unstackable.greedy_move`), which the greedy bot plays and
the alpha-beta bot uses while stacking."""

from __future__ import annotations

import random

import pytest

import cubegames
from cubegames.games.unstackable import Stage, UnstackableState
from tests.bots.helpers import seeded
from tests.unstackable.helpers import grid, stacking, unstacking


def greedy(state: UnstackableState, seed: int = 0) -> str:
    move = state.game.greedy_move(state, random.Random(seed))
    assert move is not None
    assert move in state.legal_moves()
    return str(move)


@pytest.mark.parametrize("seed", range(6))
def test_greedy_moves_are_legal_all_game_long(seed: int) -> None:
    game = cubegames.make("unstackable", **({"bag_counts_as_exposed": True} if seed % 2 else {}))
    state = game.new_state()
    assert isinstance(state, UnstackableState)
    rng = random.Random(seed)
    while not state.is_over:
        greedy(state, seed)  # checked legal in every position met
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    with pytest.raises(ValueError, match="the game is over"):
        game.greedy_move(state, rng)


def test_pile_1_takes_the_most_valuable_cube() -> None:
    # four lone cubes on the bag, all removable; 60 removed, so a turn begins (pile 1)
    state = unstacking(grid({(0, 0, 0): "Y", (3, 3, 0): "R", (0, 2, 0): "K", (2, 0, 0): "K"}))
    assert state.removed == 0
    assert greedy(state) == "0,0,0"
    state.play("0,0,0")
    assert greedy(state) in ("0,2,0", "2,0,0")  # pile 2: black is the only colour worth 1
    assert cubegames.bot("greedy", seed=1).choose(state) in state.legal_moves()


def test_pile_1_takes_red_when_there_is_no_yellow() -> None:
    state = unstacking(grid({(0, 0, 0): "R", (3, 3, 0): "K", (0, 2, 0): "K", (2, 0, 0): "K"}))
    assert greedy(state) == "0,0,0"


def test_the_value_comes_before_what_it_bares() -> None:
    # the yellow sits on a red: taking it bares the red for the opponent, yet 5 beats 0
    state = unstacking(grid({(0, 0, 0): "R", (0, 0, 1): "Y", (3, 3, 0): "K", (3, 0, 0): "K"}))
    assert greedy(state) == "0,0,1"


@pytest.mark.parametrize("seed", range(5))
def test_ties_go_to_the_removal_that_bares_nothing(seed: int) -> None:
    # pile 2: both blacks are worth 1, but the one on top of the red would bare it
    state = unstacking(grid({(0, 0, 0): "R", (0, 0, 1): "K", (3, 3, 0): "K"}))
    assert state.removed == 1
    assert greedy(state, seed) == "3,3,0"
    # pile 1: every black is worth 0; the one on the red is still avoided
    state = unstacking(grid({(0, 0, 0): "R", (0, 0, 1): "K", (3, 3, 0): "K", (3, 0, 0): "K"}))
    assert state.removed == 0
    assert greedy(state, seed) in ("3,3,0", "3,0,0")


def test_ties_are_broken_by_the_generator() -> None:
    state = unstacking(grid({(0, 0, 0): "K", (3, 3, 0): "K", (0, 2, 0): "K", (2, 0, 0): "K"}))
    assert len({greedy(state, seed) for seed in range(30)}) == 4


def test_stacking_starts_with_yellow() -> None:
    state = cubegames.make("unstackable").new_state()
    assert isinstance(state, UnstackableState)
    assert {greedy(state, seed) for seed in range(5)} == {"Y@0,0,0"}


def test_stacking_buries_red_once_yellow_is_gone() -> None:
    state = stacking({(0, 0, 0): "Y", (1, 0, 0): "Y", (0, 1, 0): "Y"}, to_move=1)
    assert greedy(state) == "R@1,1,0"  # the one cell on the bag with two cubes beside it
    state.play("R@1,1,0")
    # the turn goes on in red: the bag still has room, and every cell there has one cube
    # beside it, so any of them (a shift to x = -1 or y = -1 included)
    moves = {greedy(state, seed) for seed in range(40)}
    assert all(m.startswith("R@") and m.endswith(",0") for m in moves)
    assert "R@-1,0,0" in moves or "R@0,-1,0" in moves


def test_stacking_keeps_to_the_turn_colour() -> None:
    state = stacking({(1, 1, 0): "K", (2, 1, 0): "R"}, colour="K", placed=1, last_red=0)
    assert greedy(state).startswith("K@") and greedy(state).endswith(",0")


def test_greedy_play_stacks_every_yellow_and_red_before_black() -> None:
    state = cubegames.make("unstackable").new_state()
    assert isinstance(state, UnstackableState)
    while state.stage is Stage.STACK:
        state.play(greedy(state))
    letters = state.grid()
    # 19 valuable cubes: the whole bag layer and three cubes of the next
    assert set(letters[:16]) <= {"Y", "R"}
    assert letters.count("Y") + letters.count("R") == 19
    assert all(letter == "K" for letter in letters[32:])


def test_greedy_bot_beats_random_in_endgames() -> None:
    """A seeded regression check: greedy, moving first from 20-cube endgames, finishes
    ahead of random more often than not."""
    ahead = 0
    for seed in range(12):
        state = seeded(200 + seed, 20)
        seat = state.to_move
        assert seat is not None
        bots = [cubegames.bot("random", seed=seed)] * 2
        bots[seat] = cubegames.bot("greedy", seed=seed)
        before = state.scores()
        while (player := state.to_move) is not None:
            state.play(bots[player].choose(state))
        gained = [a - b for a, b in zip(state.scores(), before, strict=True)]
        ahead += gained[seat] > gained[1 - seat]
    assert ahead >= 8


def _two_layers(hole: tuple[int, int, int] | None = None) -> dict[tuple[int, int, int], str]:
    """Layers 0 and 1 full of black (but `hole`), and a red on top: a red turn under way."""
    cells = {(x, y, z): "K" for x in range(4) for y in range(4) for z in range(2)}
    if hole is not None:
        del cells[hole]
    cells[(0, 0, 2)] = "R"
    return cells


def test_with_free_counts_greedy_ends_a_red_turn_rather_than_stack_red_up_high() -> None:
    state = stacking(_two_layers(), colour="R", placed=1, exact_counts=False)
    assert greedy(state) == "end"
    # the same turn with a cell left in layer 1: the red is buried there instead
    state = stacking(_two_layers(hole=(3, 3, 1)), colour="R", placed=1, exact_counts=False)
    assert greedy(state) == "R@3,3,1"


def test_with_exact_counts_greedy_never_ends_a_turn_early() -> None:
    state = stacking(_two_layers(), colour="R", placed=1)
    assert greedy(state).startswith("R@")
    assert all(str(m) != "end" for m in state.legal_moves())


def test_a_black_turn_goes_on_up_high_with_free_counts() -> None:
    # black is worth nothing in pile 1: it covers what lies below, so the turn goes on
    cells = {(x, y, z): "K" for x in range(4) for y in range(4) for z in range(2)}
    cells[(0, 0, 2)] = "K"
    state = stacking(cells, colour="K", placed=1, exact_counts=False)
    assert greedy(state).startswith("K@")
