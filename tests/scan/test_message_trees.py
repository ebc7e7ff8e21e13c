"""The shapes read from Vue `<i18n>` blocks (`scan.message_trees`): what a block holds decides
which keys it answers, so each format's constructs are checked on their own."""

from __future__ import annotations

import pytest

from i18nprune.scan.message_trees import json5_tree, yaml_tree

YAML_CASES = [
    ("en:\n  hello: Hello\n", {"en": {"hello": None}}),
    ("'a: b': x\n\"c\": y\n", {"a: b": None, "c": None}),
    ("it''s: x\n", {"it''s": None}),
    ("notes: |\n  one: not a key\n  two\nnext: x\n", {"notes": None, "next": None}),
    ("list:\n  - a\n  - b: c\n    d: e\n", {"list": [None, {"b": None, "d": None}]}),
    ("# a comment\nflow: { a: 1, b: [x, y] }\n", {"flow": {"a": None, "b": [None, None]}}),
    ("long: a plain text\n  that goes on\nafter: x\n", {"long": None, "after": None}),
    ("url: http://example.com\n", {"url": None}),
]


@pytest.mark.parametrize(("text", "expected"), YAML_CASES)
def test_yaml_shapes(text: str, expected: object) -> None:
    assert yaml_tree(text) == expected


JSON5_CASES = [
    ('{ "en": { "hello": "Hi" } }', {"en": {"hello": None}}),
    ("{\n  // a comment\n  en: { 'it\\'s': 'x', },\n}", {"en": {"it's": None}}),
    ("{ /* block */ a: [1, { b: 2 },], }", {"a": [None, {"b": None}]}),
    ('{ "a": "x: {y}", "b": "[z]" }', {"a": None, "b": None}),
]


@pytest.mark.parametrize(("text", "expected"), JSON5_CASES)
def test_json5_shapes(text: str, expected: object) -> None:
    assert json5_tree(text) == expected


def test_a_broken_block_keeps_what_was_read_before_the_fault() -> None:
    assert json5_tree('{ "a": "x", "b" "y" }') == {"a": None}


def _depth(tree: object) -> int:
    depth = 0
    while isinstance(tree, dict) and tree:
        tree = next(iter(tree.values()))
        depth += 1
    return depth


def test_a_block_nested_past_the_bound_is_read_down_to_it() -> None:
    """A hostile block does not exhaust the stack (the file would go unscanned): containers
    past 100 levels are skipped, so the keys inside them stay unanswered (reported missing,
    never removed), and what follows the deep part is still read."""
    deep_json = '{"x":' * 5000 + "1" + "}" * 5000
    tree = json5_tree('{"deep": ' + deep_json + ', "after": "A"}')
    assert isinstance(tree, dict) and "after" in tree
    assert _depth(tree) == 100

    deep_yaml = "".join("  " * level + f"k{level}:\n" for level in range(3000)) + "after: A\n"
    tree = yaml_tree(deep_yaml)
    assert isinstance(tree, dict) and "after" in tree
    assert _depth(tree) == 100
