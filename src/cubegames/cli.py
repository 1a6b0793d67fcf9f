"""The `cubegames` command: thin, it parses, calls and prints.

Bad arguments or files give one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import copy as _copy
import errno
import json
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, NoReturn, Self, TypeVar

import click

import cubegames
from cubegames.core.game import State
from cubegames.core.registry import game_class, game_from_dict, left_out, options_from_text


class UsageFailure(click.UsageError):
    """A usage error shown as one line."""


def fail(message: str) -> NoReturn:
    raise UsageFailure(message)


def t(key: str, /, **args: Any) -> str:
    """The catalog's message `key` in the language the command speaks (`--lang`)."""
    from cubegames.kit import terminal

    return terminal.t(key, **args)


def speaking_english() -> bool:
    from cubegames.kit import terminal, words

    return terminal.language() == words.DEFAULT


#: the largest position file `moves` and `check` read, in bytes (a game's whole position is
#: a few kilobytes); a larger one, or an endless one (`/dev/zero`), is refused unread
MAX_POSITION = 1_000_000


def read_text(path: str, limit: int) -> str:
    """A file's text, or a one-line usage error: for a file that cannot be read, is not
    text, or is larger than `limit` bytes (only `limit` and one more are ever read)."""
    from cubegames.core.data import FileTooLarge, read_bounded

    try:
        return read_bounded(path, limit)
    except OSError as exc:
        fail(t("cli-cannot-read", path=path, reason=_os_reason(exc)))
    except FileTooLarge:
        fail(t("cli-too-large", path=path, bytes=limit))
    except UnicodeDecodeError:
        fail(t("cli-not-text", path=path))


def read_position(path: str) -> State[Any]:
    """A state from a position file, or a one-line usage error (in the command's
    language; a game's own reason for refusing the file by the field it names)."""
    # a byte order mark (Windows' Notepad writes one) is no part of the JSON; `replay`
    # reads past it too
    text = read_text(path, MAX_POSITION).removeprefix("\ufeff")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(t("cli-not-json", path=path, reason=exc.msg, line=exc.lineno, column=exc.colno))
    except RecursionError:  # brackets nested deeper than Python's stack
        fail(t("cli-too-deep", path=path))
    except ValueError:  # an integer of more digits than Python converts (4300)
        fail(t("cli-long-number", path=path))
    try:
        game = game_from_dict(data)
        return game.state_from_dict(data)
    except ValueError as exc:
        if not speaking_english() and _is_worded(exc):
            fail(f"{path}: {worded(exc)}")
        field = _FIELD.match(str(exc))
        if field is None:
            fail(t("cli-bad-file", path=path, reason=str(exc)))
        if str(exc).endswith(" is missing"):
            fail(t("cli-missing-field", path=path, reason=str(exc), field=field.group(1)))
        fail(t("cli-bad-field", path=path, reason=str(exc), field=field.group(1)))


#: the field a game's reason for refusing a position file names first (`field "rng": …`,
#: `bag[1]: …`)
_FIELD = re.compile(r'^(?:field )?"?([A-Za-z_][\w.\[\]]*)"?(?::| is missing)')


def _os_reason(exc: OSError) -> str:
    """Why a file could not be read: the system's words in English, the catalog's
    otherwise."""
    if speaking_english() and exc.strerror:
        return exc.strerror
    if exc.errno == errno.ENOENT:
        return t("cli-os-missing")
    if exc.errno == errno.EACCES:
        return t("cli-os-denied")
    if exc.errno == errno.EISDIR:
        return t("cli-os-folder")
    return t("cli-os-other")


def _is_worded(exc: ValueError) -> bool:
    from cubegames.core.phrase import Worded
    from cubegames.kit import words

    return isinstance(exc, Worded) and words.has(exc.phrase.key)


