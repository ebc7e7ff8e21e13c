"""The language catalog: CLDR names, directions and plural categories."""

from i18nprune.locales.catalog import (
    all_languages,
    filter_languages,
    find_language,
    plural_categories,
)


def test_arabic_uses_all_six_plural_categories() -> None:
    assert plural_categories("ar") == ["zero", "one", "two", "few", "many", "other"]


def test_japanese_uses_only_other() -> None:
    assert plural_categories("ja") == ["other"]


def test_polish_uses_one_few_many_other() -> None:
    assert plural_categories("pl") == ["one", "few", "many", "other"]


def test_an_unknown_region_falls_back_to_the_base_plurals() -> None:
    assert plural_categories("pl-XX") == ["one", "few", "many", "other"]


def test_an_unknown_language_has_only_other() -> None:
    assert plural_categories("qqq") == ["other"]


def test_arabic_hebrew_and_persian_are_right_to_left() -> None:
    rows = [find_language(code) for code in ("ar", "he", "fa")]
    assert [row.direction if row else None for row in rows] == ["rtl", "rtl", "rtl"]


def test_english_is_left_to_right() -> None:
    row = find_language("en")
    assert row is not None and row.direction == "ltr"


def test_find_language_compares_normalised_and_answers_in_bcp47_casing() -> None:
    row = find_language(" pt_br ")
    assert row is not None
    assert (row.code, row.english, row.native) == (
        "pt-BR",
        "Portuguese (Brazil)",
        "português (Brasil)",
    )


def test_find_language_keeps_script_casing() -> None:
    row = find_language("sr_latn_ba")
    assert row is not None and row.code == "sr-Latn-BA"


def test_a_region_reached_through_likely_subtags_uses_that_locale() -> None:
    row = find_language("zh-TW")
    assert row is not None
    assert (row.code, row.english) == ("zh-TW", "Chinese (Traditional, Taiwan)")


def test_a_known_region_without_a_cldr_locale_is_named_from_its_base() -> None:
    row = find_language("fr-US")
    assert row is not None
    assert (row.code, row.english, row.plurals) == (
        "fr-US",
        "French (United States)",
        plural_categories("fr"),
    )


def test_the_unknown_region_is_not_a_language() -> None:
    assert find_language("en-ZZ") is None


def test_an_unknown_language_is_not_found() -> None:
    assert find_language("qqq") is None


def test_every_row_includes_other_and_rows_are_sorted_by_code() -> None:
    rows = all_languages()
    assert all(row.plurals[-1] == "other" for row in rows)
    codes = [row.code.lower() for row in rows]
    assert codes == sorted(codes)


def test_filter_matches_english_names_case_insensitively() -> None:
    assert "pt-BR" in [row.code for row in filter_languages("PORTUGUESE")]


def test_filter_matches_native_names() -> None:
    assert [row.code for row in filter_languages("日本語")] == ["ja", "ja-JP"]


def test_filter_matches_codes_written_with_underscores() -> None:
    assert [row.code for row in filter_languages("pt_b")] == ["pt-BR"]
