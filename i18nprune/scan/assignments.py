"""Where a local `let`/`var` gets its value: its initializer and the plain assignments to it in
the same function, found by name, or nothing when some write to it cannot be followed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import tree_sitter

from i18nprune.scan.scopes import FUNCTIONS, Declaration
from i18nprune.syntax_tree import node_text

# Nodes an assignment target holds a name through: destructuring (`[x] = …`, `{ x } = …`), and
# parentheses and TypeScript's wrappers (`(x) = …`, `x! = …`).
_TARGETS = frozenset(
    {
        "array_pattern",
        "object_pattern",
        "pair_pattern",
        "rest_pattern",
        "object_assignment_pattern",
        "parenthesized_expression",
        "non_null_expression",
        "as_expression",
        "satisfies_expression",
        "type_assertion",
    }
)
_NAMES = frozenset({"identifier", "shorthand_property_identifier_pattern"})
_LEXICAL = frozenset({"let", "const"})
_EVAL = re.compile(rb"(?<![\w$.])eval(?![\w$])")


Lookup = Callable[[str, tree_sitter.Node], Declaration | None]
"""The declaration a name at a node refers to (`DeclarationIndex.lookup`)."""


class _Unfollowable(Exception):
    """A write to the variable that is not a plain assignment in its own function."""


def assigned_values(declarator: tree_sitter.Node, lookup: Lookup) -> list[tree_sitter.Node] | None:
    """The expressions the variable `declarator` declares is set to: its initializer, and the
    right side of each plain assignment `name = …` in the function that declares it.

    Names are matched by their text: in the function itself, a variable of the same name in an
    inner block only adds values; a nested function's write counts unless `lookup` finds the
    name declared inside that function. `None` when the value cannot be followed: the variable
    is declared outside any function (a script's top-level variable is global, other scripts
    may set it) or is also a parameter, or it is written some other way (`+=`, `++`,
    destructuring, `for (name of …)`), or by a nested function, or the function calls `eval`.
    """
    name_node = declarator.child_by_field_name("name")
    function = _enclosing_function(declarator)
    if name_node is None or name_node.type != "identifier" or function is None:
        return None
    name = node_text(name_node)
    body = function.text or b""
    if _EVAL.search(body):
        return None
    values: list[tree_sitter.Node] = []
    initializer = declarator.child_by_field_name("value")
    if initializer is not None:
        values.append(initializer)
    occurrence = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
    try:
        for match in occurrence.finditer(body):
            start = function.start_byte + match.start()
            node = function.descendant_for_byte_range(start, start + len(match.group()))
            if node is None or node.type not in _NAMES or node_text(node) != name:
                continue
            value = _written_value(node, declarator, function, lookup)
            if value is not None:
                values.append(value)
    except _Unfollowable:
        return None
    return values or None


def _written_value(
    name: tree_sitter.Node,
    declarator: tree_sitter.Node,
    function: tree_sitter.Node,
    lookup: Lookup,
) -> tree_sitter.Node | None:
    """The value an occurrence of the variable's name assigns it, `None` when it assigns
    nothing (a read, or the declaration of another variable); raises `_Unfollowable` for a
    write whose value is not known."""
    parameters = function.child_by_field_name("parameters") or function.child_by_field_name(
        "parameter"
    )
    if parameters is not None and parameters.start_byte <= name.start_byte < parameters.end_byte:
        raise _Unfollowable  # `function f(x) { var x; … }`: x starts as the argument
    child, parent = name, name.parent
    while parent is not None and (
        parent.type in _TARGETS
        or (parent.type == "assignment_pattern" and child == parent.child_by_field_name("left"))
    ):
        child, parent = parent, parent.parent
    if parent is None:
        return None
    kind = parent.type
    if kind == "variable_declarator" and child == parent.child_by_field_name("name"):
        return _redeclared_value(parent, child, name, declarator, function)
    if not _writes(parent, child):
        return None
    writer = _enclosing_function(parent)
    if writer != function:
        if _declared_inside(writer, lookup(node_text(name), name)):
            return None  # a nested function's own variable of that name
        raise _Unfollowable
    if kind == "assignment_expression" and child == name:
        return parent.child_by_field_name("right")
    raise _Unfollowable


def _writes(parent: tree_sitter.Node, child: tree_sitter.Node) -> bool:
    """Whether `child` (a name, or a target holding one) is written by `parent`: assigned
    (`=`, `+=`), incremented, or the variable of a `for … of/in` that declares no new one."""
    kind = parent.type
    if kind in ("assignment_expression", "augmented_assignment_expression"):
        return child == parent.child_by_field_name("left")
    if kind == "update_expression":
        return True
    if kind == "for_in_statement" and child == parent.child_by_field_name("left"):
        declared = parent.child_by_field_name("kind")
        return declared is None or declared.type not in _LEXICAL
    return False


def _redeclared_value(
    other: tree_sitter.Node,
    target: tree_sitter.Node,
    name: tree_sitter.Node,
    declarator: tree_sitter.Node,
    function: tree_sitter.Node,
) -> tree_sitter.Node | None:
    """A declaration of the name other than the variable's own: a `var` of the same function
    is the same variable again (`var x = 'a'; … var x = 'b'`); any other declares another."""
    if other == declarator:
        return None
    statement = other.parent
    if statement is None or statement.type != "variable_declaration":
        return None
    if _enclosing_function(other) != function:
        return None
    if target != name:
        raise _Unfollowable
    return other.child_by_field_name("value")


def _declared_inside(function: tree_sitter.Node | None, declaration: Declaration | None) -> bool:
    """Whether `declaration` is a declarator inside `function` (a parameter is not known)."""
    node = declaration.node if declaration is not None else None
    return (
        function is not None
        and node is not None
        and function.start_byte <= node.start_byte < function.end_byte
    )


def _enclosing_function(node: tree_sitter.Node) -> tree_sitter.Node | None:
    parent = node.parent
    while parent is not None and parent.type not in FUNCTIONS:
        parent = parent.parent
    return parent
