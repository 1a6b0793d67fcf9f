"""The project's own rule pages (`docs/rules/<game>.md`) and its stable API page
(`docs/api.md`), for `cubegames rules GAME` and the web page's "How to play".

The pages live in the repository's `docs/` folder. A wheel carries a copy inside the package
(`cubegames/docs/`, see `force-include` in pyproject.toml), so they are found both from a
source checkout (an editable install reads the repository) and from an installed wheel.

>>> text("stakd").splitlines()[0]
'# STAKD'
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


def docs() -> Traversable:
    """The folder holding `api.md` and `rules/`: inside the installed package when a wheel put
    it there, otherwise the `docs/` folder of the source checkout."""
    packaged = resources.files("cubegames").joinpath("docs")
    if packaged.joinpath("api.md").is_file():
        return packaged
    return Path(__file__).resolve().parents[2] / "docs"


def text(game: str) -> str:
    """The rules of `game` as markdown; ValueError for a game that does not exist.

    A plug-in game has no page here: its rules are the few lines its facts give
    (`GameInfo.rules`), under its title.
    """
    if game not in GAMES:
        raise ValueError(f"no rules for {game!r}; the games are {', '.join(GAMES)}")
    if not built_in(game):
        facts = game_class(game).info
        return f"# {facts.title}\n\n{facts.pitch}\n\n" + "".join(f"- {r}\n" for r in facts.rules)
    return docs().joinpath("rules", f"{game}.md").read_text("utf-8")


def api() -> str:
    """The stable surface (`docs/api.md`) as markdown."""
    return docs().joinpath("api.md").read_text("utf-8")
