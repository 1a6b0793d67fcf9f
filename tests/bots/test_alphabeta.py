"""The alpha-beta bot and Unstackable's search kernel: values against a plain minimax, moves
that keep the solved value, endgames never lost, parameters, the view, stage 1."""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import pytest
from nimplugin import Nim, NimState, Take

import cubegames
from cubegames.bots.alphabeta import AlphaBetaBot
from cubegames.core.capabilities import EndgameSolving
from cubegames.core.game import State
from cubegames.games.unstackable import Stage, UnstackableState
from cubegames.games.unstackable import bitboard as bb
from cubegames.games.unstackable.search import Position, Solver, removable
from tests.bots.helpers import margin, minimax, seeded, stacking
from tests.unstackable.helpers import grid, unstacking

SMALL = [(seed, left) for seed in range(12) for left in range(1, 8)]


def exact_bot(**params: Any) -> AlphaBetaBot:
    bot = cubegames.bot("alphabeta", seed=3)
    assert isinstance(bot, AlphaBetaBot)
    for key, value in params.items():
        setattr(bot, key, value)
    return bot


# -- values ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "left"), SMALL)
def test_the_value_is_the_plain_minimax_value_and_the_move_keeps_it(seed: int, left: int) -> None:
    state = seeded(seed, left)
    seat = state.to_move
    assert seat is not None
    best = minimax(state, seat)
    bot = exact_bot()
    move = bot.choose(state)
    assert bot.last_exact
    assert bot.last_value == best
    after = state.clone()
    after.play(move)
    assert minimax(after, seat) == best, f"{move} gives away points"


def test_every_way_of_searching_finds_the_same_values() -> None:
    """The kernel straight: exact solve, deepening to the end, symmetric keys, a shared
    table; a position's 8 mirror images have its value."""
    shared = Solver(cubegames.make("unstackable").box)
    for seed in range(6):
        for left in (4, 7, 9, 12):
            state = seeded(seed, left)
            position = Position.of(state)
            box = state.box
            value = Solver(box).solve(position)
            assert Solver(box).search(position).value == value
            assert Solver(box).search(position, depth=64).value == value
            assert Solver(box, symmetry=True, symmetry_from=0).solve(position) == value
            assert shared.solve(position) == value
            if left == 4:
                assert value == minimax(state, state.to_move or 0) - margin(
                    state, state.to_move or 0
                )
            key = position.black | position.red << 64 | position.yellow << 128
            mask = (1 << 64) - 1
            for image in bb.images(key):
                mirrored = Position(image >> 128, (image >> 64) & mask, image & mask)
                assert mirrored.left == left
                assert Solver(box).solve(mirrored) == value


def test_values_with_the_bag_counted_as_exposed() -> None:
    for seed in range(6):
        state = seeded(seed, 7, bag_counts_as_exposed=True)
        seat = state.to_move
        assert seat is not None
        bot = exact_bot()
        bot.choose(state)
        assert bot.last_value == minimax(state, seat)


def test_a_hand_built_endgame_where_denying_beats_scoring() -> None:
    # two towers on the bag, a red on a black and a yellow on a black; a turn begins.
    # Yellow to pile 1, then the red to pile 2 (worth nothing) leaves only blacks: +5 - 1.
    # Taking a black to pile 2 instead scores 1 but hands over the red: +6 - 4.
    state = unstacking(grid({(0, 0, 0): "K", (0, 0, 1): "R", (3, 3, 0): "K", (3, 3, 1): "Y"}))
    seat = state.to_move
    assert seat is not None
    bot = exact_bot()
    assert str(bot.choose(state)) == "3,3,1"
    assert bot.last_value == margin(state, seat) + 4 == minimax(state, seat)
    state.play("3,3,1")
    assert str(bot.choose(state)) == "0,0,1"
    assert bot.last_value == margin(state, seat) - 1


def test_the_removal_rule_of_the_kernel_is_the_rules_one() -> None:
    rng = random.Random(5)
    for seed in range(40):
        state = seeded(seed, rng.randrange(0, 65))
        for bag in (False, True):
            assert removable(state.occupied, bag_exposed=bag) == bb.removable(
                state.occupied, bag_exposed=bag
            )


