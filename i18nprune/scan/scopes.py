"""Where a name is declared: lexical scope lookup over a syntax tree, indexing each scope
only when a lookup passes through it.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import tree_sitter

from i18nprune.scan.aliases import is_relative_module
from i18nprune.syntax_tree import node_text

DeclarationKind = Literal[
    "const", "destructured", "variable", "import", "package", "enum", "function", "opaque"
]

_BLOCKS = frozenset({"program", "statement_block", "class_static_block"})
_SWITCH_ARMS = frozenset({"switch_case", "switch_default"})
FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "generator_function_declaration",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
_LOOPS = frozenset({"for_statement", "for_in_statement"})
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_NAMED_DECLARATIONS = frozenset({"generator_function_declaration", "class_declaration"})
_SCOPES = _BLOCKS | _SWITCH_ARMS | FUNCTIONS | _LOOPS | {"catch_clause"}
_BINDING_NODE_TYPES = frozenset({"identifier", "shorthand_property_identifier_pattern"})
# Parts of a parameter list that never bind names (and can be large, like TS types).
_NOT_BINDING = frozenset({"type_annotation", "type_parameters", "decorator"})


class Declaration(NamedTuple):
    """How a name is bound.

    `node` is the variable declarator (`const`, `destructured`, and `variable`: a `let` or `var`
    of one name), the enum declaration or the function declaration (`function`: not a
    generator); `path` is the property path a destructured name reads; `source`/`imported`
    describe an import.
    """

    kind: DeclarationKind
    node: tree_sitter.Node | None = None
    path: tuple[str, ...] = ()
    source: str = ""
    imported: str = ""


_OPAQUE = Declaration("opaque")


def enclosing_scope(statement: tree_sitter.Node) -> tree_sitter.Node:
    """The block whose bindings include those that `statement` declares."""
    scope = statement.parent
    if scope is not None and scope.type == "export_statement":
        scope = scope.parent
    return scope if scope is not None else statement


def named_child(node: tree_sitter.Node, index: int) -> tree_sitter.Node | None:
    """The `index`-th named child that is not a comment, or `None`."""
    children = [child for child in node.named_children if child.type != "comment"]
    return children[index] if index < len(children) else None


def plain_string(node: tree_sitter.Node) -> str | None:
    """The value of a string literal without escapes (import sources, property names)."""
    if node.type != "string":
        return None
    raw = node_text(node)
    return raw[1:-1] if "\\" not in raw else None


class DeclarationIndex:
    """Finds the declaration a name refers to, scope by scope, indexing scopes lazily."""

    def __init__(self) -> None:
        self._scopes: dict[int, dict[str, Declaration]] = {}

    def lookup(self, name: str, reference: tree_sitter.Node) -> Declaration | None:
        """The innermost declaration of `name` visible from `reference`, if any."""
        scope = reference.parent
        while scope is not None:
            if scope.type in _SCOPES:
                table = self._scopes.get(scope.id)
                if table is None:
                    table = self._scopes[scope.id] = _declared_in(scope)
                found = table.get(name)
                if found is not None:
                    return found
            scope = scope.parent
        return None


def destructured_field(pattern: tree_sitter.Node, name: str) -> str | None:
    """The property an object pattern binds to `name` (`{ t }`, `{ t: tx }`, `{ t = x }`)."""
    for part in pattern.named_children:
        if part.type == "object_assignment_pattern":
            part = part.child_by_field_name("left") or part
        if part.type == "shorthand_property_identifier_pattern" and node_text(part) == name:
            return name
        if part.type == "pair_pattern":
            key = part.child_by_field_name("key")
            value = part.child_by_field_name("value")
            if value is not None and value.type == "assignment_pattern":
                value = value.child_by_field_name("left")
            if key is not None and value is not None and node_text(value) == name:
                return plain_string(key) or node_text(key)
    return None


class NamedImport(NamedTuple):
    """One specifier of `import { imported as local } from 'module'` (`local` is `imported`
    without an alias; `module` is None when it is not a plain string)."""

    module: str | None
    imported: str
    local: str


def named_imports(root: tree_sitter.Node) -> list[NamedImport]:
    """The named imports of the file's top-level import statements, in order (a new list;
    the extraction of one file asks for them several times, so the last file's are kept)."""
    global _last_imports
    last = _last_imports
    if last is not None and last[0] == root:
        return list(last[1])
    found = _named_imports(root)
    _last_imports = (root, tuple(found))
    return found


# The root whose imports were read last, with them. Holding the root keeps its tree alive,
# so no other tree can reuse its address (a node equals another by address and tree); a
# thread that reads another tree meanwhile only replaces it.
_last_imports: tuple[tree_sitter.Node, tuple[NamedImport, ...]] | None = None


def _named_imports(root: tree_sitter.Node) -> list[NamedImport]:
    found = []
    for statement in root.named_children:
        if statement.type != "import_statement":
            continue
        source = statement.child_by_field_name("source")
        module = plain_string(source) if source is not None else None
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        for listed in clause.named_children if clause is not None else ():
            if listed.type != "named_imports":
                continue
            for specifier in listed.named_children:
                imported = specifier.child_by_field_name("name")
                local = specifier.child_by_field_name("alias") or imported
                if imported is not None and local is not None:
                    found.append(NamedImport(module, node_text(imported), node_text(local)))
    return found


