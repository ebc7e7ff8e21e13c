"""Op options: one Struct per op defines its flags, for the CLI and for `serve` alike.

A field's name is its wire name (`dry_run`) and, with `-` for `_`, its long flag (`--dry-run`);
its `msgspec.Meta(description=...)` is the flag's help.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)


class OptionsError(ValueError):
    """Options that do not fit the op: an unknown name or a value of the wrong type."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class OptionField:
    """One option as a host sees it."""

    name: str
    flag: str
    kind: type  # bool, int, str or list (a list of strings)
    required: bool
    default: Any
    help: str


def _unwrap(annotation: Any) -> tuple[Any, str]:
    description = ""
    if typing.get_origin(annotation) is typing.Annotated:
        base, *extras = typing.get_args(annotation)
        for extra in extras:
            if isinstance(extra, msgspec.Meta) and extra.description:
                description = extra.description
        annotation = base
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    if typing.get_origin(annotation) is list:
        return list, description
    return annotation, description


def option_fields(options_type: type[msgspec.Struct]) -> list[OptionField]:
    """The options of an op, in declaration order."""
    hints = typing.get_type_hints(options_type, include_extras=True)
    fields = []
    for info in msgspec.structs.fields(options_type):
        kind, description = _unwrap(hints[info.name])
        required = info.required
        default = None if required or info.default is msgspec.NODEFAULT else info.default
        fields.append(
            OptionField(
                name=info.name,
                flag="--" + info.name.replace("_", "-"),
                kind=kind,
                required=required,
                default=default,
                help=description,
            )
        )
    return fields


def _split_lists(options_type: type[msgspec.Struct], raw: dict[str, Any]) -> dict[str, Any]:
    lists = {f.name for f in option_fields(options_type) if f.kind is list}
    normalised = {}
    for key, value in raw.items():
        if key in lists and isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        elif key in lists and isinstance(value, list):
            # Non-strings stay as they are, for validation to name the key.
            value = [
                part.strip() if isinstance(part, str) else part
                for item in value
                for part in (item.split(",") if isinstance(item, str) else [item])
                if not isinstance(part, str) or part.strip()
            ]
        normalised[key] = value
    return normalised


def decode_options(options_type: type[OptionsT], raw: dict[str, Any]) -> OptionsT:
    """Validate `raw` (wire names) into the op's options; list options accept "a,b" or [..].

    Raises OptionsError naming the offending key; a typo never falls back to a default.
    """
    known = {f.name for f in option_fields(options_type)}
    for key in raw:
        if key not in known:
            hint = f"; known options: {', '.join(sorted(known))}" if known else ""
            raise OptionsError(key, f"unknown option `{key}`{hint}")
    try:
        return msgspec.convert(_split_lists(options_type, raw), options_type, strict=True)
    except msgspec.ValidationError as exc:
        message = str(exc)
        missing = _MISSING_FIELD.fullmatch(message)
        if missing is not None:  # a required option: msgspec names it, with no path
            key = missing.group(1)
            raise OptionsError(key, f"option `{key}` is required") from None
        key = message.rsplit("$.", 1)[-1].split("[", 1)[0].rstrip("`") if "$." in message else ""
        raise OptionsError(key, f"option `{key}`: {message.split(' - at ')[0]}") from None


_MISSING_FIELD = re.compile(r"Object missing required field `([^`]+)`")
