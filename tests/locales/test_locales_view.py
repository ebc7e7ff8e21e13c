"""A locale's merged view: union of segments, duplicates, unreadable segments, speed."""

import json
from pathlib import Path

from i18nprune.config.schema import LocalesConfig
from i18nprune.envelope import Code
from i18nprune.locales.view import load_locale
from tests.locales.trees import PER_DIR, PLACEHOLDER, locale_tree


def test_leaves_are_the_union_of_all_segments(tmp_path: Path) -> None:
    inventory = locale_tree(
        tmp_path,
        {
            "messages/en/common.json": '{"nav": {"home": "Home"}}',
            "messages/en/auth/login.json": '{"login": {"title": "Sign in"}}',
        },
        PER_DIR,
    )
    view = load_locale(inventory, "en", PLACEHOLDER)
    assert view.leaf_segment == {
        "login.title": "messages/en/auth/login.json",
        "nav.home": "messages/en/common.json",
    }
    assert view.issues == []


def test_the_locale_is_found_by_any_spelling(tmp_path: Path) -> None:
    inventory = locale_tree(tmp_path, {"locales/pt_BR.json": '{"a": "b"}'}, LocalesConfig())
    assert list(load_locale(inventory, "PT-br", PLACEHOLDER).leaves) == ["a"]


def test_a_path_in_two_segments_warns_naming_both_and_keeps_the_first(tmp_path: Path) -> None:
    inventory = locale_tree(
        tmp_path,
        {
            "messages/en/a.json": '{"title": "From a"}',
            "messages/en/b.json": '{"title": "From b"}',
        },
        PER_DIR,
    )
    view = load_locale(inventory, "en", PLACEHOLDER)
    assert view.leaves["title"].value == "From a"
    [issue] = view.issues
    assert (issue.code, issue.severity) == (Code.LOCALE_DUPLICATE_PATH, "warning")
    assert "messages/en/a.json" in issue.message
    assert "messages/en/b.json" in issue.message


def test_a_path_spelled_dotted_and_nested_in_one_file_warns(tmp_path: Path) -> None:
    inventory = locale_tree(
        tmp_path, {"locales/en.json": '{"a.b": "x", "a": {"b": "y"}}'}, LocalesConfig()
    )
    view = load_locale(inventory, "en", PLACEHOLDER)
    assert view.leaves["a.b"].value == "x"
    assert [issue.message for issue in view.issues] == [
        "locales/en.json: 1 path defined twice, as a dotted key and as nested keys (a.b) — "
        "the first in the file is used; keep one spelling"
    ]


def test_a_top_level_empty_key_is_left_out_with_a_warning(tmp_path: Path) -> None:
    # Its path would be "" (the document) and its children's paths those of top-level keys.
    inventory = locale_tree(
        tmp_path,
        {"locales/en.json": '{"": {"b": "Shadow", "c": "Hidden"}, "a": {"": "Kept"}, "b": "B"}'},
        LocalesConfig(),
    )
    view = load_locale(inventory, "en", PLACEHOLDER)
    assert {path: leaf.value for path, leaf in view.leaves.items()} == {"a.": "Kept", "b": "B"}
    [issue] = view.issues
    assert (issue.code, issue.severity, issue.path) == (
        Code.LOCALE_EMPTY_KEY,
        "warning",
        "locales/en.json",
    )
    assert 'key ""' in issue.message and "locales/en.json" in issue.message


def test_an_invalid_segment_is_reported_and_the_others_still_load(tmp_path: Path) -> None:
    inventory = locale_tree(
        tmp_path,
        {"messages/en/bad.json": '{"a": }', "messages/en/good.json": '{"b": "ok"}'},
        PER_DIR,
    )
    view = load_locale(inventory, "en", PLACEHOLDER)
    assert list(view.leaves) == ["b"]
    assert [(i.code, i.path) for i in view.issues] == [
        (Code.LOCALE_INVALID_JSON, "messages/en/bad.json")
    ]


def test_an_unknown_locale_gives_an_empty_view(tmp_path: Path) -> None:
    inventory = locale_tree(tmp_path, {"locales/en.json": '{"a": "b"}'}, LocalesConfig())
    view = load_locale(inventory, "fr", PLACEHOLDER)
    assert (view.segments, view.leaves, view.issues) == ([], {}, [])


def test_ten_thousand_keys_load_as_ten_thousand_leaves(tmp_path: Path) -> None:
    # How fast: benchmarks/micro.py (`locale_view_10k_keys_s`).
    doc = {f"section{s}": {f"key{k}": f"Text {s}.{k}" for k in range(100)} for s in range(100)}
    inventory = locale_tree(tmp_path, {"locales/en.json": json.dumps(doc)}, LocalesConfig())

    view = load_locale(inventory, "en", PLACEHOLDER)

    assert len(view.leaves) == 10_000
    assert view.leaves["section42.key7"].value == "Text 42.7"
    assert set(view.leaf_segment.values()) == {"locales/en.json"}
