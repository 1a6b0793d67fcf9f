"""The player's commands in Japanese: `cubegames check`, `moves`, `games`, `rules` and
`play` speak the language of `--lang` (else CUBEGAMES_LANG, else the locale), click's own
usage errors and help included (`cubegames.clickwords`), each error one line on stderr with
exit status 2."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from cubegames import cli as cli_module
from cubegames.cli import cli
from cubegames.clickwords import MESSAGES, PLURALS, fields, speaking_click, template, translators
from cubegames.kit import words
from tests.cubed.test_positions import API_EXAMPLE
from tests.test_terminal_words import JAPANESE, english

#: no language from the machine's own environment: each test says which it means
PLAIN = {"CUBEGAMES_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"}

#: what a player types, which stays as typed in every language: the commands' and options'
#: names, option values of the examples, the choices of --lang, the bots' names
TYPED = re.compile(
    r"`[^`]*`|--?[a-z][a-z_-]*|\$[A-Z_]+|\b[a-z_]+=[a-z_,0-9]*|\[[a-z|]+\]|\ben\b|\bja\b|\bnumba\b|"
    r"\brandom\b|docs/\S+|\bcubegames(?: [a-z]+)?\b|\bMarkdown\b|'[^']*'|\S+\.json\b"
)


def say(*args: str, env: Mapping[str, str | None] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env={**PLAIN, **(env or {})})


def japanese_only(text: str) -> list[str]:
    """The English words left in `text` once what is typed is passed over."""
    return english(TYPED.sub(" ", text))


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(API_EXAMPLE))
    return path


def one_line_error(done: Result) -> str:
    assert done.exit_code == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


# -- click's own words ---------------------------------------------------------------------


def _click_messages(module: str) -> set[str]:
    """The messages a module of click marks for translation (`_("…")`, `ngettext("…", …)`:
    the singular)."""
    source = Path(click.__file__).with_name(module).read_text("utf-8")
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("_", "ngettext")
        ):
            found |= {
                a.value
                for a in node.args[:2]
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            }
    return found


#: click's messages a player never sees from `cubegames` (it prints an error as one line of
#: its own, not with click's "Error:" and "Try --help"; a parameter without a hint)
NOT_SHOWN = {
    "Error: {message}",
    "Try '{command} {option}' for help.",
    "unknown error",
    "Missing parameter: {param_name}",
    "Missing {param_type}",
    "Invalid start character for option ({option})",
}


def test_every_usage_error_of_click_has_words() -> None:
    """Each message click's errors, parser and types can give a player is listed (a new
    click that adds one fails here), and each listed one is click's, word for word."""
    marked = set().union(*(_click_messages(m) for m in ("exceptions.py", "parser.py")))
    listed = set(MESSAGES) | set(PLURALS) | {plural for plural, _key in PLURALS.values()}
    assert sorted(marked - listed - NOT_SHOWN) == []
    everywhere = set().union(
        *(_click_messages(p.name) for p in Path(click.__file__).parent.glob("*.py"))
    )
    assert sorted(listed - everywhere) == []


def test_the_english_catalog_is_clicks_own_words() -> None:
    """The English catalog says each of click's messages exactly as click does (so the
    fields and forms the Japanese one reads are click's)."""
    for message, key in MESSAGES.items():
        assert template("en", key, message) == message, key
    for singular, (plural, key) in PLURALS.items():
        assert template("en", key, singular, plural, count=1) == singular, key
        assert template("en", key, singular, plural, count=2) == plural, key


def test_the_japanese_templates_keep_clicks_fields() -> None:
    """A Japanese template holds only fields click fills, so click's `format` of it works."""
    gettext, ngettext = translators("ja")
    for message in MESSAGES:
        worded = gettext(message)
        assert set(fields(worded)) <= set(fields(message)), message
        assert JAPANESE.search(worded), message
    for singular, (plural, _key) in PLURALS.items():
        for n in (1, 2):
            worded = ngettext(singular, plural, n)
            assert set(fields(worded)) <= set(fields(singular)) | set(fields(plural))
            assert JAPANESE.search(worded), singular


def test_click_speaks_japanese_only_inside_the_block() -> None:
    with speaking_click("ja"):
        assert str(click.NoSuchOption("--x")) == "'--x' というオプションはありません。"
    assert str(click.NoSuchOption("--x")) == "No such option '--x'."