# -- play ------------------------------------------------------------------------------------


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_a_solved_endgame_is_never_lost(opponent: str) -> None:
    """From seeded 14-cube endgames, the bot ends at least at the solved margin; some of
    them are wins or draws, which it therefore keeps."""
    kept = 0
    for seed in range(16):
        state = seeded(100 + seed, 14)
        seat = state.to_move
        assert seat is not None
        me = exact_bot()
        other = cubegames.bot(opponent, seed=seed)
        me.choose(state.clone())
        solved = me.last_value
        assert solved is not None
        while not state.is_over:
            player = me if state.to_move == seat else other
            state.play(player.choose(state))
        assert margin(state, seat) >= solved
        kept += solved >= 0
    assert kept >= 4


def test_a_whole_game_against_greedy_is_legal_and_ends() -> None:
    game = cubegames.make("unstackable")
    state = game.new_state()
    bots = [cubegames.bot("alphabeta:depth=2", seed=1), cubegames.bot("greedy", seed=2)]
    while not state.is_over:
        assert state.to_move is not None
        move = bots[state.to_move].choose(state)
        assert move in state.legal_moves()
        state.play(move)
    assert len(state.winners()) in (1, 2)


def test_a_time_budget_still_gives_a_legal_move() -> None:
    state = seeded(4, 64)
    bot = cubegames.bot("alphabeta:seconds=0.05", seed=1)
    assert isinstance(bot, AlphaBetaBot)
    move = bot.choose(state)
    assert move in state.legal_moves()
    assert bot.last_depth is not None and bot.last_depth >= 2 and not bot.last_exact


def test_depth_limits_the_search_until_the_endgame() -> None:
    bot = cubegames.bot("alphabeta:depth=3,exact=10", seed=1)
    assert isinstance(bot, AlphaBetaBot)
    bot.choose(seeded(2, 30))
    assert bot.last_depth is not None and bot.last_depth == 3 and not bot.last_exact
    bot.choose(seeded(2, 10))
    assert bot.last_depth is not None and bot.last_depth == 10 and bot.last_exact


