"""The command line: real subprocesses, as a user would run it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cubegames
from tests.cubed.test_positions import API_EXAMPLE


def run(
    *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`cubegames ARGS` in a subprocess, in English unless `env` says otherwise (the
    terminal's language follows CUBEGAMES_LANG and the locale: docs/playing.md)."""
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [sys.executable, "-m", "cubegames", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**base, "CUBEGAMES_LANG": "en", "LANG": "C.UTF-8", **(env or {})},
    )


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(API_EXAMPLE))
    return path


def test_moves_lists_the_legal_moves(position: Path) -> None:
    done = run("moves", str(position))
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["GGY@1,-1", "draw"]


def test_a_position_may_give_the_options_as_make_was_given_them(tmp_path: Path) -> None:
    """`"options": {"players": 2, "rounds": 1}` (the edition and variants left at their
    defaults) was refused: 'they differ from the game reading the position'."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps({**API_EXAMPLE, "options": {"players": 2, "rounds": 1}}))
    done = run("moves", str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == ["GGY@1,-1", "draw"]
    path.write_text(json.dumps({**API_EXAMPLE, "options": {"players": 2, "rounds": 1.0}}))
    done = run("moves", str(path))
    assert done.returncode == 2 and "rounds must be a whole number" in done.stderr


def test_check_says_legal_or_why_not(position: Path) -> None:
    done = run("check", str(position), "GGY@1,-1")
    assert (done.returncode, done.stdout.strip()) == (0, "legal")
    done = run("check", str(position), "pass")
    assert done.returncode == 1
    assert done.stdout.strip() == "you may pass only after drawing, or when the bag is empty"
    done = run("check", str(position), "YGG@1,-1")
    assert done.returncode == 1
    assert done.stdout.strip() == "only 1 of 2 contacts match: your right G meets Y at 1,0"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("moves", "/no/such/file.json"), "cannot read /no/such/file.json"),
        (("play", "chess"), "unknown game 'chess'; choose from cubed"),
        (("play", "cubed", "--players", "9"), "the en edition plays 1 to 6 players, not 9"),
        (("play", "cubed", "-o", "flavour=mint"), "cubed has no option 'flavour'"),
        (("play", "cubed", "-o", "rounds"), "write it as key=value"),
        (
            ("play", "cubed", "-p", "3", "-o", "players=2"),
            "--players 3 and --option players=2 disagree: give one of them",
        ),
        (("play", "cubed", "--bot", "wizard"), "--bot: unknown bot 'wizard'"),
        (("play", "cubed", "--bot", "random:seed=1"), "bot 'random' takes no parameter 'seed'"),
        (("play", "cubed", "--bot", "alphabeta"), "bot 'alphabeta' plays unstackable only"),
        (("play", "cubed", "--seat", "3"), "--seat 3: this game has seats 0 to 1"),
        # the third bot was dropped without a word
        (("play", "cubed", "-b", "random", "-b", "greedy", "-b", "mcts"), "3 bots for 1 other"),
        (("play", "cubed", "-s", "0", "-s", "1", "-b", "greedy"), "1 bot for no other seat"),
        (("play", "cubed", "--frobnicate"), "No such option '--frobnicate'"),
        (("compile", "--part", "toaster"), "'toaster' is not one of 'bots'"),
        # click quoted all 5,000 digits
        (("simulate", "cubed", "-n", "9" * 5000), "'" + "9" * 60 + "…' is not a valid"),
    ],
    ids=lambda arg: arg if isinstance(arg, str) else " ".join(a[:12] for a in arg),
)
def test_bad_arguments_give_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert message in lines[0] and len(lines[0]) < 300
    assert "Traceback" not in done.stderr


def test_bad_position_files(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    done = run("moves", str(garbage))
    assert done.returncode == 2
    assert "not valid JSON" in done.stderr
    deep = tmp_path / "deep.json"  # deeper than Python's stack: json.loads would recurse out
    deep.write_text("[" * 100_000 + "]" * 100_000)
    done = run("moves", str(deep))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("not a position file (its brackets nest too deep to read)")
    # a file larger than any position is refused before it is read whole: an endless one
    # (/dev/zero, a pipe) would otherwise fill the memory
    large = tmp_path / "large.json"
    large.write_text(json.dumps({**API_EXAMPLE, "notes": "x" * 2_000_000}))
    done = run("check", str(large), "draw")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.strip().endswith("too large to read (more than 1,000,000 bytes)")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**API_EXAMPLE, "bag": ["PPP"] * 9}))
    done = run("check", str(wrong), "draw")
    assert done.returncode == 2
    expected = "bag[1]: one PPP too many; the en box holds that piece once"
    assert done.stderr.strip().endswith(expected)


def test_help_everywhere() -> None:
    for args in [(), ("play",), ("moves",), ("check",), ("games",), ("compile",)]:
        done = run(*args, "--help")
        assert done.returncode == 0
        assert "Usage:" in done.stdout


@pytest.mark.parametrize("game", cubegames.GAMES)
def test_a_full_game_against_the_bot_by_typing_numbers(game: str) -> None:
    # the human always picks the first listed move; the game must reach its end
    done = run("play", game, "--seed", "4", stdin="1\n" * 3000)
    assert done.returncode == 0, done.stderr
    assert "Game over." in done.stdout
    assert "Seat 1 (Random bot) plays" in done.stdout


def test_odds_of_cubes() -> None:
    done = run("odds", "cubes")
    assert done.returncode == 0
    assert "931/2916" in done.stdout  # numbers only
    assert "1/64" in done.stdout  # all blank
    done = run("odds", "cubed")
    assert done.returncode == 2
    assert "cubed has no table of exact odds (the games that have one: cubes)" in done.stderr


def test_cubes_says_what_each_roll_meant() -> None:
    done = run("play", "cubes", "--players", "3", "--seed", "2", stdin="roll\nquit\n")
    assert "Numbers only (1 + 5 + 1 + 2 + 4 = 13): you take 13." in done.stdout


def test_refused_moves_show_the_reason_and_the_game_goes_on() -> None:
    done = run("play", "cubed", "--seed", "4", stdin="pass\nGGG@5,5\n99\nquit\n")
    assert "Not allowed: you may pass only after drawing" in done.stdout
    assert "There is no move 99" in done.stdout
    assert "Game left unfinished." in done.stdout
    assert done.returncode == 0


def test_a_game_played_with_standard_input_closed_is_left_unfinished() -> None:
    """`cubegames play GAME <&-`: Python's input() raised RuntimeError ('lost sys.stdin')
    through a traceback; no input at all is the end of the input, as for an empty one."""
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    done = subprocess.run(
        [sys.executable, "-m", "cubegames", "play", "cubes", "--seed", "3"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        env={**base, "CUBEGAMES_LANG": "en"},
        preexec_fn=lambda: os.close(0),  # standard input closed, not merely empty
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "Game left unfinished." in done.stdout


def test_the_seed_is_told_only_when_the_game_is_over() -> None:
    # The seed fixes every hand and the bag's order: shown while playing, it tells a seat
    # what it may not see (the other hands, the next draws).
    done = run("play", "stakd", stdin="1\n")
    before, _, after = done.stdout.partition("Game left unfinished.")
    assert "seed" not in before.lower()
    assert "This deal was seed " in after
    seed = after.split("This deal was seed ")[1].split(":")[0]
    assert f"play it again with --seed {seed}." in after
    # in Japanese too, with the flag that replays it
    done = run("play", "stakd", "--lang", "ja", "--seed", "12", stdin="1\n")
    assert "この配り方のシード値は 12 でした。--seed 12 を付けると" in done.stdout.replace("\n", "")


def test_ctrl_c_at_the_prompt_says_the_game_was_left_on_a_line_of_its_own() -> None:
    from io import StringIO

    from rich.console import Console

    from cubegames.terminal import TerminalGame

    class Interrupted(Console):
        def input(self, prompt: object = "", **kwargs: Any) -> str:
            self.file.write("^C")
            raise KeyboardInterrupt

    out = StringIO()
    console = Interrupted(file=out, width=100, highlight=False)
    game = TerminalGame(cubegames.make("stakd", players=2), {0}, ["random"], 5, console)
    with pytest.raises(KeyboardInterrupt):
        game.run()
    told = "^C\nGame left unfinished.\nThis deal was seed 5: play it again with --seed 5.\n"
    assert out.getvalue().endswith(told)


def test_hot_seat_asks_each_player_to_take_the_keyboard() -> None:
    done = run(
        "play", "cubed", "--seat", "0", "--seat", "1", "--seed", "2", stdin="\n1\n\n1\nquit\n"
    )
    assert "Seat 0, your turn" in done.stdout
    assert "Seat 1, your turn" in done.stdout


def test_compile_readies_the_bots_kernels() -> None:
    """`cubegames compile` runs the bots' real kernels once (from numba's cache when they
    were compiled before), and says which parts are ready."""
    done = run("compile", "--part", "bots")
    assert done.returncode == 0, done.stderr
    assert "bots: ready" in done.stderr
    assert "simulator" not in done.stderr


def test_hot_seat_clears_the_last_players_hand_before_the_next_one_sits_down() -> None:
    """At one keyboard the screen and its scrollback are cleared when the turn passes to
    another person (seat 0's hand stayed in sight above seat 1's prompt); what was played
    since is said again below the hand-over line."""
    from io import StringIO

    from rich.console import Console

    from cubegames.terminal import TerminalGame

    typed = iter(["", "1", "", "quit"])

    class Keyboard(Console):
        def input(self, prompt: object = "", **kwargs: Any) -> str:
            self.file.write(str(prompt))
            return next(typed)

    out = StringIO()
    console = Keyboard(file=out, width=100, highlight=False, force_terminal=True, color_system=None)
    TerminalGame(cubegames.make("cubed", players=2), {0, 1}, ["random"], 2, console).run()
    before, clear, after = out.getvalue().rpartition("\x1b[2J\x1b[H\x1b[3J")
    assert clear and "Seat 0, your turn" in before and "Seat 0 move>" in before
    hand_of_0 = before.split("Your hand (25 pieces):\n")[1].splitlines()[0]
    assert after.startswith("Seat 1, your turn")
    assert "Seat 0 plays" in after.split("Seat 1 move>")[0]  # the log, said again
    assert "Seat 0 move>" not in after and hand_of_0 not in after
    assert after.count("Your hand") == 1  # seat 1's own


def test_a_failure_is_one_line_even_when_its_words_fail(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line that tells a command's failure is itself made safely: if wording it fails
    too (the catalogs broken), it names the error's kind in English, still one line."""
    from cubegames import cli

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("stones")

    def unwordable(exc: BaseException) -> str:
        raise LookupError("no catalog")

    monkeypatch.setattr(cli, "read_position", broken)
    monkeypatch.setattr(cli, "failure", unwordable)
    with pytest.raises(SystemExit) as done:
        cli.main(["moves", "position.json"])
    assert done.value.code == 2
    assert capsys.readouterr().err == "cubegames: the command failed: KeyError\n"


def test_a_failure_names_the_line_of_the_caller_not_pythons_own_library() -> None:
    """A plug-in's `to_dict` handing json a value it cannot write fails inside
    json/encoder.py: the failure line names the plug-in's line that called it."""
    import json

    from cubegames.cli import failure

    def to_dict() -> str:
        return json.dumps({"hand": object()})

    try:
        to_dict()
    except TypeError as exc:
        said = failure(exc)
    assert said.startswith("the command failed: TypeError: Object of type object")
    assert said.endswith(", in to_dict)") and "tests/test_cli.py:" in said
