"""The static value of an expression node through the constants visible in its scope
(strings, templates, `+`, conditionals, `as const` objects, enums, destructuring) and the local
variables whose every assignment it can see.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import tree_sitter

from i18nprune.scan.assignments import assigned_values
from i18nprune.scan.expressions import (
    OPAQUE,
    Branches,
    Expr,
    Imported,
    Opaque,
    Record,
    Text,
    concatenate,
    select,
)
from i18nprune.scan.scopes import DeclarationIndex, named_child, plain_string
from i18nprune.syntax_tree import node_text

_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")
_SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "0": "\0",
    "\n": "",
    "\r": "",
    "\r\n": "",
    "\u2028": "",
    "\u2029": "",
}
_TRANSPARENT = frozenset(
    {"parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression"}
)
_DECIMAL = re.compile(r"[0-9]+")
# Calls whose value is their argument, as far as keys are concerned.
_IDENTITY_CALLS = frozenset({"Object.freeze", "defineMessages", "defineMessage"})


def decode_escapes(text: str) -> str:
    """Decode JavaScript string escapes (`\\n`, `\\u00e9`, `\\u{1F600}`, `\\x41`, `\\'`…)."""
    decoded = _ESCAPE.sub(_decode_escape, text)
    # `\ud83d\ude00` decodes to two surrogates; join them, and replace any that stand alone.
    return decoded.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _decode_escape(match: re.Match[str]) -> str:
    body = match.group(1)
    if body in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[body]
    if body.startswith("u{"):
        code = int(body[2:-1], 16)
        return chr(code) if code <= 0x10FFFF else "\ufffd"
    if body[0] in "ux" and len(body) > 1:
        return chr(int(body[1:], 16))
    return body


def string_value(node: tree_sitter.Node, source: bytes | None = None) -> str:
    """The decoded value of a `string` node (JSX attribute strings decode HTML entities).

    `source` is the text the node's offsets index into, when that is not the parsed document
    (the document may have been repaired for the parser).
    """
    raw = _text(node, source)
    if len(raw) >= 2 and "\\" not in raw and "&" not in raw:
        return raw[1:-1]
    parts = []
    for child in node.named_children:
        text = _text(child, source)
        if child.type == "escape_sequence":
            parts.append(decode_escapes(text))
        elif child.type == "html_character_reference":
            parts.append(html.unescape(text))
        else:
            parts.append(text)
    return "".join(parts)


def _text(node: tree_sitter.Node, source: bytes | None) -> str:
    if source is None:
        return node_text(node)
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def prefixed_messages(prefix: str, messages: Expr) -> Expr:
    """The descriptors of `defineMessages('prefix', { key: 'Default' })`, a helper some
    react-intl apps write: `{ key: { id: 'prefix.key', defaultMessage: 'Default' } }`."""
    if not isinstance(messages, Record):
        return OPAQUE
    return Record(
        {
            key: Record({"id": Text(f"{prefix}.{key}"), "defaultMessage": default})
            for key, default in messages.fields.items()
        }
    )


class Evaluator:
    """Evaluates expression nodes of one syntax tree, remembering the constants it evaluated.

    `source` is the file text the tree's offsets index into, when the parsed document differs
    from it (strings are read from the file as written).
    """

    def __init__(self, source: bytes | None = None) -> None:
        self._source = source
        self._index = DeclarationIndex()
        self._values: dict[int, Expr] = {}
        self._evaluating: set[int] = set()

    def value_of(self, node: tree_sitter.Node) -> Expr:
        """The static value of `node`; `Opaque` for anything that needs running the code."""
        kind = node.type
        if kind == "string":
            return Text(string_value(node, self._source))
        if kind == "template_string":
            return self._template(node)
        if kind in _TRANSPARENT:
            inner = named_child(node, 0)
            return self.value_of(inner) if inner is not None else OPAQUE
        if kind == "identifier":
            return self.binding_value(node_text(node), node)
        if kind == "binary_expression":
            return self._binary(node)
        if kind == "ternary_expression":
            consequence = node.child_by_field_name("consequence")
            alternative = node.child_by_field_name("alternative")
            if consequence is None or alternative is None:
                return OPAQUE
            return Branches([self.value_of(consequence), self.value_of(alternative)])
        if kind == "member_expression":
            return self._member(node)
        if kind == "subscript_expression":
            return self._subscript(node)
        if kind == "object":
            return self._object(node)
        if kind == "number":
            text = node_text(node)
            return Text(text) if _DECIMAL.fullmatch(text) else OPAQUE
        if kind == "call_expression":
            return self._frozen(node)
        return OPAQUE

    def is_local(self, name: str, reference: tree_sitter.Node) -> bool:
        """Whether `name` at `reference` is declared in the file other than by an import (a
        parameter, a destructured prop, a local variable)."""
        declaration = self._index.lookup(name, reference)
        return declaration is not None and declaration.kind not in ("import", "package")

    def import_source(self, name: str, reference: tree_sitter.Node) -> str | None:
        """The module `name` at `reference` is imported from (`i18next`, `./i18n`), if it is."""
        declaration = self._index.lookup(name, reference)
        if declaration is None or declaration.kind not in ("import", "package"):
            return None
        return declaration.source

    def binding_value(self, name: str, reference: tree_sitter.Node) -> Expr:
        """The value of the binding of `name` visible from the node `reference`."""
        declaration = self._index.lookup(name, reference)
        if declaration is None:
            return OPAQUE
        if declaration.kind == "import":
            return Imported(declaration.source, declaration.imported)
        if declaration.node is None:
            return OPAQUE
        if declaration.kind == "enum":
            return self._memoized(declaration.node, self.enum_value)
        if declaration.kind == "variable":
            return self._memoized(declaration.node, self._variable_value)
        if declaration.kind not in ("const", "destructured"):
            return OPAQUE
        value = self._memoized(declaration.node, self._initializer_value)
        for key in declaration.path:
            value = select(value, key)
        return value

    def enum_value(self, declaration: tree_sitter.Node) -> Expr:
        """The members of a TypeScript enum that have string (or decimal) initializers."""
        fields: dict[str, Expr] = {}
        body = declaration.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type != "enum_assignment":
                continue
            name_node = member.child_by_field_name("name")
            value_node = member.child_by_field_name("value")
            if name_node is None or value_node is None:
                continue
            name = plain_string(name_node) or node_text(name_node)
            value = self.value_of(value_node)
            if not isinstance(value, Opaque):
                fields[name] = value
        return Record(fields)

    def _memoized(
        self,
        node: tree_sitter.Node,
        compute: Callable[[tree_sitter.Node], Expr],
    ) -> Expr:
        key = node.id
        cached = self._values.get(key)
        if cached is not None:
            return cached
        if key in self._evaluating:  # `const a = b; const b = a;` — a cycle has no value
            return OPAQUE
        self._evaluating.add(key)
        try:
            value = compute(node)
        finally:
            self._evaluating.discard(key)
        self._values[key] = value
        return value

    def _initializer_value(self, declarator: tree_sitter.Node) -> Expr:
        value = declarator.child_by_field_name("value")
        return self.value_of(value) if value is not None else OPAQUE

    def _variable_value(self, declarator: tree_sitter.Node) -> Expr:
        """A `let` or `var` is one of the values it is assigned (`assigned_values`); a value
        that reads the variable itself (`x = x + 'a'`) is unknown where it does."""
        assigned = assigned_values(declarator, self._index.lookup)
        if assigned is None:
            return OPAQUE
        values = [self.value_of(node) for node in assigned]
        return values[0] if len(values) == 1 else Branches(values)

    def _template(self, node: tree_sitter.Node) -> Expr:
        raw = _text(node, self._source)
        if "${" not in raw and "\\" not in raw:
            return Text(raw[1:-1])
        parts: list[Expr] = []
        for child in node.named_children:
            if child.type == "template_substitution":
                inner = named_child(child, 0)
                parts.append(self.value_of(inner) if inner is not None else OPAQUE)
            elif child.type == "escape_sequence":
                parts.append(Text(decode_escapes(_text(child, self._source))))
            elif child.type == "string_fragment":
                parts.append(Text(_text(child, self._source)))
        return concatenate(parts, template=True)

    def _binary(self, node: tree_sitter.Node) -> Expr:
        operator = node.child_by_field_name("operator")
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if operator is None or left is None or right is None:
            return OPAQUE
        if operator.type == "+":
            # Walk a long `a + b + c + …` chain (nested on the left) without recursing.
            operands: list[tree_sitter.Node | None] = [right]
            while left is not None and left.type == "binary_expression":
                operator = left.child_by_field_name("operator")
                if operator is None or operator.type != "+":
                    break
                operands.append(left.child_by_field_name("right"))
                left = left.child_by_field_name("left")
            operands.append(left)
            values = [self.value_of(operand) if operand else OPAQUE for operand in operands]
            return concatenate(values[::-1], template=False)
        if operator.type in ("||", "??"):
            return Branches([self.value_of(left), self.value_of(right)])
        return OPAQUE

    def _member(self, node: tree_sitter.Node) -> Expr:
        target = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if target is None or prop is None or prop.type != "property_identifier":
            return OPAQUE
        return select(self.value_of(target), node_text(prop))

    def _subscript(self, node: tree_sitter.Node) -> Expr:
        target = node.child_by_field_name("object")
        index = node.child_by_field_name("index")
        if target is None or index is None:
            return OPAQUE
        key = self.value_of(index)
        if not isinstance(key, Text):
            return OPAQUE
        return select(self.value_of(target), key.value)

    def _object(self, node: tree_sitter.Node) -> Expr:
        fields: dict[str, Expr] = {}
        for child in node.named_children:
            key: str | None = None
            value: Expr = OPAQUE
            if child.type == "pair":
                key_node = child.child_by_field_name("key")
                value_node = child.child_by_field_name("value")
                if key_node is None or value_node is None:
                    continue
                key = self._property_name(key_node)
                value = self.value_of(value_node)
            elif child.type == "shorthand_property_identifier":
                key = node_text(child)
                value = self.binding_value(key, child)
            elif child.type == "spread_element":
                spread = named_child(child, 0)
                spread_value = self.value_of(spread) if spread is not None else OPAQUE
                if isinstance(spread_value, Record):
                    fields.update(spread_value.fields)
                continue
            if key is not None and not isinstance(value, Opaque):
                fields[key] = value
        return Record(fields)

    def _property_name(self, node: tree_sitter.Node) -> str | None:
        if node.type in ("property_identifier", "number"):
            return node_text(node)
        if node.type == "string":
            return string_value(node, self._source)
        if node.type == "computed_property_name":
            inner = named_child(node, 0)
            value = self.value_of(inner) if inner is not None else OPAQUE
            return value.value if isinstance(value, Text) else None
        return None

    def _frozen(self, node: tree_sitter.Node) -> Expr:
        """`Object.freeze(x)`, FormatJS `defineMessages(x)` and `defineMessage(x)` are `x`, and
        the prefixed form `defineMessages('prefix', { key: 'Default' })` is the descriptors it
        builds; any other call is opaque."""
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None or node_text(function) not in _IDENTITY_CALLS:
            return OPAQUE
        first, second = named_child(arguments, 0), named_child(arguments, 1)
        if first is None:
            return OPAQUE
        value = self.value_of(first)
        if second is not None and isinstance(value, Text):
            return prefixed_messages(value.value, self.value_of(second))
        return value
