"""What a module exports that another file could use as a key part: its exported constants,
and the object its exported functions return.

`export const`, enums, functions, `export { a as b }`, `export default <value>`, and
re-exports from relative modules (`export { X } from './y'`, `export * from './y'`,
`export * as ns from …`).
"""

from __future__ import annotations

import tree_sitter

from i18nprune.scan.evaluate import Evaluator
from i18nprune.scan.expressions import Expr, Imported, Opaque, Record, Returns
from i18nprune.scan.scopes import is_relative_module, plain_string
from i18nprune.syntax_tree import node_text


def exported_constants(
    root: tree_sitter.Node, evaluator: Evaluator
) -> tuple[dict[str, Expr], list[str]]:
    """The values a module exports by name, and the sources of its `export *` statements.

    Values that cannot be part of a key (classes, opaque values, functions that return no
    object literal) are left out.
    """
    exports: dict[str, Expr] = {}
    stars: list[str] = []
    for statement in root.named_children:
        if statement.type != "export_statement":
            continue
        source_node = statement.child_by_field_name("source")
        if source_node is not None:
            source = plain_string(source_node)
            if source is not None and is_relative_module(source):
                _re_exports(statement, source, exports, stars)
            continue
        declaration = statement.child_by_field_name("declaration")
        value = statement.child_by_field_name("value")
        if declaration is not None and any(child.type == "default" for child in statement.children):
            # `export default function useX() { … }`: exported as `default` only
            if declaration.type == "function_declaration":
                exports["default"] = evaluator.function_value(declaration)
        elif declaration is not None:
            _declared_exports(declaration, evaluator, exports)
        elif value is not None:
            exports["default"] = evaluator.value_of(value)
        else:
            for local, exported in _export_clause_names(statement):
                exports[exported] = evaluator.binding_value(local, statement)
    return {name: value for name, value in exports.items() if _worth_exporting(value)}, stars


def _declared_exports(
    declaration: tree_sitter.Node, evaluator: Evaluator, exports: dict[str, Expr]
) -> None:
    if declaration.type == "enum_declaration":
        name = declaration.child_by_field_name("name")
        if name is not None:
            exports[node_text(name)] = evaluator.enum_value(declaration)
        return
    if declaration.type == "function_declaration":
        name = declaration.child_by_field_name("name")
        if name is not None:
            exports[node_text(name)] = evaluator.function_value(declaration)
        return
    if declaration.type != "lexical_declaration":
        return
    if declaration.child_count == 0 or declaration.children[0].type != "const":
        return
    for declarator in declaration.named_children:
        name = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if name is not None and value is not None and name.type == "identifier":
            exports[node_text(name)] = evaluator.value_of(value)


def _re_exports(
    statement: tree_sitter.Node, source: str, exports: dict[str, Expr], stars: list[str]
) -> None:
    kinds = {child.type: child for child in statement.named_children}
    namespace = kinds.get("namespace_export")
    if namespace is not None:
        for name in namespace.named_children:
            exports[plain_string(name) or node_text(name)] = Imported(source, "*")
    elif "export_clause" in kinds:
        for local, exported in _export_clause_names(statement):
            exports[exported] = Imported(source, local)
    else:
        stars.append(source)


def _export_clause_names(statement: tree_sitter.Node) -> list[tuple[str, str]]:
    """(local, exported) name pairs of `export { a, b as c }`."""
    pairs = []
    for clause in statement.named_children:
        if clause.type != "export_clause":
            continue
        for specifier in clause.named_children:
            name = specifier.child_by_field_name("name")
            alias = specifier.child_by_field_name("alias")
            if specifier.type != "export_specifier" or name is None:
                continue
            local = plain_string(name) or node_text(name)
            exported = (plain_string(alias) or node_text(alias)) if alias is not None else local
            pairs.append((local, exported))
    return pairs


def _worth_exporting(value: Expr) -> bool:
    """Only values that can become part of a key are kept in the facts."""
    if isinstance(value, Returns):
        return _worth_exporting(value.value)
    if isinstance(value, Opaque):
        return False
    return not (isinstance(value, Record) and not value.fields)
