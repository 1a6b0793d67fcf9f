"""The project's own rule pages (`docs/rules/<game>.md`, in Japanese
`docs/rules/ja/<game>.md`) and its stable API page (`docs/api.md`), for `cubegames rules GAME
[--lang ja]` and the web page's "How to play".

The pages live in the repository's `docs/` folder. A wheel carries a copy inside the package
(`cubegames/docs/`, see `force-include` in pyproject.toml), so they are found both from a
source checkout (an editable install reads the repository) and from an installed wheel.

>>> text("stakd").splitlines()[0]
'# STAKD'
>>> text("cubes", "ja").splitlines()[0]
'# CUBES'
>>> text("cubes", "fr")
Traceback (most recent call last):
...
ValueError: no rules in 'fr'; the languages are en, ja
>>> text("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: no rules for 'chess'; the games are cubed, unstackable, stakd, cubes...
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from cubegames.core.registry import GAMES, built_in, game_class

#: the languages the rule pages are written in (English in docs/rules/, others in a folder)
LANGUAGES = ("en", "ja")


def docs() -> Traversable:
    """The folder holding `api.md` and `rules/`: inside the installed package when a wheel put
    it there, otherwise the `docs/` folder of the source checkout."""
    packaged = resources.files("cubegames").joinpath("docs")
    if packaged.joinpath("api.md").is_file():
        return packaged
    return Path(__file__).resolve().parents[2] / "docs"


def text(game: str, lang: str = "en") -> str:
    """The rules of `game` in `lang` as markdown; ValueError for a game or a language that
    does not exist.

    A plug-in game has no page here: its rules are the few lines its facts give
    (`GameInfo.rules`), under its title, whatever the language.
    """
    if game not in GAMES:
        raise ValueError(f"no rules for {game!r}; the games are {', '.join(GAMES)}")
    if lang not in LANGUAGES:
        raise ValueError(f"no rules in {lang!r}; the languages are {', '.join(LANGUAGES)}")
    if not built_in(game):
        facts = game_class(game).info
        return f"# {facts.title}\n\n{facts.pitch}\n\n" + "".join(f"- {r}\n" for r in facts.rules)
    folder = docs().joinpath("rules")
    if lang != "en":
        folder = folder.joinpath(lang)
    return folder.joinpath(f"{game}.md").read_text("utf-8")


def api() -> str:
    """The stable surface (`docs/api.md`) as markdown."""
    return docs().joinpath("api.md").read_text("utf-8")