@pytest.mark.parametrize(
    ("args", "japanese"),
    [
        (("play", "cubed", "--frobnicate"), "'--frobnicate' というオプションはありません。"),
        (("play", "cubed", "--sead", "1"), "もしかして: '--seat', '--seed'"),
        (("check",), "次の引数を指定してください: 'POSITION.json'。"),
        (("play", "cubed", "--players", "30"), "'--players' / '-p' の値が正しくありません"),
        (("play", "cubed", "--seed", "abc"), "'abc' は数として読めません。"),
        (("play", "cubed", "--seed"), "オプション '--seed' には値を1個付けてください。"),
        # the space and the "." that click puts between its pieces are Japanese punctuation
        (("plya", "cubed"), "'plya' というコマンドはありません。もしかして: 'play'"),
        (("moves", "a.json", "b.json"), "余分な引数があります（b.json）"),
        (("rules", "cubed", "--plain=yes"), "'--plain' には値を付けません。"),
    ],
)
def test_clicks_usage_errors_in_japanese(args: tuple[str, ...], japanese: str) -> None:
    done = say("--lang", "ja", *args)
    line = one_line_error(done)
    assert line.startswith("cubegames: ") and japanese in line, line
    assert japanese_only(line) == [], line
    assert one_line_error(say(*args, env={"CUBEGAMES_LANG": "ja"})) == line


def test_clicks_words_follow_the_environment_and_stay_english_by_default() -> None:
    done = say("play", "cubed", "--frobnicate", env={"CUBEGAMES_LANG": "ja"})
    assert "というオプションはありません" in one_line_error(done)
    done = say("play", "cubed", "--frobnicate", env={"LANG": "ja_JP.UTF-8"})
    assert "というオプションはありません" in one_line_error(done)
    done = say("play", "cubed", "--frobnicate")
    assert one_line_error(done) == "cubegames: No such option '--frobnicate'."
    # a bad language is named in English, whatever else is wrong
    done = say("play", "cubed", "--lang", "fr")
    assert "'fr' is not one of 'en', 'ja'" in one_line_error(done)


# -- help ----------------------------------------------------------------------------------

PLAYER_COMMANDS = ("play", "moves", "check", "rules", "games", "replay", "compile", "odds")


@pytest.mark.parametrize("command", [*PLAYER_COMMANDS, None])
def test_the_players_help_in_japanese(command: str | None) -> None:
    args = [command] if command else []
    done = say(*args, "--help", "--lang", "ja")
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("使い方: cubegames"), done.stdout
    assert "オプション:" in done.stdout and "この説明を表示して終わります。" in done.stdout
    if command is None:  # the group lists the player's commands in Japanese
        commands = done.stdout.split("コマンド:")[1].splitlines()
        listed = {line.split()[0]: line for line in commands if line.strip()}
        for name in PLAYER_COMMANDS:
            assert JAPANESE.search(listed[name]), listed[name]
        text = "\n".join(listed[name].replace(name, "", 1) for name in PLAYER_COMMANDS)
        assert japanese_only(text) == [], text
    else:
        assert japanese_only(done.stdout) == [], done.stdout
        # a value is named as api.md names it (--players N, --seat S), not by click's
        # English type name ("INTEGER RANGE")
        assert "INTEGER" not in done.stdout and "TEXT" not in done.stdout, done.stdout
    english_help = say(*args, "--help")
    assert english_help.stdout.startswith("Usage: cubegames") and not JAPANESE.search(
        english_help.stdout
    )


def test_every_player_command_has_the_shared_language_option_and_its_words() -> None:
    """One `--lang` (`speaks`) for every command that speaks to a player, and each of
    their options has its help in the catalogs."""
    for name in PLAYER_COMMANDS:
        command = cli.commands[name]
        assert isinstance(command, cli_module.Spoken), name
        lang = next(p for p in command.params if p.name == "lang")
        assert isinstance(lang, click.Option) and lang.callback is not None
        assert lang.callback.__qualname__.startswith("_language_callback.")
        assert words.has(f"cli-help-{name}")
        for param in command.params:
            if isinstance(param, click.Option) and param.name != "lang":
                assert words.has(f"cli-help-{name}-{param.name}"), (name, param.name)
    keys = {k for k in words.bundle("en")._messages if k.startswith("cli-help-")}
    options = {f"cli-help-{n}-{p.name}" for n in PLAYER_COMMANDS for p in cli.commands[n].params}
    assert keys <= {f"cli-help-{n}" for n in PLAYER_COMMANDS} | options | {
        "cli-help-lang",
        "cli-help-cubegames",
    }


