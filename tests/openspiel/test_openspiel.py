"""The games as OpenSpiel games: OpenSpiel's own API test, its algorithms, golden
playthroughs made by its `generate_playthrough`, and what each seat may see."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cubegames  # noqa: E402
import cubegames.openspiel  # noqa: E402
from cubegames.openspiel import NAMES  # noqa: E402
from tests.helpers import BUILT_IN  # noqa: E402

DATA = Path(__file__).parent.parent / "data" / "openspiel"

#: a spread of options per game, each small enough to keep the API test fast
SPREAD = [
    "cubegames_cubed(rounds=1)",
    "cubegames_cubed(players=3,rounds=2,variants=draw3)",
    "cubegames_cubed(rounds=1,variants=bridging+void,radius=6)",
    "cubegames_cubed(players=4,rounds=1,edition=ja,strict_colors=False,radius=8)",
    "cubegames_cubed(players=1)",
    "cubegames_cubed(players=1,edition=ja,strict_colors=False)",
    "cubegames_unstackable",
    "cubegames_unstackable(exact_counts=False,bag_counts_as_exposed=True)",
    "cubegames_stakd(points_to_win=1)",
    "cubegames_stakd(players=1)",
    "cubegames_stakd(players=3,points_to_win=1)",
    "cubegames_cubes(sets=1)",
    "cubegames_cubes(players=5,sets=2)",
]


@pytest.mark.parametrize("name", SPREAD)
def test_openspiel_random_simulation_test_passes(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_game_is_registered_under_its_name() -> None:
    assert set(BUILT_IN) <= set(NAMES)  # and the plug-in games: test_openspiel_plugin.py
    registered = set(pyspiel.registered_names())
    for game_id, name in NAMES.items():
        assert name in registered
        assert pyspiel.load_game(name).get_type().short_name == f"cubegames_{game_id}"


def test_loading_by_name_needs_only_the_import() -> None:
    code = (
        "import pyspiel, cubegames.openspiel\n"
        "print(pyspiel.load_game('cubegames_cubed(players=3)').num_players())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3"


@pytest.mark.parametrize("name", ["cubegames_cubed(rounds=1,radius=6)", "cubegames_cubes(sets=1)"])
def test_games_and_states_pickle_into_another_process(name: str) -> None:
    import pickle

    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    for _ in range(40):
        chance = state.is_chance_node()
        state.apply_action(state.chance_outcomes()[0][0] if chance else state.legal_actions()[0])
    data = pickle.dumps((game, state))
    # as multiprocessing's spawn reads them: a fresh process that imported nothing
    code = (
        "import pickle, sys\n"
        "game, state = pickle.loads(sys.stdin.buffer.read())\n"
        "print(game)\n"
        "print(state)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, check=True
    ).stdout.decode()
    assert out == f"{game}\n{state}\n"
    assert str(pickle.loads(data)[1]) == str(state)


@pytest.mark.parametrize(
    ("name", "parameter"),
    [
        ("cubegames_cubed(players=12)", "players=12"),
        ("cubegames_cubed(variants=flying)", "variants='flying'"),
        ("cubegames_cubed(edition=fr)", "edition='fr'"),
        ("cubegames_cubed(radius=-2)", "radius=-2"),
        ("cubegames_cubed(players=1,radius=6)", "radius=6"),
        ("cubegames_cubed(players=1,rounds=3)", "rounds=3"),
        ("cubegames_cubed(rounds=-1)", "rounds=-1"),
        ("cubegames_cubed(players=1,variants=void)", "players=1"),
        ("cubegames_unstackable(players=3)", "players=3"),
        ("cubegames_stakd(players=12)", "players=12"),
        ("cubegames_cubes(players=11)", "players=11"),
    ],
)
def test_a_bad_parameter_is_named(name: str, parameter: str) -> None:
    with pytest.raises(ValueError, match=f"bad parameter {re.escape(parameter)}:"):
        pyspiel.load_game(name)


def test_an_unknown_parameter_is_refused_by_openspiel() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("cubegames_cubed(colour=red)")


def test_game_types_say_what_each_game_is() -> None:
    T = pyspiel.GameType
    cubed = pyspiel.load_game("cubegames_cubed").get_type()
    assert cubed.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    assert cubed.information == T.Information.IMPERFECT_INFORMATION
    assert cubed.dynamics == T.Dynamics.SEQUENTIAL
    assert cubed.utility == T.Utility.ZERO_SUM
    unstackable = pyspiel.load_game("cubegames_unstackable").get_type()
    assert unstackable.chance_mode == T.ChanceMode.DETERMINISTIC
    assert unstackable.information == T.Information.PERFECT_INFORMATION
    cubes = pyspiel.load_game("cubegames_cubes").get_type()
    assert cubes.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    assert cubes.information == T.Information.PERFECT_INFORMATION
    solo = pyspiel.load_game("cubegames_stakd(players=1)")
    assert solo.get_type().utility == T.Utility.GENERAL_SUM
    assert (solo.min_utility(), solo.max_utility()) == (0.0, 1.0)
    three = pyspiel.load_game("cubegames_cubes(players=3)")
    assert (three.min_utility(), three.max_utility(), three.utility_sum()) == (-1.0, 2.0, 0.0)


def test_the_deal_is_chance_piece_by_piece() -> None:
    game = pyspiel.load_game("cubegames_cubed(rounds=1)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    # 62 EN pieces, all different: each is dealt first with probability 1/62
    assert len(outcomes) == 62
    assert all(p == pytest.approx(1 / 62) for _, p in outcomes)
    first = outcomes[0][0]
    state.apply_action(first)
    after = dict(state.chance_outcomes())
    assert first not in after  # the one copy is in seat 0's hand now
    deals = 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        deals += 1
    assert deals == 50 and state.current_player() == 0


def _play_to_a_draw(game: object) -> object:
    """A CUBED game played (first legal choices) until seat 0 may draw."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while True:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        for action in state.legal_actions():
            if state.action_to_string(state.current_player(), action) == "draw":
                return state
        state.apply_action(state.legal_actions()[0])


