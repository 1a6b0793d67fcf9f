"""click's own words (its usage errors, the help's headings) in the terminal's language.

click marks each of its messages for gettext (`from gettext import gettext as _` in each of
its modules) and formats the translated template itself, e.g.
`_("No such option {name!r}.").format(name=...)`. gettext would pick a compiled `.mo`
catalog from the process's locale; the project's words are Fluent catalogs and its
language is `--lang` first. So while a command runs, `speaking_click(lang)` hands click's
modules a `gettext` and an `ngettext` that look each message up in `MESSAGES`/`PLURALS`
and word it from the catalogs (`cli-click-…`), the template's fields left for click to
fill: the Fluent message gets `{name!r}` as its `$name`. A message not listed stays
click's own English.

>>> import click
>>> with speaking_click("ja"):
...     str(click.NoSuchOption("--frobnicate"))
"'--frobnicate' というオプションはありません。"
>>> str(click.NoSuchOption("--frobnicate"))
"No such option '--frobnicate'."
"""

from __future__ import annotations

import gettext as _gettext_module
import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from string import Formatter
from types import ModuleType

from cubegames.kit import words

#: click's messages (its msgids, as click writes them) and the catalog key of each
MESSAGES: dict[str, str] = {
    "Usage:": "cli-click-usage",
    "Options": "cli-click-options",
    "Commands": "cli-click-commands",
    "Positional arguments": "cli-click-arguments",
    "Show this message and exit.": "cli-click-help",
    "Show the version and exit.": "cli-click-version-help",
    "default: {default}": "cli-click-default",
    "Missing command.": "cli-click-missing-command",
    "No such command {name!r}.": "cli-click-no-such-command",
    "No such option {name!r}.": "cli-click-no-such-option",
    "Missing argument": "cli-click-missing-argument",
    "Missing option": "cli-click-missing-option",
    "Missing parameter": "cli-click-missing-parameter",
    "Invalid value for {param_hint}: {message}": "cli-click-invalid-for",
    "Invalid value: {message}": "cli-click-invalid",
    "Could not open file {filename!r}: {message}": "cli-click-open-file",
    "Option {name!r} does not take a value.": "cli-click-takes-no-value",
    "Argument {name!r} takes {nargs} values.": "cli-click-argument-values",
    "{value} is not in the range {range}.": "cli-click-range",
    "{value!r} is not a valid {number_type}.": "cli-click-number",
    "{value!r} is not a valid boolean. Recognized values: {states}": "cli-click-boolean",
}
#: click's messages with a singular and a plural (`ngettext`): by the singular, the plural
#: and the catalog key, whose message picks its form by `$count`
PLURALS: dict[str, tuple[str, str]] = {
    "Did you mean {possibility}?": (
        "(Did you mean one of: {possibilities}?)",
        "cli-click-did-you-mean",
    ),
    "Got unexpected extra argument ({args})": (
        "Got unexpected extra arguments ({args})",
        "cli-click-extra-arguments",
    ),
    "Takes {nargs} values but 1 was given.": (
        "Takes {nargs} values but {len} were given.",
        "cli-click-value-count",
    ),
    "Option {name!r} requires an argument.": (
        "Option {name!r} requires {nargs} arguments.",
        "cli-click-needs-value",
    ),
    "{value!r} is not {choice}.": ("{value!r} is not one of {choices}.", "cli-click-choice"),
}
#: click's modules that word messages (each imports gettext's `gettext` as `_`)
MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.types",
    "click.termui",
    "click.utils",
)


def fields(message: str) -> dict[str, str]:
    """The fields of a click template, each as it is written there (`{name!r}`).

    >>> fields("Invalid value for {param_hint}: {message}")
    {'param_hint': '{param_hint}', 'message': '{message}'}
    >>> fields("No such option {name!r}.")
    {'name': '{name!r}'}
    """
    found: dict[str, str] = {}
    for _text, name, spec, conversion in Formatter().parse(message):
        if name:
            found[name] = "{" + name + (f"!{conversion}" if conversion else "")
            found[name] += (f":{spec}" if spec else "") + "}"
    return found


def template(lang: str, key: str, *messages: str, count: int | None = None) -> str:
    """The catalog's words for click's template(s) `messages` in `lang`, with click's
    fields in them for click to fill (`count`: the number an `ngettext` picks by)."""
    args: dict[str, str | int] = {}
    for message in messages:
        args.update(fields(message))
    if count is not None:
        args["count"] = count
    return words.say(lang, key, **args)


def translators(lang: str) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """A `gettext` and an `ngettext` that word click's messages in `lang`."""

    def gettext(message: str) -> str:
        key = MESSAGES.get(message)
        return message if key is None else template(lang, key, message)

    def ngettext(singular: str, plural: str, n: int) -> str:
        known = PLURALS.get(singular)
        if known is None or known[0] != plural:
            return singular if n == 1 else plural
        return template(lang, known[1], singular, plural, count=n)

    return gettext, ngettext


def _modules() -> Iterator[ModuleType]:
    for name in MODULES:
        yield importlib.import_module(name)


@contextmanager
def speaking_click(lang: str) -> Iterator[None]:
    """click words its messages in `lang` inside the block (English: its own words)."""
    if lang == words.DEFAULT:
        yield
        return
    gettext, ngettext = translators(lang)
    saved: list[tuple[ModuleType, str, object]] = []
    for module in _modules():
        for name, ours in (("_", gettext), ("ngettext", ngettext)):
            theirs = getattr(module, name, None)
            if theirs in (_gettext_module.gettext, _gettext_module.ngettext):
                saved.append((module, name, theirs))
                setattr(module, name, ours)
    try:
        yield
    finally:
        for module, name, theirs in saved:
            setattr(module, name, theirs)
