"""Values of JS/TS literal expressions read from a tree-sitter tree, never by running code.

Objects, arrays, strings, template literals without holes, numbers, booleans, null, and names
bound to top-level `const` literals have a value; anything else raises `NotStatic`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tree_sitter import Node

from i18nprune.config.document import KeyPath
from i18nprune.config.secrets import is_secret_name
from i18nprune.syntax_tree import node_text, parse

CONFIG_WRAPPER = "defineConfig"
"""The one call a config may contain: `defineConfig({...})` only returns its argument."""

# Type-level wrappers: `x as const`, `x as Config`, `x satisfies Config`, `(x)` have x's value.
_TRANSPARENT = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression"})

_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_LINE_BREAKS = frozenset("\r\n\u2028\u2029")


class NotStatic(Exception):
    """An expression whose value needs evaluation; `construct` names it for a person."""

    def __init__(self, construct: str, line: int) -> None:
        super().__init__(f"{construct} (line {line})")
        self.construct = construct
        self.line = line


def line_of(node: Node) -> int:
    """1-based line where `node` starts."""
    return node.start_point.row + 1


def preview(node: Node, width: int = 40) -> str:
    """The first line of `node`'s source, shortened to `width` characters for a message."""
    lines = node_text(node).strip().splitlines()
    first = lines[0] if lines else ""
    return first if len(first) <= width else first[: width - 1] + "…"


def _code_children(node: Node) -> list[Node]:
    return [child for child in node.named_children if child.type != "comment"]


