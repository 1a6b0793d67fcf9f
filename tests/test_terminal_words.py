"""The terminal client in Japanese: `cubegames play --lang ja` says every sentence (the
table, prompts, help, the moves in words, refusals, results) from the catalogs; only move
notation, game and piece names, the commands typed and bot names given stay as they are."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

import cubegames
from cubegames.core.errors import Refusal
from cubegames.core.registry import built_in, info
from cubegames.kit import words
from cubegames.kit.terminal import refused, speaking
from cubegames.render.terminal import draw
from tests.test_cli import run

#: the Latin words a Japanese terminal may show: what is typed (commands and the moves'
#: notation words) and names (game ids and titles); capitals-only words (notation such as
#: GPY@1,-1, piece names such as BOMBER, CUBES) are passed over too
ALLOWED = {"help", "quit", "draw", "pass", "roll", "end", "keep", "give", "Unstackable"}
ALLOWED |= set(cubegames.GAMES)
WORD = re.compile(r"[A-Za-z]{2,}")
FLAG = re.compile(r"--[a-z][a-z-]*")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: the built-in games (a plug-in game's drawing and words are its own, in its language)
BUILT_IN = [g for g in cubegames.GAMES if built_in(g)]


def english(text: str) -> list[str]:
    """The English words in `text`: Latin words that are neither notation nor names, nor a
    command line's flag (--seed), which is typed as it is in any language."""
    text = FLAG.sub(" ", text)
    return sorted({w for w in WORD.findall(text) if not w.isupper() and w not in ALLOWED})


def test_the_scan_finds_english() -> None:
    assert english("席1（ランダムボット）: GPY@1,-1 · draw · CUBED") == []
    assert english("席0の手> There is no move 99") == ["There", "is", "move", "no"]
    assert english("--seed 12 を付けると") == [] and english("seed 12") == ["seed"]


@pytest.mark.parametrize("game", BUILT_IN)
def test_a_game_played_in_japanese_shows_no_english(game: str) -> None:
    """A whole game typed at the keyboard (help, the list, a move that does not exist, a
    word that is no move, then the first listed move every turn) in Japanese: no English
    word anywhere in what the player reads, and the end is told."""
    typed = "help\n?\n999\nnonsense\n" + "1\n" * 3000
    done = run("play", game, "--seed", "4", "--lang", "ja", stdin=typed)
    assert done.returncode == 0, done.stderr
    assert english(done.stdout) == [], done.stdout[-3000:]
    assert "…" not in done.stdout  # nothing cut off at the usual 80 columns
    assert "ゲーム終了。得点:" in done.stdout
    assert "999番の手はありません" in done.stdout
    assert "このゲームにない手です" in done.stdout
    assert "合法手の一覧を表示する" in done.stdout  # the help
    assert "ランダムボット" in done.stdout  # the bot's moves in the log
    assert done.stderr == ""


def test_a_refused_move_is_told_in_japanese() -> None:
    typed = "pass\n²\n" + "9" * 5000 + "\nquit\n"  # a digit that is no number, a huge one
    done = run("play", "cubed", "--seed", "4", "--lang", "ja", stdin=typed)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    assert "このゲームにない手です" in done.stdout
    assert "999999999…番の手はありません。1〜59の番号を選んでください。" in done.stdout
    assert "指せません: " in done.stdout
    assert "先にピースを引いてください" in done.stdout
    assert "you may pass" not in done.stdout
    assert "ゲームを途中で終えました。" in done.stdout


def test_what_a_japanese_input_method_types_in_full_width_is_read_as_ascii() -> None:
    # ？ lists the moves, １ plays the first, ＧＧＧ＠５，５ is refused by the rules (not
    # as a word that is no move), ｑｕｉｔ leaves: each was "このゲームにない手です"
    typed = "？\n　draw　\nＧＧＧ＠５，５\n１\nｑｕｉｔ\n"
    done = run("play", "cubed", "--seed", "4", "--lang", "ja", stdin=typed)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    assert "このゲームにない手です" not in done.stdout
    assert "席0の手: draw" in done.stdout and "あなたがピースを1個引きました" in done.stdout
    assert "指せません: " in done.stdout  # GGG@5,5: the rules' own reason
    assert "ゲームを途中で終えました。" in done.stdout


def test_a_solo_game_says_how_it_ended() -> None:
    # solo CUBED has no round lines: it ended on "勝者はいません。" and no word of why
    done = run("play", "cubed", "-p", "1", "--seed", "3", "--lang", "ja", stdin="1\n" * 500)
    assert "ソロゲーム終了: 2回引いても置けるピースがなかった。" in done.stdout
    assert english(done.stdout) == [], done.stdout[-2000:]
    done = run("play", "cubed", "-p", "1", "--seed", "3", stdin="1\n" * 500)
    assert "Solo game over: no piece fitted, even after two draws." in done.stdout


def test_hot_seat_in_japanese_hands_the_keyboard_over() -> None:
    done = run(
        "play", "cubed", "--seat", "0", "--seat", "1", "--seed", "2", "--lang", "ja",
        stdin="\n1\n\n1\nquit\n",
    )  # fmt: skip
    assert "席0の番です。ほかの人は画面を見ないでください" in done.stdout
    assert "席1の番です。" in done.stdout
    assert english(done.stdout) == []


