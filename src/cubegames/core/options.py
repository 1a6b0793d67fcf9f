"""A game's options model: one pydantic model per game, shared by `make`, the command line
and the start page.

The model (`GameInfo.options`) holds each option's type, default and the limits that need
no other option; the game's constructor keeps only the rules across options (CUBED's
players depend on the edition). Its JSON Schema is what the start page builds its form from:
the standard keys (`type`, `minimum`, `maximum`, `default`, `title`, `description`) plus
two of this project's, `x-choices` (a list of `[value, label]`: the values the start page
offers, such as the built-in editions, where `make` would also read a `.toml` file) and,
for a number whose limits depend on other options, `x-minimum`/`x-maximum` (the widest
range the form offers; the game checks the rest).

>>> from pydantic import BaseModel, Field
>>> class Options(BaseModel):
...     sets: int = Field(3, ge=1, le=10, strict=True, title="Sets")
>>> check_options("demo", Options, {"sets": 0})
Traceback (most recent call last):
...
cubegames.core.phrase.Worded: sets must be from 1 to 10
>>> check_options("demo", Options, {"size": 3})
Traceback (most recent call last):
...
cubegames.core.phrase.Worded: demo has no option 'size'; it takes sets
>>> [(o["name"], o["kind"], o["low"], o["high"]) for o in form(Options)]
[('sets', 'int', 1, 10)]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from cubegames.core.errors import plain, shown
from cubegames.core.phrase import Worded


def players_field(low: int, high: int, default: int = 2, description: str | None = None) -> Any:
    """The `players` option every game declares: a whole number whose widest range the
    start page offers (`x-minimum`/`x-maximum`); the game checks what its edition seats.

    >>> players_field(1, 8, description="1 plays solo").json_schema_extra
    {'x-minimum': 1, 'x-maximum': 8}
    """
    return Field(
        default,
        title="Players",
        description=description,
        json_schema_extra={"x-minimum": low, "x-maximum": high},
    )


@functools.cache
def schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of an options model (worked out once; do not change it)."""
    return model.model_json_schema()


def option_names(model: type[BaseModel]) -> tuple[str, ...]:
    """The options of a model, in the order it declares them."""
    return tuple(model.model_fields)


def check_options(game_id: str, model: type[BaseModel], options: Mapping[str, Any]) -> None:
    """Check `options` against the game's model; ValueError names the first bad option
    (an unknown one, a value of the wrong kind, or one out of its limits)."""
    names = option_names(model)
    unknown = sorted(set(options) - set(names))
    if unknown:  # worded by code, so that a position's unknown option is told in Japanese too
        raise unknown_option(game_id, unknown[0], names)
    try:
        model.model_validate(dict(options))
    except ValidationError as exc:
        raise _message(model, exc) from None


def unknown_option(game_id: str, name: str, names: Sequence[str]) -> Worded:
    """The refusal of an option the game does not take."""
    return Worded(
        "error-option-unknown",
        f"{game_id} has no option {shown(name)}; it takes {', '.join(names)}",
        game=game_id,
        option=plain(name),
        options=", ".join(names),
    )


def _message(model: type[BaseModel], exc: ValidationError) -> ValueError:
    """The first error of `exc` in words, naming the option (`Worded`: the catalogs'
    `error-option-…`, or the validator's own refusal when it words itself)."""
    error = exc.errors(include_url=False)[0]
    loc = error["loc"]
    name = str(loc[0]) if loc else "options"
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "value_error" and "error" in ctx:
        inner = ctx["error"]
        return inner if isinstance(inner, Worded) else ValueError(str(inner))
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return Worded("error-option-whole", f"{name} must be a whole number", option=name)
    if kind == "bool_type":
        return Worded("error-option-bool", f"{name} must be true or false", option=name)
    if kind in ("string_type",):
        return Worded("error-option-text", f"{name} must be text", option=name)
    if kind in ("list_type", "tuple_type", "sequence_str", "iterable_type"):
        return Worded("error-option-a-list", f"{name} must be a list", option=name)
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        low, high = _limits(schema(model)["properties"].get(name, {}))
        if low is not None and high is not None:
            if low == high:
                return Worded(
                    "error-option-exactly", f"{name} must be {low}", option=name, value=str(low)
                )
            return Worded(
                "error-option-range",
                f"{name} must be from {low} to {high}",
                option=name,
                low=str(low),
                high=str(high),
            )
        if low is not None:
            return Worded(
                "error-option-at-least", f"{name} must be at least {low}", option=name, low=low
            )
        return Worded(
            "error-option-at-most", f"{name} must be at most {high}", option=name, high=high
        )
    if kind == "literal_error" and "expected" in ctx:
        return Worded(
            "error-option-choice",
            f"{name}: choose from {ctx['expected']}",
            option=name,
            choices=str(ctx["expected"]),
        )
    return Worded("error-option-invalid", f"{name}: {error['msg']}", option=name)


