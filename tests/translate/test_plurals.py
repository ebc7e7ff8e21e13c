"""Plural planning: i18next plural groups become the target language's CLDR categories, a
gettext plural entry its number of forms."""

from __future__ import annotations

from i18nprune.locales.catalog import plural_categories
from i18nprune.locales.podoc import language_plural_rule
from i18nprune.translate.plurals import GettextForms, PlannedPath, plural_plan

ENGLISH_ITEMS = ["items_one", "items_other"]


def _pairs(plan: list[PlannedPath]) -> list[tuple[str, str]]:
    return [(planned.target_path, planned.source_path) for planned in plan]


def test_arabic_gets_all_six_categories_from_english_one_and_other() -> None:
    assert _pairs(plural_plan(ENGLISH_ITEMS, "en", "ar")) == [
        ("items_zero", "items_other"),
        ("items_one", "items_one"),
        ("items_two", "items_other"),
        ("items_few", "items_other"),
        ("items_many", "items_other"),
        ("items_other", "items_other"),
    ]


def test_polish_gets_one_few_many_other() -> None:
    assert _pairs(plural_plan(ENGLISH_ITEMS, "en", "pl")) == [
        ("items_one", "items_one"),
        ("items_few", "items_other"),
        ("items_many", "items_other"),
        ("items_other", "items_other"),
    ]


def test_japanese_gets_only_other_and_no_unused_category() -> None:
    assert _pairs(plural_plan(ENGLISH_ITEMS, "en", "ja")) == [("items_other", "items_other")]


def test_french_gets_exactly_its_catalog_categories() -> None:
    plan = plural_plan(ENGLISH_ITEMS, "en", "fr")
    expected = [
        (f"items_{category}", "items_one" if category == "one" else "items_other")
        for category in plural_categories("fr")
    ]
    assert _pairs(plan) == expected


def test_a_source_form_of_the_same_category_is_preferred_over_other() -> None:
    paths = ["items_zero", "items_one", "items_many", "items_other"]
    assert _pairs(plural_plan(paths, "en", "ar")) == [
        ("items_zero", "items_zero"),
        ("items_one", "items_one"),
        ("items_two", "items_other"),
        ("items_few", "items_other"),
        ("items_many", "items_many"),
        ("items_other", "items_other"),
    ]


def test_english_ordinals_get_one_two_few_other() -> None:
    paths = ["place_ordinal_one", "place_ordinal_other"]
    assert _pairs(plural_plan(paths, "fr", "en")) == [
        ("place_ordinal_one", "place_ordinal_one"),
        ("place_ordinal_two", "place_ordinal_other"),
        ("place_ordinal_few", "place_ordinal_other"),
        ("place_ordinal_other", "place_ordinal_other"),
    ]


def test_ordinal_and_cardinal_groups_of_one_base_are_planned_separately() -> None:
    paths = ["place_one", "place_other", "place_ordinal_one", "place_ordinal_other"]
    assert _pairs(plural_plan(paths, "en", "de")) == [
        ("place_one", "place_one"),
        ("place_other", "place_other"),
        ("place_ordinal_other", "place_ordinal_other"),
    ]


def test_nested_plural_paths_keep_their_namespace() -> None:
    paths = ["a.b.items_one", "a.b.items_other"]
    assert _pairs(plural_plan(paths, "en", "pl")) == [
        ("a.b.items_one", "a.b.items_one"),
        ("a.b.items_few", "a.b.items_other"),
        ("a.b.items_many", "a.b.items_other"),
        ("a.b.items_other", "a.b.items_other"),
    ]


def test_a_japanese_source_with_only_other_is_a_plural_group() -> None:
    assert _pairs(plural_plan(["items_other"], "ja", "en")) == [
        ("items_one", "items_other"),
        ("items_other", "items_other"),
    ]


def test_a_lone_other_key_in_an_english_source_is_not_a_plural() -> None:
    assert _pairs(plural_plan(["status_other"], "en", "ar")) == [("status_other", "status_other")]


def test_a_group_without_other_is_not_a_plural() -> None:
    paths = ["mode_one", "mode_few"]
    assert _pairs(plural_plan(paths, "en", "ar")) == [(path, path) for path in paths]


def test_non_plural_paths_map_to_themselves_and_groups_keep_template_order() -> None:
    paths = ["title", "items_other", "menu.open", "items_one", "footer"]
    assert _pairs(plural_plan(paths, "en", "pl")) == [
        ("title", "title"),
        ("items_one", "items_one"),
        ("items_few", "items_other"),
        ("items_many", "items_other"),
        ("items_other", "items_other"),
        ("menu.open", "menu.open"),
        ("footer", "footer"),
    ]


def test_a_suffix_without_a_key_name_is_not_a_plural() -> None:
    paths = ["a._one", "a._other", "_other"]
    assert _pairs(plural_plan(paths, "en", "ar")) == [(path, path) for path in paths]


def test_a_regional_target_uses_its_language_categories() -> None:
    plan = plural_plan(ENGLISH_ITEMS, "en", "pl-PL")
    assert [planned.target_path for planned in plan] == [
        "items_one",
        "items_few",
        "items_many",
        "items_other",
    ]


FILE = ["title", "%d file[0]", "%d file[1]", "end"]


def _gettext(target: str) -> GettextForms:
    rule = language_plural_rule(target)
    assert rule is not None
    return GettextForms({"%d file": 2}, rule)


def _forms(plan: list[PlannedPath]) -> list[tuple[str, str, bool]]:
    return [(p.target_path, p.source_path, p.review) for p in plan]


def test_a_gettext_entry_keeps_its_forms_in_a_language_with_as_many() -> None:
    assert _forms(plural_plan(FILE, "en", "de", _gettext("de"))) == [
        ("title", "title", False),
        ("%d file[0]", "%d file[0]", False),
        ("%d file[1]", "%d file[1]", False),
        ("end", "end", False),
    ]


def test_polish_forms_past_the_singular_come_from_the_plural_for_review() -> None:
    assert _forms(plural_plan(FILE, "en", "pl", _gettext("pl")))[1:4] == [
        ("%d file[0]", "%d file[0]", True),
        ("%d file[1]", "%d file[1]", True),
        ("%d file[2]", "%d file[1]", True),
    ]


def test_arabics_n_equals_one_form_is_its_second() -> None:
    sources = [p.source_path for p in plural_plan(FILE, "en", "ar", _gettext("ar"))[1:7]]
    assert sources == ["%d file[1]", "%d file[0]", *["%d file[1]"] * 4]


def test_a_one_form_language_translates_the_plural() -> None:
    assert _forms(plural_plan(FILE, "en", "ja", _gettext("ja"))) == [
        ("title", "title", False),
        ("%d file[0]", "%d file[1]", False),
        ("end", "end", False),
    ]