def language(asked: str | None, locale: bool = True) -> str:
    """`--lang` when given, else the environment's language (a bad CUBEGAMES_LANG is a
    one-line usage error). Without `locale` the locale is not asked: only CUBEGAMES_LANG
    (the commands whose output scripts read, `check` and `moves`, answer in English on any
    machine unless told otherwise)."""
    from cubegames.kit.words import language_from

    if asked is not None:
        return asked
    environ: Mapping[str, str] = os.environ
    if not locale:
        environ = {"CUBEGAMES_LANG": os.environ.get("CUBEGAMES_LANG", "")}
    try:
        return language_from(environ)
    except ValueError as exc:
        fail(str(exc))


def _explicit(argv: Sequence[str]) -> str | None:
    """The last `--lang X` or `--lang=X` of a command line naming a language, if any."""
    from cubegames.kit.words import LANGUAGES

    asked = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else None
        if arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value in LANGUAGES:
            asked = value
    return asked


def asked_language(argv: Sequence[str]) -> str:
    """The language a command line asks for before click reads it (for click's own
    words, an unknown option's included): its last `--lang X` or `--lang=X` naming a
    language, else the environment's (English where that is bad: the command then says
    so)."""
    from cubegames.kit.words import DEFAULT, language_from

    asked = _explicit(argv)
    if asked is not None:
        return asked
    try:
        return language_from(os.environ)
    except ValueError:
        return DEFAULT


def worded(exc: ValueError, lang: str | None = None) -> str:
    """An engine's refusal (a bad option or bot) in `lang` (by default the command's): by
    its catalog code where it is `Worded` and the language is not English, its own
    English otherwise."""
    from cubegames.core.phrase import Worded
    from cubegames.kit import terminal, words

    lang = lang or terminal.language()
    if lang == words.DEFAULT or not isinstance(exc, Worded) or not words.has(exc.phrase.key):
        return str(exc)
    return words.phrase(lang, exc.phrase.said())


#: the language the whole command line asked for with `--lang` (`Cubegames.main`)
_ASKED: ContextVar[str | None] = ContextVar("cubegames_cli_asked", default=None)


