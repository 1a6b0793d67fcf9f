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

import functools
import json
import re
from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from cubegames.core.errors import cut, shown
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
        return _plugin_page(game, lang)
    folder = docs().joinpath("rules")
    if lang != "en":
        folder = folder.joinpath(lang)
    return folder.joinpath(f"{game}.md").read_text("utf-8")


def _plugin_page(game: str, lang: str) -> str:
    """A plug-in game's page: its title, pitch and rule lines as its facts give them (in
    the plug-in's own words), then how many play and its options with their defaults (in
    `lang`); a game whose maker wrote no rules says so rather than showing a bare title.

    >>> print(_plugin_page("cubes", "en"))  # doctest: +ELLIPSIS
    # CUBES
    ...
    - players: 2 to 10 players
    ...
    """
    from cubegames.kit.words import say

    facts = game_class(game).info
    parts = [f"# {facts.title}"]
    if facts.pitch:
        parts.append(facts.pitch)
    if facts.rules:
        parts.append("".join(f"- {r}\n" for r in facts.rules).rstrip("\n"))
    if not facts.pitch and not facts.rules:
        parts.append(say(lang, "rules-plugin-unwritten"))
    least, most = facts.min_players, facts.max_players
    seats = (
        say(lang, "rules-plugin-seats-fixed", count=least)
        if least == most
        else say(lang, "rules-plugin-seats", least=least, most=most)
    )
    fields = facts.options.model_fields
    options = [f"- players: {seats}" if "players" in fields else f"- {seats}"] + [
        f"- {name}: " + say(lang, "rules-plugin-default", value=_default(field.default))
        if not field.is_required() and field.default_factory is None
        else f"- {name}"
        for name, field in fields.items()
        if name != "players"
    ]
    parts.append("## " + say(lang, "rules-plugin-options") + "\n\n" + "\n".join(options))
    return "\n\n".join(parts) + "\n"


def _default(value: Any) -> str:
    """An option's default as a setting is written (`-o name=value`, JSON's words: true,
    "standard", null), or as `shown` writes what JSON cannot (a plug-in's own object).

    >>> _default(False), _default("standard"), _default(None), _default(float("nan"))
    ('false', '"standard"', 'null', 'nan')
    """
    try:
        return cut(json.dumps(value, allow_nan=False), 60)
    except (TypeError, ValueError):
        return shown(value)


@functools.cache
def html(game: str, lang: str = "en") -> str:
    """The rules of `game` in `lang` as an HTML fragment for the web page's "Full rules"
    (the markdown of `text` rendered by markdown-it, CommonMark with tables): any HTML
    written in the markdown is shown as text, never as markup (a plug-in's rules are a
    stranger's words), and a link is shown as its words, since it points into the
    project's docs, not to a page of the site. ValueError as for `text`.

    >>> html("stakd").splitlines()[0]
    '<h1>STAKD</h1>'
    >>> "cubegames rules" in text("stakd"), "cubegames rules" in html("stakd")
    (True, False)
    >>> _rendered("一行目\\n二行目 and\\nthree")
    '<p>一行目二行目 and\\nthree</p>\\n'
    >>> _rendered("<script>x</script> [see](../api.md) `a|b`")
    '<p>&lt;script&gt;x&lt;/script&gt; see <code>a|b</code></p>\\n'
    """
    return _rendered(text(game, lang), for_the_page=True)


def _rendered(source: str, for_the_page: bool = False) -> str:
    """`source` as HTML; `for_the_page` leaves out the paragraph telling where the page can
    be read (`` `cubegames rules GAME` prints this page; ...``), which a player reading it
    on the game's page has no use for."""
    md = _markdown()
    tokens = md.parse(source)
    if for_the_page:
        kept = []
        skip = 0
        for i, token in enumerate(tokens):
            if skip:
                skip -= 1
                continue
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            if (
                token.type == "paragraph_open"
                and after is not None
                and after.content.startswith("`cubegames rules ")
            ):
                skip = 2  # its words and its close
                continue
            kept.append(token)
        tokens = kept
    rendered: str = md.renderer.render(tokens, md.options, {})
    return rendered


@functools.cache
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def as_words(renderer: Any, tokens: Sequence[Any], idx: int, options: Any, env: Any) -> str:
        return ""  # a link's words stay, its target goes

    def line_break(renderer: Any, tokens: Sequence[Any], idx: int, options: Any, env: Any) -> str:
        # a line break inside a paragraph is a space between English words, and nothing
        # between Japanese ones (a browser would show it as a space there too)
        before = tokens[idx - 1].content[-1:] if idx else ""
        after = tokens[idx + 1].content[:1] if idx + 1 < len(tokens) else ""
        return "" if _WIDE.match(before) and _WIDE.match(after) else "\n"

    md.add_render_rule("link_open", as_words)
    md.add_render_rule("link_close", as_words)
    md.add_render_rule("softbreak", line_break)
    return md


#: a character of Japanese writing (kana, kanji, full-width forms and punctuation)
_WIDE = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def api() -> str:
    """The stable surface (`docs/api.md`) as markdown."""
    return docs().joinpath("api.md").read_text("utf-8")
