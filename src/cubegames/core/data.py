"""Reading data people write (edition files, position files) with errors that name the field.

Edition files are TOML, either built into a game package (`editions/<name>.toml`) or given
by path; position files are JSON objects. Every check here raises a `ValueError` (or the
subclass a caller asks for) whose message says where the problem is.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, Field, Strict, ValidationError

from cubegames.core.errors import cut, shown

if TYPE_CHECKING:
    from cubegames.core.game import Game


def need(
    table: Mapping[str, Any], key: str, kind: type, where: str, error: type[ValueError] = ValueError
) -> Any:
    """`table[key]`, which must exist and be a `kind` (a bool is never taken for an int).

    >>> need({"id": "en"}, "id", str, "en.toml")
    'en'
    >>> need({"id": 3}, "id", str, "en.toml")
    Traceback (most recent call last):
    ...
    ValueError: en.toml: field 'id' must be a str
    """
    if key not in table:
        raise error(f"{where}: missing field {shown(key)}")
    value = table[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise error(f"{where}: field {shown(key)} must be a {kind.__name__}")
    return value


def worded(error: type[ValueError], key: str, english: str, /, **params: str) -> ValueError:
    """An `error` (a game's `EditionError`) that is also `core.phrase.Worded`: its English
    as always, and the catalogs' `key`, so that the terminal, the commands and the server
    word it in the reader's language.

    >>> from cubegames.core.phrase import Worded
    >>> class EditionError(ValueError): ...
    >>> exc = worded(EditionError, "error-edition-unknown", "unknown edition 'x'", edition="x")
    >>> isinstance(exc, EditionError) and isinstance(exc, Worded), exc.phrase.key
    (True, 'error-edition-unknown')
    """
    from cubegames.core.phrase import Worded

    kind = _WORDED.get(error)
    if kind is None:
        kind = _WORDED[error] = type(
            error.__name__, (error, Worded), {"__module__": error.__module__}
        )
    return kind(key, english, **params)


#: each error class made `Worded` (`worded`), made once
_WORDED: dict[type[ValueError], type[ValueError]] = {}


#: the largest edition file read, in bytes (a box takes a few kilobytes); a larger one, or an
#: endless one (a link to `/dev/zero`), is refused unread
MAX_DATA_FILE = 1_000_000


class FileTooLarge(ValueError):
    """A file `read_bounded` refused unread: larger than its limit."""


def read_bounded(path: str | Path, limit: int) -> str:
    """The UTF-8 text of a file people name (a position, an edition, a sweep's settings),
    reading at most `limit` bytes and one more, so that an endless file (`/dev/zero`) or a
    huge one is refused rather than filling the memory. Raises the `OSError` of a file
    that cannot be read, `FileTooLarge` past `limit`, and `UnicodeDecodeError` for a file
    that is not text: each caller words them its own way.

    >>> read_bounded("/dev/zero", 10)
    Traceback (most recent call last):
    ...
    cubegames.core.data.FileTooLarge: /dev/zero: too large to read (more than 10 bytes)
    """
    with Path(path).open("rb") as file:
        raw = file.read(limit + 1)
    if len(raw) > limit:
        raise FileTooLarge(f"{path}: too large to read (more than {limit:,} bytes)")
    return raw.decode("utf-8")


def read_data_file(
    package: str, name: str, built_in: Sequence[str], error: type[ValueError]
) -> tuple[dict[str, Any], str]:
    """The parsed TOML of a built-in edition of `package` by name, or of a `.toml` path.

    Returns the data and how to name the file in messages.
    """
    if name in built_in:
        where = f"editions/{name}.toml"
        text = resources.files(package).joinpath(where).read_text("utf-8")
    elif name.endswith(".toml"):
        where = name
        try:
            text = read_bounded(name, MAX_DATA_FILE)
        except OSError as exc:
            raise worded(
                error,
                "error-edition-unreadable",
                f"cannot read edition file {name}: {exc.strerror}",
                file=name,
                reason=str(exc.strerror),
            ) from None
        except FileTooLarge as exc:
            raise worded(
                error, "error-edition-too-large", str(exc), file=name, bytes=f"{MAX_DATA_FILE:,}"
            ) from None
        except UnicodeDecodeError:
            raise worded(
                error, "error-edition-not-text", f"{name}: not a text file", file=name
            ) from None
    else:
        editions = ", ".join(built_in)
        raise worded(
            error,
            "error-edition-unknown",
            f"unknown edition {shown(name, 80)}; choose from {editions} or give a .toml file",
            edition=cut(name, 80),
            editions=editions,
        )
    try:
        return tomllib.loads(text), where
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML ({exc})") from None


# -- data files checked by a pydantic model -------------------------------------------------

M = TypeVar("M", bound=BaseModel)

#: text, never a number taken for text
Text = Annotated[str, Strict()]


#: whole numbers of at least 0, 1 and 2 (a bool or 2.5 is not one)
Whole = Annotated[int, Strict(), Field(ge=0)]
Positive = Annotated[int, Strict(), Field(ge=1)]
AtLeastTwo = Annotated[int, Strict(), Field(ge=2)]


def _rgb(value: str) -> str:
    if (
        len(value) != 7
        or value[0] != "#"
        or any(c not in "0123456789abcdefABCDEF" for c in value[1:])
    ):
        raise ValueError("must look like #12ab3f")
    return value


#: a screen colour written as #rrggbb
Rgb = Annotated[str, Strict(), AfterValidator(_rgb)]

#: pydantic's error types in this project's words (the rest keep pydantic's message)
_WORDS = {
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "string_type": "must be text",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "dict_type": "must be a table",
    "model_type": "must be a table",
    "model_attributes_type": "must be a table",
    "extra_forbidden": "unknown field",
}


def place(loc: tuple[int | str, ...]) -> str:
    """A field's place as a person writes it, `dice[2].faces[1]`, from pydantic's location
    (a dictionary key's own check is told at the key: `counts.9`)."""
    out = ""
    for part in loc:
        if part == "[key]":
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def problem(exc: ValidationError) -> str:
    """The first problem of a failed validation in words, naming the field.

    >>> from pydantic import BaseModel
    >>> class Die(BaseModel):
    ...     faces: list[Positive]
    >>> class Box(BaseModel):
    ...     dice: list[Die]
    >>> try:
    ...     Box.model_validate({"dice": [{"faces": [1, 0]}]})
    ... except ValidationError as exc:
    ...     print(problem(exc))
    dice[0].faces[1]: must be at least 1
    >>> try:
    ...     Box.model_validate({"dice": [{}]})
    ... except ValidationError as exc:
    ...     print(problem(exc))
    dice[0]: missing field 'faces'
    """
    error = exc.errors(include_url=False)[0]
    loc = tuple(error["loc"])
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "missing":
        parent = place(loc[:-1])
        return f"{parent + ': ' if parent else ''}missing field {str(loc[-1])!r}"
    if kind == "value_error" and "error" in ctx:
        reason = str(ctx["error"])
    elif kind in ("greater_than_equal", "greater_than"):
        reason = f"must be at least {ctx.get('ge', ctx.get('gt'))}"
    elif kind in ("less_than_equal", "less_than"):
        reason = f"must be at most {ctx.get('le', ctx.get('lt'))}"
    else:
        reason = _WORDS.get(kind, error["msg"])
    here = place(loc)
    return f"{here}: {reason}" if here else reason


def validated(model: type[M], data: Any, where: str, error: type[ValueError]) -> M:
    """`data` (a parsed data file) checked by `model`; the first problem is raised as
    `error`, its message naming the file (`where`) and the field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise error(f"{where}: {problem(exc)}") from None


def refuse_other_fields(data: Mapping[str, Any], known: Iterable[str], title: str) -> None:
    """A ValueError naming the first field of `data` (in sorted order) that a `title`
    position file does not have: a misspelt optional field would otherwise be dropped
    without a word, and `to_dict(state_from_dict(d)) == d` would not hold.

    >>> refuse_other_fields({"game": "x", "tabel": []}, ("game", "table"), "CUBED")
    Traceback (most recent call last):
    ...
    ValueError: field "tabel": not a field of a CUBED position
    """
    other = sorted(str(key) for key in data if key not in set(known))
    if other:
        raise ValueError(f'field "{other[0]:.60}": not a field of a {title} position')


def same_json(a: Any, b: Any) -> bool:
    """`a == b` as JSON reads it: a number is not a bool and a whole number is not a float,
    at every depth (Python's `==` takes `2.0` and `True` for `2` and `1`).

    >>> {"players": 2.0} == {"players": 2}, same_json({"players": 2.0}, {"players": 2})
    (True, False)
    >>> same_json({"variants": ["void"], "rounds": 1}, {"rounds": 1, "variants": ("void",)})
    True
    """
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):  # JSON's array, both
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    return bool(a == b)


def check_position_options(data: Mapping[str, Any], game: Game[Any]) -> None:
    """A ValueError naming `"options"` unless the position `data` has that field and it
    gives `game`'s options: as `to_dict` writes them, kinds included (`{"players": 2.0}`
    or `{"rounds": true}` are no game's options, and a state read from them would write
    other options than it was read with), or as `make` was given them (api.md), which make
    the same game (`{"players": 2}` for CUBED's default edition, variants and rounds, as
    a hand-written file may say; the state then writes them in full).

    >>> import cubegames
    >>> game = cubegames.make("cubed", players=2)
    >>> check_position_options({"options": {"players": 2}}, game)
    >>> check_position_options({"options": {"players": 2, "rounds": True}}, game)
    Traceback (most recent call last):
    ...
    ValueError: field "options": they differ from the game reading the position
    """
    if "options" not in data:
        raise ValueError('field "options" is missing')
    given, options = data["options"], game.options
    if same_json(given, options):
        return
    from cubegames.core.registry import make

    # a text is the game's own or it differs (an edition named by another path is never
    # read: a position names no file to open)
    same = isinstance(given, dict) and all(
        same_json(value, options.get(key)) for key, value in given.items() if isinstance(value, str)
    )
    try:
        same = same and same_json(make(game.id, **given).options, options)
    except (ValueError, TypeError):  # no options of the game's (TypeError: a key not text)
        same = False
    if not same:
        raise ValueError('field "options": they differ from the game reading the position')


class FieldReader:
    """Base for the position readers of the games: typed access to the fields of a JSON
    object, each error naming the field."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise ValueError("a position must be a JSON object")
        self.data = data

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        """Field `key`, which must be a `kind`; `default` when missing (else an error)."""
        if key not in self.data:
            if default is ...:
                raise ValueError(f'field "{key}" is missing')
            return default
        value = self.data[key]
        if (isinstance(value, bool) and kind is int) or not isinstance(value, kind):
            raise ValueError(f'field "{key}" has the wrong type')
        return value

    @staticmethod
    def count(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
        """`value` as a whole number from `low` to `high` (a bool is not a number)."""
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{where}: must be a whole number of at least {low}")
        if high is not None and value > high:
            raise ValueError(f"{where}: must be at most {high}")
        return value
