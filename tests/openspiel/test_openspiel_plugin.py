"""A plug-in game (the test suite's Nim, tests/plugin_game) is an OpenSpiel game after
`import cubegames.openspiel`, through the same adapter as the four; the adapter's chance
path is checked on a built-in game with chance (CUBES) registered under another name."""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cubegames  # noqa: E402
import cubegames.openspiel  # noqa: E402
from cubegames.core.registry import PluginError, PluginWarning  # noqa: E402
from cubegames.openspiel import CubegamesGame, game_type  # noqa: E402
from cubegames.openspiel.plugin import plugin_rules  # noqa: E402

SPREAD = [
    "cubegames_nim",
    "cubegames_nim(players=3,stones=25,max_take=4)",
    "cubegames_nim(stones=1)",
    "cubegames_nim(players=4,stones=40,max_take=1,max_game_length=7)",
]


@pytest.mark.parametrize("name", SPREAD)
def test_the_plug_in_passes_openspiels_random_simulation_test(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True, verbose=False)


def test_every_registered_game_that_loads_is_an_openspiel_game() -> None:
    assert set(cubegames.openspiel.NAMES) == set(cubegames.GAMES)
    assert cubegames.openspiel.NAMES["nim"] == "cubegames_nim"
    assert "cubegames_nim" in pyspiel.registered_names()


def test_the_plug_ins_parameters_are_its_options_and_the_adapters_own() -> None:
    game = pyspiel.load_game("cubegames_nim(stones=7)")
    assert game.get_parameters() == {
        "players": 2,
        "stones": 7,
        "max_take": 3,
        "max_game_length": 1000,
        "deals": 1000,
    }
    assert game.num_distinct_actions() == 3  # Nim's own codec (Learnable): take 1, 2, 3
    assert game.max_game_length() == 1000
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert not kind.provides_information_state_tensor
    assert kind.long_name == "Nim (cubegames plug-in)"
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    state = game.new_initial_state()
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        "take 1",
        "take 2",
        "take 3",
    ]


@pytest.mark.parametrize(
    ("name", "parameter"),
    [
        ("cubegames_nim(stones=41)", "stones=41"),
        ("cubegames_nim(players=12)", "players=12"),
        ("cubegames_nim(max_take=0)", "max_take=0"),
        ("cubegames_nim(max_game_length=0)", "max_game_length=0"),
        ("cubegames_nim(deals=-3)", "deals=-3"),
    ],
)
def test_a_bad_parameter_of_the_plug_in_is_named(name: str, parameter: str) -> None:
    with pytest.raises(ValueError, match=f"cubegames_nim: bad parameter {re.escape(parameter)}:"):
        pyspiel.load_game(name)


def test_an_unknown_parameter_is_refused_by_openspiel() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("cubegames_nim(colour=1)")


def test_alpha_beta_finds_nims_known_value() -> None:
    """Nim with takes of 1 to k: a pile that is a multiple of k + 1 loses for the seat to
    move, any other pile wins by leaving such a multiple (Bouton's analysis of subtraction
    games)."""
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("cubegames_nim(stones=10)")
    value, action = minimax.alpha_beta_search(game, maximizing_player_id=0)
    assert value == 1.0
    assert game.new_initial_state().action_to_string(0, action) == "take 2"  # leaves 8
    losing = pyspiel.load_game("cubegames_nim(stones=8)")
    assert minimax.alpha_beta_search(losing, maximizing_player_id=0)[0] == -1.0


def test_a_game_still_going_at_the_bound_ends_unfinished() -> None:
    game = pyspiel.load_game("cubegames_nim(stones=40,max_take=1,max_game_length=5)")
    state = game.new_initial_state()
    for _ in range(5):
        assert not state.is_terminal()
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == [0.0, 0.0]
    assert not state.holder.state().is_over  # the engine's game was not over


def test_returns_reward_who_took_the_last_stone() -> None:
    game = pyspiel.load_game("cubegames_nim(players=3,stones=5)")
    state = game.new_initial_state()
    for take in (2, 1, 2):  # seat 2 takes the last two
        state.apply_action(take - 1)
    assert state.is_terminal()
    assert state.returns() == [-1.0, -1.0, 2.0]