# -- what the commands print ---------------------------------------------------------------


def test_check_in_japanese(position: Path) -> None:
    done = say("check", str(position), "GGY@1,-1", "--lang", "ja")
    assert (done.exit_code, done.stdout) == (0, "合法手です。\n")
    done = say("check", str(position), "pass", "--lang", "ja")
    assert done.exit_code == 1
    assert done.stdout.strip() == words.say("ja", "refusal-cubed-pass-before-draw")
    done = say("check", str(position), "YGG@1,-1", "--lang", "ja")
    assert done.exit_code == 1 and "グリーン" in done.stdout and "イエロー" in done.stdout
    assert japanese_only(done.stdout) == [], done.stdout
    done = say("check", str(position), "nonsense", "--lang", "ja")
    assert (done.exit_code, done.stdout) == (1, words.say("ja", "cli-check-unknown-move") + "\n")
    assert japanese_only(done.stdout) == [] and JAPANESE.search(done.stdout)
    # English keeps the stable words (docs/api.md)
    done = say("check", str(position), "GGY@1,-1")
    assert (done.exit_code, done.stdout) == (0, "legal\n")


def test_the_language_comes_from_the_environment(position: Path) -> None:
    for env in ({"CUBEGAMES_LANG": "ja"}, {"LANG": "ja_JP.UTF-8"}, {"LC_ALL": "ja_JP.UTF-8"}):
        done = say("rules", "cubes", env=env)
        assert done.exit_code == 0 and JAPANESE.search(done.stdout), env
    done = say("check", str(position), "GGY@1,-1", env={"CUBEGAMES_LANG": "ja"})
    assert done.stdout == "合法手です。\n"


def test_what_scripts_read_stays_english_under_a_japanese_locale(position: Path) -> None:
    """`check` and `moves` are read by scripts (docs/api.md: "legal", exit 0): the locale
    does not change their words, only --lang or CUBEGAMES_LANG does."""
    for env in ({"LANG": "ja_JP.UTF-8"}, {"LC_ALL": "ja_JP.UTF-8"}):
        done = say("check", str(position), "GGY@1,-1", env=env)
        assert (done.exit_code, done.stdout) == (0, "legal\n"), env
        done = say("check", str(position), "GGY@1,-1", "--lang", "ja", env=env)
        assert done.stdout == "合法手です。\n", env
    done = say("check", str(position), "GGY@1,-1", "--lang", "en", env={"CUBEGAMES_LANG": "ja"})
    assert done.stdout == "legal\n"
    done = say("--lang", "ja", "check", str(position), "GGY@1,-1")  # before the command
    assert done.stdout == "合法手です。\n"
    done = say("check", str(position), "x", env={"CUBEGAMES_LANG": "klingon"})
    assert "CUBEGAMES_LANG='klingon': the languages are en, ja" in one_line_error(done)


def test_moves_lists_notation_in_either_language(position: Path) -> None:
    done = say("moves", str(position), "--lang", "ja")
    assert done.exit_code == 0 and done.stdout.splitlines() == ["GGY@1,-1", "draw"]


def _bad_files(tmp_path: Path) -> list[tuple[str, str]]:
    missing = str(tmp_path / "missing.json")
    not_text = tmp_path / "binary.json"
    not_text.write_bytes(b"\xff\xfe\x00")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    too_many = tmp_path / "too-many.json"
    too_many.write_text(json.dumps({**API_EXAMPLE, "bag": ["PPP"] * 9}))
    no_game = tmp_path / "no-game.json"
    no_game.write_text(json.dumps({"options": {}}))
    long_number = tmp_path / "long-number.json"  # json.loads: a ValueError, no JSON error
    long_number.write_text(
        json.dumps(API_EXAMPLE).replace('"to_move": 0', '"to_move": ' + "9" * 5000)
    )
    bad_option = tmp_path / "bad-option.json"
    bad_option.write_text(json.dumps({**API_EXAMPLE, "options": {"players": 99}}))
    return [
        (missing, "を読めません: ファイルがありません"),
        (str(tmp_path), "を読めません: フォルダーです"),
        (str(not_text), ": テキストファイルではありません"),
        (str(garbage), ": JSONとして読めません（1行2列）"),
        (str(too_many), ": 局面ファイルの「bag[1]」が正しくありません"),
        (str(no_game), ": 局面ファイルの「game」が正しくありません"),
        (str(long_number), ": 局面ファイルではありません（長すぎて読めない数があります）"),
        (str(bad_option), "英語版で遊べるのは1〜6人です（指定: 99人）"),
    ]


