"""`cubegames compare`: a planted difference is found, an A/A run finds none."""

from __future__ import annotations

import random

import pytest

from cubegames.cli import main
from cubegames.sim.compare import compare, paired, seat_balance
from cubegames.sim.job import make_job


def test_paired_finds_a_planted_shift_and_no_shift_in_an_a_a_sample() -> None:
    rng = random.Random(7)
    base = [rng.gauss(10, 3) for _ in range(400)]
    planted = paired(base, [b + 0.8 + rng.gauss(0, 1) for b in base])
    assert planted.low > 0.5 and planted.high < 1.1 and planted.p < 1e-6
    # A/A: both halves drawn from one distribution, paired at random: 20 repetitions, the
    # 95% interval holds 0 in most (exactly how many is fixed by the seed)
    held = 0
    for _ in range(20):
        a = [rng.gauss(10, 3) for _ in range(200)]
        b = [rng.gauss(10, 3) for _ in range(200)]
        d = paired(a, b)
        held += d.low <= 0 <= d.high
        assert 0 <= d.p <= 1
    assert held >= 17


def test_seat_balance_is_a_chi_square_test() -> None:
    fair = seat_balance([250.0, 250.0, 250.0, 250.0], 1000)
    assert fair.chi2 == 0 and fair.p == pytest.approx(1.0)
    # CUBES with 6 players in the issue: seat 2 wins 36%, seat 5 2.4%
    skewed = seat_balance([200.0, 180.0, 360.0, 130.0, 106.0, 24.0], 1000)
    assert skewed.p < 1e-10
    assert skewed.shares[2] == 0.36


def test_compare_finds_a_planted_difference_and_none_in_an_a_a_run() -> None:
    # planted: greedy against random from a fixed seat 0, then from seat 1
    first = make_job("cubed", ["greedy", "random"], options={"rounds": 1}, rotate=False)
    second = make_job("cubed", ["random", "greedy"], options={"rounds": 1}, rotate=False)
    found = compare([first, second], ["greedy first", "random first"], ["seat0"], games=12)
    d = found.differences["seat0", 1]
    assert d.high < 0 and d.p < 0.001 and d.n == 12
    assert found.sentences()[0].startswith("random first lowers seat 0's win rate by")
    # A/A: CUBES has no decisions, so two lineups play the very same games
    a = make_job("cubes", ["random"], players=3, options={"sets": 1})
    b = make_job("cubes", ["greedy"], players=3, options={"sets": 1})
    same = compare([a, b], ["random", "greedy"], ["seat0", "turns"], games=20)
    assert all(d.mean == 0 and d.p == 1.0 for d in same.differences.values())
    assert same.sentences()[0].startswith("greedy shows no clear change in seat 0's win rate")
    assert [round(b.p, 6) for b in same.balance] == [round(same.balance[0].p, 6)] * 2


def test_sequential_stopping_plays_until_precise() -> None:
    first = make_job("cubes", ["random"], players=2, options={"sets": 1})
    second = make_job("cubes", ["random"], players=2, options={"sets": 1}, seed=1000)
    result = compare([first, second], ["a", "b"], ["seat0"], precision=0.2, batch=10, max_games=400)
    d = result.differences["seat0", 1]
    assert d.half_width <= 0.2 and result.stopped.startswith("precise to ±0.2 after")
    assert result.games % 10 == 0 and result.games < 400
    capped = compare([first, second], ["a", "b"], ["seat0"], precision=0.01, batch=10, max_games=20)
    assert capped.games == 20 and capped.stopped.startswith("cap of 20 games")


def test_the_command_says_the_answer_first(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(
            [
                "compare",
                "cubes",
                "-p",
                "3",
                "-o",
                "sets=1",
                "-s",
                "bots=random",
                "-s",
                "bots=greedy",
                "-n",
                "6",
                "-j",
                "1",
            ]
        )
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.index("The answer") < out.index("Paired differences") < out.index("Seat balance")
    assert "shows no clear change in seat 0's win rate" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "variants="], "give two or more settings"),
        (["-s", "a", "-s", "b"], "write it as key=value"),
        (["-s", "players=2", "-s", "players=3", "-m", "seat2"], "has only 2 seats"),
        (["-s", "rounds=1", "-s", "rounds=1"], "settings 1 and 2 are the same setting"),
        # the second value replaced the first, and the report's label named both
        (["-s", "rounds=1;rounds=3", "-s", "rounds=2"], "rounds is given twice; give it once"),
        (["-s", "bots=random;bots=greedy", "-s", "rounds=2"], "bots is given twice"),
    ],
)
def test_bad_comparisons_give_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["compare", "cubed", "-n", "2", "-q", *args])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_bots_given_one_flag_each_are_every_settings_lineup(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`compare -b greedy -b random` plays greedy against random in every setting that names
    no bots (the first flag is not dropped for the last)."""
    args = ["compare", "cubed", "-o", "rounds=1", "-b", "greedy", "-b", "random"]
    with pytest.raises(SystemExit) as done:
        main([*args, "-s", "variants=", "-s", "variants=bridging", "-n", "2", "-j", "1"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "bots greedy,random" in out and "bots random" not in out


def test_a_settings_players_wins_over_the_players_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`compare -p 3 -s players=3 -s players=4` compares three seats with four, as a
    setting's other options win over `-o` (--players used to overwrite both settings,
    which then read as the same one)."""
    args = ["compare", "cubes", "-p", "3", "-o", "sets=1", "-b", "greedy"]
    with pytest.raises(SystemExit) as done:
        main([*args, "-s", "players=3", "-s", "players=4", "-n", "2", "-j", "1"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "bots greedy,greedy,greedy (" in out and "bots greedy,greedy,greedy,greedy (" in out


def test_a_measure_no_game_gives_and_a_precision_that_is_no_number_are_refused() -> None:
    # they read "+nan (95% CI -inf to inf, 0 paired games)", and nan played to the cap
    jobs = [make_job("cubes", ["random"], players=4, options={"sets": s}) for s in (2, 3)]
    with pytest.raises(ValueError, match="measure m_drama_avg: no game of a gives it"):
        compare(jobs, ["a", "b"], ["m_drama_avg"], games=4)
    with pytest.raises(ValueError, match="precision nan: give a finite number above 0"):
        compare(jobs, ["a", "b"], ["seat0"], precision=float("nan"))
