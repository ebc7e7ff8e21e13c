"""Translation wrappers: functions of a file that pass their first parameter on as the key of a
translation call (`const tr = (key) => t(key)`, `function tr(key, opts) { return i18n.t(key,
opts) }`), whose calls are key sites as a configured function's are; and custom hooks, which
return a translation function (`const useAppT = () => useTranslation('app').t`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import tree_sitter

from i18nprune.scan.scopes import enclosing_scope, named_child
from i18nprune.syntax_tree import node_text

_FUNCTIONS = frozenset({"arrow_function", "function_declaration", "function_expression"})
_PARAMETER_WRAPPERS = frozenset({"required_parameter", "optional_parameter"})
_EXPORTS = frozenset({"export_statement"})


class Wrapper(NamedTuple):
    """A function that forwards its first parameter as a key: its name, the node its name is
    bound in, and whether the file exports it where it declares it."""

    name: str
    scope: tree_sitter.Node
    exported: bool
    default_export: bool = False
    """Exported as the module's default (`export default function useAppT() {…}`)."""


def forwarding_wrapper(call: tree_sitter.Node) -> Wrapper | None:
    """The named function around `call` whose first parameter `call` passes as its first
    argument, unchanged (`t(key)` in `(key) => t(key)`), if there is one."""
    arguments = call.child_by_field_name("arguments")
    first_argument = (
        arguments.named_child(0) if arguments is not None and arguments.named_child_count else None
    )
    if arguments is not None and first_argument is not None and first_argument.type == "comment":
        first_argument = named_child(arguments, 0)  # `t(/* … */ key)`: past the comments
    if first_argument is None or first_argument.type != "identifier":
        return None
    function = call.parent
    while function is not None and function.type not in _FUNCTIONS:
        if function.type in ("class_body", "program"):
            return None
        function = function.parent
    parameter = node_text(first_argument)
    if function is None or _first_parameter(function) != parameter:
        return None
    if mentions(function.text or b"", parameter) != 2:
        return None  # the parameter is read or assigned elsewhere too: not passed on as it is
    return named_function(function)


def _first_parameter(function: tree_sitter.Node) -> str | None:
    """The name of `function`'s first parameter when it is a plain identifier."""
    parameters = function.child_by_field_name("parameters")
    if parameters is None:
        single = function.child_by_field_name("parameter")  # `key => t(key)`
        return node_text(single) if single is not None and single.type == "identifier" else None
    first = named_child(parameters, 0)
    if first is not None and first.type in _PARAMETER_WRAPPERS:
        first = first.child_by_field_name("pattern")
    return node_text(first) if first is not None and first.type == "identifier" else None


def enclosing_function(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The function `node` is in, if any (not crossing a class body)."""
    function = node.parent
    while function is not None and function.type not in _FUNCTIONS:
        if function.type == "class_body":
            return None
        function = function.parent
    return function


def returned(function: tree_sitter.Node) -> tree_sitter.Node | None:
    """What `function` returns when that is one expression: an arrow's expression body, or the
    value of the one `return` statement of its body's top level."""
    body = function.child_by_field_name("body")
    if body is None:
        return None
    if body.type != "statement_block":
        return _unwrapped(body)
    returns = [child for child in body.named_children if child.type == "return_statement"]
    if len(returns) != 1:
        return None
    value = named_child(returns[0], 0)
    return _unwrapped(value) if value is not None else None


def _unwrapped(node: tree_sitter.Node) -> tree_sitter.Node:
    while node.type in ("parenthesized_expression", "as_expression", "non_null_expression"):
        inner = named_child(node, 0)
        if inner is None:
            break
        node = inner
    return node


def named_function(function: tree_sitter.Node) -> Wrapper | None:
    """The name `function` is declared with (`function tr`, `const tr = …`), where it is
    bound, and whether it is exported there."""
    if function.type == "function_declaration":
        name = function.child_by_field_name("name")
        if name is None:
            return None
        statement = function.parent
        exported = statement is not None and statement.type in _EXPORTS
        default = statement is not None and any(
            child.type == "default" for child in statement.children
        )
        return Wrapper(node_text(name), enclosing_scope(function), exported, default)
    declarator = function.parent
    if declarator is None or declarator.type != "variable_declarator":
        return None
    name = declarator.child_by_field_name("name")
    declaration = declarator.parent
    if name is None or name.type != "identifier" or declaration is None:
        return None
    exported = declaration.parent is not None and declaration.parent.type in _EXPORTS
    return Wrapper(node_text(name), enclosing_scope(declaration), exported)


def mentions(document: bytes, name: str) -> int:
    """How many times `name` occurs in `document` as a whole word (code, comments, strings)."""
    pattern = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
    return sum(1 for _ in pattern.finditer(document))
