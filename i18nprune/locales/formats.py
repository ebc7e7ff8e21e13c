"""Which files are locale files, in which format, and the locale code their names carry.

A locale file's format is its extension (docs/locale-files.md#formats): `.json` is JSON,
`.yaml` and `.yml` are YAML, `.arb` is Flutter's Application Resource Bundle (JSON whose `@`
keys are metadata, named `<prefix><locale>.arb`: `app_en.arb`), `.po` is gettext's PO (and
`.pot` its template, `messages.pot`: the source locale's file, whose targets are `<locale>.po`
beside it),
`.xlf` and `.xliff` are XLIFF (`fr.xlf`, or Angular's `messages.fr.xlf` beside the source
`messages.xlf`, whose name carries no locale: `unlocalised_source`). Everything that finds,
names or creates locale files asks here, so a format added here is discovered, watched and
written everywhere at once. This module imports only `locale_codes`: the configuration's
detector uses it too.
"""

from __future__ import annotations

import re
from typing import Literal

from i18nprune.locale_codes import is_language_code, looks_like_locale_code

LocaleFormat = Literal["json", "yaml", "arb", "po", "xliff"]

_FORMATS: dict[str, LocaleFormat] = {
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".arb": "arb",
    ".po": "po",
    ".pot": "po",
    ".xlf": "xliff",
    ".xliff": "xliff",
}

LOCALE_SUFFIXES: tuple[str, ...] = tuple(_FORMATS)
"""Every extension a locale file may have, lowercase, with its dot."""

DEFAULT_SUFFIX = ".json"
"""The extension of a new locale file in a project that has none to copy."""

# A locale code as ARB file names carry it: `en`, `pt_BR`, `zh_Hant_TW`, `es_419`.
_PLAIN_CODE = re.compile(r"[a-z]{2,3}(?:[_-][A-Z][a-z]{3})?(?:[_-](?:[A-Z]{2}|[0-9]{3}))?\Z")

_TEMPLATE = ".pot"
"""A gettext template's extension: the file names no locale (see `unlocalised_source`)."""

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
    `intl_en.arb` → `en`), for XLIFF the part after the last dot of a stem that is no locale
    code itself (`messages.fr.xlf` → `fr`). None when `name` has no locale extension, is a
    companion file, (ARB) carries no language CLDR knows after a prefix, or (XLIFF) carries no
    locale code at all (`messages.xlf`: see `unlocalised_source`)."""
    suffix = suffix_of(name)
    if suffix is None or not is_locale_file_name(name):
        return None
    stem = name[: -len(suffix)]
    kind = format_of(name)
    if suffix.lower() == _TEMPLATE:
        return None
    if kind == "xliff":
        return _xliff_parts(stem)[1]
    if kind != "arb":
        return stem
    prefix = _arb_prefix(stem)
    return None if prefix is None else stem[len(prefix) :]


def unlocalised_source(name: str) -> bool:
    """Whether `name` is an XLIFF file whose name carries no locale code (Angular's
    `messages.xlf`) or a gettext template (`messages.pot`): the source locale's file where the
    layout names files by locale, its targets named `messages.<locale>.xlf` or `<locale>.po`
    (`counterpart_name`)."""
    if is_template_name(name):
        return True
    suffix = suffix_of(name)
    if suffix is None or format_of(name) != "xliff" or not is_locale_file_name(name):
        return False
    stem = name[: -len(suffix)]
    return bool(stem) and _xliff_parts(stem)[1] is None


def counterpart_name(name: str, locale_name: str) -> str:
    """The name of locale `locale_name`'s file matching the locale file `name`: the same
    extension, for ARB the same prefix (`app_en.arb`, `fr` → `app_fr.arb`), for XLIFF the
    same name before the locale (`messages.xlf` or `messages.en.xlf`, `fr` →
    `messages.fr.xlf`), for a gettext template a PO file (`messages.pot`, `fr` → `fr.po`)."""
    suffix = suffix_of(name) or DEFAULT_SUFFIX
    if suffix.lower() == _TEMPLATE:
        return f"{locale_name}{suffix[:-1]}"
    kind = format_of(name)
    if kind == "xliff":
        return f"{_xliff_parts(name[: -len(suffix)])[0]}{locale_name}{suffix}"
    prefix = _arb_prefix(name[: -len(suffix)]) if kind == "arb" else ""
    return f"{prefix or ''}{locale_name}{suffix}"


def is_template_name(name: str) -> bool:
    """Whether `name` is a gettext template's (`messages.pot`)."""
    return name.lower().endswith(_TEMPLATE) and len(name) > len(_TEMPLATE)


def catalog_parts(template_name: str) -> tuple[str, str]:
    """Where, below its locale's folder, gettext keeps the catalog made from the template
    `template_name` (`messages.pot` → `LC_MESSAGES`, `messages.po`): the layout of
    `locale/<lang>/LC_MESSAGES/<domain>.po` beside `locale/<domain>.pot`."""
    return "LC_MESSAGES", f"{template_name[: -len(_TEMPLATE)]}.po"


def _xliff_parts(stem: str) -> tuple[str, str | None]:
    """(what precedes the locale, the locale) of an XLIFF file's stem: `("", "fr")` for `fr`,
    `("messages.", "fr")` for `messages.fr`, `("messages.", None)` for `messages`."""
    if looks_like_locale_code(stem):
        return "", stem
    before, dot, last = stem.rpartition(".")
    if dot and before and looks_like_locale_code(last):
        return before + dot, last
    return stem + ".", None


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
