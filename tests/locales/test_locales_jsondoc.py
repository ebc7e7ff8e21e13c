"""Locale documents: style detection, reading and editing leaves by path, and rendering."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from i18nprune.envelope import Code
from i18nprune.locales.jsondoc import JsonStyle, LinguiCatalogDocument, LocaleDocument
from i18nprune.locales.jsonfile import LocaleFileError


def _load(tmp_path: Path, content: str | bytes) -> LocaleDocument:
    path = tmp_path / "fr.json"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return LocaleDocument.load(path, "locales/fr.json")


def _pretty(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# style detection


def test_style_of_a_nested_file_with_four_spaces(tmp_path: Path) -> None:
    document = _load(tmp_path, '{\n    "a": {\n        "b": "x"\n    }\n}')
    assert document.style == JsonStyle(
        indent="    ", newline="\n", final_newline=False, flat_keys=False
    )


def test_style_of_a_crlf_file_with_tabs(tmp_path: Path) -> None:
    document = _load(tmp_path, '{\r\n\t"a": "x"\r\n}\r\n')
    assert (document.style.indent, document.style.newline, document.style.final_newline) == (
        "\t",
        "\r\n",
        True,
    )


def test_empty_object_file_gets_two_space_indentation(tmp_path: Path) -> None:
    assert _load(tmp_path, "{}\n").style.indent == "  "


def test_single_line_file_gets_two_space_indentation(tmp_path: Path) -> None:
    assert _load(tmp_path, '{"a": {"b": "x"}}').style.indent == "  "


def test_dotted_top_level_keys_without_nesting_mean_flat_keys(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"home.title": "x", "footer": "y", "list": ["z"]}))
    assert document.style.flat_keys


def test_structured_leaves_do_not_count_as_nesting(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"home.title": {"value": "x", "status": "pending"}}))
    assert document.style.flat_keys


def test_a_nested_object_means_nested_keys(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"home.title": "x", "nav": {"home": "y"}}))
    assert not document.style.flat_keys


def test_a_file_without_dotted_keys_is_not_flat(tmp_path: Path) -> None:
    assert not _load(tmp_path, _pretty({"title": "x"})).style.flat_keys


def test_byte_order_mark_is_detected(tmp_path: Path) -> None:
    assert _load(tmp_path, b'\xef\xbb\xbf{"a": "x"}').style.byte_order_mark


# loading


def test_invalid_json_cannot_be_loaded(tmp_path: Path) -> None:
    with pytest.raises(LocaleFileError) as caught:
        _load(tmp_path, '{\n  "a": "x",\n}\n')
    assert caught.value.issue.code == Code.LOCALE_INVALID_JSON
    # The comma is pointed at, not the `}` after it where the parser noticed.
    assert caught.value.issue.message.startswith("locales/fr.json:2:11: trailing comma")


def test_a_top_level_array_cannot_be_loaded(tmp_path: Path) -> None:
    with pytest.raises(LocaleFileError) as caught:
        _load(tmp_path, '["a"]')
    assert caught.value.issue.code == Code.LOCALE_NOT_OBJECT


def test_a_missing_file_cannot_be_loaded(tmp_path: Path) -> None:
    with pytest.raises(LocaleFileError) as caught:
        LocaleDocument.load(tmp_path / "fr.json", "locales/fr.json")
    assert caught.value.issue.code == Code.LOCALE_UNREADABLE


# reading leaves


def test_dotted_and_nested_keys_name_the_same_path(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"home.title": "a", "nav": {"links.home": "b"}}))
    assert (document.get("home.title"), document.get("nav.links.home")) == ("a", "b")


def test_of_a_path_spelled_twice_the_first_in_the_file_is_read(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"home": {"title": "nested"}, "home.title": "dotted"}))
    assert document.get("home.title") == "nested"


def test_array_items_are_read_by_index(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"steps": ["a", {"label": "b"}]}))
    assert (document.get("steps[0]"), document.get("steps[1].label")) == ("a", "b")


def test_spelled_numbers_are_read_as_plain_floats(tmp_path: Path) -> None:
    value = _load(tmp_path, '{"n": 1e3}').get("n")
    assert type(value) is float
    assert msgspec.json.encode(value) == b"1000.0"


def test_a_structured_leaf_is_read_as_a_copy(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"t": {"value": "x", "status": "pending"}}))
    leaf = document.get("t")
    assert leaf == {"value": "x", "status": "pending"}
    assert isinstance(leaf, dict)
    leaf["value"] = "changed"
    assert document.get("t") == {"value": "x", "status": "pending"}


def test_a_namespace_is_not_a_leaf(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"home": {"title": "x"}}))
    assert (document.get("home"), document.has("home")) == (None, False)


def test_has_tells_a_null_leaf_from_a_missing_one(tmp_path: Path) -> None:
    document = _load(tmp_path, '{"empty": null}')
    assert (document.has("empty"), document.has("absent")) == (True, False)


def test_paths_are_in_document_order_each_once(tmp_path: Path) -> None:
    document = _load(
        tmp_path,
        _pretty({"b": "1", "a": {"z": "2", "y": ["3"]}, "a.z": "dup", "s": {"value": "v"}}),
    )
    assert document.paths() == ["b", "a.z", "a.y[0]", "s"]


# setting leaves


def test_setting_an_existing_leaf_keeps_its_place_and_spelling(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"a": "1", "home.title": "old", "z": "2"}))
    document.set("home.title", "new")
    assert document.render().decode() == _pretty({"a": "1", "home.title": "new", "z": "2"})


def test_setting_an_equal_value_leaves_the_document_unedited(tmp_path: Path) -> None:
    compact = b'{"title": "x", "n": 1e3, "t": {"value": "v"}}'
    document = _load(tmp_path, compact)
    document.set("title", "x")
    document.set("n", 1000.0)
    document.set("t", {"value": "v"})
    assert document.render() == compact


def test_a_structured_leaf_set_back_keeps_the_spelling_of_its_numbers(tmp_path: Path) -> None:
    compact = (
        b'{"t": {"value": "old", "confidence": 0.50}, "m": {"string": "s", "character_limit": 1e2}}'
    )
    document = _load(tmp_path, compact)
    for path, field, text in (("t", "value", "new"), ("m", "string", "new s")):
        leaf = document.get(path)
        assert isinstance(leaf, dict)
        document.set(path, {**leaf, field: text})
    written = document.render()
    assert b'"confidence": 0.50' in written and b'"character_limit": 1e2' in written
    assert b'"value": "new"' in written and b'"string": "new s"' in written
    document.set("t", {"value": "new", "confidence": 0.75})  # a changed number is written anew
    assert b'"confidence": 0.75' in document.render()


def test_a_string_standing_where_an_object_is_needed_is_replaced(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"home": "old", "z": "1"}))
    document.set("home.title", "new")
    assert document.render().decode() == _pretty({"home": {"title": "new"}, "z": "1"})


def test_setting_a_namespace_path_replaces_the_namespace(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"home": {"title": "x"}}))
    document.set("home", "flat")
    assert document.render().decode() == _pretty({"home": "flat"})


def test_an_array_item_past_the_end_cannot_be_set(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"steps": ["a"]}))
    with pytest.raises(ValueError, match=r"its array has 1 items, so the next one is \[1\]"):
        document.set("steps[2]", "c")


def test_a_new_array_starts_at_index_zero(tmp_path: Path) -> None:
    document = _load(tmp_path, "{}")
    with pytest.raises(ValueError, match=r"a new array starts at \[0\]"):
        document.set("steps[1]", "b")


@pytest.mark.parametrize(
    ("path", "reached"),
    [
        ("steps[0]", True),  # replaced
        ("steps[1]", True),  # appended
        ("steps[2]", False),  # past the end
        ("steps[1].label", True),
        ("steps[1].items[0]", True),
        ("steps[1].items[1]", False),  # a new array starting past [0]
        ("rows[0]", True),
        ("rows[1]", False),
        ("title", True),
        ("", False),
    ],
)
def test_reaches_says_whether_set_can_place_the_path(
    tmp_path: Path, path: str, reached: bool
) -> None:
    document = _load(tmp_path, _pretty({"steps": ["a"], "title": "t"}))
    assert document.reaches(path) is reached
    if reached:
        document.set(path, "x")
        assert document.get(path) == "x"
    else:
        with pytest.raises(ValueError):
            document.set(path, "x")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), {1: "x"}, {"a"}, ("a",)])
def test_values_json_cannot_hold_are_refused(tmp_path: Path, value: object) -> None:
    document = _load(tmp_path, "{}")
    with pytest.raises((TypeError, ValueError)):
        document.set("a", value)


def test_the_document_root_cannot_be_set(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="root"):
        _load(tmp_path, "{}").set("", "x")


def test_a_value_is_copied_into_the_document(tmp_path: Path) -> None:
    document = _load(tmp_path, "{}")
    leaf: dict[str, object] = {"value": "x"}
    document.set("t", leaf)
    leaf["value"] = "changed"
    assert document.get("t") == {"value": "x"}


def test_a_new_document_in_a_flat_style_writes_flat_keys(tmp_path: Path) -> None:
    style = JsonStyle(indent="    ", newline="\n", final_newline=False, flat_keys=True)
    document = LocaleDocument.new(tmp_path / "fr.json", style)
    document.set("home.title", "x")
    assert document.render() == b'{\n    "home.title": "x"\n}'


def test_a_new_document_nests_by_default(tmp_path: Path) -> None:
    document = LocaleDocument.new(tmp_path / "fr.json")
    document.set("home.title", "x")
    assert document.render().decode() == _pretty({"home": {"title": "x"}})


def test_an_order_list_that_grew_between_calls_is_read_afresh(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"a": "1", "c": "3"}))
    order = ["a", "c"]
    document.set("z", "26", order=order)
    order.insert(1, "b")
    document.set("b", "2", order=order)
    assert document.paths() == ["a", "b", "c", "z"]


def test_an_order_list_reordered_in_place_is_read_afresh(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"a": "1", "c": "3"}))
    order = ["b", "a", "c"]
    document.set("x", "0", order=order)
    order[:] = ["a", "c", "b"]
    document.set("b", "2", order=order)
    assert document.paths() == ["a", "c", "b", "x"]


# deleting leaves


def test_delete_removes_every_spelling_of_a_path(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"a.b": "1", "a": {"b": "2"}, "c": "3"}))
    assert document.delete("a.b")
    assert document.render().decode() == _pretty({"c": "3"})


def test_deleting_a_missing_path_changes_nothing(tmp_path: Path) -> None:
    compact = b'{"a": {"b": "x"}}'
    document = _load(tmp_path, compact)
    assert not document.delete("a.c")
    assert not document.delete("a")
    assert document.render() == compact


def test_deleting_the_last_leaf_leaves_an_empty_object(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"a": {"b": "x"}}))
    document.delete("a.b")
    assert document.render() == b"{}\n"


# rendering


def test_an_unedited_document_renders_its_file_bytes(tmp_path: Path) -> None:
    odd = b'{ "b":"x",\n "a" : [1,2]   }'
    assert _load(tmp_path, odd).render() == odd


def test_an_edit_lays_out_the_whole_file_like_json_dumps(tmp_path: Path) -> None:
    document = _load(tmp_path, b'{"b":"x", "list" : [1,2], "o": {}}')
    document.set("c", "y")
    expected = {"b": "x", "list": [1, 2], "o": {}, "c": "y"}
    assert document.render().decode() == json.dumps(expected, indent=2, ensure_ascii=False)


def test_an_integer_longer_than_int_accepts_survives_an_edit(tmp_path: Path) -> None:
    digits = "9" * 5000
    document = _load(tmp_path, '{\n  "n": ' + digits + "\n}")
    document.set("a", "x")
    assert document.render().decode() == '{\n  "n": ' + digits + ',\n  "a": "x"\n}'


# structured-JSON messages and flat literal keys


def test_structured_json_messages_are_leaves_edited_by_their_string(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty({"a1": {"context": "button", "string": "Save"}}))

    document.set("a1", "Enregistrer")
    document.set("b2", "Annuler")

    assert document.style.message_objects
    assert json.loads(document.render()) == {
        "a1": {"context": "button", "string": "Enregistrer"},
        "b2": {"string": "Annuler"},
    }
    assert document.paths() == ["a1", "b2"]
    assert document.delete("a1") and json.loads(document.render()) == {"b2": {"string": "Annuler"}}


# Lingui catalogs of the `lingui` style

_LINGUI = {
    "VHOVEJ": {
        "message": "Connect wallet",
        "comments": [],
        "origin": [["src/Wallet.tsx", 3]],
        "translation": "Wallet verbinden",
    },
    "wallet.title": {"message": "Wallet", "origin": [], "obsolete": True, "translation": ""},
}


def test_a_lingui_catalog_is_edited_by_the_translation_of_each_entry(tmp_path: Path) -> None:
    document = _load(tmp_path, json.dumps(_LINGUI, indent=4, ensure_ascii=False))

    assert isinstance(document, LinguiCatalogDocument)
    assert document.paths() == ["VHOVEJ", "wallet.title"]
    assert document.get("wallet.title") == "" and document.has("wallet.title")
    assert not document.set("wallet.title", "Geldbörse")
    assert document.set("2e2I/O", "Rakete", order=["VHOVEJ", "2e2I/O", "wallet.title"])

    entries = {**_LINGUI, "wallet.title": {**_LINGUI["wallet.title"], "translation": "Geldbörse"}}
    added = {"comments": [], "origin": [], "translation": "Rakete"}  # the first entry's layout
    expected = {
        "VHOVEJ": entries["VHOVEJ"],
        "2e2I/O": added,
        "wallet.title": entries["wallet.title"],
    }
    assert document.render().decode() == json.dumps(expected, indent=4, ensure_ascii=False)


def test_deleting_a_lingui_entry_removes_all_its_fields(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty(_LINGUI))

    assert document.delete("VHOVEJ") and not document.delete("VHOVEJ")
    assert document.render().decode() == _pretty({"wallet.title": _LINGUI["wallet.title"]})


def test_a_lingui_entry_takes_text_only(tmp_path: Path) -> None:
    document = _load(tmp_path, _pretty(_LINGUI))

    document.set("VHOVEJ", {"value": "Verbinden", "needsReview": True})
    with pytest.raises(TypeError):
        document.set("VHOVEJ", 3)
    assert document.get("VHOVEJ") == "Verbinden"


def test_literal_keys_are_written_flat_whatever_their_dots(tmp_path: Path) -> None:
    path = tmp_path / "en.json"
    path.write_text(_pretty({"Hello.": "Hello.", "nested": {"key": "x"}}))
    document = LocaleDocument.load(path, "en.json", literal_keys=True)

    document.set("Sign out. See you", "Sign out. See you")
    document.set("Item [1]", "Item")

    assert json.loads(document.render()) == {
        "Hello.": "Hello.",
        "nested": {"key": "x"},
        "Sign out. See you": "Sign out. See you",
        "Item [1]": "Item",
    }
    assert document.has("nested.key") and document.delete("Hello.")
