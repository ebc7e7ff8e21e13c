"""Vue and vue-i18n shapes that are not calls of a translation function: the Translation
component rendered from code (`h(Translation, { keypath })`), templates written as strings
(`template: '<p>{{ $t("a") }}</p>'`), and the messages a component brings itself (SFC `<i18n>`
blocks, `useI18n({ messages })`), which answer its keys."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter

from i18nprune.scan.facts import ComponentMessages
from i18nprune.scan.message_trees import json5_tree, yaml_tree
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


# An SFC custom block starts a line (a vue-i18n 8 `<i18n path>` component sits in the template);
# `<i18n-t>` is another tag.
_I18N_BLOCK = re.compile(rb"^<i18n(?=[\s>])([^>]*)>(.*?)</i18n\s*>", re.DOTALL | re.MULTILINE)
_ATTRIBUTE = re.compile(rb"""([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")
_MESSAGES = b"messages"


def sfc_blocks(content: bytes) -> list[ComponentMessages]:
    """The messages of a single-file component's `<i18n>` blocks (JSON, JSON5 or YAML; with
    `locale`, one locale's, else keyed by locale). A block loaded from a file (`src`) is not
    read."""
    found: list[ComponentMessages] = []
    for match in _I18N_BLOCK.finditer(content):
        attributes = _attributes(match.group(1))
        if "src" in attributes:
            continue
        text = match.group(2).decode("utf-8", "replace")
        lang = attributes.get("lang", "json").lower()
        tree = yaml_tree(text) if lang in ("yaml", "yml") else json5_tree(text)
        shared = "global" in attributes
        locale = attributes.get("locale")
        found.extend(_per_locale(tree, locale, shared))
    return found


def script_messages(root: tree_sitter.Node, document: bytes) -> list[ComponentMessages]:
    """The literal `messages` a component gives itself: `useI18n({ messages: {…} })` and the
    Options API's `i18n: { messages: {…} }`."""
    found: list[ComponentMessages] = []
    position = document.find(_MESSAGES)
    while position >= 0:
        node = root.descendant_for_byte_range(position, position + len(_MESSAGES))
        pair = node.parent if node is not None else None
        value = pair.child_by_field_name("value") if pair is not None else None
        if (
            node is not None
            and node.type == "property_identifier"
            and pair is not None
            and pair.type == "pair"
            and value is not None
            and value.type == "object"
            and _component_options(pair.parent)
        ):
            found.extend(_per_locale(_literal_tree(value), None, False))
        position = document.find(_MESSAGES, position + len(_MESSAGES))
    return found


def _component_options(options: tree_sitter.Node | None) -> bool:
    """Whether the object `options` is `useI18n`'s argument or a component's `i18n` option."""
    if options is None or options.type != "object" or options.parent is None:
        return False
    holder = options.parent
    if holder.type == "pair":
        key = holder.child_by_field_name("key")
        return key is not None and node_text(key) == "i18n"
    if holder.type == "arguments" and holder.parent is not None:
        function = holder.parent.child_by_field_name("function")
        return function is not None and node_text(function) == "useI18n"
    return False


def _per_locale(tree: object, locale: str | None, shared: bool) -> list[ComponentMessages]:
    if locale is not None:
        return [ComponentMessages(locale, sorted(_paths(tree)), shared)]
    if not isinstance(tree, dict):
        return []
    return [
        ComponentMessages(str(code), sorted(_paths(messages)), shared)
        for code, messages in tree.items()
    ]


def _paths(tree: object, head: str = "") -> set[str]:
    found: set[str] = set()
    if isinstance(tree, dict):
        items: list[tuple[str, object]] = [(str(key), value) for key, value in tree.items()]
    elif isinstance(tree, list):
        items = [(str(index), value) for index, value in enumerate(tree)]
    else:
        return found
    for name, value in items:
        path = f"{head}.{name}" if head else name
        found.add(path)
        found |= _paths(value, path)
    return found


def _attributes(text: bytes) -> dict[str, str]:
    found = {}
    for match in _ATTRIBUTE.finditer(text):
        value = match.group(2) or match.group(3) or match.group(4) or b""
        found[match.group(1).decode("ascii", "replace").lower()] = value.decode("utf-8", "replace")
    return found


def _literal_tree(node: tree_sitter.Node) -> object:
    """An object literal's shape: objects as dicts, arrays as lists, anything else a leaf."""
    if node.type == "object":
        tree: dict[str, object] = {}
        for pair in node.named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            value = pair.child_by_field_name("value") if pair.type == "pair" else None
            if key is not None and value is not None:
                name = plain_string(key) if key.type == "string" else node_text(key)
                tree[name or node_text(key)] = _literal_tree(value)
            elif pair.type == "shorthand_property_identifier":
                tree[node_text(pair)] = None
        return tree
    if node.type == "array":
        return [_literal_tree(item) for item in node.named_children if item.type != "comment"]
    return None
