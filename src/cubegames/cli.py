"""The `cubegames` command: thin, it parses, calls and prints.

Bad arguments or files give one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

import cubegames
from cubegames.core.game import State
from cubegames.core.registry import game_class, game_from_dict, options_from_text


class UsageFailure(click.UsageError):
    """A usage error shown as one line."""


def fail(message: str) -> NoReturn:
    raise UsageFailure(message)


def read_position(path: str) -> State[Any]:
    """A state from a position file, or a one-line usage error."""
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")
    except UnicodeDecodeError:
        fail(f"{path}: not a text file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})")
    try:
        game = game_from_dict(data)
        return game.state_from_dict(data)
    except ValueError as exc:
        fail(f"{path}: {exc}")


#: the `--lang` option of the commands that speak to a player (their words from the catalogs
#: of `cubegames.kit.words`); without it, CUBEGAMES_LANG or the locale decides
LANG_HELP = (
    "The language: en (English) or ja (Japanese); default: $CUBEGAMES_LANG, else the "
    "locale ($LC_ALL, $LC_MESSAGES, $LANG), else en."
)


def language(asked: str | None) -> str:
    """`--lang` when given, else the environment's language (a bad CUBEGAMES_LANG is a
    one-line usage error)."""
    from cubegames.kit.words import language_from

    if asked is not None:
        return asked
    try:
        return language_from(os.environ)
    except ValueError as exc:
        fail(str(exc))


def worded(exc: ValueError, lang: str) -> str:
    """An engine's refusal (a bad option or bot) in `lang`: by its catalog code where it is
    `Worded` and the language is not English, its own English otherwise."""
    from cubegames.core.phrase import Worded
    from cubegames.kit import words

    if lang == words.DEFAULT or not isinstance(exc, Worded) or not words.has(exc.phrase.key):
        return str(exc)
    return words.phrase(lang, exc.phrase.said())


def parse_options(game_id: str, pairs: tuple[str, ...], players: int | None) -> dict[str, Any]:
    """`key=value` pairs as game options, read the way the game reads them."""
    try:
        return options_from_text(game_id, pairs, players)
    except ValueError as exc:
        fail(str(exc))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(cubegames.__version__, prog_name="cubegames")
def cli() -> None:
    """Tabletop games built around cubes: play them, check positions, pit bots."""


@cli.command()
@click.argument("game")
@click.option("--players", "-p", type=click.IntRange(1, 20), help="Number of seats.")
@click.option(
    "--seat",
    "-s",
    "seats",
    multiple=True,
    type=click.IntRange(0, 19),
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
@click.option("--seed", type=int, default=None, help="Seed for the deal (default: random).")
@click.option("--lang", type=click.Choice(["en", "ja"]), default=None, help=LANG_HELP)
def play(
    game: str,
    players: int | None,
    seats: tuple[int, ...],
    bots: tuple[str, ...],
    pairs: tuple[str, ...],
    seed: int | None,
    lang: str | None,
) -> None:
    """Play GAME in the terminal, against bots or people at the same keyboard.

    GAME is one of the ids listed by `cubegames games`. Every sentence (prompts, help, the
    moves in words, refusals, results) is in the language of --lang.
    """
    from cubegames.kit.words import say
    from cubegames.terminal import TerminalGame

    spoken = language(lang)
    try:
        options = options_from_text(game, pairs, players)
        built = cubegames.make(game, **options)
    except ValueError as exc:
        fail(worded(exc, spoken))
    humans = set(seats) or {0}
    for seat in humans:
        if seat >= built.players:
            fail(say(spoken, "term-error-seat", seat=seat, last=built.players - 1))
    try:
        names = list(bots) or ["random"]
        for name in names:
            cubegames.bot(name, game=game)
    except ValueError as exc:
        fail(f"--bot: {worded(exc, spoken)}")
    TerminalGame(built, humans, names, seed, lang=spoken).run()


@cli.command()
@click.argument("position", metavar="POSITION.json")
def moves(position: str) -> None:
    """List the legal moves of a saved position, one a line."""
    state = read_position(position)
    for move in state.legal_moves():
        click.echo(str(move))


@cli.command()
@click.argument("position", metavar="POSITION.json")
@click.argument("move")
def check(position: str, move: str) -> None:
    """Say whether MOVE is legal in a saved position: "legal" (exit 0) or why not (exit 1)."""
    state = read_position(position)
    try:
        state.clone().play(move)
    except cubegames.IllegalMove as exc:
        click.echo(str(exc))
        sys.exit(1)
    click.echo("legal")


@cli.command()
@click.argument("game")
@click.option("--option", "-o", "pairs", multiple=True, metavar="KEY=VALUE", help="A game option.")
@click.option("--lang", type=click.Choice(["en", "ja"]), default=None, help=LANG_HELP)
def odds(game: str, pairs: tuple[str, ...], lang: str | None) -> None:
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

    spoken = language(lang)
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


@cli.command()
@click.argument("game")
@click.option(
    "--plain/--rich",
    default=None,
    help="Print the markdown as it is, or laid out for a terminal "
    "(default: laid out in a terminal, plain when piped).",
)
@click.option("--lang", type=click.Choice(["en", "ja"]), default=None, help=LANG_HELP)
def rules(game: str, plain: bool | None, lang: str | None) -> None:
    """Print the rules of GAME: how to play, and every reading the project assumed.

    GAME is one of the ids listed by `cubegames games`. The same text is in the project's
    docs/rules/GAME.md (in Japanese docs/rules/ja/GAME.md) and on the web page under "How to
    play".
    """
    from cubegames import rulebook

    try:
        page = rulebook.text(game, language(lang))
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


@cli.command(name="compile")
@click.option(
    "--part",
    "parts",
    multiple=True,
    type=click.Choice(["bots", "simulator", "learning"]),
    help="Only these parts (repeatable; default: all of them).",
)
def compile_kernels(parts: tuple[str, ...]) -> None:
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
        with console.status(f"compiling the kernels of the {part}..."):
            kernels.warm((part,))
        console.print(f"{part}: ready ({time.perf_counter() - began:.1f} s)")


@cli.command(name="games")
def list_games() -> None:
    """List the games and the options each one takes (a registered game that cannot be
    loaded is named on stderr instead)."""
    for game_id in cubegames.GAMES:
        try:
            cls = game_class(game_id)
        except ValueError as exc:
            click.echo(str(exc), err=True)
            continue
        click.echo(f"{game_id}: options {', '.join(cls.option_names) or '(none)'}")


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
    """Entry point: errors become one line on stderr and exit status 2."""
    try:
        cli.main(args=argv, prog_name="cubegames", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"cubegames: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    sys.exit(0)


if __name__ == "__main__":
    main()
