"""Where translation names are used: found by a word search in the text, then identified by
the syntax node at each hit — far cheaper than visiting every node of the tree.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import tree_sitter

_CALLEE_WRAPPERS = frozenset({"non_null_expression", "parenthesized_expression"})
# next-intl's methods of a translation function (`t.rich('k', …)`).
_RICH_METHODS = frozenset({b"rich", b"markup", b"raw", b"has"})


@functools.cache
def _word(name: str) -> re.Pattern[bytes]:
    # Starting with the literal keeps `re` on its fast path; the lookbehind then checks that
    # the match starts a word.
    escaped = re.escape(name.encode())
    return re.compile(escaped + rb"(?<![\w$]" + escaped + rb")(?![\w$])")


class NameUses:
    """The syntax nodes around occurrences of translation names in one document.

    `calls` are call expressions whose callee ends with a name (or calls one of its next-intl
    methods, `t.rich(…)`); `aliases` are declarators that copy a name (`const tt = t`,
    `= i18n.t`, `= t.bind(i18n)`); `renames` are `{ t: tx }` patterns and `import { t as tx }`
    specifiers; `factories` are declarators initialised by a call to a factory name
    (`const { t } = useTranslation()`), `called_factories` factory calls whose result is called
    at once (`useTranslations('nav')('home')`), as (factory, inner call, outer call); `callees`
    are the calls of other names by name;
    `attributes` are JSX attributes with a key-attribute name; `elements` are JSX elements
    with an element name; `commented` are byte offsets of `name(` inside comments.
    """

    def __init__(self, document: bytes, root: tree_sitter.Node) -> None:
        self._document = document
        self._root = root
        self.calls: list[tree_sitter.Node] = []
        self.aliases: list[tree_sitter.Node] = []
        self.renames: list[tree_sitter.Node] = []
        self.factories: list[tree_sitter.Node] = []
        self.called_factories: list[tuple[str, tree_sitter.Node, tree_sitter.Node]] = []
        self.callees: dict[str, list[tree_sitter.Node]] = {}
        self.attributes: list[tree_sitter.Node] = []
        self.elements: list[tree_sitter.Node] = []
        self.commented: list[int] = []

    def _nodes(self, name: str) -> Iterable[tuple[int, tree_sitter.Node]]:
        if name.encode() not in self._document:  # most names are absent: a faster search
            return
        for match in _word(name).finditer(self._document):
            node = self._root.descendant_for_byte_range(match.start(), match.end())
            if node is not None:
                yield match.start(), node

    def add_translator_name(self, name: str) -> None:
        """Record calls, aliases, renames and commented calls of the translation name `name`."""
        for start, node in self._nodes(name):
            kind = node.type
            if kind == "comment":
                if self._document[start + len(name) : start + len(name) + 1] == b"(":
                    self.commented.append(start)
            elif kind == "identifier":
                self._identifier_use(node)
            elif kind == "property_identifier":
                self._property_use(node)

    def add_factory_name(self, name: str) -> None:
        """Record declarators whose value is a call of the factory `name` (maybe awaited)."""
        for _, node in self._nodes(name):
            callee = node.parent if node.type == "property_identifier" else node
            call = _called_through(callee, callee.parent) if callee is not None else None
            if call is None:
                continue
            owner = call.parent
            result = call
            if owner is not None and owner.type == "await_expression":
                result, owner = owner, owner.parent
            if owner is not None and owner.type == "variable_declarator":
                self.factories.append(owner)
            elif owner is not None:
                outer = _called_through(result, owner)
                if outer is not None:
                    self.called_factories.append((name, call, outer))

    def add_callee_name(self, name: str) -> None:
        """Record the calls of `name` (a bare name or the last member of a path)."""
        for _, node in self._nodes(name):
            callee = node.parent if node.type == "property_identifier" else node
            call = _called_through(callee, callee.parent) if callee is not None else None
            if call is not None:
                self.callees.setdefault(name, []).append(call)

    def add_element_name(self, name: str) -> None:
        """Record JSX elements (with children, or self-closing) whose tag is `name`."""
        for _, node in self._nodes(name):
            tag = node.parent
            if node.type != "identifier" or tag is None or not _is_field(tag, "name", node):
                continue
            if tag.type == "jsx_self_closing_element":
                self.elements.append(tag)
            elif tag.type == "jsx_opening_element" and tag.parent is not None:
                self.elements.append(tag.parent)

    def add_attribute_name(self, name: str) -> None:
        """Record JSX attributes called `name`."""
        for _, node in self._nodes(name):
            parent = node.parent
            if node.type == "property_identifier" and parent and parent.type == "jsx_attribute":
                self.attributes.append(parent)

    def _identifier_use(self, node: tree_sitter.Node) -> None:
        parent = node.parent
        if parent is None:
            return
        kind = parent.type
        if kind == "import_specifier":
            if parent.child_by_field_name("alias") is not None and _is_field(parent, "name", node):
                self.renames.append(parent)
            return
        if kind == "variable_declarator" and _is_field(parent, "value", node):
            self.aliases.append(parent)
            return
        self._callee_use(node, parent)

    def _property_use(self, node: tree_sitter.Node) -> None:
        parent = node.parent
        if parent is None:
            return
        if parent.type == "pair_pattern" and _is_field(parent, "key", node):
            self.renames.append(parent)
        elif parent.type == "member_expression" and _is_field(parent, "property", node):
            owner = parent.parent
            if owner is not None and owner.type == "variable_declarator":
                if _is_field(owner, "value", parent):
                    self.aliases.append(owner)
                return
            self._callee_use(parent, owner)

    def _callee_use(self, callee: tree_sitter.Node, parent: tree_sitter.Node | None) -> None:
        """`callee` is a name or member path and `parent` its parent: record the call it makes,
        a call of one of its next-intl methods (`t.rich(…)`), or its `.bind` alias."""
        call = _called_through(callee, parent)
        if call is not None:
            self.calls.append(call)
            return
        if parent is None or parent.type != "member_expression":
            return
        prop = parent.child_by_field_name("property")
        if prop is None or not _is_field(parent, "object", callee):
            return
        if prop.text in _RICH_METHODS:
            method_call = _called_through(parent, parent.parent)
            if method_call is not None:
                self.calls.append(method_call)
            return
        if prop.text != b"bind":
            return
        bind_call = _called_through(parent, parent.parent)
        owner = bind_call.parent if bind_call is not None else None
        if owner is not None and owner.type == "variable_declarator":
            self.aliases.append(owner)


def _called_through(
    callee: tree_sitter.Node, parent: tree_sitter.Node | None
) -> tree_sitter.Node | None:
    """The call expression whose function is `callee` (through `!` and parentheses), given
    `callee`'s parent (each `.parent` is a walk down from the root in tree-sitter)."""
    node = callee
    while parent is not None and parent.type in _CALLEE_WRAPPERS:
        node, parent = parent, parent.parent
    if parent is None or parent.type != "call_expression":
        return None
    return parent if _is_field(parent, "function", node) else None


def _is_field(parent: tree_sitter.Node, field: str, child: tree_sitter.Node) -> bool:
    found = parent.child_by_field_name(field)
    return found is not None and found.id == child.id
