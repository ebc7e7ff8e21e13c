"""Which files are locale files, in which format, and the locale code their names carry.

A locale file's format is its extension (docs/locale-files.md#formats): `.json` is JSON,
`.yaml` and `.yml` are YAML, `.arb` is Flutter's Application Resource Bundle (JSON whose `@`
keys are metadata, named `<prefix><locale>.arb`: `app_en.arb`). Everything that finds, names or
creates locale files asks here, so a format added here is discovered, watched and written
everywhere at once. This module imports only `locale_codes`: the configuration's detector uses
it too.
"""

from __future__ import annotations

import re
from typing import Literal

from i18nprune.locale_codes import is_language_code

LocaleFormat = Literal["json", "yaml", "arb"]

_FORMATS: dict[str, LocaleFormat] = {
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".arb": "arb",
}

LOCALE_SUFFIXES: tuple[str, ...] = tuple(_FORMATS)
"""Every extension a locale file may have, lowercase, with its dot."""

DEFAULT_SUFFIX = ".json"
"""The extension of a new locale file in a project that has none to copy."""

# A locale code as ARB file names carry it: `en`, `pt_BR`, `zh_Hant_TW`, `es_419`.
_PLAIN_CODE = re.compile(r"[a-z]{2,3}(?:[_-][A-Z][a-z]{3})?(?:[_-](?:[A-Z]{2}|[0-9]{3}))?\Z")

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
    """The part of a locale file's name that names its locale: the name without its extension
    (`pt_BR.yml` → `pt_BR`), and for ARB without its prefix too (`app_pt_BR.arb` → `pt_BR`,
    `intl_en.arb` → `en`). None when `name` has no locale extension, is a companion file, or
    (ARB) carries no language CLDR knows after a prefix."""
    suffix = suffix_of(name)
    if suffix is None or not is_locale_file_name(name):
        return None
    stem = name[: -len(suffix)]
    if format_of(name) != "arb":
        return stem
    prefix = _arb_prefix(stem)
    return None if prefix is None else stem[len(prefix) :]


def counterpart_name(name: str, locale_name: str) -> str:
    """The name of locale `locale_name`'s file matching the locale file `name`: the same
    extension, and for ARB the same prefix (`app_en.arb`, `fr` → `app_fr.arb`)."""
    suffix = suffix_of(name) or DEFAULT_SUFFIX
    prefix = _arb_prefix(name[: -len(suffix)]) if format_of(name) == "arb" else ""
    return f"{prefix or ''}{locale_name}{suffix}"


def _arb_prefix(stem: str) -> str | None:
    """What precedes the locale in an ARB file's stem: up to the first `_` after which the
    rest is a plain locale code (language, optional script and region) of a language CLDR
    knows (`app_` of `app_pt_BR`, `my_app_` of `my_app_en`), `""` when the whole stem is one,
    else None."""
    at = -1
    while True:
        rest = stem[at + 1 :]
        if _PLAIN_CODE.match(rest) and is_language_code(rest):
            return stem[: at + 1]
        at = stem.find("_", at + 1)
        if at < 0:
            return None
