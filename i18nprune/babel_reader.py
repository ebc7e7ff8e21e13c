"""Reading one Babel config without running it: where it names babel-plugin-react-intl-auto
and with which options, in its base and each `env` section. JSON configs (JSON5, as Babel reads
them) and JS configs whose export is an object literal, or a function that returns one.

Loaded only for a config whose text names the plugin (it loads the parsers).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from tree_sitter import Node

from i18nprune.config.js_literal import LiteralReader, NotStatic, describe_construct, line_of
from i18nprune.config.static_reader import module_exports_value
from i18nprune.scan.message_ids import PLUGIN, JsRegex
from i18nprune.syntax_tree import GrammarName, node_text, parse

_PLUGIN_NAMES = frozenset({"react-intl-auto", PLUGIN})
# The builds whose ids the locale files hold: Babel's default environment, and the one a
# production build sets.
_BUILD_ENVS = ("development", "production")


class Found(NamedTuple):
    """What one config file says of the plugin: its options (`{}` when it is named without
    any), or why they cannot be read."""

    options: dict[str, Any] | None
    problem: str | None = None


class _Entry(NamedTuple):
    """The plugin's entry in one `plugins` list: its options (`None`: `[plugin, false]`, which
    turns it off)."""

    options: dict[str, Any] | None


def read_plugin(path: Path, text: str) -> Found | None:
    """What the config `path`, whose text is `text`, says of the plugin; `None` when it does
    not name it (a comment that does is not enough)."""
    is_json = path.suffix in ("", ".json")
    grammar: GrammarName = "typescript" if path.suffix == ".cts" else "javascript"
    source = f"({text}\n)" if is_json else text
    program = parse(source.encode("utf-8"), grammar).root_node
    if not _names_plugin(program):
        return None  # only in comments
    try:
        config, reader = _exported_config(program, _Reader(_top_level_bindings(program)), is_json)
        if path.name == "package.json":
            babel = _property(config, "babel", reader)
            if babel is None:
                return None
            config, reader = _object_of(babel, reader)
        entries = _plugin_entries(config, reader)
    except NotStatic as problem:
        return Found(None, f"{problem.construct} (line {problem.line}) cannot be read statically")
    if not entries:
        return Found(None, "it names the plugin where i18nprune cannot read it statically")
    return _chosen(entries)


def _chosen(entries: dict[str | None, _Entry]) -> Found | None:
    """The plugin's options in the builds that ship ids (an `env` section replaces the base
    entry): the same in each build that runs the plugin, or a problem."""
    base = entries.get(None)
    built = [entries.get(env, base) for env in _BUILD_ENVS]
    present = [entry.options for entry in built if entry is not None and entry.options is not None]
    if not present:
        return None  # only in other environments (`test`), or turned off
    if any(options != present[0] for options in present):
        return Found(None, "its options differ between env.development and env.production")
    return Found(present[0])


class _Reader(LiteralReader):
    """Literal values, and regular expression literals as `JsRegex`; knows the names a config
    binds (top-level, and a config function's own)."""

    def __init__(self, bindings: Mapping[str, Node]) -> None:
        super().__init__(bindings)
        self.bindings = dict(bindings)

    def value(self, node: Node, path: tuple[str | int, ...] = ()) -> Any:
        if node.type == "regex":
            pattern = node.child_by_field_name("pattern")
            flags = node.child_by_field_name("flags")
            return JsRegex(
                node_text(pattern) if pattern is not None else "",
                node_text(flags) if flags is not None else "",
            )
        return super().value(node, path)

    def with_bindings(self, bindings: Mapping[str, Node]) -> _Reader:
        return _Reader({**self.bindings, **bindings})

    def bound(self, name: Node) -> Node:
        """The initialiser of the name `name`. Raises NotStatic when it has none here."""
        value = self.bindings.get(node_text(name))
        if value is None:
            raise NotStatic(describe_construct(name), line_of(name))
        return value


def _names_plugin(node: Node) -> bool:
    """Whether a string under `node` (not a comment) names the plugin."""
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type in ("string", "template_string"):
            if "react-intl-auto" in node_text(current):
                return True
            continue
        pending.extend(current.named_children)
    return False


def _top_level_bindings(program: Node) -> dict[str, Node]:
    bindings: dict[str, Node] = {}
    for statement in program.named_children:
        declaration = statement.child_by_field_name("declaration") or statement
        bindings.update(_declared(declaration))
    return bindings


def _declared(statement: Node) -> dict[str, Node]:
    """The names a `const`/`let`/`var` statement binds, with their initialisers."""
    if statement.type not in ("lexical_declaration", "variable_declaration"):
        return {}
    declared: dict[str, Node] = {}
    for declarator in statement.named_children:
        name = declarator.child_by_field_name("name")
        value = declarator.child_by_field_name("value")
        if name is not None and value is not None and name.type == "identifier":
            declared[node_text(name)] = value
    return declared


def _exported_config(program: Node, reader: _Reader, is_json: bool) -> tuple[Node, _Reader]:
    """The object the file gives Babel (for JSON, the whole document), with the reader that
    knows the names it may use."""
    exported: Node | None = None
    for statement in program.named_children:
        if statement.type == "expression_statement":
            inner = statement.named_children[0] if statement.named_children else None
            exported = inner if is_json else (module_exports_value(statement) or exported)
        elif statement.type == "export_statement" and any(
            child.type == "default" for child in statement.children
        ):
            exported = statement.child_by_field_name("value") or statement.child_by_field_name(
                "declaration"
            )
    if exported is None:
        raise NotStatic("a config without `module.exports = {…}` or `export default {…}`", 1)
    return _object_of(exported, reader)


_FUNCTIONS = frozenset(
    {"function_expression", "function", "arrow_function", "function_declaration"}
)
_WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression"})


def _object_of(node: Node, reader: _Reader) -> tuple[Node, _Reader]:
    """The object literal `node` stands for (itself, through a name bound to one, or what a
    config function returns), with the reader that knows the names it may use. Raises
    NotStatic for anything else."""
    while node.type in _WRAPPERS or node.type == "identifier":
        if node.type == "identifier":
            node = reader.bound(node)
        else:
            node = next(child for child in node.named_children if child.type != "comment")
    if node.type in _FUNCTIONS:
        returned, local = _returned(node, reader)
        return _object_of(returned, local)
    if node.type != "object":
        raise NotStatic(describe_construct(node), line_of(node))
    return node, reader


def _returned(function: Node, reader: _Reader) -> tuple[Node, _Reader]:
    """What a config function `(api) => { api.cache(true); const x = …; return {…} }` returns,
    with a reader that knows its local names. Statements that neither name the plugin nor
    return (`api.cache(true)`, `if (x) plugins.push(other)`) cannot change its entry; any
    other raises NotStatic."""
    body = function.child_by_field_name("body")
    if body is None:
        raise NotStatic(describe_construct(function), line_of(function))
    if body.type != "statement_block":
        return body, reader
    local: dict[str, Node] = {}
    for statement in body.named_children:
        if statement.type == "comment":
            continue
        if statement.type == "return_statement":
            returned = next((c for c in statement.named_children if c.type != "comment"), None)
            if returned is None:
                break
            return returned, reader.with_bindings(local)
        if statement.type in ("lexical_declaration", "variable_declaration"):
            local.update(_declared(statement))
        elif _names_plugin(statement) or _returns(statement):
            # It may add the plugin, or return another config (`if (x) return {…}`).
            raise NotStatic(describe_construct(statement), line_of(statement))
    raise NotStatic("a config function that returns no object", line_of(function))


def _returns(node: Node) -> bool:
    """Whether `node` holds a `return` of the function it is in (not of a nested one)."""
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type == "return_statement":
            return True
        if current.type not in _FUNCTIONS:
            pending.extend(current.named_children)
    return False


def _property(config: Node, name: str, reader: _Reader) -> Node | None:
    """The value node of property `name` of an object literal (a shorthand's through its
    binding), `None` when it has none. Raises NotStatic for a spread that names the plugin."""
    for member in config.named_children:
        if member.type == "pair":
            key = member.child_by_field_name("key")
            if key is not None and _key_text(key) == name:
                return member.child_by_field_name("value")
        elif member.type == "shorthand_property_identifier" and node_text(member) == name:
            return reader.bound(member)
        elif member.type == "spread_element" and _names_plugin(member):
            raise NotStatic(describe_construct(member), line_of(member))
    return None


def _is_filter_boolean(node: Node) -> bool:
    if node.type != "call_expression":
        return False
    callee = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    return (
        callee is not None
        and callee.type == "member_expression"
        and node_text(callee.child_by_field_name("property") or callee) == "filter"
        and arguments is not None
        and node_text(arguments).replace(" ", "") == "(Boolean)"
    )


def _key_text(key: Node) -> str:
    text = node_text(key)
    return text[1:-1] if key.type == "string" else text


def _plugin_entries(config: Node, reader: _Reader) -> dict[str | None, _Entry]:
    """The plugin's entry in the base config (key `None`) and in each `env` section that
    names it. Raises NotStatic where one cannot be read."""
    overrides = _property(config, "overrides", reader)
    if overrides is not None and _names_plugin(overrides):
        raise NotStatic("the plugin inside `overrides`", line_of(overrides))
    entries: dict[str | None, _Entry] = {}
    base = _entry(config, reader)
    if base is not None:
        entries[None] = base
    envs = _property(config, "env", reader)
    if envs is None:
        return entries
    sections, reader = _object_of(envs, reader)
    for member in sections.named_children:
        key = member.child_by_field_name("key") if member.type == "pair" else None
        value = member.child_by_field_name("value") if member.type == "pair" else None
        if key is not None and value is not None and _names_plugin(value):
            entry = _entry(*_object_of(value, reader))
            if entry is not None:
                entries[_key_text(key)] = entry
    return entries


def _entry(config: Node, reader: _Reader) -> _Entry | None:
    """The plugin's entry in `config.plugins`, if it has one. Items that do not name the
    plugin are not read (they may be anything)."""
    plugins = _property(config, "plugins", reader)
    if plugins is None or not _names_plugin(plugins):
        return None
    while plugins.type == "identifier" or _is_filter_boolean(plugins):
        if plugins.type == "identifier":
            plugins = reader.bound(plugins)
        else:  # `[…].filter(Boolean)` drops the entries a condition turned off
            callee = plugins.child_by_field_name("function")
            target = callee.child_by_field_name("object") if callee is not None else None
            if target is None:
                break
            plugins = target
    if plugins.type != "array":
        raise NotStatic(describe_construct(plugins), line_of(plugins))
    for item in plugins.named_children:
        if item.type == "comment" or not _names_plugin(item):
            continue
        value = reader.value(item)
        name, options = (value[0], value[1:2]) if isinstance(value, list) and value else (value, [])
        if not isinstance(name, str) or name.rsplit("/", 1)[-1] not in _PLUGIN_NAMES:
            continue
        given = options[0] if options else {}
        if given is False:
            return _Entry(None)
        return _Entry(dict(given) if isinstance(given, dict) else {})
    return None


__all__ = ["Found", "read_plugin"]