@pytest.mark.parametrize("command", ["moves", "check"])
def test_bad_position_files_in_japanese(tmp_path: Path, command: str) -> None:
    for path, japanese in _bad_files(tmp_path):
        args = [command, path] + (["draw"] if command == "check" else [])
        line = one_line_error(say(*args, "--lang", "ja"))
        assert japanese in line, (path, line)
        said = re.sub("「[^」]*」", "", line.replace(str(tmp_path), ""))  # the file's own field
        assert japanese_only(said) == [], line
        assert JAPANESE.search(line)
        english_line = one_line_error(say(*args))
        assert not JAPANESE.search(english_line), english_line


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_file_that_is_not_json_is_worded_alike_by_every_command(
    tmp_path: Path, lang: str
) -> None:
    """`replay` said "this is not a JSON file (… at line 1)" where `moves` and `check`
    said "not valid JSON (… at line 1 column 2)": one wording, in both languages."""
    for text in ("{not json", "", '{"a": 1,\n  oops}'):
        garbage = tmp_path / "garbage.json"
        garbage.write_text(text)
        said = {
            command: one_line_error(say(command, str(garbage), *extra, "--lang", lang))
            for command, extra in (("moves", []), ("check", ["draw"]), ("replay", []))
        }
        assert len(set(said.values())) == 1, said
        assert ("not valid JSON" if lang == "en" else "JSONとして読めません") in said["replay"]


def test_a_position_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    saved = tmp_path / "notepad.json"
    saved.write_bytes(b"\xef\xbb\xbf" + json.dumps(API_EXAMPLE).encode())
    done = say("moves", str(saved))
    assert done.exit_code == 0 and done.stdout.splitlines() == ["GGY@1,-1", "draw"]
    assert say("check", str(saved), "draw").stdout == "legal\n"


def test_games_in_japanese() -> None:
    done = say("games", "--lang", "ja")
    assert done.exit_code == 0
    assert "cubed: 設定 players（人数）, edition（版）" in done.stdout
    # the options are named as typed, each with its label; the rest is Japanese
    text = re.sub(r"\b[a-z_]+（", "（", done.stdout)
    assert japanese_only(re.sub(r"\bnim:.*", "", text)) == [], done.stdout
    assert say("games").stdout.startswith("cubed: options players, edition")


def test_rules_of_an_unknown_game_in_japanese() -> None:
    line = one_line_error(say("rules", "chess", "--lang", "ja"))
    assert "「chess」のルールはありません" in line
    assert "no rules for 'chess'" in one_line_error(say("rules", "chess"))
    done = say("rules", "cubes", "--lang", "ja", "--plain")
    assert done.exit_code == 0 and done.stdout.startswith("# CUBES")
    assert JAPANESE.search(done.stdout)


def test_a_bad_flag_of_play_in_japanese_is_worded_by_the_shared_helpers() -> None:
    line = one_line_error(say("play", "cubed", "-o", "rounds=99", "--lang", "ja"))
    assert "「rounds」は1から10までで指定してください" in line


@pytest.mark.parametrize(
    ("edition", "japanese", "english_words"),
    [
        ("zz", "「zz」という版はありません。選べるのは en, ja です", "unknown edition 'zz'"),
        ("/no/such.toml", "版のファイル /no/such.toml を読めません", "cannot read edition file"),
    ],
)
def test_an_edition_the_game_lacks_is_refused_in_japanese(
    edition: str, japanese: str, english_words: str
) -> None:
    # the edition's refusal was the engine's English in every language
    line = one_line_error(say("play", "cubed", "-o", f"edition={edition}", "--lang", "ja"))
    assert japanese in line
    assert japanese_only(line.replace(edition, "").replace(".toml", "")) == [], line
    assert english_words in one_line_error(say("play", "cubed", "-o", f"edition={edition}"))