# -- parameters, the view, stage 1, other games -----------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphabeta:depth=0", "depth must be a whole number from 1 to 64"),
        ("alphabeta:depth=2.5", "depth must be a whole number from 1 to 64"),
        ("alphabeta:depth=deep", "depth must be a whole number from 1 to 64"),
        ("alphabeta:seconds=0", "seconds must be a finite number above 0"),
        ("alphabeta:seconds=-1", "seconds must be a finite number above 0"),
        ("alphabeta:seconds=soon", "seconds must be a finite number above 0"),
        ("alphabeta:exact=65", "exact must be a whole number from 0 to 64"),
        ("alphabeta:exact=-1", "exact must be a whole number from 0 to 64"),
        ("alphabeta:symmetry=maybe", "symmetry must be true or false"),
        ("alphabeta:compiled=maybe", "compiled must be true or false"),
        ("alphabeta:width=3", "takes no parameter 'width'"),
    ],
)
def test_bad_parameters_are_refused_clearly(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cubegames.bot(spec)


def test_good_parameters() -> None:
    bot = cubegames.bot("alphabeta:depth=6,seconds=1.5,exact=0,symmetry=true")
    assert isinstance(bot, AlphaBetaBot)
    assert (bot.depth, bot.seconds, bot.exact, bot.symmetry) == (6, 1.5, 0, True)
    default = cubegames.bot("alphabeta")
    assert isinstance(default, AlphaBetaBot)
    assert (default.depth, default.seconds, default.exact, default.symmetry) == (8, None, 32, False)
    assert default.compiled
    python = cubegames.bot("alphabeta:compiled=false")
    assert isinstance(python, AlphaBetaBot)
    assert (python.compiled, python.exact) == (False, 24)
    timed = cubegames.bot("alphabeta:seconds=2")
    assert isinstance(timed, AlphaBetaBot)
    assert timed.depth is None


class ViewOnly:
    """A state that shows a bot nothing but the seat to move, the game and that seat's view."""

    def __init__(self, state: UnstackableState) -> None:
        self._state = state
        self.game = state.game
        self.to_move = state.to_move

    def view(self, seat: int) -> dict[str, Any]:
        return self._state.view(seat)


@pytest.mark.parametrize(("seed", "left"), [(1, 64), (2, 40), (3, 23), (4, 9), (5, 64 - 1)])
def test_the_choice_comes_from_the_view_alone(seed: int, left: int) -> None:
    state = seeded(seed, left)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    rebuilt = state.game.state_from_dict({k: v for k, v in view.items() if k != "seat"})
    first = cubegames.bot("alphabeta", seed=9).choose(state)
    assert cubegames.bot("alphabeta", seed=9).choose(rebuilt) == first
    assert cubegames.bot("alphabeta", seed=9).choose(ViewOnly(state)) == first


@pytest.mark.parametrize("seed", range(8))
def test_stage_1_moves_are_legal(seed: int) -> None:
    state = stacking(seed, 5 * seed)
    bot = cubegames.bot("alphabeta", seed=seed)
    for _ in range(12):
        if state.stage is not Stage.STACK:
            break
        move = bot.choose(state)
        assert move in state.legal_moves()
        state.play(move)


def test_other_games_are_refused() -> None:
    state = cubegames.make("cubed").new_state(seed=1)
    with pytest.raises(ValueError, match="alphabeta plays unstackable only, not cubed"):
        cubegames.bot("alphabeta").choose(state)
    assert AlphaBetaBot.games() == ("unstackable",)
    assert [g for g in cubegames.GAMES if AlphaBetaBot.can_play(g)] == ["unstackable"]
    assert not AlphaBetaBot.can_play("no-such-game")


# -- any game with an endgame solver (the `EndgameSolving` capability) ----------------------


class Choice(NamedTuple):
    move: Take
    value: int
    exact: bool
    depth: int


class SolvedNim(Nim, EndgameSolving):
    """Nim with its endgame solved (take the pile modulo `max_take + 1`), at 6 stones or
    fewer; the solvers it made and the depths it was asked for are kept."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.made: list[tuple[bool, bool]] = []
        self.asked: list[int | None] = []

    def solver_key(self) -> int:
        return self.max_take

    def endgame_solver(self, *, compiled: bool = True, symmetry: bool = False) -> object:
        self.made.append((compiled, symmetry))
        return object()

    def endgame_size(self, state: State[Any]) -> int | None:
        assert isinstance(state, NimState)
        return state.pile if state.pile <= 6 else None

    def endgame_choice(
        self,
        solver: Any,
        state: State[Any],
        depth: int | None = None,
        deadline: float | None = None,
    ) -> Choice:
        assert isinstance(state, NimState)
        self.asked.append(depth)
        spare = state.pile % (self.max_take + 1)
        return Choice(Take(spare or 1), 1 if spare else -1, depth is None, depth or state.pile)


def test_alphabeta_plays_any_game_with_an_endgame_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    from cubegames.bots import alphabeta
    from cubegames.core.registry import game_class as real
    from cubegames.server.limits import Limits, check_bot

    monkeypatch.setattr(
        alphabeta, "game_class", lambda g: SolvedNim if g == "solved-nim" else real(g)
    )
    monkeypatch.setattr(alphabeta, "GAMES", (*cubegames.GAMES, "solved-nim"))
    assert AlphaBetaBot.games() == ("unstackable", "solved-nim")
    assert check_bot("alphabeta:depth=4", "solved-nim", Limits()) == "alphabeta:depth=4"
    with pytest.raises(ValueError, match="plays unstackable, solved-nim only, not nim"):
        check_bot("alphabeta", "nim", Limits())
    bot = cubegames.bot("alphabeta:exact=4", seed=1, game="solved-nim")
    assert isinstance(bot, AlphaBetaBot)
    game = SolvedNim(stones=10, max_take=3)
    state = game.new_state()
    # before its endgame (10 stones): the greedy bot's one-ply look, no solver
    first = bot.choose(state)
    assert first in state.legal_moves() and game.made == [] and game.asked == []
    state.pile, state.taken = 6, [4, 0]
    # 6 stones, more than exact=4: searched to the bot's depth (8 by default)
    assert bot.choose(state) == Take(2) and game.asked == [8]
    assert (bot.last_value, bot.last_exact, bot.last_depth) == (1, False, 8)
    state.pile, state.taken = 4, [6, 0]
    # 4 stones: solved to the end, with the same solver (one per rules)
    assert bot.choose(state) == Take(1) and game.asked == [8, None]
    assert (bot.last_value, bot.last_exact) == (-1, True)
    assert game.made == [(True, False)]


def test_a_finished_game_has_no_move() -> None:
    state = seeded(1, 0)
    with pytest.raises(ValueError, match="the game is over"):
        cubegames.bot("alphabeta").choose(state)