def test_a_game_that_ends_with_no_winner_returns_zero_to_every_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plug-in's game may end with no winner (every seat folded): a draw, 0 each, as the
    utility ZERO_SUM says (each seat got -1, adding up to -3)."""
    from nimplugin import NimState

    monkeypatch.setattr(NimState, "winners", lambda self: [])
    game = pyspiel.load_game("cubegames_nim(players=3,stones=5)")
    state = game.new_initial_state()
    for take in (2, 1, 2):
        state.apply_action(take - 1)
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0, 0.0]


def test_the_information_state_is_each_seats_views() -> None:
    game = pyspiel.load_game("cubegames_nim")
    state = game.new_initial_state()
    state.apply_action(2)  # seat 0 takes 3
    lines = state.information_state_string(1).splitlines()
    assert lines[0] == "seat 1"
    assert lines[1].startswith("seat 0: take 3 -> {")
    assert '"pile":7' in lines[1] and '"seat":1' in lines[1]
    assert state.observation_tensor(1) == pytest.approx([0.7, 0.0, 0.3])
    assert '"pile":7' in state.observation_string(0)


def test_mcts_plays_the_plug_in() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game("cubegames_nim(stones=6)")
    rng = np.random.RandomState(0)
    bots = [
        mcts.MCTSBot(game, 2, 50, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
        pyspiel.make_uniform_random_bot(1, 3),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) == [-1.0, 1.0]


def test_a_secret_move_reads_as_a_move_to_who_may_not_see_it() -> None:
    rules = plugin_rules("nim")({})
    plain = rules.game

    class Secret(type(plain)):  # type: ignore[misc]
        def move_visible(self, move: str, mover: int, viewer: int | None) -> bool:
            return viewer == mover

    rules.game = Secret(players=3)
    event = rules.move_event(1, plain.parse_move("take 2"))
    assert [event.seen_by(s) for s in range(3)] == [
        "seat 1: a move",
        "seat 1: take 2",
        "seat 1: a move",
    ]
    assert event.public == "seat 1: a move"


def test_a_plug_in_that_cannot_be_an_openspiel_game_is_left_out_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(game_id: str) -> Any:
        raise PluginError(f"game {game_id!r} is broken")

    monkeypatch.setattr(cubegames.openspiel, "plugin_rules", broken)
    monkeypatch.setattr(cubegames.openspiel, "_classes", {})
    monkeypatch.setattr(cubegames.openspiel, "NAMES", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cubegames.openspiel.register()
    assert [str(w.message) for w in caught if w.category is PluginWarning] == [
        "game 'nim' is broken"
    ]
    assert set(cubegames.openspiel.NAMES) == {"cubed", "unstackable", "stakd", "cubes"}


# -- the chance path, on a game with chance ----------------------------------------------------


@pytest.fixture(scope="module")
def generic_cubes() -> str:
    """CUBES through the plug-in adapter, registered as `cubegames_generic_cubes`."""
    name = "cubegames_generic_cubes"
    if name not in pyspiel.registered_names():

        class Rules(plugin_rules("cubes")):  # type: ignore[misc]
            openspiel_name = name

        cls = type("GenericCubesGame", (CubegamesGame,), {"rules_class": Rules})
        pyspiel.register_game(game_type(Rules), cls)
    return name


def test_a_game_with_chance_opens_with_a_chance_node_over_seeds(generic_cubes: str) -> None:
    game = pyspiel.load_game(f"{generic_cubes}(sets=1,deals=20)")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.max_chance_outcomes() == 20
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(i, pytest.approx(1 / 20)) for i in range(20)]
    state.apply_action(7)
    engine = cubegames.make("cubes", sets=1).new_state(7)
    assert state.holder.state().to_dict() == engine.to_dict()
    assert state.information_state_string(0).splitlines()[1].startswith("the game is set up -> {")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