def test_check_of_a_plug_in_game_in_japanese(tmp_path: Path) -> None:
    """A plug-in game's reasons have no words in the catalogs: the catalogs' general
    refusal stands in for them (its drawing names no colours)."""
    import cubegames

    path = tmp_path / "nim.json"
    path.write_text(json.dumps(cubegames.make("nim", players=2, stones=7).new_state(1).to_dict()))
    done = say("check", str(path), "take 5", "--lang", "ja")
    assert (done.exit_code, done.stdout) == (1, words.say("ja", "refusal-not-allowed") + "\n")
    assert say("check", str(path), "take 5").stdout == "take 1 to 3 stones\n"
    assert say("check", str(path), "take 2", "--lang", "ja").stdout == "合法手です。\n"


def test_compile_says_what_it_readies_in_japanese(monkeypatch: pytest.MonkeyPatch) -> None:
    from cubegames import kernels

    warmed: list[tuple[str, ...]] = []
    monkeypatch.setattr(kernels, "warm", warmed.append)
    done = say("compile", "--part", "bots", "--part", "simulator", "--lang", "ja")
    assert done.exit_code == 0 and warmed == [("bots",), ("simulator",)]
    lines = done.stderr.splitlines()
    assert [line.split("（")[0] for line in lines] == [
        "bots: 準備ができました",
        "simulator: 準備ができました",
    ]
    assert japanese_only(re.sub(r"\b(bots|simulator):", "", done.stderr)) == []
    assert say("compile", "--part", "bots").stderr.startswith("bots: ready (")


def test_serve_says_where_to_play_in_the_players_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make play`'s first lines (`cubegames serve`) in the command's language; the server
    itself is not started (its `run` and the bots' warm-up are replaced)."""
    from cubegames.server import cli as server_cli

    started: list[tuple[str, int]] = []
    monkeypatch.setattr(
        server_cli, "run", lambda app, host, port, *a, **k: started.append((host, port))
    )
    monkeypatch.setattr(server_cli, "warm_bots_in_background", lambda: None)
    db = f"sqlite:///{tmp_path / 'games.db'}"
    done = say("serve", "--port", "8765", "--db", db, env={"CUBEGAMES_LANG": "ja"})
    assert done.exit_code == 0, done.output
    assert "ブラウザーで http://127.0.0.1:8765/ を開いてください" in done.stdout
    assert (
        japanese_only(
            done.stdout.replace(db, " ")
            .replace("cubegames:", " ")
            .replace("http://127.0.0.1:8765/", " ")
            .replace("Ctrl-C", " ")
        )
        == []
    ), done.stdout
    done = say("serve", "--port", "8765", "--db", db)
    assert "open http://127.0.0.1:8765/ in a browser (Ctrl-C stops)" in done.stdout
    assert started == [("127.0.0.1", 8765)] * 2


def test_a_command_line_refused_after_its_lang_leaves_no_language_behind() -> None:
    """click reads `--lang` (and sets the language) before it finds the extra argument;
    the refused command's block is never left, and collecting it later must not bring
    Japanese back into whatever runs next."""
    import gc

    from cubegames.kit.terminal import language

    for args in (("moves", "a.json", "b.json", "--lang", "ja"), ("--lang", "ja", "check")):
        assert one_line_error(say(*args)).startswith("cubegames: ")
        gc.collect()
        assert language() == "en", args


@pytest.mark.parametrize(
    "args",
    [("--lang", "ja", "odds", "cubed"), ("odds", "--lang", "ja", "cubed"), ("odds", "cubed")],
)
def test_odds_speaks_the_language_asked_anywhere_on_the_line(args: tuple[str, ...]) -> None:
    """`odds` takes the language as every player's command does: `cubegames --lang ja odds`
    (it once read only its own --lang), its own --lang, or CUBEGAMES_LANG."""
    env = {"CUBEGAMES_LANG": "ja"} if "--lang" not in args else {}
    line = one_line_error(say(*args, env=env))
    assert line == "cubegames: cubed には正確な確率の表がありません（表があるゲーム: cubes）"
    table = say(*[a if a != "cubed" else "cubes" for a in args], env=env)
    assert table.exit_code == 0 and "正確な確率" in table.stdout