def test_the_locale_picks_the_language() -> None:
    typed = "quit\n"
    by_locale = run(
        "play",
        "cubes",
        "--seed",
        "1",
        stdin=typed,
        env={"CUBEGAMES_LANG": "", "LANG": "ja_JP.UTF-8"},
    )
    assert "ゲームを途中で終えました。" in by_locale.stdout
    by_variable = run("play", "cubes", "--seed", "1", stdin=typed, env={"CUBEGAMES_LANG": "ja"})
    assert "ゲームを途中で終えました。" in by_variable.stdout
    flag_first = run("play", "cubes", "--lang", "en", stdin=typed, env={"CUBEGAMES_LANG": "ja"})
    assert "Game left unfinished." in flag_first.stdout
    assert not JAPANESE.search(flag_first.stdout)


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (("--lang", "fr"), {}, "'fr' is not one of 'en', 'ja'"),
        (("--lang", ""), {}, "'' is not one of 'en', 'ja'"),
        ((), {"CUBEGAMES_LANG": "klingon"}, "CUBEGAMES_LANG='klingon': the languages are en, ja"),
    ],
)
def test_a_bad_language_is_one_line_and_exit_2(
    args: tuple[str, ...], env: dict[str, str], message: str
) -> None:
    done = run("play", "cubed", *args, stdin="quit\n", env=env)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr


def test_bad_arguments_in_japanese() -> None:
    """The engine's refusal of an option and the seat check, in the asked language."""
    done = run("play", "cubes", "--lang", "ja", "-o", "players=99")
    assert done.returncode == 2 and "CUBESは2〜10人で遊ぶゲームです（指定: 99人）" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    done = run("play", "chess", "--lang", "ja")
    assert done.returncode == 2 and "「chess」というゲームはありません" in done.stderr
    done = run("play", "cubed", "--lang", "ja", "--seat", "5")
    assert done.returncode == 2 and "このゲームの席は0〜1です" in done.stderr
    for args, japanese in [
        (("-o", "flavour=mint"), "cubedには「flavour」という設定はありません"),
        (("-o", "rounds"), "--option rounds: key=value の形で書いてください"),
        (("-o", "variants=foo"), "「variants」は次から選んでください: bridging, void, draw3"),
        (("-o", "rounds=99"), "「rounds」は1から10までで指定してください"),
        (("--players", "1", "-o", "variants=void"), "ソロでは使えません"),
        (("--bot", "mcts:tree=maybe"), "--bot: tree は true か false で指定してください"),
        (("-b", "random", "-b", "greedy"), "ボットが2つ指定されていますが、ボットが座る席は1つ"),
        (("--bot", "random:seed=1"), "ボット「random」には「seed」という設定はありません"),
        (("--bot", "mcts:c=1,c=2"), "ボット「mcts」: c が2回指定されています"),
    ]:
        done = run("play", "cubed", "--lang", "ja", *args)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert japanese in lines[0], lines[0]
        # option names, choices and settings are what is typed; no English word besides
        said = lines[0].removeprefix("cubegames: ").replace("--option", "")
        assert not re.search(r"\b(?:has|no|option|must|choose|from|write|as|it|takes)\b", said)


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_every_drawing_in_japanese(game_id: str) -> None:
    """Each game's table, in every example set-up, from a seat and a spectator, a few
    moves in and at the end: Japanese words only."""
    for options in info(game_id).example_options:
        game = cubegames.make(game_id, **options)
        state = game.new_state(seed=3)
        bot = cubegames.bot("random", seed=3)
        console = Console(width=80, record=True)  # a terminal's usual width
        with speaking("ja"):
            for step in range(400):
                if state.is_over:
                    break
                if step in (0, 5):
                    console.print(draw(game, state.public_view()))
                    mover = state.to_move
                    assert mover is not None
                    console.print(draw(game, state.view(mover), state.legal_moves()))
                state.play(bot.choose(state))
            console.print(draw(game, state.view(0)))
        text = console.export_text()
        assert english(text) == [], (options, text[-2000:])
        assert JAPANESE.search(text)
        assert "…" not in text, text  # nothing cut off (a Japanese letter takes two cells)


def test_a_rules_reason_names_colours_in_the_language() -> None:
    """A CUBED mismatch names both colours in Japanese, from the game's palette."""
    game = cubegames.make("cubed", players=2)
    reason = Refusal("mismatch", "x", slot="left", mine="G", theirs="Y")
    from cubegames.render import web

    palette = web.info(game)["palette"]
    with speaking("ja"):
        said = refused("cubed", reason, palette)
    assert "グリーン" in said and "イエロー" in said, said
    assert english(said) == []
    with speaking("en"):
        assert refused("cubed", reason, palette) == "x"  # the rules' own sentence
    assert words.refusal("ja", "nogame", Refusal("odd", "an odd reason")) == words.say(
        "ja", "refusal-not-allowed"
    )
