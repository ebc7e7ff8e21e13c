"""Which files are locale files, in which format, and the locale code their names carry.

A locale file's format is its extension (docs/locale-files.md#formats): `.json` is JSON,
`.yaml` and `.yml` are YAML. Everything that finds, names or creates locale files asks here, so
a format added here is discovered, watched and written everywhere at once. This module imports
nothing else of ours: the configuration's detector uses it too.
"""

from __future__ import annotations

from typing import Literal

LocaleFormat = Literal["json", "yaml"]

_FORMATS: dict[str, LocaleFormat] = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}

LOCALE_SUFFIXES: tuple[str, ...] = tuple(_FORMATS)
"""Every extension a locale file may have, lowercase, with its dot."""

DEFAULT_SUFFIX = ".json"
"""The extension of a new locale file in a project that has none to copy."""

# Companion files that sit beside locale files but hold no keys.
_COMPANIONS = (".meta.json", ".schema.json")


def format_of(name: str) -> LocaleFormat | None:
    """The format of a file named `name` (a name or a path as text), by its extension in any
    case; None when it is no locale format."""
    dot = name.rfind(".")
    return _FORMATS.get(name[dot:].lower()) if dot >= 0 else None


def suffix_of(name: str) -> str | None:
    """The locale extension `name` ends with, as the name spells it (`.YML` stays `.YML`), or
    None."""
    dot = name.rfind(".")
    return name[dot:] if dot >= 0 and name[dot:].lower() in _FORMATS else None


def is_locale_file_name(name: str) -> bool:
    """Whether a file named `name` may be a locale file: a locale extension, and not a companion
    that holds no keys (`*.meta.json` descriptions, `*.schema.json`)."""
    return format_of(name) is not None and not name.lower().endswith(_COMPANIONS)


def locale_stem(name: str) -> str | None:
    """`name` without its locale extension (`pt_BR.yml` → `pt_BR`), or None when it has none
    or is a companion file."""
    suffix = suffix_of(name)
    if suffix is None or not is_locale_file_name(name):
        return None
    return name[: -len(suffix)]