class LiteralReader:
    """Reads literal values out of one parsed file, recording the line of every key it reads.

    `bindings` maps top-level `const` names to their initialiser; `imports` maps imported local
    names to their module (so an error can say where a name comes from).
    """

    def __init__(
        self, bindings: Mapping[str, Node] | None = None, imports: Mapping[str, str] | None = None
    ) -> None:
        self._bindings = bindings or {}
        self._imports = imports or {}
        self._resolving: set[str] = set()
        self.key_lines: dict[KeyPath, int] = {}

    def value(self, node: Node, path: KeyPath = ()) -> Any:
        """The value of the expression `node` sitting at `path`. Raises NotStatic."""
        kind = node.type
        if kind in _TRANSPARENT:
            return self.value(_code_children(node)[0], path)
        if kind == "object":
            return self._object(node, path)
        if kind == "array":
            return self._array(node, path)
        if kind == "string":
            return _string_value(node)
        if kind == "template_string":
            return _template_value(node)
        if kind == "number":
            return parse_number(node_text(node))
        if kind == "unary_expression":
            return self._signed_number(node)
        if kind in ("true", "false"):
            return kind == "true"
        if kind == "null":
            return None
        if kind == "identifier":
            return self._bound_value(node, path)
        if kind == "call_expression":
            return self._wrapped_value(node, path)
        raise NotStatic(describe_construct(node), line_of(node))

    def _object(self, node: Node, path: KeyPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for member in _code_children(node):
            if member.type == "pair":
                key_node = member.child_by_field_name("key")
                value_node = member.child_by_field_name("value")
                assert key_node is not None and value_node is not None  # grammar guarantees both
                key = _key_name(key_node)
                self.key_lines[(*path, key)] = line_of(key_node)
                result[key] = self._pair_value(key, value_node, (*path, key))
            elif member.type == "shorthand_property_identifier":
                key = node_text(member)
                self.key_lines[(*path, key)] = line_of(member)
                result[key] = self._bound_value(member, (*path, key))
            elif member.type == "spread_element":
                result.update(self._spread_object(member, path))
            else:
                raise NotStatic(describe_construct(member), line_of(member))
        return result

    def _pair_value(self, key: str, value_node: Node, path: KeyPath) -> Any:
        try:
            return self.value(value_node, path)
        except NotStatic as problem:
            if not is_secret_name(key):
                raise
            # the construct's source text may contain (part of) the secret: do not quote it
            raise NotStatic(
                f"a computed value for the secret `{key}` (put secrets in environment "
                "variables such as I18NPRUNE_TRANSLATE_<ID>_API_KEY)",
                problem.line,
            ) from None

    def _spread_object(self, spread: Node, path: KeyPath) -> dict[str, Any]:
        argument = _code_children(spread)[0]
        module = self._imports.get(node_text(argument))
        if argument.type == "identifier" and module is not None:
            raise NotStatic(
                f"the spread `{preview(spread)}` of a value imported from `{module}`",
                line_of(spread),
            )
        spread_value = self.value(argument, path)
        if not isinstance(spread_value, dict):
            raise NotStatic(f"spread `{preview(spread)}` of a non-object", line_of(spread))
        return spread_value

    def _array(self, node: Node, path: KeyPath) -> list[Any]:
        items: list[Any] = []
        expecting_element = True  # a comma here would leave an empty slot; `[a, b,]` is fine
        for child in node.children:
            if child.type == "comment":
                continue
            if child.type == ",":
                if expecting_element:
                    raise NotStatic("an empty array slot (`[a, , b]`)", line_of(child))
                expecting_element = True
            elif child.is_named:
                if child.type == "spread_element":
                    raise NotStatic(
                        f"spread `{preview(child)}` inside an array (list the items instead)",
                        line_of(child),
                    )
                self.key_lines[(*path, len(items))] = line_of(child)
                items.append(self.value(child, (*path, len(items))))
                expecting_element = False
        return items

    def _signed_number(self, node: Node) -> int | float:
        operator = node.child_by_field_name("operator")
        argument = node.child_by_field_name("argument")
        if operator is None or argument is None or argument.type != "number":
            raise NotStatic(describe_construct(node), line_of(node))
        number = parse_number(node_text(argument))
        sign = node_text(operator)
        if sign == "-":
            return -number
        if sign == "+":
            return number
        raise NotStatic(describe_construct(node), line_of(node))

    def _bound_value(self, node: Node, path: KeyPath) -> Any:
        name = node_text(node)
        if name in self._imports:
            raise NotStatic(f"`{name}` imported from `{self._imports[name]}`", line_of(node))
        bound = self._bindings.get(name)
        if bound is None:
            raise NotStatic(f"the name `{name}` (not a local `const` literal)", line_of(node))
        if name in self._resolving:
            raise NotStatic(f"`{name}`, which refers to itself", line_of(node))
        self._resolving.add(name)
        try:
            return self.value(bound, path)
        finally:
            self._resolving.discard(name)

    def _wrapped_value(self, node: Node, path: KeyPath) -> Any:
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if (
            callee is not None
            and arguments is not None
            and node_text(callee) == CONFIG_WRAPPER
            and len(_code_children(arguments)) == 1
        ):
            return self.value(_code_children(arguments)[0], path)
        raise NotStatic(describe_construct(node), line_of(node))


def describe_construct(node: Node) -> str:
    """A short phrase naming what `node` is, for a "cannot be read statically" message."""
    kind = node.type
    text = preview(node)
    if kind == "call_expression":
        callee = node.child_by_field_name("function")
        name = preview(callee) if callee is not None else text
        return f"the function call `{name}(…)`"
    if kind == "member_expression" and text.startswith("process.env"):
        return f"the environment lookup `{text}`"
    if kind == "member_expression":
        return f"the property access `{text}`"
    if kind == "template_substitution":
        return f"the template literal hole `{text}`"
    if kind == "computed_property_name":
        return f"the computed key `{text}`"
    if kind == "method_definition":
        return f"the method `{text}`"
    if kind in ("arrow_function", "function_expression", "function", "function_declaration"):
        return "a function"
    if kind == "undefined":
        return "`undefined` (leave the key out instead)"
    return f"the expression `{text}`"


def _key_name(key: Node) -> str:
    if key.type in ("property_identifier", "identifier"):
        return node_text(key)
    if key.type == "string":
        return _string_value(key)
    if key.type == "number":
        return str(parse_number(node_text(key)))
    raise NotStatic(describe_construct(key), line_of(key))


def _string_value(node: Node) -> str:
    parts = [
        decode_escape(node_text(child)) if child.type == "escape_sequence" else node_text(child)
        for child in node.named_children
        if child.type in ("string_fragment", "escape_sequence")
    ]
    return _join_code_units(parts)


def _template_value(node: Node) -> str:
    parts: list[str] = []
    for child in node.named_children:
        if child.type == "template_substitution":
            raise NotStatic(describe_construct(child), line_of(child))
        if child.type == "escape_sequence":
            parts.append(decode_escape(node_text(child)))
        elif child.type == "string_fragment":
            parts.append(node_text(child))
    return _join_code_units(parts)


def _join_code_units(parts: list[str]) -> str:
    # `\uD83D\uDE00` decodes to two lone surrogates; pairing them gives the real character.
    return "".join(parts).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def decode_escape(sequence: str) -> str:
    """The text a JS escape sequence (`\\n`, `\\x41`, `\\u00e9`, `\\u{1F600}`, …) stands for."""
    body = sequence[1:]
    if not body or body[0] in _LINE_BREAKS:
        return ""  # a line continuation
    if body in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[body]
    if body.startswith("x") and len(body) == 3:
        return chr(int(body[1:], 16))
    if body.startswith("u{"):
        return chr(int(body[2:-1], 16))
    if body.startswith("u") and len(body) == 5:
        return chr(int(body[1:], 16))
    return body


def parse_number(text: str) -> int | float:
    """The value of a JS numeric literal (`42`, `1_000`, `0x1F`, `2.5e3`, `.5`, `10n`)."""
    clean = text.replace("_", "").removesuffix("n")
    if clean[:2].lower() in ("0x", "0o", "0b"):
        return int(clean, 0)
    if any(mark in clean for mark in ".eE"):
        return float(clean)
    return int(clean)


def literal_key_lines(text: str) -> dict[KeyPath, int]:
    """The line of every key in a JSON text, best effort (empty when it cannot be read).

    JSON is a subset of JavaScript literals, so the JavaScript grammar reads it with positions;
    the opening parenthesis stays on line 1 so lines are unchanged.
    """
    tree = parse(f"({text}\n)".encode(), "javascript")
    if tree.root_node.has_error:
        return {}
    statements = _code_children(tree.root_node)
    if len(statements) != 1 or statements[0].type != "expression_statement":
        return {}
    reader = LiteralReader()
    try:
        reader.value(_code_children(statements[0])[0])
    except NotStatic:
        return {}
    return reader.key_lines