def _limits(schema: Mapping[str, Any]) -> tuple[Any, Any]:
    """The minimum and maximum of a number's schema (also inside `anyOf`, as for an
    optional number)."""
    for part in (schema, *schema.get("anyOf", ())):
        if "minimum" in part or "maximum" in part:
            return part.get("minimum"), part.get("maximum")
    return schema.get("x-minimum"), schema.get("x-maximum")


def _kind(schema: Mapping[str, Any]) -> str:
    """`int`, `bool`, `choice`, `multi` or `text`: how a form asks for an option."""
    types = {schema.get("type")} | {p.get("type") for p in schema.get("anyOf", ())}
    if "array" in types:
        return "multi"
    if _choices(schema):
        return "choice"
    if "integer" in types:
        return "int"
    if "boolean" in types:
        return "bool"
    return "text"


def _choices(spec: Mapping[str, Any]) -> list[list[Any]]:
    """The `[value, label]` pairs a form offers for an option: its `x-choices`, else its
    `enum` (a `Literal` type), also for the items of a list."""
    for part in (spec, spec.get("items", {})):
        if "x-choices" in part:
            return [list(c) for c in part["x-choices"]]
        if "enum" in part:
            return [[v, str(v)] for v in part["enum"]]
    return []


def form(model: type[BaseModel]) -> list[dict[str, Any]]:
    """The start page's form for a model, from its JSON Schema: one entry per option with
    `name`, `label`, `kind` (`int`, `bool`, `choice`, `multi`), `default` (None
    leaves the game's own default, which may depend on other options), and where they apply
    `low`/`high`, `choices` (`[value, label]` pairs) and `help`. An option of free text
    (with no choices) is left out: the web app never takes a file name from a visitor."""
    out = []
    for name, spec in schema(model)["properties"].items():
        kind = _kind(spec)
        if kind == "text":
            continue  # free text (a file name) is never a stranger's to give
        entry: dict[str, Any] = {
            "name": name,
            "label": spec.get("title", name),
            "kind": kind,
            "default": spec.get("default"),
        }
        if kind == "int":
            low, high = _limits(spec)
            entry["low"], entry["high"] = spec.get("x-minimum", low), spec.get("x-maximum", high)
        if kind in ("choice", "multi"):
            entry["choices"] = [list(c) for c in _choices(spec)]
        if spec.get("description"):
            entry["help"] = spec["description"]
        out.append(entry)
    return out


def check_form(game_id: str, model: type[BaseModel], options: Mapping[str, Any]) -> dict[str, Any]:
    """`options` as a stranger may give them (the web app): only what the form offers, each
    within the form's limits and choices (only built-in editions, never a file), then the
    model's own checks. None leaves an option at the game's default. ValueError names the
    first problem as `option NAME: ...`."""
    fields = {f["name"]: f for f in form(model)}
    checked: dict[str, Any] = {}
    for name, value in options.items():
        field = fields.get(name)
        if field is None:
            raise Worded(
                "error-option-unknown",
                f"{game_id} has no option {shown(name)} here; it takes {', '.join(fields)}",
                game=game_id,
                option=plain(name),
                options=", ".join(fields),
            )
        if value is None:
            continue
        where = f"option {name}"
        kind = field["kind"]
        names = [c for c, _ in field.get("choices", ())]
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise Worded("error-option-whole", f"{where}: must be a whole number", option=name)
            low, high = field.get("low"), field.get("high")
            if (low is not None and value < low) or (high is not None and value > high):
                if low == high:
                    raise Worded(
                        "error-option-exactly",
                        f"{where}: must be {low}",
                        option=name,
                        value=str(low),
                    )
                raise Worded(
                    "error-option-range",
                    f"{where}: must be from {low} to {high}",
                    option=name,
                    low=str(low),
                    high=str(high),
                )
        elif kind == "bool" and not isinstance(value, bool):
            raise Worded("error-option-bool", f"{where}: must be true or false", option=name)
        elif kind == "choice" and value not in names:
            raise Worded(
                "error-option-choice",
                f"{where}: choose from {', '.join(names)}",
                option=name,
                choices=", ".join(names),
            )
        elif kind == "multi" and (
            not isinstance(value, list) or any(v not in names for v in value)
        ):
            raise Worded(
                "error-option-list",
                f"{where}: a list of names from {', '.join(names)}",
                option=name,
                choices=", ".join(names),
            )
        checked[name] = value
    check_options(game_id, model, checked)
    return checked


def from_text(model: type[BaseModel], name: str, text: str) -> Any:
    """An option's value as typed on a command line (`-o rounds=1`, `-o variants=a,b`),
    read by the kind its schema gives it; the model then checks it like any other value."""
    kind = _kind(schema(model)["properties"].get(name, {}))
    if kind == "multi":
        return [v for v in text.split(",") if v]
    if kind == "bool" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            return text
    return text
