"""Where each name of a file is declared: an index of bindings and the block each one covers.

Built once per file, and only when a key argument refers to a name, so files whose keys are all
literals never pay for it.
"""

from __future__ import annotations

import functools
from typing import Literal, NamedTuple

import tree_sitter

from i18nprune.scan.grammars import GrammarName, language

DeclarationKind = Literal["const", "destructured", "import", "enum", "opaque"]

_SCOPE_QUERY = """
(variable_declarator name: (identifier) @variable)
(variable_declarator name: (object_pattern) @destructured)
(variable_declarator name: (array_pattern) @shadowing)
(import_statement) @import
(function_declaration name: (identifier) @declared)
(generator_function_declaration name: (identifier) @declared)
(class_declaration name: (_) @declared)
(formal_parameters) @parameters
(arrow_function parameter: (identifier) @arrow_parameter)
(catch_clause parameter: (_) @catch_parameter)
"""
_TYPESCRIPT_SCOPE_QUERY = "(enum_declaration name: (identifier) @enum)"
_BINDING_NODE_TYPES = frozenset({"identifier", "shorthand_property_identifier_pattern"})


class Declaration(NamedTuple):
    """How a name is bound, and the byte range of the scope where that binding is visible.

    `node` is the variable declarator (`const`, `destructured`) or the enum declaration; `path` is
    the property path a destructured name reads; `source`/`imported` describe an import.
    """

    kind: DeclarationKind
    scope_start: int
    scope_end: int
    node: tree_sitter.Node | None = None
    path: tuple[str, ...] = ()
    source: str = ""
    imported: str = ""


def enclosing_scope(statement: tree_sitter.Node) -> tree_sitter.Node:
    """The block whose bindings include those that `statement` declares."""
    scope = statement.parent
    if scope is not None and scope.type == "export_statement":
        scope = scope.parent
    return scope if scope is not None else statement


def is_relative_module(specifier: str) -> bool:
    """Whether an import specifier names a project file (`./x`, `../x`) rather than a package."""
    return specifier.startswith(("./", "../")) or specifier in (".", "..")


def node_text(node: tree_sitter.Node) -> str:
    text = node.text
    return text.decode("utf-8", "replace") if text is not None else ""


def plain_string(node: tree_sitter.Node) -> str | None:
    """The value of a string literal without escapes (import sources, property names)."""
    if node.type != "string":
        return None
    raw = node_text(node)
    return raw[1:-1] if "\\" not in raw else None


@functools.cache
def _scope_query(grammar: GrammarName) -> tree_sitter.Query:
    text = _SCOPE_QUERY if grammar == "javascript" else _SCOPE_QUERY + _TYPESCRIPT_SCOPE_QUERY
    return tree_sitter.Query(language(grammar), text)


