"""The static value of an expression node through the constants visible in its scope
(strings, templates, `+`, conditionals, `as const` objects, enums, destructuring), the local
variables whose every assignment it can see, and the object a function returns.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import tree_sitter

from i18nprune.scan.assignments import assigned_values
from i18nprune.scan.expressions import (
    OPAQUE,
    WHOLE_FILE,
    AutoId,
    Branches,
    Called,
    Expr,
    Imported,
    Member,
    Messages,
    Opaque,
    Record,
    Returns,
    Selector,
    Text,
    computed_member,
    concatenate,
    select,
)
from i18nprune.scan.messages import (
    MESSAGES_METHODS,
    NEXT_INTL_GETTERS,
    NEXT_INTL_MODULES,
    names_locale_file,
)
from i18nprune.scan.scopes import FUNCTIONS, DeclarationIndex, named_child, plain_string
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
    {
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "await_expression",
    }
)
_DECIMAL = re.compile(r"[0-9]+")
_RETURN = re.compile(rb"(?<![\w$])return(?![\w$])")
# Functions whose calls return what their body returns (a generator returns an iterator).
_PLAIN_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
# What may wrap the object literal a function returns (`({ … })`, `{ … } as const`).
_OBJECT_WRAPPERS = frozenset(
    {"parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression"}
)
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
        if kind == "arrow_function":
            path = selector_path(node)
            if path is not None:
                return Selector(
                    [
                        Text(node_text(part))
                        if part.type == "property_identifier"
                        else self.value_of(part)
                        for part in path
                    ]
                )
        if kind in _PLAIN_FUNCTIONS:
            return self.function_value(node)
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

    def imported_as(self, name: str, reference: tree_sitter.Node, imported: str) -> str | None:
        """The module `name` at `reference` is imported from as `{ imported }` (a named
        import, perhaps renamed), if it is."""
        declaration = self._index.lookup(name, reference)
        if declaration is None or declaration.kind not in ("import", "package"):
            return None
        return declaration.source if declaration.imported == imported else None

    def binding_value(self, name: str, reference: tree_sitter.Node) -> Expr:
        """The value of the binding of `name` visible from the node `reference`."""
        declaration = self._index.lookup(name, reference)
        if declaration is None:
            return OPAQUE
        if (
            declaration.kind in ("import", "package")
            and declaration.imported in ("default", "*")
            and names_locale_file(declaration.source)
        ):
            return Messages(WHOLE_FILE)  # `import en from '../locales/en.json'`
        if declaration.kind in ("import", "package"):
            # A package's value is unknown, unless the project maps its name to its own files
            # (`@/i18n/keys`): linking decides (see `scan.aliases`).
            return Imported(declaration.source, declaration.imported)
        if declaration.node is None:
            return OPAQUE
        if declaration.kind == "enum":
            return self._memoized(declaration.node, self.enum_value)
        if declaration.kind == "variable":
            return self._memoized(declaration.node, self._variable_value)
        if declaration.kind == "function":
            return self.function_value(declaration.node)
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

    def function_value(self, function: tree_sitter.Node) -> Expr:
        """The value of a (non-generator) function: `Returns` of the object literal every call
        of it returns — an arrow whose body is one (`() => ({ labels })`), or a body whose only
        `return` is its last statement and returns one (`return { t, labels, messages };`).
        Anything else, or an object with no known field, is opaque: a function that may return
        something else is not read as returning this."""
        return self._memoized(function, self._function_value)

    def _function_value(self, function: tree_sitter.Node) -> Expr:
        body = function.child_by_field_name("body")
        if body is None:
            return OPAQUE
        returned: tree_sitter.Node | None = body
        last = None
        if body.type == "statement_block":
            last = _last_statement(body)
            if last is None or last.type != "return_statement":
                return OPAQUE
            returned = named_child(last, 0)
        while returned is not None and returned.type in _OBJECT_WRAPPERS:
            returned = named_child(returned, 0)
        if returned is None or returned.type != "object":
            return OPAQUE
        # Only now the search of the body for another `return` (most functions, components
        # returning JSX among them, were settled above without it).
        if last is not None and _returns_elsewhere(function, body, last):
            return OPAQUE
        value = self.value_of(returned)
        if not isinstance(value, Record) or not value.fields:
            return OPAQUE
        return Returns(value)

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
        if isinstance(key, Text):
            return select(self.value_of(target), key.value)
        if isinstance(key, Branches) and all(isinstance(o, Text) for o in key.options):
            # `messages[ok ? 'saved' : 'failed']`: one of the properties.
            value = self.value_of(target)
            return Branches([select(value, o.value) for o in key.options if isinstance(o, Text)])
        return computed_member(self.value_of(target))

    def _object(self, node: tree_sitter.Node) -> Expr:
        members = [child for child in node.named_children if child.type != "comment"]
        if len(members) == 1 and members[0].type == "spread_element":
            # `{ ...messages.save }`: a copy has the fields of what it copies, wherever that is.
            spread = named_child(members[0], 0)
            return self.value_of(spread) if spread is not None else OPAQUE
        fields: dict[str, Expr] = {}
        for child in members:
            key: str | None = None
            value: Expr = OPAQUE
            if child.type == "pair":
                key_node = child.child_by_field_name("key")
                value_node = child.child_by_field_name("value")
                if key_node is None or value_node is None:
                    continue
                key = self.property_name(key_node)
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

    def property_name(self, node: tree_sitter.Node) -> str | None:
        """The name a property key node gives its property, if it is known."""
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
        """`Object.freeze(x)` and FormatJS `defineMessage(x)` are `x`, `defineMessages(x)` the
        messages it defines (see `defined_messages`), and the prefixed form `f('prefix', {…})`
        is the descriptors it builds; a call that returns a locale's messages is `Messages`
        (see `_messages_call`); any other call is opaque."""
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None:
            return OPAQUE
        if node_text(function) == "defineMessages":
            return self.defined_messages(node)
        if _last_name(function) == "keyFromSelector":  # i18next's key of a selector
            selector = named_child(arguments, 0)
            return self.value_of(selector) if selector is not None else OPAQUE
        if node_text(function) not in _IDENTITY_CALLS:
            value = self._messages_call(function, arguments)
            return self._returned(function) if isinstance(value, Opaque) else value
        first, second = named_child(arguments, 0), named_child(arguments, 1)
        if first is None:
            return OPAQUE
        value = self.value_of(first)
        if second is not None and isinstance(value, Text):
            return prefixed_messages(value.value, self.value_of(second))
        return value

    def _messages_call(self, function: tree_sitter.Node, arguments: tree_sitter.Node) -> Expr:
        """The messages a call returns: a library's getter (next-intl's `useMessages()`,
        `i18n.getResourceBundle(lng, ns)`), a call given a locale file's name
        (`readI18nFile('en.json')`, `require('./en.json')`), or a helper given messages
        (`buildPaths(en)`, which the code then reads as it would read them); else opaque."""
        name = node_text(function.child_by_field_name("property") or function)
        if name in MESSAGES_METHODS or (
            function.type == "identifier"
            and name in NEXT_INTL_GETTERS
            and self.imported_as(name, function, name) in NEXT_INTL_MODULES
        ):
            return Messages("")
        first = named_child(arguments, 0)
        if first is None:
            return OPAQUE
        if first.type == "string" and names_locale_file(string_value(first, self._source)):
            return Messages(WHOLE_FILE)
        if first.type in ("identifier", "member_expression", *_TRANSPARENT):
            value = self.value_of(first)
            if isinstance(value, Messages):
                return value
        return OPAQUE

    def _returned(self, function: tree_sitter.Node) -> Expr:
        """What a call of `function` returns: the object a function of this file returns (see
        `function_value`), or, for a function imported from another file (or a property of
        something imported), what linking finds there (`Called`); else opaque."""
        if function.type not in ("identifier", "member_expression"):
            return OPAQUE
        callee = self.value_of(function)
        if isinstance(callee, Returns):
            return callee.value
        if isinstance(callee, Imported | Member):
            return Called(callee)
        return OPAQUE

    def defined_messages(self, call: tree_sitter.Node) -> Expr:
        """The descriptors `defineMessages(…)` defines: its argument, or those the prefixed
        form `defineMessages('prefix', { key: 'Default' })` builds.

        A message without an `id` gets the `AutoId` babel-plugin-react-intl-auto would give
        it, when the call is one the plugin rewrites (`defineMessages` imported by that name,
        called with an object literal of plain properties, or a constant bound to one): a
        string becomes `{ id, defaultMessage }`. Without the plugin the id is unknown, as the
        message's own value would say.
        """
        arguments = call.child_by_field_name("arguments")
        first = named_child(arguments, 0) if arguments is not None else None
        if first is None:
            return OPAQUE
        value = self.value_of(first)
        second = named_child(arguments, 1) if arguments is not None else None
        if second is not None and isinstance(value, Text):
            return prefixed_messages(value.value, self.value_of(second))
        function = call.child_by_field_name("function")
        module = None
        if function is not None and function.type == "identifier":
            module = self.imported_as(node_text(function), function, "defineMessages")
        literal = self.object_literal(first) if module is not None else None
        if module is None or literal is None or not isinstance(value, Record):
            return value
        if not plain_object(literal):
            return value  # the plugin leaves a call with spreads or methods alone
        properties = [child for child in literal.named_children if child.type != "comment"]
        export, default_export = _enclosing_export(call)
        fields = dict(value.fields)
        for prop in properties:
            field, name, value_node = self._message_property(prop)
            if field is None or name is None:
                continue
            descriptor = self._with_auto_id(
                fields.get(field, OPAQUE), value_node, name, export, default_export, module
            )
            if descriptor is not None:
                fields[field] = descriptor
        return Record(fields)

    def object_literal(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """`node` when it is an object literal, or the literal a `const` it names is bound to."""
        if node.type == "object":
            return node
        if node.type != "identifier":
            return None
        declaration = self._index.lookup(node_text(node), node)
        if declaration is None or declaration.kind != "const" or declaration.node is None:
            return None
        value = declaration.node.child_by_field_name("value")
        return value if value is not None and value.type == "object" else None

    def _message_property(
        self, prop: tree_sitter.Node
    ) -> tuple[str | None, str | None, tree_sitter.Node | None]:
        """A property of `defineMessages({…})`: its name in the object, the name the plugin
        gives the message (a computed `[KEY]` is named `KEY`), and its value node (`None` for
        shorthand `{ save }`)."""
        if prop.type == "shorthand_property_identifier":
            return node_text(prop), node_text(prop), None
        key = prop.child_by_field_name("key")
        if key is None:
            return None, None, None
        field = self.property_name(key)
        name: str | None = None
        if key.type == "property_identifier":
            name = node_text(key)
        elif key.type == "string":
            name = string_value(key, self._source)
        elif key.type == "computed_property_name":
            inner = named_child(key, 0)
            if inner is not None and inner.type == "identifier":
                name = node_text(inner)
            elif inner is not None and inner.type == "string":
                name = string_value(inner, self._source)
        return field, name, prop.child_by_field_name("value")

    def _with_auto_id(
        self,
        descriptor: Expr,
        value_node: tree_sitter.Node | None,
        name: str,
        export: str | None,
        default_export: bool,
        module: str,
    ) -> Expr | None:
        """The message the plugin makes of one property (`None`: it makes none)."""

        def auto(message_name: str) -> AutoId:
            return AutoId(message_name, False, None, export, default_export, [module])

        kind = value_node.type if value_node is not None else "identifier"
        if kind == "object":
            if value_node is not None and writes_property(value_node, "id"):
                return None
            fields = descriptor.fields if isinstance(descriptor, Record) else {}
            return Record({"id": auto(name), **fields})
        if kind in ("string", "template_string"):
            return Record({"id": auto(name), "defaultMessage": descriptor})
        # Anything else the plugin evaluates: a constant string names the message by its text.
        if isinstance(descriptor, Text):
            return Record({"id": auto(descriptor.value), "defaultMessage": descriptor})
        return None


def selector_path(function: tree_sitter.Node) -> list[tree_sitter.Node] | None:
    """The segments an i18next selector (`$ => $.app['title'].main`, one parameter whose
    member chain is the body) reads, as the nodes naming them, else `None`."""
    parameter = function.child_by_field_name("parameter")
    parameters = function.child_by_field_name("parameters")
    if parameter is None and parameters is not None and parameters.named_child_count == 1:
        parameter = named_child(parameters, 0)
        if parameter is not None and parameter.type == "required_parameter":
            parameter = parameter.child_by_field_name("pattern")
    body = function.child_by_field_name("body")
    if parameter is None or parameter.type != "identifier" or body is None:
        return None
    segments: list[tree_sitter.Node] = []
    while body.type in ("member_expression", "subscript_expression", "non_null_expression"):
        if body.type == "non_null_expression":
            inner = named_child(body, 0)
        else:
            field = "property" if body.type == "member_expression" else "index"
            segment = body.child_by_field_name(field)
            if segment is None:
                return None
            segments.append(segment)
            inner = body.child_by_field_name("object")
        if inner is None:
            return None
        body = inner
    if not segments or body.type != "identifier" or node_text(body) != node_text(parameter):
        return None
    return segments[::-1]


def _last_name(function: tree_sitter.Node) -> str:
    """The last name of a callee (`i18next.keyFromSelector` → `keyFromSelector`)."""
    if function.type == "member_expression":
        prop = function.child_by_field_name("property")
        return node_text(prop) if prop is not None else ""
    return node_text(function) if function.type == "identifier" else ""


def plain_object(node: tree_sitter.Node) -> bool:
    """Whether an object literal has only plain properties (`a: x`, `{ a }`): no spread, no
    method."""
    return all(
        child.type in ("pair", "shorthand_property_identifier", "comment")
        for child in node.named_children
    )


def writes_property(node: tree_sitter.Node, name: str) -> bool:
    """Whether the object literal `node` writes a property `name` (`name: …` or `{ name }`)."""
    for child in node.named_children:
        if child.type == "shorthand_property_identifier" and node_text(child) == name:
            return True
        key = child.child_by_field_name("key") if child.type == "pair" else None
        if key is not None and (plain_string(key) or node_text(key)) == name:
            return True
    return False


def _last_statement(body: tree_sitter.Node) -> tree_sitter.Node | None:
    """The last statement of the block `body` (comments are not statements)."""
    index = body.named_child_count - 1
    while index >= 0:
        child = body.named_child(index)
        if child is not None and child.type != "comment":
            return child
        index -= 1
    return None


def _returns_elsewhere(
    function: tree_sitter.Node, body: tree_sitter.Node, last: tree_sitter.Node
) -> bool:
    """Whether `function` has a `return` in `body` other than `last` (returns of nested
    functions are theirs)."""
    for match in _RETURN.finditer(body.text or b""):
        start = body.start_byte + match.start()
        word = body.descendant_for_byte_range(start, start + len("return"))
        statement = word.parent if word is not None else None
        if statement is None or statement.type != "return_statement" or statement == last:
            continue  # the word in a string, a comment or a name
        owner = statement.parent
        while owner is not None and owner.type not in FUNCTIONS:
            owner = owner.parent
        if owner == function:
            return True
    return False


def _enclosing_export(node: tree_sitter.Node) -> tuple[str | None, bool]:
    """The variable an `export const x = …` around `node` declares (its first), and whether
    `node` is inside `export default …`."""
    parent = node.parent
    while parent is not None and parent.type != "export_statement":
        parent = parent.parent
    if parent is None:
        return None, False
    if any(child.type == "default" for child in parent.children):
        return None, True
    declaration = parent.child_by_field_name("declaration")
    if declaration is None or declaration.type not in (
        "lexical_declaration",
        "variable_declaration",
    ):
        return None, False
    declarator = named_child(declaration, 0)
    name = declarator.child_by_field_name("name") if declarator is not None else None
    return (node_text(name) if name is not None and name.type == "identifier" else None), False
