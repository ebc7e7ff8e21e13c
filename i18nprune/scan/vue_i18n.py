"""Vue and vue-i18n shapes that are not calls of a translation function: the Translation
component rendered from code (`h(Translation, { keypath })`) and templates written as strings
(`template: '<p>{{ $t("a") }}</p>'`)."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter

from i18nprune.scan.scopes import named_child, plain_string
from i18nprune.syntax_tree import node_text

# What a render function passes as vue-i18n's Translation component: its exported names, and
# the tag a template gives it.
_TRANSLATION_COMPONENTS = frozenset({"Translation", "I18nT", "i18n-t"})
_KEYPATH = b"keypath"


def translation_vnode_keys(root: tree_sitter.Node, document: bytes) -> Iterator[tree_sitter.Node]:
    """The `keypath: …` properties of the props objects given to vue-i18n's Translation
    component by `h(Translation, { keypath: 'k' })` (also `createVNode`, `resolveComponent
    ('i18n-t')` and the like: any call whose first argument names the component)."""
    position = document.find(_KEYPATH)
    while position >= 0:
        node = root.descendant_for_byte_range(position, position + len(_KEYPATH))
        pair = node.parent if node is not None else None
        if pair is not None and pair.type == "pair" and _is_translation_props(pair.parent):
            yield pair
        position = document.find(_KEYPATH, position + len(_KEYPATH))


def _is_translation_props(props: tree_sitter.Node | None) -> bool:
    if props is None or props.type != "object" or props.parent is None:
        return False
    arguments = props.parent
    if arguments.type != "arguments" or named_child(arguments, 1) != props:
        return False
    component = named_child(arguments, 0)
    if component is None:
        return False
    if component.type == "call_expression":  # resolveComponent('i18n-t')
        inner = component.child_by_field_name("arguments")
        component = named_child(inner, 0) if inner is not None else None
        if component is None:
            return False
    name = plain_string(component) if component.type == "string" else node_text(component)
    return name in _TRANSLATION_COMPONENTS


_TEMPLATE = b"template"


def template_strings(root: tree_sitter.Node, document: bytes) -> list[tuple[int, int]]:
    """The inside of each string given as a component's `template` option
    (`defineComponent({ template: '<p>…</p>' })`, `{ template: `…` }`) that holds markup."""
    ranges = []
    position = document.find(_TEMPLATE)
    while position >= 0:
        node = root.descendant_for_byte_range(position, position + len(_TEMPLATE))
        pair = node.parent if node is not None else None
        if node is not None and node.type == "property_identifier" and pair is not None:
            value = pair.child_by_field_name("value") if pair.type == "pair" else None
            if (
                pair.child_by_field_name("key") == node
                and value is not None
                and value.type in ("string", "template_string")
                and b"<" in document[value.start_byte : value.end_byte]
            ):
                ranges.append((value.start_byte + 1, value.end_byte - 1))
        position = document.find(_TEMPLATE, position + len(_TEMPLATE))
    return ranges
