"""Plural categories and "is this a language" answered without naming the language: the same
answers as the catalog's full rows give, for every code it has and for the codes it finds by
region or likely subtags, and for codes it does not know."""

from __future__ import annotations

import pytest

from i18nprune.locale_codes import language_of
from i18nprune.locales.catalog import (
    all_languages,
    find_language,
    is_known_language,
    plural_categories,
)

OTHER_CODES = ("pt_br", "fr-US", "zh-TW", "uz-AF", "en-ZZ", "pl-XX", "qqq", "xx-YY", "de-1996", "")


def _from_rows(code: str) -> list[str]:
    row = find_language(code) or find_language(language_of(code))
    return list(row.plurals) if row else ["other"]


@pytest.mark.slow
def test_plural_categories_are_those_of_the_catalog_rows() -> None:
    codes = [row.code for row in all_languages()] + list(OTHER_CODES)
    assert [plural_categories(code) for code in codes] == [_from_rows(code) for code in codes]


def test_a_language_is_known_exactly_when_the_catalog_finds_its_row() -> None:
    codes = [row.code for row in all_languages()] + list(OTHER_CODES)
    known = [is_known_language(code) for code in codes]
    assert known == [find_language(code) is not None for code in codes]
    assert not is_known_language("qqq") and is_known_language("fr-US")
