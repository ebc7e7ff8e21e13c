"""The leaf model: which JSON shapes are leaves, of which kind, at which path."""

from i18nprune.locales.leaves import Leaf, flatten_leaves, is_structured_leaf, list_leaves

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
