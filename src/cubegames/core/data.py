"""Reading data people write (edition files, position files) with errors that name the field.

Edition files are TOML, either built into a game package (`editions/<name>.toml`) or given
by path; position files are JSON objects. Every check here raises a `ValueError` (or the
subclass a caller asks for) whose message says where the problem is.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any


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
        raise error(f"{where}: missing field {key!r}")
    value = table[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise error(f"{where}: field {key!r} must be a {kind.__name__}")
    return value


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
            text = Path(name).read_text("utf-8")
        except OSError as exc:
            raise error(f"cannot read edition file {name}: {exc.strerror}") from None
    else:
        raise error(
            f"unknown edition {name!r}; choose from {', '.join(built_in)} or give a .toml file"
        )
    try:
        return tomllib.loads(text), where
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML ({exc})") from None


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