def _language_callback(
    locale: bool,
) -> Callable[[click.Context, click.Parameter, str | None], str]:
    def set_language(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
        """`--lang`'s callback: the command speaks the language asked here, else the one
        the command line asked for elsewhere (`cubegames --lang ja check …`), else the
        environment's, until it ends (a bad CUBEGAMES_LANG is refused either way)."""
        from cubegames.kit.terminal import speaking

        lang = language(value, locale)
        if value is None:
            lang = _ASKED.get() or lang
        ctx.with_resource(speaking(lang))
        return lang

    return set_language


def speaks(command: Callable[..., Any]) -> Callable[..., Any]:
    """The `--lang` option of a command that speaks to a player (its words from the
    catalogs of `cubegames.kit.words`); without it, CUBEGAMES_LANG or the locale decides.
    The command reads the language from `kit.terminal.language()` (or its `lang`
    parameter)."""
    return _lang_option(command, locale=True)


def speaks_to_scripts(command: Callable[..., Any]) -> Callable[..., Any]:
    """`speaks` for a command whose output scripts read (`check`, `moves`): only `--lang`
    or CUBEGAMES_LANG changes its words, never the locale."""
    return _lang_option(command, locale=False)


def _lang_option(command: Callable[..., Any], locale: bool) -> Callable[..., Any]:
    return click.option(
        "--lang",
        type=click.Choice(["en", "ja"]),
        default=None,
        is_eager=True,
        callback=_language_callback(locale),
        help=LANG_HELP,
    )(command)


#: `--lang`'s help in English (the help is worded by `Spoken` from `cli-help-lang`)
LANG_HELP = (
    "The language: en (English) or ja (Japanese); default: $CUBEGAMES_LANG, else the "
    "locale ($LC_ALL, $LC_MESSAGES, $LANG), else en."
)


class Spoken(click.Command):
    """A command whose help is the catalogs' (`cli-help-NAME` for its text,
    `cli-help-NAME-PARAM` for an option's, `cli-help-lang` for `--lang`), in the language
    the command line speaks; the function's docstring stands in where a catalog has
    none."""

    def _key(self) -> str:
        return f"cli-help-{self.name}"

    def _worded(self, ctx: click.Context | None = None) -> Self:
        """A shallow copy of this command, for its help only, with its help and its
        options' help worded (`--help`'s and `--version`'s as click's words are; with
        `ctx`, the help option is in the copy's options)."""
        from cubegames.clickwords import MESSAGES
        from cubegames.kit import words

        copy = _copy.copy(self)
        if words.has(self._key()):
            copy.help = t(self._key())
        if ctx is None:
            return copy
        helps = self.get_help_option(ctx)
        params = []
        for param in self.get_params(ctx):
            key = "cli-help-lang" if param.name == "lang" else f"{self._key()}-{param.name}"
            if param is helps:
                key = "cli-click-help"  # cached by click in the language it was made in
            elif isinstance(param, click.Option) and not words.has(key):
                key = MESSAGES.get(param.help or "", "")
            if isinstance(param, click.Option) and key:
                param = _copy.copy(param)
                param.help = t(key)
            params.append(param)
        copy.params = params
        copy.add_help_option = False  # it is in `params` already
        return copy

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super(Spoken, self._worded()).format_help_text(ctx, formatter)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super(Spoken, self._worded(ctx)).format_options(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        """The first sentence of the help, as click cuts it in English; in a language
        written without spaces (Japanese) that sentence without its asides in brackets."""
        worded = self._worded()
        if speaking_english() or self.short_help or not worded.help:
            return super(Spoken, worded).get_short_help_str(limit)
        sentence = worded.help.split("\n\n")[0].split("。")[0]
        return re.sub(r"（[^）]*）", "", sentence) + "。"


class Cubegames(Spoken, click.Group):
    """The `cubegames` group: each command line runs in the language it asks for
    (`asked_language`: click's own words too, `clickwords`), and an error is one line
    on stderr with click's exit status (2 for a usage error), never a traceback."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> NoReturn:
        from cubegames.clickwords import speaking_click
        from cubegames.kit.terminal import speaking

        argv = list(sys.argv[1:] if args is None else args)
        lang = asked_language(argv)
        token = _ASKED.set(_explicit(argv))
        with speaking(lang), speaking_click(lang):
            try:
                click.Group.main(self, argv, prog_name or "cubegames", complete_var, False, **extra)
            except click.exceptions.Exit as exc:
                sys.exit(exc.exit_code)
            except click.exceptions.NoArgsIsHelpError as exc:  # the help, not an error line
                click.echo(exc.format_message(), err=True)
                sys.exit(exc.exit_code)
            except click.exceptions.Abort:
                click.echo("", err=True)
                sys.exit(130)
            except click.ClickException as exc:
                click.echo(f"cubegames: {_tidied(exc.format_message(), lang)}", err=True)
                sys.exit(exc.exit_code)
            except Exception as exc:  # a bug, most likely a plug-in game's: one line too
                try:
                    said = failure(exc)
                except Exception:  # the catalogs themselves failing: still one line
                    said = f"the command failed: {type(exc).__name__}"
                click.echo(f"cubegames: {said}", err=True)
                sys.exit(2)
            finally:
                _ASKED.reset(token)
        sys.exit(0)


def failure(exc: BaseException) -> str:
    """What went wrong when a command failed with no refusal of its own, in one line (the
    catalog's `cli-failed`): the exception's kind and message, cut short, and the file and
    line that raised it. A plug-in game's own bug (its `legal_moves` raising, a worker of
    `simulate` failing in its rules) ends the command there, in that line and exit status
    2, never a traceback; the place names the plug-in's file, for whoever can fix it.

    >>> try:
    ...     {}["stones"]
    ... except KeyError as exc:
    ...     print(failure(exc))  # doctest: +ELLIPSIS
    the command failed: KeyError: 'stones' (<doctest ...>:2, in <module>)
    """
    from cubegames.core.errors import briefly

    return t("cli-failed", error=briefly(exc, 120), place=_raised_at(exc))


def _raised_at(exc: BaseException) -> str:
    """`file.py:LINE, in FUNCTION` of the innermost frame that raised `exc`: in a worker
    process (`simulate --jobs`), the worker's, which `concurrent.futures` hands on as the
    text of the exception's cause."""
    import traceback

    remote = getattr(exc.__cause__, "tb", None)
    if isinstance(remote, str):
        found = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', remote)
        if found:
            path, line, name = _not_python_own(found, lambda f: f[0])
            return f"{_short(path)}:{line}, in {name}"
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = _not_python_own(frames, lambda f: f.filename)
    return f"{_short(last.filename)}:{last.lineno}, in {last.name}"


_T = TypeVar("_T")


def _not_python_own(frames: Sequence[_T], path: Callable[[_T], str]) -> _T:
    """The innermost of `frames` outside Python's own library (a plug-in's `to_dict`
    giving json what it cannot write raises in json/encoder.py: the plug-in's line is
    the one to name), else the innermost."""
    import sysconfig

    paths = sysconfig.get_paths()
    folder = {key: os.path.normpath(paths[key]) + os.sep for key in paths}
    own = (folder["stdlib"], folder["platstdlib"])
    installed = (folder["purelib"], folder["platlib"])  # (inside stdlib's folder, at times)
    for frame in reversed(frames):
        where = os.path.normpath(path(frame))
        if not where.startswith(own) or where.startswith(installed):
            return frame
    return frames[-1]


def _short(path: str) -> str:
    """A source file named by its folder and name (`mygame/rules.py`)."""
    folder, name = os.path.split(path)
    return f"{os.path.basename(folder)}/{name}" if folder else name


def _tidied(message: str, lang: str) -> str:
    """A usage error as click put it together from the catalog's pieces, with the
    punctuation click adds outside them in the language's own: Japanese has no space after
    。 and ends on 。, not on click's "." after a quoted name; a value of more than 80
    characters (a path's parts aside) that click quotes whole (`-n 999…` of 5,000
    digits) cut to its first 60.

    >>> _tidied("'plya' というコマンドはありません。 もしかして: 'play'", "ja")
    "'plya' というコマンドはありません。もしかして: 'play'"
    >>> _tidied("次の引数を指定してください: 'GAME'.", "ja")
    "次の引数を指定してください: 'GAME'。"
    >>> _tidied("Missing argument 'GAME'.", "en")
    "Missing argument 'GAME'."
    >>> _tidied("'" + "9" * 5000 + "' is not a valid integer.", "en") == (
    ...     "'" + "9" * 60 + "…' is not a valid integer.")
    True
    """
    message = re.sub(r"[^\s'/]{81,}", lambda long: long.group()[:60] + "…", message)
    if lang != "ja":
        return message
    message = message.replace("。 ", "。")
    return message[:-1] + "。" if message.endswith("'.") else message


@click.group(
    name="cubegames", cls=Cubegames, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(cubegames.__version__, prog_name="cubegames")
@speaks
def cli(lang: str) -> None:
    """Tabletop games built around cubes: play them, check positions, pit bots."""


@cli.command(cls=Spoken)
@click.argument("game")
@click.option("--players", "-p", type=click.IntRange(1, 20), metavar="N", help="Number of seats.")
@click.option(
    "--seat",
    "-s",
    "seats",
    multiple=True,
    type=click.IntRange(0, 19),
    metavar="S",
    help="A seat played at this keyboard (repeat for hot-seat play; default: seat 0).",
)
@click.option(
    "--bot",
    "-b",
    "bots",
    multiple=True,
    metavar="NAME",
    help="Bot for the other seats, in seat order; the last one fills the rest (default: random).",
)
@click.option(
    "--option",
    "-o",
    "pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="A game option, e.g. -o edition=ja -o variants=bridging,void -o rounds=1.",
)
@click.option(
    "--seed", type=int, default=None, metavar="N", help="Seed for the deal (default: random)."
)
@speaks
def play(
    game: str,
    players: int | None,
    seats: tuple[int, ...],
    bots: tuple[str, ...],
    pairs: tuple[str, ...],
    seed: int | None,
    lang: str,
) -> None:
    """Play GAME in the terminal, against bots or people at the same keyboard.

    GAME is one of the ids listed by `cubegames games`. Every sentence (prompts, help, the
    moves in words, refusals, results) is in the language of --lang.
    """
    from cubegames.terminal import TerminalGame

    try:
        options = options_from_text(game, pairs, players)
        built = cubegames.make(game, **options)
    except ValueError as exc:
        fail(worded(exc))
    humans = set(seats) or {0}
    for seat in humans:
        if seat >= built.players:
            fail(t("term-error-seat", seat=seat, last=built.players - 1))
    others = built.players - len(humans)
    if len(bots) > others:  # the last ones would have been dropped without a word
        fail(t("term-error-bots", bots=len(bots), seats=others))
    try:
        names = list(bots) or ["random"]
        for name in names:
            cubegames.bot(name, game=game)
    except ValueError as exc:
        fail(f"--bot: {worded(exc)}")
    TerminalGame(built, humans, names, seed, lang=lang).run()


@cli.command(cls=Spoken)
@click.argument("position", metavar="POSITION.json")
@speaks_to_scripts
def moves(position: str, lang: str) -> None:
    """List the legal moves of a saved position, one a line."""
    state = read_position(position)
    for move in state.legal_moves():
        click.echo(str(move))


@cli.command(cls=Spoken)
@click.argument("position", metavar="POSITION.json")
@click.argument("move")
@speaks_to_scripts
def check(position: str, move: str, lang: str) -> None:
    """Say whether MOVE is legal in a saved position: "legal" (exit 0) or why not (exit 1).

    In English the reason is the rules' own sentence (`IllegalMove`'s), in another language
    the catalogs' words for its code and parameters (as `cubegames play` says it).
    """
    from cubegames.kit.terminal import refused

    state = read_position(position)
    try:
        state.clone().play(move)
    except cubegames.IllegalMove as exc:
        if speaking_english():
            click.echo(str(exc))
        elif exc.refusal.code in ("unreadable", "not-a-move"):
            click.echo(t("cli-check-unknown-move"))
        else:
            click.echo(refused(state.game.id, exc.refusal, _palette(state.game)))
        sys.exit(1)
    click.echo(t("cli-legal"))


def _palette(game: Any) -> dict[str, Any] | None:
    """The game's colours by letter, which the rules' reasons name colours by (None for
    a game whose drawing names none, or a plug-in's that cannot say)."""
    from cubegames.render import web

    try:
        palette = web.info(game).get("palette")
    except Exception:  # a plug-in game's drawing is its own
        return None
    return palette if isinstance(palette, dict) else None


@cli.command(cls=Spoken)
@click.argument("record", metavar="RECORD.json")
@click.option(
    "--seat", type=click.IntRange(0, 19), default=None, metavar="S", help="The seat to see from."
)
@speaks
def replay(record: str, seat: int | None, lang: str) -> None:
    """Tell a game record move by move in words, then its result (`cubegames.replay`)."""
    from cubegames import replay as replaying
    from cubegames.server.protocol import MAX_RECORD

    raw = read_text(record, MAX_RECORD).encode("utf-8")
    try:
        lines = replaying.told(raw, seat)
    except ValueError as exc:
        fail(f"{record}: {worded(exc)}")
    for line in lines:
        click.echo(line)


@cli.command(cls=Spoken)
@click.argument("game")
@click.option("--option", "-o", "pairs", multiple=True, metavar="KEY=VALUE", help="A game option.")
@speaks
def odds(game: str, pairs: tuple[str, ...], lang: str) -> None:
    """Exact odds of a game's chance events, as its terminal part lists them (CUBES: every
    outcome of a roll of six dice), in the language of --lang."""
    import warnings

    from rich.console import Console

    from cubegames.core.registry import games
    from cubegames.kit.parts import part
    from cubegames.kit.terminal import speaking
    from cubegames.kit.words import say
    from cubegames.render.terminal import Odds
    from cubegames.render.terminal import odds as odds_of

    spoken = lang
    try:
        options = options_from_text(game, pairs, None)
        built = cubegames.make(game, **options)
    except ValueError as exc:
        fail(worded(exc, spoken))
    with speaking(spoken):
        table = odds_of(built)
    if table is None:
        with warnings.catch_warnings():  # a plug-in that does not load lists no odds
            warnings.simplefilter("ignore")
            listing = [g.id for g in games() if isinstance(part(g.id, "terminal"), Odds)]
        fail(say(spoken, "term-odds-none", game=game, games=", ".join(listing)))
    Console(highlight=False).print(table)


@cli.command(cls=Spoken)
@click.argument("game")
@click.option(
    "--plain/--rich",
    default=None,
    help="Print the markdown as it is, or laid out for a terminal "
    "(default: laid out in a terminal, plain when piped).",
)
@speaks
def rules(game: str, plain: bool | None, lang: str) -> None:
    """Print the rules of GAME: how to play, and every reading the project assumed.

    GAME is one of the ids listed by `cubegames games`. The same text is in the project's
    docs/rules/GAME.md (in Japanese docs/rules/ja/GAME.md) and on the web page under "How to
    play".
    """
    from cubegames import rulebook

    if game not in cubegames.GAMES and not speaking_english():
        fail(t("cli-rules-unknown", game=game, games=", ".join(cubegames.GAMES)))
    try:
        page = rulebook.text(game, lang)
    except ValueError as exc:
        fail(str(exc))
    if plain is None:
        plain = not sys.stdout.isatty()
    if plain:
        click.echo(page, nl=False)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    Console(highlight=False).print(Markdown(page))


@cli.command(name="compile", cls=Spoken)
@click.option(
    "--part",
    "parts",
    multiple=True,
    type=click.Choice(["bots", "simulator", "learning"]),
    help="Only these parts (repeatable; default: all of them).",
)
@speaks
def compile_kernels(parts: tuple[str, ...], lang: str) -> None:
    """Compile the numba kernels now, so no bot move or simulation waits for them.

    The first use of a kernel on a machine compiles it (one to three minutes for all of
    them); later runs load it from numba's cache in a moment. `make play` (the bots only)
    and `make test` run it before they start.
    """
    import time

    from rich.console import Console

    from cubegames import kernels

    console = Console(stderr=True, highlight=False)
    for part in parts or tuple(kernels.PARTS):
        began = time.perf_counter()
        with console.status(t("cli-compile-compiling", part=part)):
            kernels.warm((part,))
        seconds = f"{time.perf_counter() - began:.1f}"
        console.print(t("cli-compile-ready", part=part, seconds=seconds))


@cli.command(name="games", cls=Spoken)
@speaks
def list_games(lang: str) -> None:
    """List the games and the options each one takes (a registered game that cannot be
    loaded, and a registration left out for its id, are named on stderr instead)."""
    for why in left_out():
        click.echo(worded(why), err=True)
    for game_id in cubegames.GAMES:
        try:
            cls = game_class(game_id)
        except ValueError as exc:
            click.echo(worded(exc), err=True)
            continue
        names = [_option(game_id, name) for name in cls.option_names]
        click.echo(
            t("cli-games-line", game=game_id, options=", ".join(names) or t("cli-games-none"))
        )


def _option(game_id: str, name: str) -> str:
    """An option as typed, with its label where the language is not English (the page's
    `option-GAME-NAME` or `option-NAME`)."""
    from cubegames.kit import words

    if speaking_english():
        return name
    for key in (f"option-{game_id}-{name}", f"option-{name}"):
        if words.has(key):
            return t("cli-games-option", name=name, label=t(key))
    return name


#: modules that add their own commands (`register(cli)`); each is optional while it is built
#: (the simulator's `bots` comes before the server's, which adds `bots work` to it)
COMMAND_MODULES = ("cubegames.sim.cli", "cubegames.server.cli", "cubegames.rl.cli")


def _register_commands() -> None:
    import importlib
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for name in COMMAND_MODULES:
        # a part that is not there is skipped without importing its package, whose own
        # import may be heavy (cubegames.rl registers with Gymnasium)
        if not (here / Path(*name.split(".")[1:])).with_suffix(".py").exists():
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # that part of the project is not there yet
            raise
        module.register(cli)


_register_commands()


def main(argv: list[str] | None = None) -> None:
    """Entry point: errors become one line on stderr and exit status 2 (`Cubegames.main`)."""
    cli.main(args=argv, prog_name="cubegames")


if __name__ == "__main__":
    main()
