"""Locale codes: the normalised form used for every comparison (`pt_BR` → `pt-br`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

ANY_LOCALE = "*"
"""The key of a per-locale setting that applies to every locale without one of its own."""
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""Every CLDR plural category, in CLDR's order (cardinal and ordinal rules alike). Here rather
than beside the rules in `locales.catalog`, which loads Babel: key evidence reads the names of
plural forms without any language data."""

_CODE_SHAPE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")


def normalize_code(code: str) -> str:
    """Trim, lowercase and use `-` as the separator: the form locale codes are compared in."""
    return code.strip().lower().replace("_", "-")


def language_of(code: str) -> str:
    """The language subtag of `code`, normalised (`pt_BR` → `pt`)."""
    return normalize_code(code).split("-", 1)[0]


def per_locale(values: Mapping[str, str], code: str) -> str | None:
    """The value of a per-locale setting (keys normalised locale codes, or `ANY_LOCALE`) for
    locale `code`: its own code's (`pt-br`), else its language's (`pt`), else `*`'s; None when
    none applies."""
    normalized = normalize_code(code)
    for key in (normalized, language_of(normalized), ANY_LOCALE):
        value = values.get(key)
        if value is not None:
            return value
    return None


def looks_like_locale_code(name: str) -> bool:
    """True when `name` has the shape of a BCP 47 code (`en`, `pt_BR`, `zh-Hant-TW`).

    Shape only; whether the language exists is the catalog's question.
    """
    return bool(_CODE_SHAPE.match(normalize_code(name)))


def is_language_code(name: str) -> bool:
    """True when `name` is a locale code whose language CLDR knows (`en`, `pt_BR`, `yue`): a
    name shaped like one but naming no language (`app`, `lib`) is not."""
    return looks_like_locale_code(name) and language_of(name) in _cldr_languages()


@functools.cache
def _cldr_languages() -> frozenset[str]:
    """Every language subtag of the catalog's codes, read from the plural table on first use
    (this module reads no language data otherwise)."""
    from i18nprune.locales.plural_table import CATEGORIES

    return frozenset(code.split("-", 1)[0] for code in CATEGORIES)


def bcp47_case(code: str) -> str:
    """`code` in BCP 47 display casing: `pt_br` → `pt-BR`, `zh-hant-tw` → `zh-Hant-TW`.

    Language lowercase, 4-letter script title case, 2-letter or 3-digit region uppercase,
    anything else (variants) lowercase.
    """
    language, *subtags = normalize_code(code).split("-")
    cased = [language]
    for subtag in subtags:
        if len(subtag) == 4 and subtag.isalpha():
            cased.append(subtag.title())
        elif (len(subtag) == 2 and subtag.isalpha()) or (len(subtag) == 3 and subtag.isdigit()):
            cased.append(subtag.upper())
        else:
            cased.append(subtag)
    return "-".join(cased)
