"""Extraction: the key sites, translator bindings and exported constants of one source file.

Only the nodes around occurrences of translation names are examined (see `occurrences`), so the
cost beyond parsing grows with the number of key sites, not with the size of the file.
"""

from __future__ import annotations

from typing import NamedTuple

import tree_sitter

from i18nprune.scan.callees import (
    FACTORIES_RETURNING_TRANSLATOR,
    HOOKS_RETURNING_OBJECT,
    CalleeNames,
)
from i18nprune.scan.evaluate import Evaluator
from i18nprune.scan.exports import exported_constants
from i18nprune.scan.expressions import (
    OPAQUE,
    Branches,
    Expr,
    Record,
    reads_imports,
)
from i18nprune.scan.facts import FileFacts, ResolvedKey, SiteFact, SymbolicKey
from i18nprune.scan.grammars import SCRIPT_SUFFIXES, GrammarName, parse
from i18nprune.scan.key_shapes import resolve_key
from i18nprune.scan.markup import expression_end, svelte_document, vue_document
from i18nprune.scan.occurrences import NameUses
from i18nprune.scan.scopes import (
    enclosing_scope,
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

_FACTORIES = (*HOOKS_RETURNING_OBJECT, *FACTORIES_RETURNING_TRANSLATOR)


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
        self._factory_declarators: set[int] = set()
        self._sites: list[SiteFact] = []

    def facts(self) -> FileFacts:
        uses = NameUses(self._document, self._root)
        searched = set(self._names.last_segments)
        for name in sorted(searched):
            uses.add_translator_name(name)
        for name in _FACTORIES:
            uses.add_factory_name(name)
        if self._grammar != "typescript":
            uses.add_attribute_name("i18nKey")
        self._bind_factories(uses.factories)
        bound: set[int] = set()
        while True:
            # A bound name may itself be copied or renamed: search until no new name appears.
            self._bind_renames(uses.renames, bound)
            self._bind_aliases(uses.aliases, bound)
            new_names = sorted(set(self._bindings) - searched)
            if not new_names:
                break
            searched.update(new_names)
            for name in new_names:
                uses.add_translator_name(name)
        seen: set[int] = set()
        for call in uses.calls:
            callee = call.child_by_field_name("function")
            if call.id in seen or callee is None:
                continue
            seen.add(call.id)
            translator = self._translator_of(callee)
            if translator is not None:
                self._call_site(call, translator)
        for attribute in uses.attributes:
            self._attribute_site(attribute)
        for offset in uses.commented:
            self._commented_site(offset)
        exports, star_exports = exported_constants(self._root, self._evaluator)
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

    def _bind_factories(self, declarators: list[tree_sitter.Node]) -> None:
        """Bind `const { t } = useTranslation(…)`, `const t = useTranslations(…)` and the like."""
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
            self._factory_declarators.add(declarator.id)
            if factory in HOOKS_RETURNING_OBJECT:
                prefix = None
                if factory == "useTranslation" and len(arguments) > 1:
                    prefix = self._option(arguments[1], "keyPrefix")
                for local in _hook_translator_names(pattern):
                    self._bind(local, scope, _Translator(prefix))
            elif pattern.type == "identifier":
                prefix = self._factory_prefix(factory, arguments)
                self._bind(node_text(pattern), scope, _Translator(prefix))

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

    def _bind_renames(self, nodes: list[tree_sitter.Node], bound: set[int]) -> None:
        """Bind `import { t as tr }` and `{ t: tx }` patterns (props, parameters, objects)."""
        for node in nodes:
            if node.id in bound:
                continue
            bound.add(node.id)
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
            if owner.type == "variable_declarator" and owner.id not in self._factory_declarators:
                scope = enclosing_scope(owner.parent) if owner.parent is not None else None
            elif owner.type == "formal_parameters":
                scope = owner.parent
            if scope is not None:
                self._bind(node_text(local), scope, _PLAIN)

    def _bind_aliases(self, declarators: list[tree_sitter.Node], bound: set[int]) -> None:
        """Bind `const tt = t`, `const tt = i18n.t`, `const tt = t.bind(i18n)`, chains included."""
        pending = [declarator for declarator in declarators if declarator.id not in bound]
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
                bound.add(declarator.id)
                progressed = True
            pending = waiting

    def _translator_of(self, callee: tree_sitter.Node) -> _Translator | None:
        """The translation function `callee` refers to at its position, if it is one.

        A configured name is a translation function wherever it is called, even where a local
        variable or parameter shadows it: a key passed to an unrelated `t` is rare, and a
        missed key would let `cleanup` delete a used translation.
        """
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

    def _commented_site(self, offset: int) -> None:
        """A translation call inside a comment: reported, but it proves nothing."""
        document = self._document
        comment = self._root.descendant_for_byte_range(offset, offset + 1)
        if comment is None:
            return
        start = offset
        while start > comment.start_byte and (
            chr(document[start - 1]).isalnum() or document[start - 1] in b"_$."
        ):
            start -= 1
        opening = document.find(b"(", offset)
        close = expression_end(document, opening + 1, comment.end_byte, b")")
        end = close + 1 if close >= 0 else comment.end_byte
        self._site(start, end, _COMMENTED)

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