def _declared_in(scope: tree_sitter.Node) -> dict[str, Declaration]:
    """The names a syntax node declares for code inside it (empty for most node types)."""
    table: dict[str, Declaration] = {}
    kind = scope.type
    if kind in _BLOCKS or kind in _SWITCH_ARMS:
        for statement in scope.named_children:
            _statement_bindings(statement, table)
    elif kind in FUNCTIONS:
        parameters = scope.child_by_field_name("parameters") or scope.child_by_field_name(
            "parameter"
        )
        if parameters is not None:
            _shadow_all(parameters, table)
    elif kind in _LOOPS:
        for field in ("initializer", "left"):
            declared = scope.child_by_field_name(field)
            if declared is not None:
                _shadow_all(declared, table)
    elif kind == "catch_clause":
        parameter = scope.child_by_field_name("parameter")
        if parameter is not None:
            _shadow_all(parameter, table)
    return table


def _statement_bindings(statement: tree_sitter.Node, table: dict[str, Declaration]) -> None:
    kind = statement.type
    if kind == "export_statement":
        declaration = statement.child_by_field_name("declaration")
        if declaration is not None:
            _statement_bindings(declaration, table)
    elif kind in _DECLARATIONS:
        constant = kind == "lexical_declaration" and statement.children[0].type == "const"
        for declarator in statement.named_children:
            if declarator.type == "variable_declarator":
                _declarator_bindings(declarator, constant, table)
    elif kind == "function_declaration":
        name = statement.child_by_field_name("name")
        if name is not None:
            table.setdefault(node_text(name), Declaration("function", statement))
    elif kind in _NAMED_DECLARATIONS:
        name = statement.child_by_field_name("name")
        if name is not None:
            table.setdefault(node_text(name), _OPAQUE)
    elif kind == "enum_declaration":
        name = statement.child_by_field_name("name")
        if name is not None:
            table.setdefault(node_text(name), Declaration("enum", statement))
    elif kind == "import_statement":
        _import_bindings(statement, table)


def _declarator_bindings(
    declarator: tree_sitter.Node, constant: bool, table: dict[str, Declaration]
) -> None:
    name = declarator.child_by_field_name("name")
    if name is None:
        return
    if name.type == "identifier":
        kind: DeclarationKind = "const" if constant else "variable"
        table.setdefault(node_text(name), Declaration(kind, declarator))
    elif name.type == "object_pattern" and constant:
        for local, path in _destructured_names(name, ()):
            table.setdefault(
                local, Declaration("destructured", declarator, path) if path else _OPAQUE
            )
    else:
        _shadow_all(name, table)


def _import_bindings(statement: tree_sitter.Node, table: dict[str, Declaration]) -> None:
    source_node = statement.child_by_field_name("source")
    source = plain_string(source_node) if source_node is not None else None
    relative = source is not None and is_relative_module(source)

    def bind(local: tree_sitter.Node, imported: str) -> None:
        if source is None:
            declaration = _OPAQUE
        else:  # a package's value is not known; which package it is still matters
            kind: DeclarationKind = "import" if relative else "package"
            declaration = Declaration(kind, source=source, imported=imported)
        table.setdefault(node_text(local), declaration)

    for clause in statement.named_children:
        if clause.type != "import_clause":
            continue
        for part in clause.named_children:
            if part.type == "identifier":
                bind(part, "default")
            elif part.type == "namespace_import":
                for name in part.named_children:
                    bind(name, "*")
            elif part.type == "named_imports":
                for specifier in part.named_children:
                    imported = specifier.child_by_field_name("name")
                    if specifier.type != "import_specifier" or imported is None:
                        continue
                    local = specifier.child_by_field_name("alias") or imported
                    bind(local, plain_string(imported) or node_text(imported))


def _shadow_all(pattern: tree_sitter.Node, table: dict[str, Declaration]) -> None:
    """Every name a pattern or parameter list binds, as a non-constant binding."""
    if pattern.type in _NOT_BINDING:
        return
    if pattern.type in _BINDING_NODE_TYPES:
        table.setdefault(node_text(pattern), _OPAQUE)
        return
    if pattern.type in ("assignment_pattern", "object_assignment_pattern"):
        left = pattern.child_by_field_name("left")
        if left is not None:
            _shadow_all(left, table)
        return
    for child in pattern.named_children:
        if pattern.type == "pair_pattern" and child == pattern.child_by_field_name("key"):
            continue
        _shadow_all(child, table)


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
            if key_name is not None and value.type == "identifier":
                names.append((node_text(value), (*path, key_name)))
            elif key_name is not None and value.type == "object_pattern":
                names.extend(_destructured_names(value, (*path, key_name)))
            else:
                names.extend(_shadowed_names(value))
        else:
            names.extend(_shadowed_names(child))
    return names


def _shadowed_names(pattern: tree_sitter.Node) -> list[tuple[str, tuple[str, ...]]]:
    table: dict[str, Declaration] = {}
    _shadow_all(pattern, table)
    return [(name, ()) for name in table]
