"""Static values of JavaScript expressions, as far as a file alone can know them.

Extraction turns each key argument into one of these; cross-file linking later replaces the
`Imported` and `Member` nodes with what the imported module exports.
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec


class Text(msgspec.Struct, frozen=True, tag="s", array_like=True):
    """A string known exactly."""

    value: str


class Join(msgspec.Struct, frozen=True, tag="j", array_like=True):
    """Parts concatenated in order; `template` tells a template literal from a `+` chain."""

    parts: list[Expr]
    template: bool


class Branches(msgspec.Struct, frozen=True, tag="b", array_like=True):
    """One of several values (`c ? a : b`, `a ?? b`, an array of fallback keys)."""

    options: list[Expr]


class Record(msgspec.Struct, frozen=True, tag="r", array_like=True):
    """An object literal or enum whose statically known fields are kept."""

    fields: dict[str, Expr]


class Imported(msgspec.Struct, frozen=True, tag="i", array_like=True):
    """A binding imported from a relative module; `name` is `default` or `*` for those forms."""

    source: str
    name: str


class Member(msgspec.Struct, frozen=True, tag="m", array_like=True):
    """A property of a value that only linking can resolve (`KEYS.home` with KEYS imported)."""

    target: Expr
    name: str


class Opaque(msgspec.Struct, frozen=True, tag="o", array_like=True):
    """A value that cannot be known statically."""


Expr: TypeAlias = Text | Join | Branches | Record | Imported | Member | Opaque

OPAQUE = Opaque()
