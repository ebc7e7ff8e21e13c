"""How a message's text names keys: i18next nesting as i18next's `nest` reads it, and vue-i18n
links as vue-i18n 9+ (`readLinkedRefer`) and vue-i18n 8 (`linkKeyMatcher`) read them."""

from __future__ import annotations

import pytest

from i18nprune.locales.named_keys import NamedKey, named_keys

NESTING = [
    ("Welcome to $t(brand.name)", [NamedKey(("brand.name",), linked=False)]),
    ('$t(cart.items, {"count": {{count}} })', [NamedKey(("cart.items",), linked=False)]),
    ("$t(common:save)", [NamedKey(("common:save",), linked=False)]),
    ("$t( spaced )", [NamedKey(("spaced",), linked=False)]),
    ("$t(name, uppercase)", [NamedKey(("name",), linked=False)]),
    (
        "$t(friend, {'context': 'male', 'ns': 'people'})",
        [NamedKey(("friend",), linked=False, context="male", namespace="people")],
    ),
    (
        '$t(friend, {"context": "{{gender}}", "ns": {{space}} })',
        [NamedKey(("friend",), linked=False, context="*", namespace="*")],
    ),
    ("$t(status.{{code}})", [NamedKey(("status.",), linked=False, dynamic=True)]),
    ("$t(a (b) c)", [NamedKey(("a (b) c",), linked=False)]),
    ("$t(unclosed", []),
    ("$t(it's)", []),
    ("$t()", []),
    ("no nesting at all: t(a)", []),
]

LINKS = [
    ("@:common.save", [NamedKey(("common.save",), linked=True)]),
    ("@.lower:common.save", [NamedKey(("common.save",), linked=True)]),
    ("@.snake_case2:a.b", [NamedKey(("a.b",), linked=True)]),
    ("@:a.b @:c", [NamedKey(("a.b",), linked=True), NamedKey(("c",), linked=True)]),
    # vue-i18n 9+ reads on to a space, `{`, `@`, `|` or a parenthesis; 8 only word characters,
    # `-`, `|`, `.` and `/`.
    ("@:a.b!", [NamedKey(("a.b!", "a.b"), linked=True)]),
    ("@:a.b.", [NamedKey(("a.b.", "a.b"), linked=True)]),
    ("@:a.b|c", [NamedKey(("a.b", "a.b|c"), linked=True)]),
    ("@:{'any key!'}", [NamedKey(("any key!",), linked=True)]),
    ("@:{ 'it\\'s' }", [NamedKey(("it's",), linked=True)]),
    ("@:(a.b)", [NamedKey(("a.b",), linked=True)]),
    ("@:{name}", [NamedKey(("",), linked=True, dynamic=True)]),
    ("@: nothing", []),
    ("support@example.com, {'@'}home", []),
]


@pytest.mark.parametrize(("text", "keys"), NESTING + LINKS, ids=[t for t, _ in NESTING + LINKS])
def test_message_names_these_keys(text: str, keys: list[NamedKey]) -> None:
    assert named_keys(text) == keys