def test_a_draw_brings_the_piece_chance_chose() -> None:
    game = pyspiel.load_game("cubegames_cubed(rounds=1)")
    state = _play_to_a_draw(game)
    seat = state.current_player()
    state.apply_action(
        next(a for a in state.legal_actions() if state.action_to_string(seat, a) == "draw")
    )
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    rules = game.rules
    for outcome, _ in outcomes:
        child = state.child(outcome)
        hand = child.holder.state().to_dict()["hands"][seat]
        assert rules.pieces[outcome] in {
            cubegames.games.cubed.notation.least_rotation(p) for p in hand
        }
    # and every outcome leaves a position the engine reads back unchanged
    for outcome, _ in outcomes[:5]:
        data = state.child(outcome).holder.state().to_dict()
        assert rules.game.state_from_dict(data).to_dict() == data


def _dealt(game: object, pick_for_seat_1: int) -> object:
    """A CUBED deal: seat 0 gets the first pieces offered, seat 1 the `pick`-th."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        seat_1 = len(state.history()) >= 25
        state.apply_action(outcomes[pick_for_seat_1 if seat_1 else 0][0])
    return state


def test_a_seat_never_sees_another_seats_pieces() -> None:
    from cubegames.games.cubed.notation import least_rotation

    game = pyspiel.load_game("cubegames_cubed(rounds=1)")
    state = _dealt(game, 0)
    hands = state.holder.state().to_dict()["hands"]
    info1 = state.information_state_string(1)
    for piece in hands[0]:
        assert f"dealt {least_rotation(piece)}" not in info1
        assert f"dealt {least_rotation(piece)}" in state.information_state_string(0)
    assert "seat 0 is dealt a piece" in info1
    assert state.observation_string(1).startswith('{"bag":12,')
    assert '"hands":[null,' in state.observation_string(1)
    # another deal of seat 1's hand: seat 0 cannot tell the two apart, seat 1 can
    other = _dealt(game, -1)
    assert other.holder.state().to_dict()["hands"][1] != hands[1]
    assert other.observation_tensor(0) == state.observation_tensor(0)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.observation_string(0) == state.observation_string(0)
    assert other.observation_tensor(1) != state.observation_tensor(1)
    assert other.information_state_string(1) != state.information_state_string(1)


def test_returns_add_up_to_zero_and_reward_the_winner() -> None:
    rng = np.random.default_rng(3)
    for name in ("cubegames_cubed(players=3,rounds=1)", "cubegames_unstackable"):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0)
        winners = state.holder.state().winners()
        players = game.num_players()
        for seat in range(players):
            share = 1 / len(winners) if seat in winners else 0.0
            assert returns[seat] == pytest.approx(players * share - 1)


def test_mcts_and_evaluate_bots_play_unstackable() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game("cubegames_unstackable")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        mcts.MCTSBot(game, 2, 3, evaluator, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 5),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_mcts_handles_the_dice_of_cubes() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game("cubegames_cubes(sets=1)")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [mcts.MCTSBot(game, 2, 4, evaluator, random_state=rng) for _ in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == pytest.approx(0.0)


def test_information_set_mcts_plays_cubed() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("cubegames_cubed(rounds=1,radius=5)")
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
    state = game.new_initial_state()
    chosen = 0
    while not state.is_terminal() and chosen < 8:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            chosen += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert chosen == 8 or state.is_terminal()


def test_in_resampled_worlds_another_seats_information_state_decides_its_moves() -> None:
    # ISMCTS keys its tree by the information-state string of the seat to move in a world
    # resampled for the searching seat: two worlds with other hands must not read the same
    import random

    game = pyspiel.load_game("cubegames_cubed(players=3,rounds=1,radius=6)")
    rng = random.Random(0)
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 1:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    worlds = [state.resample_from_infostate(0, rng.random) for _ in range(6)]
    legal = {w.information_state_string(1): w.legal_actions() for w in worlds}
    assert len(legal) == len({tuple(w.legal_actions()) for w in worlds}) > 1
    for world in worlds:
        assert legal[world.information_state_string(1)] == world.legal_actions()
        assert world.information_state_string(0) == state.information_state_string(0)


def test_information_set_mcts_plays_three_seat_cubed() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("cubegames_cubed(players=3,rounds=1,radius=5)")
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.5, 8, random_state=rng)
    state = game.new_initial_state()
    for _ in range(200):  # it raised KeyError within a few moves
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert len(state.history()) > 100


def test_a_resampled_world_looks_the_same_to_the_seat() -> None:
    game = pyspiel.load_game("cubegames_cubed(rounds=1)")
    state = _play_to_a_draw(game)
    seat = state.current_player()
    sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.observation_tensor(seat) == state.observation_tensor(seat)
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.legal_actions() == state.legal_actions()
    other = 1 - seat
    assert (
        sample.holder.state().to_dict()["hands"][other]
        != state.holder.state().to_dict()["hands"][other]
    )


def test_outcome_sampling_mccfr_runs_on_cubed() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("cubegames_cubed(rounds=1,radius=4)")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(4)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)


# -- golden playthroughs ---------------------------------------------------------------------

FILES = sorted(DATA.glob("*.txt.gz"))


def _replayed(text: str) -> str:
    from open_spiel.python.algorithms import generate_playthrough

    game_string = re.search(r"^game: (.*)$", text, re.M)
    assert game_string is not None
    actions = [int(a) for a in re.findall(r"^action: (\d+)$", text, re.M)]
    return str(generate_playthrough.playthrough(game_string.group(1), actions))


@pytest.mark.parametrize("path", FILES, ids=[p.name.split(".")[0] for p in FILES])
def test_playthrough_still_holds(path: Path) -> None:
    text = gzip.decompress(path.read_bytes()).decode()
    assert _replayed(text) == text, "run scripts/regen_openspiel_playthroughs.py and diff"


def test_every_game_has_a_playthrough() -> None:
    games = {gzip.decompress(p.read_bytes()).decode().split("\n")[0] for p in FILES}
    for name in NAMES.values():
        assert any(g.startswith(f"game: {name}") for g in games), name


def test_a_changed_playthrough_is_noticed() -> None:
    text = gzip.decompress((DATA / "unstackable.txt.gz").read_bytes()).decode()
    changed = text.replace("Returns() = [0, 0]", "Returns() = [1, -1]", 1)
    assert changed != text
    assert _replayed(changed) != changed


@pytest.mark.parametrize(
    "name", ["cubegames_cubed(rounds=1)", "cubegames_cubed(players=1)", "cubegames_cubes(sets=1)"]
)
def test_a_chance_outcome_not_offered_is_refused_and_changes_nothing(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    # on to a chance node that lacks an outcome (a piece the bag no longer holds, a face the
    # die has not): the first outcome of each node, a player's first action between them
    while True:
        if state.is_chance_node():
            offered = {a for a, _ in state.chance_outcomes()}
            missing = [a for a in range(game.max_chance_outcomes()) if a not in offered]
            if missing:
                break
            state.apply_action(min(offered))
        else:
            state.apply_action(state.legal_actions()[0])
    before = (str(state), state.history(), state.chance_outcomes())
    for outcome in (missing[0], game.max_chance_outcomes(), 10**6):
        with pytest.raises(ValueError, match=f"chance outcome {outcome} is not one of"):
            state.apply_action(outcome)
        assert (str(state), state.history(), state.chance_outcomes()) == before


@pytest.mark.parametrize(
    "name", ["cubegames_unstackable", "cubegames_nim(stones=5)", "cubegames_nim(max_game_length=2)"]
)
def test_an_action_on_a_finished_game_is_refused_and_changes_nothing(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    while not state.is_terminal():  # nim(max_game_length=2): cut short after two moves
        state.apply_action(state.legal_actions()[0])
    before = (str(state), state.history(), state.returns())
    for action in (0, 1):  # a bare AssertionError before (and the move played under -O)
        with pytest.raises(ValueError, match="the game is over"):
            state.apply_action(action)
        assert (str(state), state.history(), state.returns()) == before


@pytest.mark.parametrize("name", ["cubegames_cubed(rounds=1)", "cubegames_cubes(sets=1)"])
def test_a_serialized_state_plays_on_alike(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        chance = state.is_chance_node()
        state.apply_action(state.chance_outcomes()[0][0] if chance else state.legal_actions()[0])
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    for _ in range(20):
        assert str(copy) == str(state)
        assert copy.information_state_string(0) == state.information_state_string(0)
        if state.is_terminal():
            break
        if state.is_chance_node():
            assert copy.chance_outcomes() == state.chance_outcomes()
            action = state.chance_outcomes()[-1][0]
        else:
            assert copy.legal_actions() == state.legal_actions()
            action = state.legal_actions()[-1]
        state.apply_action(action)
        copy.apply_action(action)


# -- solo CUBED --------------------------------------------------------------------------------


def _solo_dealt(pick: object) -> object:
    """A solo CUBED game through its deal, each deal outcome chosen by `pick(outcomes)`."""
    game = pyspiel.load_game("cubegames_cubed(players=1)")
    state = game.new_initial_state()
    for _ in range(25):
        state.apply_action(pick(state.chance_outcomes()))  # type: ignore[operator]
    return state


def test_solo_is_a_one_player_game_of_one_round() -> None:
    game = pyspiel.load_game("cubegames_cubed(players=1)")
    assert game.num_players() == 1
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.rules.game.options["rounds"] == 1
    assert pyspiel.load_game("cubegames_cubed").rules.game.options["rounds"] == 3


def test_solo_deals_no_fourth_blocking_piece() -> None:
    game = pyspiel.load_game("cubegames_cubed(players=1)")
    blocking = game.rules.blocking
    pieces = game.rules.pieces
    assert len(blocking) == 6  # the EN box's six blocking pieces (KKx)

    def blocking_first(outcomes: list[tuple[int, float]]) -> int:
        return next((a for a, _ in outcomes if pieces[a] in blocking), outcomes[0][0])

    state = _solo_dealt(blocking_first)
    assert state.is_chance_node()  # the starting piece comes next
    hand = [line.rsplit(" ", 1)[1] for line in state.information_state_string(0).splitlines()[1:]]
    assert len(hand) == 25
    assert sum(p in blocking for p in hand) == 3
    # after three blocking pieces, the deal offered only the others, as likely as each other
    deal = game.new_initial_state()
    for _ in range(3):
        deal.apply_action(blocking_first(deal.chance_outcomes()))
    outcomes = deal.chance_outcomes()
    assert not any(pieces[a] in blocking for a, _ in outcomes)
    assert len(outcomes) == 62 - 6
    assert all(p == pytest.approx(1 / 56) for _, p in outcomes)


def test_solo_sets_aside_a_blocking_starting_piece_and_turns_the_next() -> None:
    state = _solo_dealt(lambda outcomes: outcomes[0][0])
    rules = state.get_game().rules
    start = state.chance_outcomes()
    assert sum(p for _, p in start) == pytest.approx(1.0)
    block = next(a for a, _ in start if rules.pieces[a] in rules.blocking)
    state.apply_action(block)
    assert state.is_chance_node()
    assert block not in dict(state.chance_outcomes())  # EN holds one copy of each piece
    plain = next(
        a
        for a, _ in state.chance_outcomes()
        if len(set(rules.pieces[a])) == 3 and rules.pieces[a] not in rules.blocking
    )
    state.apply_action(plain)
    turns = state.chance_outcomes()  # three ways to lay it, equally likely
    assert [p for _, p in turns] == pytest.approx([1 / 3] * 3)
    names = {state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in turns}
    assert len(names) == 3
    state.apply_action(turns[1][0])
    assert state.current_player() == 0
    data = state.holder.state().to_dict()
    piece = rules.pieces[plain]
    assert data["table"] == [{"cell": [0, 0], "slots": piece[1:] + piece[:1]}]
    assert data["aside"] == [rules.pieces[block]]
    assert len(data["hands"][0]) == 25 and len(data["bag"]) == 62 - 25 - 2
    assert rules.game.state_from_dict(data).to_dict() == data
    assert "set aside" in state.information_state_string(0)


def test_a_one_colour_starting_piece_lies_one_way() -> None:
    state = _solo_dealt(lambda outcomes: outcomes[-1][0])
    rules = state.get_game().rules
    one = next(a for a, _ in state.chance_outcomes() if len(set(rules.pieces[a])) == 1)
    state.apply_action(one)
    assert state.chance_outcomes() == [(0, 1.0)]


def test_a_solo_draw_brings_the_chosen_piece_and_the_engine_ends_the_game() -> None:
    rng = np.random.default_rng(5)
    game = pyspiel.load_game("cubegames_cubed(players=1)")
    seen_draw = seen_end = 0
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            actions = state.legal_actions()
            if [state.action_to_string(0, a) for a in actions] != ["draw"]:
                state.apply_action(int(rng.choice(actions)))
                continue
            seen_draw += 1
            before = state.holder.state().to_dict()
            state.apply_action(actions[0])
            outcome = state.chance_outcomes()[-1][0]
            state.apply_action(outcome)
            after = state.holder.state()
            piece = game.rules.pieces[outcome]
            hand = after.to_dict()["hands"][0]
            assert [cubegames.games.cubed.notation.least_rotation(p) for p in hand].count(
                piece
            ) == 1 + [
                cubegames.games.cubed.notation.least_rotation(p) for p in before["hands"][0]
            ].count(piece)
            if after.is_over:
                seen_end += 1
                assert after.to_dict()["end"] in ("stuck", "bag_empty")
        returns = state.returns()
        assert returns == [1.0 if state.holder.state().winners() == [0] else 0.0]
    assert seen_draw and seen_end
