"""The leaf model: which JSON shapes are leaves, of which kind, at which path."""

from i18nprune.locales.leaves import (
    Leaf,
    flatten_leaves,
    is_lingui_catalog,
    is_structured_leaf,
    list_leaves,
)

PLACEHOLDER = "__I18NPRUNE_MISSING__"


def test_nested_strings_are_string_leaves_at_dotted_paths() -> None:
    leaves = flatten_leaves({"home": {"title": "Hello"}}, PLACEHOLDER)
    assert leaves == {"home.title": Leaf("home.title", "string", "Hello")}


def test_a_literal_dotted_key_reads_as_the_same_path() -> None:
    assert flatten_leaves({"home.title": "Hello"}, PLACEHOLDER) == {
        "home.title": Leaf("home.title", "string", "Hello")
    }


def test_array_items_are_indexed() -> None:
    doc = {"steps": [{"label": "One"}, "Two"]}
    assert list(flatten_leaves(doc, PLACEHOLDER)) == ["steps[0].label", "steps[1]"]


def test_a_structured_leaf_is_one_leaf_with_its_value() -> None:
    doc = {"title": {"value": "Bonjour", "status": "reviewed", "confidence": 0.9}}
    assert flatten_leaves(doc, PLACEHOLDER) == {"title": Leaf("title", "structured", "Bonjour")}


def test_a_structured_leaf_carries_needs_translation_again() -> None:
    doc = {"title": {"value": "Bonjour", "needsTranslationAgain": True}}
    assert flatten_leaves(doc, PLACEHOLDER)["title"].needs_translation_again


def test_an_object_with_value_and_another_key_is_a_namespace() -> None:
    doc = {"field": {"value": "Amount", "label": "Label"}}
    assert sorted(flatten_leaves(doc, PLACEHOLDER)) == ["field.label", "field.value"]


def test_an_object_whose_value_is_not_a_string_is_a_namespace() -> None:
    assert not is_structured_leaf({"value": 3})


def test_the_placeholder_sentinel_is_a_placeholder_leaf() -> None:
    assert flatten_leaves({"a": PLACEHOLDER}, PLACEHOLDER)["a"].kind == "placeholder"


def test_a_structured_leaf_holding_the_sentinel_is_a_placeholder_leaf() -> None:
    doc = {"a": {"value": PLACEHOLDER, "status": "pending"}}
    assert flatten_leaves(doc, PLACEHOLDER)["a"].kind == "placeholder"


def test_numbers_booleans_and_null_are_other_leaves() -> None:
    doc = {"n": 3, "x": 1.5, "flag": False, "none": None}
    leaves = flatten_leaves(doc, PLACEHOLDER)
    assert [(leaf.kind, leaf.value) for leaf in leaves.values()] == [
        ("other", 3),
        ("other", 1.5),
        ("other", False),
        ("other", None),
    ]


def test_empty_objects_and_arrays_yield_no_leaves() -> None:
    assert flatten_leaves({"a": {}, "b": [], "c": {"d": {}}}, PLACEHOLDER) == {}


def test_list_leaves_keeps_a_path_spelled_twice_in_document_order() -> None:
    doc = {"a.b": "dotted", "a": {"b": "nested"}}
    assert [leaf.value for leaf in list_leaves(doc, PLACEHOLDER)] == ["dotted", "nested"]


def test_flatten_leaves_keeps_the_first_of_a_path_spelled_twice() -> None:
    doc = {"a.b": "dotted", "a": {"b": "nested"}}
    assert flatten_leaves(doc, PLACEHOLDER)["a.b"].value == "dotted"


def _entry(translation: str, message: str = "Connect wallet") -> dict[str, object]:
    return {
        "message": message,
        "comments": [],
        "origin": [["src/a.tsx", 3]],
        "translation": translation,
    }


def test_a_lingui_catalog_has_one_leaf_per_entry_its_translation() -> None:
    doc = {"VHOVEJ": _entry("Wallet verbinden"), "wallet.title": _entry("Wallet", "Wallet")}
    assert list_leaves(doc, PLACEHOLDER) == [
        Leaf("VHOVEJ", "string", "Wallet verbinden"),
        Leaf("wallet.title", "string", "Wallet"),
    ]


def test_an_untranslated_lingui_entry_is_a_placeholder_in_a_target() -> None:
    assert list_leaves({"VHOVEJ": _entry("")}, PLACEHOLDER) == [Leaf("VHOVEJ", "placeholder", "")]


def test_an_untranslated_lingui_entry_of_the_source_reads_its_message() -> None:
    doc = {"VHOVEJ": _entry(""), "custom.id": {"translation": ""}}
    assert list_leaves(doc, PLACEHOLDER, source=True) == [
        Leaf("VHOVEJ", "string", "Connect wallet"),
        Leaf("custom.id", "placeholder", ""),
    ]


def test_one_entry_shaped_object_beside_other_keys_is_a_namespace() -> None:
    doc = {"settings": {"translation": "Translation", "message": "Message"}, "title": "Hi"}
    assert not is_lingui_catalog(doc)
    assert [leaf.path for leaf in list_leaves(doc, PLACEHOLDER)] == [
        "settings.translation",
        "settings.message",
        "title",
    ]


def test_an_object_with_a_field_lingui_does_not_write_is_no_entry() -> None:
    doc = {"settings": {"translation": "Translation", "language": "Language"}}
    assert not is_lingui_catalog(doc)
    assert not is_lingui_catalog({})
