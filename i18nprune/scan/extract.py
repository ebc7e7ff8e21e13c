"""Extraction: the key sites, translator bindings and exported constants of one source file.

One tree-sitter query finds the candidate calls (callee names filtered inside tree-sitter), the
declarations that bind a translation function, `i18nKey` attributes and exports; Python only
looks at what matched.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

import tree_sitter

from i18nprune.scan.callees import (
    FACTORIES_RETURNING_TRANSLATOR,
    HOOKS_RETURNING_OBJECT,
    CalleeNames,
)
from i18nprune.scan.evaluate import Evaluator
from i18nprune.scan.expressions import (
    OPAQUE,
    Branches,
    Expr,
    Imported,
    Opaque,
    Record,
    reads_imports,
)
from i18nprune.scan.facts import FileFacts, ResolvedKey, SiteFact, SymbolicKey
from i18nprune.scan.grammars import SCRIPT_SUFFIXES, GrammarName, language, parse
from i18nprune.scan.key_shapes import resolve_key
from i18nprune.scan.markup import expression_end, svelte_document, vue_document
from i18nprune.scan.scopes import (
    enclosing_scope,
    is_relative_module,
    named_child,
    node_text,
    plain_string,
)

_UTF8_BOM = b"\xef\xbb\xbf"
_PREVIEW_CHARS = 80
_PATTERN_WRAPPERS = frozenset(
    {"object_pattern", "pair_pattern", "assignment_pattern", "object_assignment_pattern"}
)
_PARAMETER_WRAPPERS = frozenset({"required_parameter", "optional_parameter"})

_SITES_QUERY = """
(call_expression function: (identifier) @callee (#any-of? @callee {names})) @call
(call_expression
  function: (member_expression property: (_) @callee) (#any-of? @callee {names})) @call
(variable_declarator
  value: (call_expression function: (identifier) @factory) (#any-of? @factory {factories}))
  @translator
(variable_declarator
  value: (await_expression (call_expression function: (identifier) @factory))
  (#any-of? @factory {factories})) @translator
(variable_declarator
  value: (call_expression function: (member_expression property: (_) @factory))
  (#any-of? @factory {factories})) @translator
(variable_declarator
  value: (await_expression
    (call_expression function: (member_expression property: (_) @factory)))
  (#any-of? @factory {factories})) @translator
(variable_declarator name: (identifier) value: (identifier)) @alias
(variable_declarator
  name: (identifier)
  value: (member_expression property: (_) @aliased) (#any-of? @aliased {names})) @alias
(variable_declarator
  name: (identifier)
  value: (call_expression function: (member_expression property: (_) @bound))
  (#eq? @bound "bind")) @alias
(pair_pattern
  key: (property_identifier) @renamed value: (identifier) (#any-of? @renamed {names})) @rename
(import_specifier
  name: (identifier) @renamed alias: (identifier) (#any-of? @renamed {names})) @rename
(export_statement) @export
"""
_JSX_QUERY = """
(jsx_attribute (property_identifier) @attribute (#eq? @attribute "i18nKey")) @key_attribute
"""
_IDENTIFIER_CALLS_QUERY = "(call_expression function: (identifier) @callee) @call"


class _Translator(NamedTuple):
    """A translation function; `prefix` is the key prefix its keys get (`None`: none)."""

    prefix: Expr | None


class _Binding(NamedTuple):
    scope_start: int
    scope_end: int
    translator: _Translator


_PLAIN = _Translator(None)
_EMPTY_CALL = ResolvedKey([], "empty_call", None, None)
# Commented calls prove no key and protect no prefix: only their position is reported.
_COMMENTED = ResolvedKey([], "commented", None, None)


def extract_facts(content: bytes, suffix: str, names: CalleeNames) -> FileFacts:
    """Everything the scan needs from one file, as a pure function of its bytes and type.

    `suffix` picks the grammar (`.vue`/`.svelte` go through their markup first); `names` are the
    configured translation functions. Syntax errors never raise: tree-sitter recovers and the
    first error's position is recorded in the facts.
    """
    if suffix == ".vue":
        document, grammar = vue_document(content)
    elif suffix == ".svelte":
        document, grammar = svelte_document(content)
    else:
        document, grammar = content, SCRIPT_SUFFIXES[suffix]
        if document.startswith(_UTF8_BOM):
            document = b"   " + document[3:]
    tree = parse(document, grammar)
    return _Extraction(content, document, grammar, tree.root_node, names).facts()


def _quoted(words: tuple[str, ...]) -> str:
    return " ".join('"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"' for word in words)


@functools.cache
def _sites_query(grammar: GrammarName, names: tuple[str, ...]) -> tree_sitter.Query:
    text = _SITES_QUERY.format(
        names=_quoted(names),
        factories=_quoted((*HOOKS_RETURNING_OBJECT, *FACTORIES_RETURNING_TRANSLATOR)),
    )
    if grammar != "typescript":
        text += _JSX_QUERY
    return tree_sitter.Query(language(grammar), text)


@functools.cache
def _identifier_calls_query(grammar: GrammarName) -> tree_sitter.Query:
    return tree_sitter.Query(language(grammar), _IDENTIFIER_CALLS_QUERY)


@functools.cache
def _commented_call(name: str) -> re.Pattern[bytes]:
    escaped = re.escape(name.encode())
    return re.compile(escaped + rb"(?<![\w$]" + escaped + rb")\(")


class _Positions:
    """Lines, columns and previews in the original file (columns count code points)."""

    def __init__(self, content: bytes) -> None:
        self._content = content
        self._bom = len(_UTF8_BOM) if content.startswith(_UTF8_BOM) else 0

    def line_column(self, offset: int) -> tuple[int, int]:
        line_start = max(self._content.rfind(b"\n", 0, offset) + 1, self._bom)
        segment = self._content[line_start:offset]
        column = len(segment) if segment.isascii() else len(segment.decode("utf-8", "replace"))
        return self._content.count(b"\n", 0, offset) + 1, column + 1

    def preview(self, start: int, end: int) -> str:
        text = self._content[start : min(end, start + 8 * _PREVIEW_CHARS)]
        collapsed = " ".join(text.decode("utf-8", "replace").split())
        if len(collapsed) <= _PREVIEW_CHARS:
            return collapsed
        return collapsed[: _PREVIEW_CHARS - 1] + "…"


class _Extraction:
    """The state of extracting one file: its tree, translator bindings and the sites found."""

    def __init__(
        self,
        content: bytes,
        document: bytes,
        grammar: GrammarName,
        root: tree_sitter.Node,
        names: CalleeNames,
    ) -> None:
        self._document = document
        self._grammar = grammar
        self._root = root
        self._names = names
        self._positions = _Positions(content)
        self._evaluator = Evaluator()
        self._bindings: dict[str, list[_Binding]] = {}
        self._sites: list[SiteFact] = []

    def facts(self) -> FileFacts:
        query = _sites_query(self._grammar, self._names.last_segments)
        captures = tree_sitter.QueryCursor(query).captures(self._root)
        factories = self._bind_factories(captures.get("translator", []))
        self._bind_renames(captures.get("rename", []), factories)
        self._bind_aliases(captures.get("alias", []))
        seen: set[int] = set()
        for call in [*captures.get("call", []), *self._calls_of_other_bindings()]:
            if call.id in seen:
                continue
            seen.add(call.id)
            callee = call.child_by_field_name("function")
            translator = self._translator_of(callee) if callee is not None else None
            if translator is not None:
                self._call_site(call, translator)
        for attribute in captures.get("key_attribute", []):
            self._attribute_site(attribute)
        self._commented_sites()
        exports, star_exports = self._exports(captures.get("export", []))
        self._sites.sort(key=lambda site: (site.line, site.column))
        return FileFacts(
            sites=self._sites,
            exports=exports,
            star_exports=star_exports,
            syntax_error=self._first_syntax_error(),
        )

    # -- translator bindings ------------------------------------------------------------------

    def _bind(self, name: str, scope: tree_sitter.Node, translator: _Translator) -> None:
        binding = _Binding(scope.start_byte, scope.end_byte, translator)
        self._bindings.setdefault(name, []).append(binding)

    def _bind_factories(self, declarators: list[tree_sitter.Node]) -> set[int]:
        """Bind `const { t } = useTranslation(…)`, `const t = useTranslations(…)` and the like."""
        bound: set[int] = set()
        for declarator in declarators:
            call = declarator.child_by_field_name("value")
            if call is not None and call.type == "await_expression":
                call = named_child(call, 0)
            pattern = declarator.child_by_field_name("name")
            statement = declarator.parent
            if call is None or pattern is None or statement is None:
                continue
            function = call.child_by_field_name("function")
            arguments_node = call.child_by_field_name("arguments")
            if function is not None and function.type == "member_expression":
                function = function.child_by_field_name("property")
            if function is None or arguments_node is None:
                continue
            factory = node_text(function)
            arguments = [node for node in arguments_node.named_children if node.type != "comment"]
            scope = enclosing_scope(statement)
            bound.add(declarator.id)
            if factory in HOOKS_RETURNING_OBJECT:
                prefix = None
                if factory == "useTranslation" and len(arguments) > 1:
                    prefix = self._option(arguments[1], "keyPrefix")
                for local in _hook_translator_names(pattern):
                    self._bind(local, scope, _Translator(prefix))
            elif pattern.type == "identifier":
                prefix = self._factory_prefix(factory, arguments)
                self._bind(node_text(pattern), scope, _Translator(prefix))
        return bound

    def _factory_prefix(self, factory: str, arguments: list[tree_sitter.Node]) -> Expr | None:
        """The key prefix of a translation function made by `factory(arguments…)`.

        next-intl's `useTranslations('ns')`/`getTranslations('ns')` nest keys under the
        namespace; i18next's `getFixedT(lng, ns, keyPrefix)` takes it as its third argument.
        """
        position = 2 if factory == "getFixedT" else 0
        if len(arguments) <= position or arguments[position].type in ("null", "undefined"):
            return None
        argument = arguments[position]
        if factory == "getTranslations" and argument.type == "object":
            return self._option(argument, "namespace")
        return self._evaluator.value_of(argument)

    def _bind_renames(self, nodes: list[tree_sitter.Node], factories: set[int]) -> None:
        """Bind `import { t as tr }` and `{ t: tx }` patterns (props, parameters, objects)."""
        for node in nodes:
            if node.type == "import_specifier":
                local = node.child_by_field_name("alias")
                if local is not None:
                    self._bind(node_text(local), self._root, _PLAIN)
                continue
            local = node.child_by_field_name("value")
            owner = node.parent
            while owner is not None and owner.type in _PATTERN_WRAPPERS:
                owner = owner.parent
            if owner is not None and owner.type in _PARAMETER_WRAPPERS:
                owner = owner.parent
            scope: tree_sitter.Node | None = None
            if owner is None or local is None:
                continue
            if owner.type == "variable_declarator" and owner.id not in factories:
                scope = enclosing_scope(owner.parent) if owner.parent is not None else None
            elif owner.type == "formal_parameters":
                scope = owner.parent
            if scope is not None:
                self._bind(node_text(local), scope, _PLAIN)

    def _bind_aliases(self, declarators: list[tree_sitter.Node]) -> None:
        """Bind `const tt = t`, `const tt = i18n.t`, `const tt = t.bind(i18n)`, chains included."""
        pending = declarators
        progressed = True
        while pending and progressed:
            progressed = False
            waiting = []
            for declarator in pending:
                name = declarator.child_by_field_name("name")
                target = declarator.child_by_field_name("value")
                if target is not None and target.type == "call_expression":
                    function = target.child_by_field_name("function")
                    target = function.child_by_field_name("object") if function else None
                translator = self._translator_of(target) if target is not None else None
                if translator is None or name is None or declarator.parent is None:
                    waiting.append(declarator)
                    continue
                self._bind(node_text(name), enclosing_scope(declarator.parent), translator)
                progressed = True
            pending = waiting

    def _translator_of(self, callee: tree_sitter.Node) -> _Translator | None:
        """The translation function `callee` refers to at its position, if it is one."""
        kind = callee.type
        if kind == "identifier":
            name = node_text(callee)
            best: _Binding | None = None
            for binding in self._bindings.get(name, ()):
                if binding.scope_start <= callee.start_byte < binding.scope_end and (
                    best is None
                    or binding.scope_end - binding.scope_start < best.scope_end - best.scope_start
                ):
                    best = binding
            if best is not None:
                return best.translator
            return _PLAIN if name in self._names.bare else None
        if kind == "member_expression":
            path = _dotted_path(callee)
            return _PLAIN if path is not None and self._names.matches_path(path) else None
        if kind in ("non_null_expression", "parenthesized_expression"):
            inner = named_child(callee, 0)
            return self._translator_of(inner) if inner is not None else None
        return None

    def _calls_of_other_bindings(self) -> list[tree_sitter.Node]:
        """Calls through bound names that the main query's name filter could not know."""
        others = set(self._bindings) - set(self._names.last_segments)
        if not others:
            return []
        captures = tree_sitter.QueryCursor(_identifier_calls_query(self._grammar)).captures(
            self._root
        )
        calls = []
        for call in captures.get("call", []):
            callee = call.child_by_field_name("function")
            if callee is not None and node_text(callee) in others:
                calls.append(call)
        return calls

    # -- sites --------------------------------------------------------------------------------

    def _site(
        self,
        start: int,
        end: int,
        meaning: ResolvedKey | SymbolicKey,
        plural: bool = False,
        position: int | None = None,
    ) -> None:
        """Record a site spanning [start, end) of the file, located at `position` or `start`."""
        line, column = self._positions.line_column(start if position is None else position)
        preview = self._positions.preview(start, end)
        self._sites.append(SiteFact(line, column, preview, plural, meaning))

    def _key_site(
        self,
        node: tree_sitter.Node,
        key: Expr,
        translator: _Translator,
        plural: bool,
        context: Expr | None,
        position: int | None = None,
    ) -> None:
        """Record a site naming `key`, resolved now unless it reads imported constants."""
        prefix = translator.prefix
        meaning: ResolvedKey | SymbolicKey = (
            SymbolicKey(key, prefix, context)
            if reads_imports(key) or reads_imports(prefix) or reads_imports(context)
            else resolve_key(key, prefix, context)
        )
        self._site(node.start_byte, node.end_byte, meaning, plural, position)

    def _call_site(self, call: tree_sitter.Node, translator: _Translator) -> None:
        arguments_node = call.child_by_field_name("arguments")
        if arguments_node is None or arguments_node.type != "arguments":
            return  # a tagged template such as t`key` is not a call with arguments
        arguments = [node for node in arguments_node.named_children if node.type != "comment"]
        if not arguments:
            self._site(call.start_byte, call.end_byte, _EMPTY_CALL)
            return
        options = next((node for node in arguments[1:3] if node.type == "object"), None)
        plural, context = self._plural_and_context(options)
        key = self._key_argument(arguments[0])
        self._key_site(call, key, translator, plural, context)

    def _key_argument(self, node: tree_sitter.Node) -> Expr:
        if node.type == "array":  # i18next fallback keys: t(['a.specific', 'a.fallback'])
            options = [self._evaluator.value_of(item) for item in node.named_children]
            return Branches(options) if options else OPAQUE
        return self._evaluator.value_of(node)

    def _plural_and_context(self, options: tree_sitter.Node | None) -> tuple[bool, Expr | None]:
        plural, context = False, None
        for child in options.named_children if options is not None else ():
            if child.type == "shorthand_property_identifier":
                name = node_text(child)
                value = self._evaluator.binding_value(name, child)
            elif child.type == "pair":
                key_node = child.child_by_field_name("key")
                value_node = child.child_by_field_name("value")
                if key_node is None or value_node is None:
                    continue
                name = plain_string(key_node) or node_text(key_node)
                value = self._evaluator.value_of(value_node) if name == "context" else OPAQUE
            else:
                continue
            if name == "count":
                plural = True
            elif name == "context":
                context = value
        return plural, context

    def _option(self, node: tree_sitter.Node, name: str) -> Expr | None:
        """The value of property `name` of an options argument, `None` when it has none.

        An options object that is not a literal is assumed not to set the option.
        """
        if node.type != "object":
            value = self._evaluator.value_of(node)
            return value.fields.get(name) if isinstance(value, Record) else None
        for child in node.named_children:
            if child.type == "pair":
                key_node = child.child_by_field_name("key")
                value_node = child.child_by_field_name("value")
                if (
                    key_node is not None
                    and value_node is not None
                    and (plain_string(key_node) or node_text(key_node)) == name
                ):
                    return self._evaluator.value_of(value_node)
            elif child.type == "shorthand_property_identifier" and node_text(child) == name:
                return self._evaluator.binding_value(name, child)
        return None

    def _attribute_site(self, attribute: tree_sitter.Node) -> None:
        """`<Trans i18nKey="k" count={n} context="male">` names a key like a call does."""
        value = named_child(attribute, 1)
        element = attribute.parent
        if value is None or element is None:
            return
        plural, context = False, None
        for sibling in element.named_children:
            sibling_name = named_child(sibling, 0)
            if sibling.type != "jsx_attribute" or sibling_name is None:
                continue
            name = node_text(sibling_name)
            sibling_value = named_child(sibling, 1)
            if name == "count":
                plural = True
            elif name == "context" and sibling_value is not None:
                context = self._jsx_value(sibling_value)
        key = self._jsx_value(value)
        self._key_site(element, key, _PLAIN, plural, context, position=attribute.start_byte)

    def _jsx_value(self, node: tree_sitter.Node) -> Expr:
        if node.type == "jsx_expression":
            inner = next((c for c in node.named_children if c.type != "comment"), None)
            return self._evaluator.value_of(inner) if inner is not None else OPAQUE
        return self._evaluator.value_of(node)

    def _commented_sites(self) -> None:
        """Calls of translation functions inside comments: reported, but they prove nothing."""
        document = self._document
        for name in sorted({*self._names.last_segments, *self._bindings}):
            for match in _commented_call(name).finditer(document):
                node = self._root.descendant_for_byte_range(match.start(), match.start() + 1)
                if node is None or node.type != "comment":
                    continue
                start = match.start()
                while start > node.start_byte and (
                    chr(document[start - 1]).isalnum() or document[start - 1] in b"_$."
                ):
                    start -= 1
                close = expression_end(document, match.end(), node.end_byte, b")")
                end = close + 1 if close >= 0 else node.end_byte
                self._site(start, end, _COMMENTED)

    # -- exports ------------------------------------------------------------------------------

    def _exports(self, statements: list[tree_sitter.Node]) -> tuple[dict[str, Expr], list[str]]:
        exports: dict[str, Expr] = {}
        stars: list[str] = []
        for statement in statements:
            if statement.parent is None or statement.parent.type != "program":
                continue
            source_node = statement.child_by_field_name("source")
            if source_node is not None:
                source = plain_string(source_node)
                if source is not None and is_relative_module(source):
                    self._re_exports(statement, source, exports, stars)
                continue
            declaration = statement.child_by_field_name("declaration")
            value = statement.child_by_field_name("value")
            if declaration is not None:
                self._declared_exports(declaration, exports)
            elif value is not None:
                exports["default"] = self._evaluator.value_of(value)
            else:
                for local, exported in _export_clause_names(statement):
                    value_of_local = self._evaluator.binding_value(local, statement)
                    exports[exported] = value_of_local
        return {name: value for name, value in exports.items() if _worth_exporting(value)}, stars

    def _declared_exports(self, declaration: tree_sitter.Node, exports: dict[str, Expr]) -> None:
        if declaration.type == "enum_declaration":
            name = declaration.child_by_field_name("name")
            if name is not None:
                exports[node_text(name)] = self._evaluator.enum_value(declaration)
            return
        if declaration.type != "lexical_declaration":
            return
        if declaration.child_count == 0 or declaration.children[0].type != "const":
            return
        for declarator in declaration.named_children:
            name = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if name is not None and value is not None and name.type == "identifier":
                exports[node_text(name)] = self._evaluator.value_of(value)

    def _re_exports(
        self,
        statement: tree_sitter.Node,
        source: str,
        exports: dict[str, Expr],
        stars: list[str],
    ) -> None:
        kinds = {child.type: child for child in statement.named_children}
        namespace = kinds.get("namespace_export")
        clause = kinds.get("export_clause")
        if namespace is not None:
            for name in namespace.named_children:
                exports[plain_string(name) or node_text(name)] = Imported(source, "*")
        elif clause is not None:
            for local, exported in _export_clause_names(statement):
                exports[exported] = Imported(source, local)
        else:
            stars.append(source)

    def _first_syntax_error(self) -> tuple[int, int] | None:
        node = self._root
        if not node.has_error:
            return None
        while True:
            for child in node.children:
                if child.is_error or child.is_missing:
                    return self._positions.line_column(child.start_byte)
                if child.has_error:
                    node = child
                    break
            else:
                return self._positions.line_column(node.start_byte)


def _hook_translator_names(pattern: tree_sitter.Node) -> list[str]:
    """The local names `t` gets in `const { t } = …`, `{ t: tx }` or `[t] = useTranslation()`."""
    if pattern.type == "array_pattern":
        first = named_child(pattern, 0)
        return [node_text(first)] if first is not None and first.type == "identifier" else []
    names = []
    for child in pattern.named_children if pattern.type == "object_pattern" else ():
        if child.type == "shorthand_property_identifier_pattern" and node_text(child) == "t":
            names.append("t")
        elif child.type == "pair_pattern":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if (
                key is not None
                and value is not None
                and node_text(key) == "t"
                and value.type == "identifier"
            ):
                names.append(node_text(value))
    return names


def _dotted_path(node: tree_sitter.Node) -> str | None:
    """`i18n.t`, `this.$t`: the path of a member chain of plain names, else `None`."""
    if node.type in ("identifier", "this", "super"):
        return node_text(node)
    if node.type == "member_expression":
        target = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if target is None or prop is None or prop.type != "property_identifier":
            return None
        head = _dotted_path(target)
        return None if head is None else head + "." + node_text(prop)
    if node.type == "non_null_expression":
        inner = named_child(node, 0)
        return _dotted_path(inner) if inner is not None else None
    return None


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
    if isinstance(value, Opaque):
        return False
    return not (isinstance(value, Record) and not value.fields)
