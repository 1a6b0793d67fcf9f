"""Bots by name: parsing, legality in every game, decisions from the view alone, strength."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cubegames
from cubegames.bots import parse_spec
from cubegames.bots.mcts import FLAT_ITERATIONS, MctsBot
from tests.cubed.helpers import position


def test_specs_are_parsed_and_checked() -> None:
    assert parse_spec("mcts") == ("mcts", {})
    assert parse_spec("mcts:seconds=1.5") == ("mcts", {"seconds": 1.5})
    bot = cubegames.bot("mcts:iterations=20,c=1.2", seed=3)
    assert isinstance(bot, MctsBot)
    assert (bot.iterations, bot.c, bot.seconds) == (20, 1.2, None)
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        cubegames.bot("oracle")
    with pytest.raises(ValueError, match="takes no parameter 'depth'"):
        cubegames.bot("random:depth=3")
    with pytest.raises(ValueError, match="parameters are written key=value"):
        cubegames.bot("mcts:fast")
    with pytest.raises(ValueError, match="iterations or seconds, not both"):
        cubegames.bot("mcts:iterations=5,seconds=1")
    with pytest.raises(ValueError, match="iterations must be a whole number from 1 to"):
        cubegames.bot("mcts:iterations=0")
    with pytest.raises(ValueError, match="seconds must be a finite number above 0"):
        cubegames.bot("mcts:seconds=-1")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:seconds=nan", "seconds must be a finite number above 0 and at most 3600"),
        ("mcts:seconds=inf", "seconds must be a finite number above 0 and at most 3600"),
        ("mcts:seconds=3601", "seconds must be a finite number above 0 and at most 3600"),
        ("mcts:c=nan", "c must be a finite number of at least 0 and at most 100"),
        ("mcts:c=inf", "c must be a finite number of at least 0 and at most 100"),
        ("mcts:c=-0.1", "c must be a finite number of at least 0 and at most 100"),
        ("mcts:iterations=10000001", "iterations must be a whole number from 1 to 10000000"),
        ("mcts:iterations=2.5", "iterations must be a whole number from 1 to 10000000"),
        ("alphabeta:seconds=nan", "seconds must be a finite number above 0"),
        ("alphabeta:depth=65", "depth must be a whole number from 1 to 64"),
    ],
)
def test_every_bot_setting_is_bounded_and_finite(spec: str, message: str) -> None:
    # the same bounds wherever a bot is made (the simulator, the terminal, the server)
    with pytest.raises(ValueError, match=message):
        cubegames.bot(spec)


def test_a_seed_is_the_callers_and_a_whole_number() -> None:
    # the seed is bot(spec, seed=N)'s: in the spec it is refused, not a TypeError
    with pytest.raises(ValueError, match="takes no parameter 'seed'"):
        cubegames.bot("random:seed=1")
    with pytest.raises(ValueError, match="takes no parameter 'seed'"):
        cubegames.bot("mcts:iterations=5,seed=2", seed=1)
    seeds: list[Any] = [None, 1.5, float("nan"), "7", True]
    for seed in seeds:
        with pytest.raises(ValueError, match="seed must be a whole number"):
            cubegames.bot("random", seed=seed)
    assert cubegames.bot("random", seed=2**100).seed == 2**100


def test_a_setting_given_twice_and_a_name_that_is_not_text_are_refused() -> None:
    with pytest.raises(ValueError, match="iterations is given twice; give it once"):
        cubegames.bot("mcts:iterations=10,iterations=20")
    specs: list[Any] = [None, 5, ["random"]]
    for spec in specs:
        with pytest.raises(ValueError, match="unknown bot"):
            cubegames.bot(spec)


def test_bounds_at_their_edges_are_accepted() -> None:
    bot = cubegames.bot("mcts:seconds=3600,c=100")
    assert isinstance(bot, MctsBot) and (bot.seconds, bot.c) == (3600.0, 100.0)
    most = cubegames.bot("mcts:iterations=10000000")
    assert isinstance(most, MctsBot) and most.iterations == 10_000_000


GAMES: list[tuple[str, dict[str, Any]]] = [
    ("cubed", {"players": 3, "rounds": 1, "variants": ["bridging", "void", "draw3"]}),
    ("cubed", {"players": 1}),
    ("unstackable", {}),
    ("stakd", {"players": 3, "points_to_win": 1}),
    ("cubes", {"players": 4, "sets": 1}),
]


@pytest.mark.parametrize(("game_id", "options"), GAMES)
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_bots_play_legal_moves_to_the_end(game_id: str, options: dict[str, Any], spec: str) -> None:
    game = cubegames.make(game_id, **options)
    for seed in range(2):
        state = game.new_state(seed=seed)
        bots = [cubegames.bot(spec, seed=seed * 10 + s) for s in range(game.players)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            state.play(bots[seat].choose(state))  # play() re-checks: an illegal move raises


@pytest.mark.parametrize(("game_id", "options"), [GAMES[0], GAMES[2], GAMES[4]])
def test_mcts_plays_legal_moves(game_id: str, options: dict[str, Any]) -> None:
    game = cubegames.make(game_id, **options)
    state = game.new_state(seed=5)
    bots = [cubegames.bot("mcts:iterations=15", seed=s) for s in range(game.players)]
    for _ in range(12):
        if state.is_over:
            break
        seat = state.to_move
        assert seat is not None
        state.play(bots[seat].choose(state))


def test_the_same_seed_gives_the_same_choice() -> None:
    state = cubegames.make("cubed", players=2, rounds=1).new_state(seed=9)
    first = cubegames.bot("mcts:iterations=40", seed=4).choose(state)
    again = cubegames.bot("mcts:iterations=40", seed=4).choose(state)
    assert first == again


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=60"])
def test_choices_depend_only_on_the_view(spec: str) -> None:
    """Re-deal everything the mover cannot see: the bot must choose exactly the same."""
    game = cubegames.make("cubed", players=3, rounds=1)
    rng = random.Random(1)
    for seed in range(4):
        state = game.new_state(seed=seed)
        player = cubegames.bot("random", seed=seed)
        for _ in range(seed * 3):
            state.play(player.choose(state))
        seat = state.to_move
        assert seat is not None
        other = game.determinize(state.view(seat), seat, rng)
        assert other.view(seat) == state.view(seat)
        assert other.to_dict() != state.to_dict()  # the hidden hands really differ
        assert cubegames.bot(spec, seed=7).choose(state) == cubegames.bot(spec, seed=7).choose(
            other
        )


def test_greedy_sheds_the_most_valuable_piece() -> None:
    # GGG (triple, 3 points) and GGP (double, 2 points) both fit next to GGY's greens
    state = position([((0, 0), "GGY")], [["GGP", "GGG", "LNY"], ["PPP"]])
    move = cubegames.bot("greedy", seed=1).choose(state)
    assert str(move).startswith("GGG@")


def test_greedy_goes_out_when_it_can() -> None:
    state = position([((0, 0), "GGY")], [["GGG"], ["PPP"]])
    assert str(cubegames.bot("greedy").choose(state)).startswith("GGG@")


def test_greedy_draws_only_when_nothing_fits() -> None:
    state = position([((0, 0), "GGG")], [["PPP"], ["LLL"]], bag=["YYY"])
    assert str(cubegames.bot("greedy").choose(state)) == "draw"
    state.play("draw")
    assert str(cubegames.bot("greedy").choose(state)) == "pass"


def test_mcts_takes_an_immediate_win() -> None:
    state = position([((0, 0), "GGG")], [["GGB"], ["PPP", "LLL", "KKB"]], bag=["YYY", "BBB"])
    move = cubegames.bot("mcts:iterations=150", seed=2).choose(state)
    state.play(move)
    assert state.winners() == [0]


def test_mcts_respects_a_time_budget_and_counts_iterations() -> None:
    state = cubegames.make("cubed", players=2, rounds=1).new_state(seed=1)
    bot = cubegames.bot("mcts:iterations=25", seed=1)
    assert isinstance(bot, MctsBot)
    bot.choose(state)
    # the flat search runs at most its budget (sequential halving rounds it down)
    assert 20 <= bot.last_iterations <= 25
    timed = cubegames.bot("mcts:seconds=0.05", seed=1)
    assert isinstance(timed, MctsBot)
    timed.choose(state)
    assert timed.last_iterations >= 1


def score(a: str, b: str, games: int) -> float:
    """A's share of wins against B in 2-player one-round CUBED, seats swapped each game."""
    game = cubegames.make("cubed", players=2, rounds=1)
    total = 0.0
    for i in range(games):
        specs = (a, b) if i % 2 == 0 else (b, a)
        bots = [cubegames.bot(s, seed=100 + 2 * i + k) for k, s in enumerate(specs)]
        state = game.new_state(seed=i)
        while (seat := state.to_move) is not None:
            state.play(bots[seat].choose(state))
        mine = 0 if i % 2 == 0 else 1
        won = state.winners()
        total += 1 / len(won) if mine in won else 0.0
    return total / games


def test_greedy_beats_random() -> None:
    # a seeded regression check; the measured ladder is benchmarks/strength.md
    assert score("greedy", "random", 40) >= 0.8


def test_mcts_searches_flat_over_compiled_playouts_where_the_game_has_them() -> None:
    state = cubegames.make("cubed", players=2, rounds=1).new_state(seed=2)
    flat = cubegames.bot("mcts", seed=1)
    assert isinstance(flat, MctsBot)
    flat.choose(state)
    assert 0.8 * FLAT_ITERATIONS <= flat.last_iterations <= FLAT_ITERATIONS
    tree = cubegames.bot("mcts:tree=true,iterations=30", seed=1)
    assert isinstance(tree, MctsBot)
    assert tree.choose(state) in state.legal_moves()
    assert tree.last_iterations == 30
    # the kernel does not play the loose colour rule: the tree search does, at its default
    loose = cubegames.make("cubed", players=2, rounds=1, strict_colors=False)
    view = loose.new_state(seed=2).view(0)
    assert loose.playouts(view, 0, random.Random(1)) is None
    with pytest.raises(ValueError, match="tree must be true or false"):
        cubegames.bot("mcts:tree=maybe")
