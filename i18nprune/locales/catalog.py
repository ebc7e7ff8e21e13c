"""The language catalog: every CLDR locale Babel ships, with names, direction and plural forms.

Rows come from Babel's CLDR data, never from hand-written tables. Building the whole catalog
from Babel loads every locale's data (two seconds and 250 MB), so the rows and the plural
categories `generate`, `missing` and `quality` ask for come from `language_names` and
`plural_table`, generated from Babel's data, while the Babel installed is the one they were
generated from; Babel itself is imported only when a look-up needs it (another Babel, or a
code the catalog does not have as it is).
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Literal

import msgspec

from i18nprune.locale_codes import PLURAL_CATEGORIES, bcp47_case, language_of, normalize_code
from i18nprune.locales import language_names, plural_table
from i18nprune.system.installed import dist_info

if TYPE_CHECKING:
    from babel import Locale

# CLDR's "Unknown Region": a placeholder, not a place a language variant can belong to.
_UNKNOWN_REGION = "ZZ"


class LanguageRow(msgspec.Struct, frozen=True):
    """One language of the catalog, as `languages` prints it."""

    code: str
    """BCP 47 casing: `en`, `pt-BR`, `zh-Hant`, `sr-Latn-BA`."""
    english: str
    """Name in English: `Portuguese (Brazil)`."""
    native: str
    """Name in the language itself: `português (Brasil)`."""
    direction: Literal["ltr", "rtl"]
    plurals: list[str]
    """CLDR cardinal plural categories, ordered zero, one, two, few, many, other; always
    includes `other`."""


def all_languages() -> list[LanguageRow]:
    """Every language of the catalog, sorted by (normalised) code. Built once per process."""
    return list(_all_rows())


def find_language(code: str) -> LanguageRow | None:
    """The catalog row for `code`, compared normalised (`pt_br` finds `pt-BR`), else None.

    A code without a CLDR locale of its own is still found, with `code` as asked, when
    - CLDR's likely subtags lead to a catalog locale of the same language and region
      (`zh-TW` → `zh-Hant-TW`, `uz-AF` → `uz-Arab-AF`): the row is that locale's; or
    - its base (`fr`, `zh-Hant`) is in the catalog and the region is a real CLDR region
      (`fr-US`): named from the base and the region, with the base's direction and plurals.
    `ZZ` (CLDR's "Unknown Region") and subtags that are not regions find nothing.
    """
    key = normalize_code(code)
    names = _names_table()
    if names is not None and key in names:
        return _table_row(key, names[key])
    identifiers = _identifiers()
    if key in identifiers:
        return _row(identifiers[key])
    base, _, region = key.rpartition("-")
    likely = _likely_identifier(key, region)
    if likely is not None:
        return msgspec.structs.replace(_row(likely), code=bcp47_case(key))
    if base in identifiers and _is_region_free(identifiers[base]) and _is_known_region(region):
        return _regional_row(identifiers[base], region.upper())
    return None


def plural_categories(code: str) -> list[str]:
    """CLDR cardinal plural categories of language `code`, in CLDR order.

    Falls back to the base language (`en-XX` → `en`); an unknown language has only `other`,
    so nothing is invented for it.
    """
    table = _plural_table()
    for candidate in (code, language_of(code)):
        # A code the catalog has as it is needs only its plural rules, not its row's names.
        key = normalize_code(candidate)
        if table is not None and key in table:
            return table[key][0].split()
        identifier = _identifiers().get(key)
        if identifier is not None:
            return list(_plural_rules(identifier))
        row = find_language(candidate)
        if row is not None:
            return list(row.plurals)
    return ["other"]


def is_known_language(code: str) -> bool:
    """Whether `find_language(code)` finds a row (without naming it when the catalog has the
    code as it is)."""
    key = normalize_code(code)
    table = _plural_table()
    if table is not None and key in table:
        return True
    return key in _identifiers() or find_language(code) is not None


@functools.cache
def ordinal_categories(code: str) -> tuple[str, ...]:
    """CLDR ordinal plural categories of language `code` (`1st`, `2nd`: en one, two, few,
    other), in CLDR order; falls back like `plural_categories`."""
    normalized = normalize_code(code)
    table = _plural_table()
    for candidate in (normalized, language_of(normalized)):
        if table is not None and candidate in table:
            return tuple(table[candidate][1].split())
        categories = babel_ordinal_categories(candidate)
        if categories is not None:
            return categories
    return ("other",)


def babel_ordinal_categories(code: str) -> tuple[str, ...] | None:
    """The ordinal categories Babel gives normalised `code` (None: Babel does not know it)."""
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(code, sep="-")
    except (ValueError, UnknownLocaleError):
        return None
    used = set(locale.ordinal_form.tags) | {"other"}
    return tuple(category for category in PLURAL_CATEGORIES if category in used)


@functools.cache
def _plural_table() -> dict[str, tuple[str, str]] | None:
    """`plural_table.CATEGORIES` while the Babel installed is the one it was generated from
    (found without importing Babel), else None: the categories then come from Babel."""
    info = dist_info("babel")
    if info is None or os.path.basename(info).lower() != f"{plural_table.BABEL}.dist-info":
        return None
    return plural_table.CATEGORIES


def filter_languages(query: str) -> list[LanguageRow]:
    """Catalog rows whose code, English name or native name contains `query`, best first: the
    code itself, codes of that language (`fr-CA`), other codes starting with it, names starting
    with it, then names and codes containing it (`Afrikaans` for `fr`).

    Case-insensitive; `_` in the query matches the `-` of codes. An empty query matches all.
    """
    needle = query.strip().casefold()
    code_needle = needle.replace("_", "-")
    ranked = []
    for index, row in enumerate(_all_rows()):
        code = row.code.casefold()
        names = (row.english.casefold(), row.native.casefold())
        if code == code_needle:
            rank = 0
        elif code.startswith(code_needle + "-"):
            rank = 1
        elif code.startswith(code_needle):
            rank = 2
        elif any(name.startswith(needle) for name in names):
            rank = 3
        elif any(needle in name for name in names) or code_needle in code:
            rank = 4
        else:
            continue
        ranked.append((rank, index, row))
    return [row for _, _, row in sorted(ranked, key=lambda item: item[:2])]


@functools.cache
def _identifiers() -> dict[str, str]:
    """Normalised code → Babel identifier (`pt-br` → `pt_BR`), without CLDR's `root`."""
    return {
        normalize_code(identifier): identifier
        for identifier in _babel_identifiers()
        if identifier != "root"
    }


@functools.cache
def _names_table() -> dict[str, tuple[str, str, str, str]] | None:
    """`language_names.NAMES` while it and `plural_table` were generated from the Babel
    installed (found without importing Babel), else None: rows then come from Babel."""
    if _plural_table() is None or language_names.BABEL != plural_table.BABEL:
        return None
    return language_names.NAMES


def _table_row(key: str, names: tuple[str, str, str, str]) -> LanguageRow:
    code, english, native, direction = names
    return LanguageRow(
        code=code,
        english=english,
        native=native,
        direction="rtl" if direction == "rtl" else "ltr",
        plurals=plural_table.CATEGORIES[key][0].split(),
    )


@functools.cache
def _all_rows() -> tuple[LanguageRow, ...]:
    names = _names_table()
    if names is not None:
        # Generated in catalog order: sorted by normalised code.
        return tuple(_table_row(key, row) for key, row in names.items())
    rows = (_row(identifier) for identifier in _identifiers().values())
    return tuple(sorted(rows, key=lambda row: normalize_code(row.code)))


def _babel_identifiers() -> list[str]:
    from babel import localedata

    return localedata.locale_identifiers()


@functools.cache
def _english() -> Locale:
    from babel import Locale

    return Locale("en")


@functools.cache
def _row(identifier: str) -> LanguageRow:
    from babel import Locale

    locale = Locale.parse(identifier)
    return LanguageRow(
        code=bcp47_case(identifier),
        english=_display_name(locale, locale.territory, _english()),
        native=_display_name(locale, locale.territory, locale),
        direction="rtl" if locale.text_direction == "rtl" else "ltr",
        plurals=list(_plural_rules(identifier)),
    )


@functools.cache
def _plural_rules(identifier: str) -> tuple[str, ...]:
    """The cardinal plural categories of catalog locale `identifier` (`_plurals`), once."""
    from babel import Locale

    return tuple(_plurals(Locale.parse(identifier)))


def _regional_row(base_identifier: str, region: str) -> LanguageRow:
    from babel import Locale

    base = Locale.parse(base_identifier)
    base_row = _row(base_identifier)
    return LanguageRow(
        code=bcp47_case(f"{base_identifier}-{region}"),
        english=_display_name(base, region, _english()),
        native=_display_name(base, region, base),
        direction=base_row.direction,
        plurals=base_row.plurals,
    )


def _display_name(locale: Locale, region: str | None, names_from: Locale) -> str:
    """`Language (Script, Region, Variant)` with every name taken from `names_from`'s data."""
    language = names_from.languages.get(locale.language, locale.language)
    details = [
        names_from.scripts.get(locale.script) if locale.script else None,
        names_from.territories.get(region) if region else None,
        names_from.variants.get(locale.variant) if locale.variant else None,
    ]
    named = ", ".join(detail for detail in details if detail)
    return f"{language} ({named})" if named else language


def _plurals(locale: Locale) -> list[str]:
    used = set(locale.plural_form.tags) | {"other"}
    return [category for category in PLURAL_CATEGORIES if category in used]


def _likely_identifier(key: str, region: str) -> str | None:
    """The catalog locale CLDR's likely subtags expand `key` to, if it keeps language and region.

    Babel would turn an unknown region into a likely one (`en-ZZ` → `en_US`); that is a
    different language variant, so it does not count.
    """
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(key, sep="-")
    except (ValueError, UnknownLocaleError):
        return None
    keeps_subtags = locale.language == key.split("-")[0] and locale.territory == region.upper()
    return str(locale) if keeps_subtags and normalize_code(str(locale)) in _identifiers() else None


def _is_region_free(identifier: str) -> bool:
    """True for `fr` or `zh_Hant`, false for `pt_BR`: only these take a region suffix."""
    from babel import Locale

    return Locale.parse(identifier).territory is None


def _is_known_region(subtag: str) -> bool:
    region = subtag.upper()
    shaped = (len(region) == 2 and region.isalpha()) or (len(region) == 3 and region.isdigit())
    return shaped and region != _UNKNOWN_REGION and region in _english().territories
