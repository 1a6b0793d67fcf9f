"""Bot ratings: OpenSkill from a round robin, one scale per game, with intervals."""

from __future__ import annotations

import pytest

from cubegames.cli import main
from cubegames.sim.ratings import default_bots, rate, round_robin


def test_a_bot_that_always_wins_is_rated_above_with_intervals() -> None:
    results = [("strong", "weak", [0]), ("weak", "strong", [1])] * 10
    strong, weak = rate(results)
    assert (strong.bot, weak.bot) == ("strong", "weak")
    assert strong.low > weak.high  # the intervals part
    assert (strong.games, strong.wins, weak.wins) == (20, 20.0, 0.0)


def test_even_results_rate_evenly_and_ties_count_half() -> None:
    results = [("a", "b", [0]), ("a", "b", [1]), ("b", "a", [0]), ("b", "a", [1])]
    a, b = rate(results)
    assert abs(a.mu - b.mu) < 1.0
    drawn = rate([("a", "b", [0, 1])] * 4)
    assert {r.wins for r in drawn} == {2.0} and drawn[0].mu == pytest.approx(drawn[1].mu)


def test_a_round_robin_plays_every_pair_on_both_seats() -> None:
    rated = round_robin("unstackable", ["random", "greedy", "random"], games=2)
    assert sorted(r.bot for r in rated) == ["greedy", "random"]
    assert all(r.games == 2 for r in rated)
    assert default_bots("unstackable")[-2:] == ["alphabeta", "policy:unstackable-ppo"]
    assert "alphabeta" not in default_bots("cubed")
    assert [b for b in default_bots("cubed") if b.startswith("policy:")] == ["policy:cubed-ppo"]
    with pytest.raises(ValueError, match="two or more different bots"):
        round_robin("cubed", ["random", "random"])


def test_the_bots_command_lists_and_rates(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["bots"])
    assert done.value.code == 0
    listed = capsys.readouterr().out
    assert (
        "alphabeta: Alpha-beta search for games with an endgame solver (plays unstackable)"
        in listed
    )
    assert (
        "policy:unstackable-ppo: A learned baseline policy shipped in the package, as a bot "
        "(plays unstackable)"
    ) in listed.splitlines()
    with pytest.raises(SystemExit) as done:
        main(["bots", "--ratings", "cubes", "-b", "random", "-b", "greedy", "-n", "2", "-q"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "Bot ratings for cubes" in out and "95% interval" in out
    with pytest.raises(SystemExit) as done:
        main(["bots", "--ratings", "cubed", "-b", "wizard", "-b", "random"])
    assert done.value.code == 2


def test_the_skill_trace_plays_doubling_budgets(capsys: pytest.CaptureFixture[str]) -> None:
    from cubegames.sim.skill import score, skill_trace

    steps = skill_trace("cubed", options={"rounds": 1}, steps=2, games=4)
    assert [s.budget for s in steps] == [4, 8]
    assert all(s.rate.n == 4 for s in steps)  # the strong bot sits once a game
    assert score([1.0, 1.0, 1.0]) == 1.0
    assert score([0.5, 0.5]) == pytest.approx(0.5 + 0.5 * 0.25)
    with pytest.raises(SystemExit) as done:
        main(["compare", "cubed", "-o", "rounds=1", "--skill-trace", "--steps", "1", "-n", "2"])
    assert done.value.code == 0
    assert "skill trace score" in capsys.readouterr().out


def test_each_seed_is_played_both_ways_round_so_luck_favours_no_bot() -> None:
    # CUBES has no decisions: whoever sits in the seat the dice favour wins, whatever the
    # bot. Each seed dealt to both seatings gives every bot half the wins; seeds played
    # once each, seats rotating, gave the bot listed first in every pair the same seats on
    # the same seeds, and the ratings followed the order of the list
    bots = ["random", "greedy", "mcts:iterations=2"]
    rated = round_robin("cubes", bots, games=6, seed=3)
    assert {r.bot: (r.games, r.wins) for r in rated} == dict.fromkeys(bots, (12, 6.0))


def test_the_skill_trace_finds_no_skill_where_there_are_no_decisions() -> None:
    from cubegames.sim.skill import skill_trace

    # CUBES: every move is a roll, so the stronger bot wins exactly the half of each seed's
    # two games the dice give its seat (seeded once, it won 40% at every step, on the luck
    # of the seat it sat in on the shared seeds)
    steps = skill_trace("cubes", steps=2, games=20)
    assert [(s.rate.wins, s.rate.n) for s in steps] == [(10.0, 20), (10.0, 20)]