class DeclarationIndex:
    """Every binding of one syntax tree, looked up by name and position."""

    def __init__(self, root: tree_sitter.Node, grammar: GrammarName) -> None:
        self._root = root
        self._by_name: dict[str, list[Declaration]] = {}
        captures = tree_sitter.QueryCursor(_scope_query(grammar)).captures(root)
        for node in captures.get("variable", []):
            self._variable(node)
        for node in captures.get("destructured", []):
            self._destructured(node)
        for node in captures.get("shadowing", []):
            self._shadow_all(node, node.parent)
        for node in captures.get("import", []):
            self._import(node)
        for node in captures.get("declared", []):
            if node.parent is not None:
                self._shadow(node_text(node), enclosing_scope(node.parent))
        for node in captures.get("parameters", []):
            self._shadow_all(node, node.parent)
        for node in captures.get("arrow_parameter", []):
            self._shadow(node_text(node), node.parent)
        for node in captures.get("catch_parameter", []):
            self._shadow_all(node, node.parent)
        for node in captures.get("enum", []):
            declaration = node.parent
            if declaration is not None:
                scope = enclosing_scope(declaration)
                self._add(node_text(node), Declaration("enum", *_range(scope), node=declaration))

    def lookup(self, name: str, at: int) -> Declaration | None:
        """The innermost binding of `name` whose scope contains byte offset `at`."""
        best: Declaration | None = None
        for declaration in self._by_name.get(name, ()):
            if declaration.scope_start <= at < declaration.scope_end and (
                best is None
                or declaration.scope_end - declaration.scope_start
                < best.scope_end - best.scope_start
            ):
                best = declaration
        return best

    def _add(self, name: str, declaration: Declaration) -> None:
        self._by_name.setdefault(name, []).append(declaration)

    def _shadow(self, name: str, scope: tree_sitter.Node | None) -> None:
        if scope is not None:
            self._add(name, Declaration("opaque", *_range(scope)))

    def _shadow_all(self, pattern: tree_sitter.Node, scope: tree_sitter.Node | None) -> None:
        if pattern.type in _BINDING_NODE_TYPES:
            self._shadow(node_text(pattern), scope)
        for child in pattern.named_children:
            self._shadow_all(child, scope)

    def _variable(self, name: tree_sitter.Node) -> None:
        declarator = name.parent
        statement = declarator.parent if declarator is not None else None
        if declarator is None or statement is None:
            return
        scope = enclosing_scope(statement)
        if _is_const(statement):
            self._add(node_text(name), Declaration("const", *_range(scope), node=declarator))
        else:
            self._shadow(node_text(name), scope)

    def _destructured(self, pattern: tree_sitter.Node) -> None:
        declarator = pattern.parent
        statement = declarator.parent if declarator is not None else None
        if declarator is None or statement is None:
            return
        scope = enclosing_scope(statement)
        if not _is_const(statement):
            self._shadow_all(pattern, scope)
            return
        for name, path in _destructured_names(pattern, ()):
            if path:
                self._add(name, Declaration("destructured", *_range(scope), declarator, path))
            else:
                self._shadow(name, scope)

    def _import(self, statement: tree_sitter.Node) -> None:
        source_node = statement.child_by_field_name("source")
        source = plain_string(source_node) if source_node is not None else None
        scope = _range(self._root)
        for clause in statement.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    self._bind_import(node_text(part), source, "default", scope)
                elif part.type == "namespace_import":
                    for name in part.named_children:
                        self._bind_import(node_text(name), source, "*", scope)
                elif part.type == "named_imports":
                    for specifier in part.named_children:
                        if specifier.type != "import_specifier":
                            continue
                        imported = specifier.child_by_field_name("name")
                        local = specifier.child_by_field_name("alias") or imported
                        if imported is None or local is None:
                            continue
                        imported_name = plain_string(imported) or node_text(imported)
                        self._bind_import(node_text(local), source, imported_name, scope)

    def _bind_import(
        self, local: str, source: str | None, imported: str, scope: tuple[int, int]
    ) -> None:
        if source is not None and is_relative_module(source):
            self._add(local, Declaration("import", *scope, source=source, imported=imported))
        else:
            self._add(local, Declaration("opaque", *scope))


def _is_const(statement: tree_sitter.Node) -> bool:
    if statement.type != "lexical_declaration":
        return False
    keyword = statement.child(0)
    return keyword is not None and keyword.type == "const"


def _range(node: tree_sitter.Node) -> tuple[int, int]:
    return node.start_byte, node.end_byte


def _destructured_names(
    pattern: tree_sitter.Node, path: tuple[str, ...]
) -> list[tuple[str, tuple[str, ...]]]:
    """The names an object pattern binds, each with the property path it reads.

    Names with a default value or from a rest element get an empty path: they are not constant.
    """
    names: list[tuple[str, tuple[str, ...]]] = []
    for child in pattern.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            names.append((node_text(child), (*path, node_text(child))))
        elif child.type == "pair_pattern":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if key is None or value is None:
                continue
            key_name = plain_string(key) if key.type == "string" else node_text(key)
            if key_name is None:
                continue
            if value.type == "identifier":
                names.append((node_text(value), (*path, key_name)))
            elif value.type == "object_pattern":
                names.extend(_destructured_names(value, (*path, key_name)))
            else:
                names.extend((name, ()) for name, _ in _all_names(value))
        else:
            names.extend((name, ()) for name, _ in _all_names(child))
    return names


def _all_names(node: tree_sitter.Node) -> list[tuple[str, tuple[str, ...]]]:
    if node.type in _BINDING_NODE_TYPES:
        return [(node_text(node), ())]
    found: list[tuple[str, tuple[str, ...]]] = []
    for child in node.named_children:
        found.extend(_all_names(child))
    return found
