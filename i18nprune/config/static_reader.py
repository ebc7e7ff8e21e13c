"""Reading `i18nprune.config.{ts,mts,cts,js,mjs,cjs}` statically: the default export's object
literal, found with tree-sitter; the file is never executed.
"""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from i18nprune.config.document import JAVASCRIPT_SUFFIXES, TYPESCRIPT_SUFFIXES, ConfigDocument
from i18nprune.config.js_literal import LiteralReader, NotStatic, describe_construct, line_of
from i18nprune.envelope import Code, ProblemError, error
from i18nprune.syntax_tree import GrammarName, node_text, parse

__all__ = ["JAVASCRIPT_SUFFIXES", "TYPESCRIPT_SUFFIXES", "read_static_config"]

_CONVERT_HINT = (
    "the config file is read without running it, so values must be literals "
    "(or move the settings to i18nprune.config.json)"
)


def read_static_config(path: Path, text: str) -> ConfigDocument:
    """Parse a TS/JS config and read its default export (`export default {...}`,
    `defineConfig({...})`, `module.exports = {...}`, or a local `const` exported by name).

    Raises ProblemError: CONFIG_PARSE_ERROR for a syntax error, CONFIG_NOT_STATIC for anything
    that would need evaluation (naming the construct and its line), CONFIG_INVALID when the
    export is not an object.
    """
    grammar: GrammarName = "typescript" if path.suffix in TYPESCRIPT_SUFFIXES else "javascript"
    program = parse(text.encode("utf-8"), grammar).root_node
    broken = _first_syntax_error(program)
    if broken is not None:
        where = f"{path}:{line_of(broken)}:{broken.start_point.column + 1}"
        # the offending text is not quoted: it may be part of a secret
        what = f"missing `{broken.type}`" if broken.is_missing else "unexpected code here"
        raise ProblemError(error(Code.CONFIG_PARSE_ERROR, f"{where}: syntax error: {what}", where))
    bindings, imports = top_level_names(program)
    reader = LiteralReader(bindings, imports)
    try:
        exported = _default_export(program)
        value = reader.value(exported)
    except NotStatic as problem:
        where = f"{path}:{problem.line}"
        raise ProblemError(
            error(
                Code.CONFIG_NOT_STATIC,
                f"{where}: {problem.construct} cannot be read statically; {_CONVERT_HINT}",
                where,
            )
        ) from None
    if not isinstance(value, dict):
        where = f"{path}:{line_of(exported)}"
        raise ProblemError(
            error(
                Code.CONFIG_INVALID,
                f"{where}: the default export must be an object literal (`export default {{…}}`)",
                where,
            )
        )
    return ConfigDocument(path=path, data=value, key_lines=reader.key_lines)


def _first_syntax_error(node: Node) -> Node | None:
    if node.type == "ERROR" or node.is_missing:
        return node
    if not node.has_error:
        return None
    for child in node.children:
        found = _first_syntax_error(child)
        if found is not None:
            return found
    return None


def top_level_names(program: Node) -> tuple[dict[str, Node], dict[str, str]]:
    """Top-level `const` initialisers by name, and imported names with their module."""
    bindings: dict[str, Node] = {}
    imports: dict[str, str] = {}
    for statement in program.named_children:
        declaration = statement.child_by_field_name("declaration") or statement
        if declaration.type == "lexical_declaration" and _is_const(declaration):
            for declarator in declaration.named_children:
                name = declarator.child_by_field_name("name")
                value = declarator.child_by_field_name("value")
                if name is not None and name.type == "identifier" and value is not None:
                    bindings[node_text(name)] = value
        elif statement.type == "import_statement":
            source = statement.child_by_field_name("source")
            module = node_text(source).strip("'\"") if source is not None else "?"
            for local in _imported_names(statement):
                imports[local] = module
    return bindings, imports


def _is_const(declaration: Node) -> bool:
    kind = declaration.child_by_field_name("kind")
    return kind is not None and kind.type == "const"


def _imported_names(node: Node) -> list[str]:
    names: list[str] = []
    for child in node.named_children:
        if child.type == "import_specifier":
            local = child.child_by_field_name("alias") or child.child_by_field_name("name")
            if local is not None:
                names.append(node_text(local))
        elif child.type == "identifier":
            names.append(node_text(child))
        elif child.type in ("import_clause", "named_imports", "namespace_import"):
            names.extend(_imported_names(child))
    return names


def _default_export(program: Node) -> Node:
    """The expression the module exports as its default (the last one, as JS would)."""
    exported: Node | None = None
    for statement in program.named_children:
        if statement.type == "export_statement":
            exported = _export_statement_default(statement) or exported
        elif statement.type == "expression_statement":
            exported = module_exports_value(statement) or exported
    if exported is None:
        raise NotStatic("a config without `export default {…}` or `module.exports = {…}`", 1)
    return exported


def _export_statement_default(statement: Node) -> Node | None:
    if any(child.type == "default" for child in statement.children):
        value = statement.child_by_field_name("value")
        if value is not None:
            return value
        declaration = statement.child_by_field_name("declaration") or statement
        raise NotStatic(describe_construct(declaration), line_of(declaration))
    for clause in statement.named_children:
        if clause.type != "export_clause":
            continue
        for specifier in clause.named_children:
            alias = specifier.child_by_field_name("alias")
            if alias is not None and node_text(alias) == "default":
                return specifier.child_by_field_name("name")
    return None


def module_exports_value(statement: Node) -> Node | None:
    """The value a `module.exports = …` statement assigns, or `None` for any other statement."""
    expression = statement.named_children[0] if statement.named_children else None
    if expression is None or expression.type != "assignment_expression":
        return None
    target = expression.child_by_field_name("left")
    if target is None or node_text(target).replace(" ", "") != "module.exports":
        return None
    return expression.child_by_field_name("right")
