"""Extraction: the key sites, translator bindings and exported constants of one source file.

Only the nodes around occurrences of translation names are examined (see `occurrences`), so the
cost beyond parsing grows with the number of key sites, not with the size of the file.
"""

from __future__ import annotations

import functools
import re
from operator import attrgetter
from typing import NamedTuple

import msgspec
import tree_sitter

from i18nprune.scan.angular import OffsetMap, template_document
from i18nprune.scan.angular_i18n import (
    AngularMessage,
    id_settings,
    inline_templates,
    localize_messages,
    template_messages,
)
from i18nprune.scan.callees import (
    EXTRACTING_FACTORIES,
    FACTORIES_RETURNING_TRANSLATOR,
    FORMATJS_CALLEES,
    FORMATJS_ELEMENTS,
    FORMATJS_MODULES,
    FORMATJS_NAMES,
    HOOK_TRANSLATOR_NAMES,
    HOOKS_RETURNING_OBJECT,
    LOCALIZE,
    NAMESPACE_HOCS,
    NEXT_I18NEXT_HOOKS,
    READ_FACTORY,
    RENDER_PROP_ELEMENTS,
    RESOURCE_GETTERS,
    SUBTREE_CALLEES,
    CalleeNames,
)
from i18nprune.scan.content_ids import next_intl_key
from i18nprune.scan.descriptions import DescriptionComments
from i18nprune.scan.evaluate import Evaluator, plain_object, writes_property
from i18nprune.scan.exports import exported_constants
from i18nprune.scan.expressions import (
    OPAQUE,
    AutoId,
    Branches,
    Called,
    Expr,
    Join,
    Member,
    Record,
    Returns,
    Text,
    select,
)
from i18nprune.scan.facts import (
    HOOK,
    HOOK_NAMESPACE,
    HOOK_PREFIX,
    ComponentMessages,
    FileFacts,
    SiteFact,
    Translator,
)
from i18nprune.scan.grammars import TEMPLATE_SUFFIX
from i18nprune.scan.injected import file_names
from i18nprune.scan.lingui import LinguiFile, lingui_sites
from i18nprune.scan.markup import (
    expression_end,
    source_document,
    template_strings_document,
)
from i18nprune.scan.message_ids import message_hash
from i18nprune.scan.messages import (
    IMPORTED_READ,
    imported_chains,
    may_hold_messages,
    messages_reads,
)
from i18nprune.scan.occurrences import NameUses
from i18nprune.scan.positions import Positions
from i18nprune.scan.scopes import (
    destructured_field,
    enclosing_scope,
    named_child,
    named_imports,
    plain_string,
)
from i18nprune.scan.svelte_stores import store_names
from i18nprune.scan.syntax_errors import first_syntax_error, parse_repaired
from i18nprune.scan.trans import trans_key
from i18nprune.scan.typed_translators import TypedTranslators
from i18nprune.scan.vue_i18n import (
    script_messages,
    sfc_blocks,
    template_strings,
    translation_vnode_keys,
)
from i18nprune.scan.wrappers import (
    Wrapper,
    enclosing_function,
    forwarding_wrapper,
    mentions,
    named_function,
    returned,
)
from i18nprune.syntax_tree import GrammarName, node_text, parse

_PREVIEW_CHARS = 80
_PATTERN_WRAPPERS = frozenset(
    {"object_pattern", "pair_pattern", "assignment_pattern", "object_assignment_pattern"}
)
_PARAMETER_WRAPPERS = frozenset({"required_parameter", "optional_parameter"})
_ELEMENT_TAGS = frozenset({"jsx_opening_element", "jsx_self_closing_element"})
_VALUE_WRAPPERS = frozenset(
    {"as_expression", "satisfies_expression", "parenthesized_expression", "non_null_expression"}
)

_OTHER_TRANSLATION = frozenset(RENDER_PROP_ELEMENTS)
"""Element names that are a key site only as another library's component (`<Translation>`)."""
_FACTORIES = (*HOOKS_RETURNING_OBJECT, *FACTORIES_RETURNING_TRANSLATOR, *NEXT_I18NEXT_HOOKS)
_HOOK_T = frozenset({"t"})
_HOOK_OBJECT_FIELDS = frozenset({"t", "i18n", "ready"})
"""The fields of an object a hook may return and still be read as `useTranslation`'s (`{ t }`,
`{ t, i18n }`): any other field makes it a value (`{ t, labels }`)."""
"""What a configured hook's object holds (`const { t } = useAppTranslation()`)."""
_FORMATJS_WORDS = tuple(
    word.encode()
    for word in (*(module.rstrip("*") for module in FORMATJS_MODULES), *sorted(FORMATJS_NAMES))
)


class _Binding(NamedTuple):
    scope_start: int
    scope_end: int
    translator: Translator


class _CallOptions(NamedTuple):
    """What an i18next options object (and a default-value argument) tells about a call."""

    plural: bool = False
    context: Expr | None = None
    namespace: Expr | None = None
    default: Expr | None = None
    subtree: bool = False
    spellings: bool = False
    key_prefix: Expr | None = None
    also_namespace: Expr | None = None
    generated: tuple[str, ...] = ()


_NO_OPTIONS = _CallOptions()


_EMPTY = Translator()
# A translation function the code is handed (a parameter, a prop, `props.t`): the caller's
# namespace is not known here, so its keys may be in any.
_PASSED = Translator(None, OPAQUE)
# Objects whose `t` is i18next's own (the default namespace) unless the file imports them from
# somewhere else than i18next itself (an app's own instance may have another default).
_I18N_INSTANCES = frozenset({"i18n", "i18next", "i18nInstance", "$i18n", "this"})
_I18N_PACKAGES = ("i18next", "react-i18next", "next-i18next")
# babel-plugin-react-intl-auto gives `intl.formatMessage` calls ids in files importing these.
_INTL_PROVIDERS = frozenset({"injectIntl", "useIntl"})
SCOPED_SERVICE = "TranslocoService"
"""The service whose key methods take a language or a scope third (`translate(k, p, 'admin')`)."""


def extract_facts(content: bytes, suffix: str, names: CalleeNames) -> FileFacts:
    """Everything the scan needs from one file, as a pure function of its bytes and type.

    `suffix` picks the grammar (`.vue`/`.svelte` go through their markup first); `names` are the
    configured translation functions. Syntax errors never raise: tree-sitter recovers and the
    first error's position is recorded in the facts.
    """
    return extract_file(content, suffix, names)[0]


def extract_file(
    content: bytes, suffix: str, names: CalleeNames
) -> tuple[FileFacts, frozenset[int]]:
    """The file's facts, and the offsets of the string literals that are key arguments of its
    sites (`t('home.title')`): those strings are keys, not keys kept as data."""
    if suffix == TEMPLATE_SUFFIX:
        return _template_file(content, names)
    document, grammar = source_document(content, suffix)
    if b"\0" in document:  # tree-sitter stops at a NUL; in a string it is just a character
        document = document.replace(b"\0", b" ")
    tree = parse(document, grammar)
    document, tree = parse_repaired(document, tree, lambda text: parse(text, grammar))
    names = file_names(names, tree.root_node, document)
    extraction = _Extraction(content, document, grammar, tree.root_node, names)
    facts = extraction.facts()
    key_literals = set(extraction.key_literals)
    templates = template_strings(tree.root_node, document)
    if templates:
        facts, found = _with_template_strings(facts, content, document, templates, names)
        key_literals |= found
    own = script_messages(tree.root_node, document)
    if suffix == ".vue" and b"<i18n" in content:
        own += sfc_blocks(content)
    if own:
        facts = _with_component_messages(facts, own)
    return facts, frozenset(key_literals)


def _template_file(content: bytes, names: CalleeNames) -> tuple[FileFacts, frozenset[int]]:
    """An Angular template's facts (see `scan.angular`): its TypeScript view extracted with
    the pipes and directives as translation functions, positions and previews the
    template's. Markup the HTML grammar cannot read is the file's syntax error."""
    template = template_document(content.replace(b"\0", b" "), names)
    tree = parse(template.document, "typescript")
    extraction = _Extraction(
        template.document,
        template.document,
        "typescript",
        tree.root_node,
        _template_names(names),
        origin=(content, template.origin),
    )
    facts = extraction.facts()
    if template.error is not None:
        markup_error = Positions(content).line_column(template.error)
        if facts.syntax_error is None or markup_error < facts.syntax_error:
            facts = msgspec.structs.replace(facts, syntax_error=markup_error)
    if LOCALIZE in names.bare:
        facts = _with_angular_messages(facts, content)
    source_offset = template.origin.source_offset
    return facts, frozenset(source_offset(offset) for offset in extraction.key_literals)


def _angular_site(message: AngularMessage) -> SiteFact:
    """The key site of an Angular template message whose id is known; its legacy ids are
    spellings of its key that a catalog extracted with them holds instead."""
    assert message.id is not None
    return SiteFact(
        line=message.line,
        column=message.column,
        end_line=message.end_line,
        end_column=message.end_column,
        preview=message.preview,
        kind="key",
        key=Text(message.id),
        translator=_EMPTY,
        default=None if message.text is None else Text(message.text),
        generated=list(message.legacy),
    )


def _with_angular_messages(facts: FileFacts, content: bytes) -> FileFacts:
    """`facts` with the template's Angular i18n messages as key sites (their XLIFF ids), and
    the places of those whose id could not be derived (`FileFacts.angular`)."""
    messages = template_messages(content.decode("utf-8-sig", "replace"))
    if not messages:
        return facts
    sites = [_angular_site(message) for message in messages if message.id is not None]
    unread = [(message.line, message.column) for message in messages if message.id is None]
    merged = sorted([*facts.sites, *sites], key=attrgetter("line", "column"))
    return msgspec.structs.replace(facts, sites=merged, angular=unread)


@functools.cache
def _template_names(names: CalleeNames) -> CalleeNames:
    """`names` with the template's pipes and directives as translation functions (the calls
    `scan.angular` writes for them)."""
    return CalleeNames([*names.configured, *sorted(names.pipes), *sorted(names.directives)])


def _with_component_messages(facts: FileFacts, messages: list[ComponentMessages]) -> FileFacts:
    """`facts` with the locales of its component's own messages that answer each literal key
    (`SiteFact.answered`), and its global blocks' messages."""
    local = [(found.locale, set(found.paths)) for found in messages if not found.shared]
    sites = [
        msgspec.structs.replace(site, answered=answered)
        if isinstance(site.key, Text)
        and (answered := [locale for locale, paths in local if site.key.value in paths])
        else site
        for site in facts.sites
    ]
    shared = [found for found in messages if found.shared]
    return msgspec.structs.replace(facts, sites=sites, shared_messages=shared)


def _with_template_strings(
    facts: FileFacts,
    content: bytes,
    document: bytes,
    templates: list[tuple[int, int]],
    names: CalleeNames,
) -> tuple[FileFacts, set[int]]:
    """`facts` with the key sites of the Vue templates written as strings in the file (see
    `template_strings`), and those sites' key literals. A parse error in such a template is
    not the file's: the string may be another framework's markup."""
    view = template_strings_document(document, templates)
    tree = parse(view, "javascript")
    inner = _Extraction(content, view, "javascript", tree.root_node, names)
    sites = [*facts.sites, *inner.facts().sites]
    sites.sort(key=attrgetter("line", "column"))
    return msgspec.structs.replace(facts, sites=sites), inner.key_literals


_PREFIX_ATTRIBUTE = re.compile(rb"(?<![\w$])(\w*[Pp]refix)\s*=\s*([\"'])([^\"'\n{}<>]*)\2")
_FUNCTIONS = frozenset(
    {
        "arrow_function",
        "function_declaration",
        "function_expression",
        "function",
        "method_definition",
    }
)


def prefix_attributes(document: bytes) -> list[tuple[str, str]]:
    """Each attribute named like a key prefix that `document` gives a literal text
    (`i18nKeyPrefix="question"`), as (name, text), once each, in order: read lexically, so a
    component that does not call `t` itself still tells what it passes."""
    if b"refix" not in document:
        return []
    found = dict.fromkeys(
        (match.group(1).decode(), match.group(3).decode("utf-8", "replace"))
        for match in _PREFIX_ATTRIBUTE.finditer(document)
    )
    return list(found)


def _prop_of(node: tree_sitter.Node | None) -> str | None:
    """The component prop `node` reads, when it is one: a name the enclosing function takes
    from its first parameter's pattern (`({ i18nKeyPrefix = '' }) => …`), or `props.name`
    with `props` that parameter."""
    if node is None:
        return None
    if node.type == "shorthand_property_identifier" or node.type == "identifier":
        name = node_text(node)
    elif node.type == "member_expression":
        target, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        if target is None or prop is None or target.type != "identifier":
            return None
        first = _first_parameter(node)
        if first is None or first.type != "identifier" or node_text(first) != node_text(target):
            return None
        return node_text(prop)
    else:
        return None
    first = _first_parameter(node)
    if first is None or first.type != "object_pattern":
        return None
    return destructured_field(first, name)


def _first_parameter_of(function: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first parameter's pattern of `function` (types unwrapped)."""
    parameters = function.child_by_field_name("parameters")
    if parameters is None:
        return function.child_by_field_name("parameter")  # `x => …`
    first = named_child(parameters, 0)
    if first is not None and first.type in _PARAMETER_WRAPPERS:
        first = first.child_by_field_name("pattern")
    return first


def _first_parameter(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first parameter's pattern of the function enclosing `node` (types unwrapped)."""
    function = node.parent
    while function is not None and function.type not in _FUNCTIONS:
        function = function.parent
    return _first_parameter_of(function) if function is not None else None


def _same_offset(offset: int) -> int:
    return offset


def _preview(content: bytes, start: int, end: int) -> str:
    """The source of a site on one line, shortened to `_PREVIEW_CHARS` characters."""
    text = content[start : min(end, start + 8 * _PREVIEW_CHARS)]
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
        origin: tuple[bytes, OffsetMap] | None = None,
    ) -> None:
        self._content = content
        self._document = document
        self._grammar = grammar
        self._root = root
        self._names = names
        # `origin`: the file the document was written from (an Angular template) and where
        # each of its offsets came from; positions, previews and descriptions are the file's.
        self._source, self._source_offset = (
            (origin[0], origin[1].source_offset) if origin is not None else (content, _same_offset)
        )
        self._positions = Positions(self._source)
        self._comments = DescriptionComments(self._source)
        self._evaluator = Evaluator(content if document != content else None)
        self._typed = TypedTranslators(root, self._evaluator.value_of)
        self._bindings: dict[str, list[_Binding]] = {}
        self._factory_declarators: set[int] = set()
        self._factory_names: dict[str, str] = {}
        """Local names of the factories a file imports renamed (`useT` → `useTranslations`)."""
        self._plain = _EMPTY
        self._passed = _PASSED
        self._sites: list[SiteFact] = []
        self._hooks: dict[str, tuple[Translator, bool]] = {}
        """The file's own hooks (see `_bind_hooks`), by name."""
        self._hook_exports: dict[str, tuple[Translator, bool]] = {}
        self._forwards: dict[int, Wrapper] = {}
        """Calls that pass a wrapper's parameter on as their key, by node id."""
        self._site_calls: set[int] = set()
        """Node ids of the calls recorded as key sites."""
        self.key_literals: set[int] = set()
        """Offsets of string literals that are keys written at a site."""
        self._lingui: LinguiFile | None = None
        """The file's Lingui messages, when it imports Lingui (`scan.lingui`)."""

    def facts(self) -> FileFacts:
        uses = NameUses(self._document, self._root)
        formatjs = _uses_formatjs(self._root, self._document)
        searched = set(self._names.last_segments)
        if formatjs:
            searched.update(FORMATJS_CALLEES)
        stores = store_names(self._root, self._document)
        for name in stores.translators | stores.subtrees:
            self._bind(name, self._root, self._plain)  # `import { _ as intl }`, then `$intl(…)`
        searched.update(stores.translators | stores.subtrees)
        for name in sorted(searched):
            uses.add_translator_name(name)
        self._factory_names = _renamed_imports(self._root, _FACTORIES)
        for name in (*_FACTORIES, *self._factory_names, *sorted(self._names.hooks)):
            uses.add_factory_name(name)
        for name in (*NAMESPACE_HOCS, *RESOURCE_GETTERS):
            uses.add_callee_name(name)
        if self._grammar != "typescript":
            uses.add_attribute_name("i18nKey")
            uses.add_attribute_name("keypath")  # vue-i18n's `<Translation keypath>` in JSX
            for name in (
                *self._names.trans_elements,
                *RENDER_PROP_ELEMENTS,
                *(FORMATJS_ELEMENTS if formatjs else ()),
            ):
                uses.add_element_name(name)
            for name in self._names.components:  # an app's own `<F>` (configured)
                uses.add_element_name(name)
            if formatjs:  # `import { FormattedMessage as Message }`
                for name in _renamed_imports(self._root, FORMATJS_ELEMENTS):
                    uses.add_element_name(name)
        self._plain = self._hoc_translator(uses.callees.get("withTranslation", []))
        if self._plain is not _EMPTY:
            self._passed = self._plain  # the component's `t` comes from the HOC
        self._bind_factories(uses.factories)
        self._bind_hooks(uses)
        self._lingui = lingui_sites(self._root, self._document, self._evaluator.value_of)
        claimed = set(self._lingui.claimed) if self._lingui is not None else set()
        reads_localize = LOCALIZE in self._names.bare and LOCALIZE.encode() in self._document
        localized = localize_messages(self._root) if reads_localize else []
        claimed.update(message.node.id for message in localized)  # `$localize` is no key function
        render_props = self._bind_render_props(uses.elements)
        bound: set[int] = set()
        while True:
            # A bound name may itself be copied, renamed or wrapped: search until no new name
            # appears.
            self._bind_renames(uses.renames, bound)
            self._bind_aliases(uses.aliases, bound)
            self._bind_wrappers(uses.calls)
            new_names = sorted(set(self._bindings) - searched)
            if not new_names:
                break
            searched.update(new_names)
            for name in new_names:
                uses.add_translator_name(name)
        for factory, inner, outer in uses.called_factories:
            # `useTranslations('nav')('home')`: the function is used once, where it is made.
            named = self._factory_names.get(factory, factory)
            if named in FACTORIES_RETURNING_TRANSLATOR:
                self._call_site(
                    outer, self._factory_translator(named, _arguments(inner)), subtree=False
                )
        seen: set[int] = set()
        for call in uses.calls:
            callee = call.child_by_field_name("function")
            if call.id in seen or callee is None or call.id in claimed:
                continue
            seen.add(call.id)
            name = _last_name(callee)
            if self._names.ignores and self._names.is_ignored(_dotted_path(callee) or name):
                continue
            if formatjs and name in FORMATJS_CALLEES:
                self._descriptor_call(call, name)
                continue
            if callee.type == "identifier":  # `t(…)`: its name is the one just read
                translator = self._named_translator(name, callee)
            else:
                translator = self._translator_of(callee)
            if translator is not None and not self._forwarded(call.id, uses.calls):
                subtree = name in SUBTREE_CALLEES or name in stores.subtrees
                self._call_site(call, translator, subtree=subtree)
        for offset in stores.called:  # svelte's `get(_)('key')`
            self._store_call(offset)
        for call in uses.callees.get("getResource", []):
            self._resource_site(call)
        # A `<Translation>` that is not react-i18next's render prop is vue-i18n's component in
        # JSX, whose `keypath` attribute is its key (an attribute site, below).
        elements = {
            element.id: element
            for element in uses.elements
            if element.id not in render_props
            and element.id not in claimed
            and _element_name(element) not in _OTHER_TRANSLATION
        }
        for attribute in uses.attributes:
            if attribute.parent is not None and _element_of(attribute.parent).id not in elements:
                self._attribute_site(attribute)
        for element in elements.values():
            if _element_name(element) in self._names.trans_elements:
                self._trans_site(element)
            else:
                self._formatted_message_site(element)
        for offset in uses.commented:
            self._commented_site(offset)
        for site in self._lingui.sites if self._lingui is not None else ():
            options = _CallOptions(
                default=site.default, spellings=site.spellings, generated=site.generated
            )
            self._site(site.node.start_byte, site.node.end_byte, "key", site.key, _EMPTY, options)
        for message in localized:
            if message.id is not None:
                options = _CallOptions(
                    default=None if message.text is None else Text(message.text),
                    generated=message.legacy,
                )
                self._site(
                    message.node.start_byte,
                    message.node.end_byte,
                    "key",
                    Text(message.id),
                    _EMPTY,
                    options,
                )
        angular = LOCALIZE in self._names.bare
        inline = self._inline_template_messages() if angular and b"i18n" in self._document else []
        # A component keeping its white space or with delimiters of its own: its template's ids
        # are not the ones read here.
        other_ids = id_settings(self._document) if angular else []
        for pair in translation_vnode_keys(self._root, self._document):
            self._vnode_site(pair)
        if may_hold_messages(self._document):
            self._messages_sites()
        self._imported_chain_sites()
        exports, star_exports = exported_constants(self._root, self._evaluator)
        for name, (translator, gives_object) in self._hook_exports.items():
            exports[name] = _hook_value(translator, gives_object)
        self._sites.sort(key=attrgetter("line", "column"))
        error = first_syntax_error(self._root, self._document)
        return FileFacts(
            sites=self._sites,
            exports=exports,
            star_exports=star_exports,
            syntax_error=None
            if error is None
            else self._positions.line_column(self._source_offset(error)),
            prefix_props=prefix_attributes(self._document),
            angular=[
                *(
                    self._positions.line_column(self._source_offset(message.node.start_byte))
                    for message in localized
                    if message.id is None
                ),
                *((message.line, message.column) for message in inline if message.id is None),
                *(self._positions.line_column(self._source_offset(at)) for at in other_ids),
            ]
            if localized or inline or other_ids
            else None,
            lingui=None
            if self._lingui is None
            else [
                self._positions.line_column(site.node.start_byte)
                for site in self._lingui.sites
                if not site.derived
            ],
        )

    def _inline_template_messages(self) -> list[AngularMessage]:
        """The Angular i18n messages of the `template` of the file's `@Component` decorators,
        recorded as key sites located in the file."""
        found: list[AngularMessage] = []
        for node, messages in inline_templates(self._root):
            line, column = self._positions.line_column(self._source_offset(node.start_byte + 1))
            for message in messages:
                placed = message._replace(
                    line=message.line + line - 1,
                    column=message.column + (column - 1 if message.line == 1 else 0),
                    end_line=message.end_line + line - 1,
                    end_column=message.end_column + (column - 1 if message.end_line == 1 else 0),
                )
                found.append(placed)
                if placed.id is not None:
                    self._sites.append(_angular_site(placed))
        return found

    # -- translator bindings ------------------------------------------------------------------

    def _bind(self, name: str, scope: tree_sitter.Node, translator: Translator) -> None:
        binding = _Binding(scope.start_byte, scope.end_byte, translator)
        self._bindings.setdefault(name, []).append(binding)

    def _hoc_translator(self, calls: list[tree_sitter.Node]) -> Translator:
        """`withTranslation('ns')(Component)`: the component's `t` (its props') is bound to
        that namespace, so unbound translators of this file are."""
        for call in calls:
            arguments = _arguments(call)
            if arguments:
                return self._hook_translator(arguments)
        return _EMPTY

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
            if function is not None and function.type == "member_expression":
                function = function.child_by_field_name("property")
            if function is None or call.child_by_field_name("arguments") is None:
                continue
            factory = self._factory_names.get(node_text(function), node_text(function))
            if factory in NEXT_I18NEXT_HOOKS:
                source = self._evaluator.import_source(node_text(function), function)
                if source is None or not source.startswith("next-i18next"):
                    continue  # another library's hook of that name
                factory = "useTranslation"
            arguments = _arguments(call)
            scope = enclosing_scope(statement)
            self._factory_declarators.add(declarator.id)
            if factory in HOOKS_RETURNING_OBJECT:
                translator = _EMPTY
                if factory == "useTranslation":
                    translator = self._hook_translator(arguments)
                for local in _hook_translator_names(pattern, HOOK_TRANSLATOR_NAMES[factory]):
                    self._bind(local, scope, translator)
            elif factory in self._hooks:
                translator, gives_object = self._hooks[factory]
                if pattern.type == "identifier" and not gives_object:
                    self._bind(node_text(pattern), scope, translator)
                elif gives_object:
                    for local in _hook_translator_names(pattern, _HOOK_T):
                        self._bind(local, scope, translator)
            elif factory in self._names.hooks:
                translator = self._configured_hook_translator(arguments)
                if pattern.type == "identifier":
                    self._bind(node_text(pattern), scope, translator)
                for local in _hook_translator_names(pattern, _HOOK_T):
                    self._bind(local, scope, translator)
            elif pattern.type == "identifier":
                self._bind(node_text(pattern), scope, self._factory_translator(factory, arguments))

    def _hook_translator(self, arguments: list[tree_sitter.Node]) -> Translator:
        """The `t` of `useTranslation(ns, { keyPrefix })` (and of what calls it the same way:
        `withTranslation`, `<Translation>`, next-i18next's `useT`/`getT`): bound to the first
        namespace of `ns`, under the key prefix."""
        options = arguments[1] if len(arguments) > 1 else None
        return Translator(
            self._option(options, "keyPrefix") if options is not None else None,
            self._namespace_argument(arguments[0]) if arguments else None,
            fixed=True,
            prefix_prop=_prop_of(self._option_node(options, "keyPrefix"))
            if options is not None
            else None,
            scope=self._namespace_scope(arguments[0]) if arguments else [],
        )

    def _bind_hooks(self, uses: NameUses) -> None:
        """Find the file's own hooks — functions that return `useTranslation`'s `t` (`const
        useAppT = () => useTranslation('app').t`, or the `t` a `useTranslation` call in them
        binds) or its object — and bind what `const t = useAppT()` and `const { t } =
        useAppT()` take from them, as for `useTranslation`."""
        candidates: list[tuple[tree_sitter.Node, tree_sitter.Node]] = []
        for declarator in uses.factories:
            function = enclosing_function(declarator)
            value = returned(function) if function is not None else None
            if (
                function is not None
                and value is not None
                and value.type in ("identifier", "object")
            ):
                candidates.append((function, value))  # returns the bound `t`, or `{ t }`
        uses.add_callee_name("useTranslation")
        for call in uses.callees.get("useTranslation", []):
            function = enclosing_function(call)
            if function is not None:
                candidates.append((function, call))
        found = len(uses.factories)
        for function, value in candidates:
            hook = named_function(function)
            if hook is None or hook.name in self._hooks:
                continue
            result = returned(function)
            if result is None:
                continue
            made = self._hook_result(result, value)
            if made is not None:
                self._hooks[hook.name] = made
                if hook.exported:
                    self._hook_exports["default" if hook.default_export else hook.name] = made
                uses.add_factory_name(hook.name)
        if len(uses.factories) > found:
            self._bind_factories(uses.factories[found:])

    def _hook_result(
        self, result: tree_sitter.Node | None, value: tree_sitter.Node
    ) -> tuple[Translator, bool] | None:
        """What a function returning `result` gives its callers, when `value` (a name bound
        in it, or a `useTranslation` call in it) is what it returns: `useTranslation`'s
        translator, and whether it comes as its object (`{ t }`) rather than the function."""
        if result is None:
            return None
        if value.type == "object":  # `return { t }` (or `{ t: translate, i18n }`), `t` bound here
            # An object with other fields (`{ t, labels }`) is read as a value instead (what a
            # project function returns), so its other fields keep their meaning.
            names = {_member_name(child) for child in value.named_children}
            if result.id != value.id or not names <= _HOOK_OBJECT_FIELDS:
                return None
            member = self._option_node(value, "t")
            if member is None or member.type not in ("identifier", "shorthand_property_identifier"):
                return None
            translator = self._named_translator(node_text(member), member)
            return (translator, True) if translator is not None else None
        if value.type == "identifier":
            if result.id != value.id:
                return None
            translator = self._named_translator(node_text(value), value)
            return (translator, False) if translator is not None else None
        translator = self._hook_translator(_arguments(value))
        if result.id == value.id:
            return translator, True
        parent = value.parent
        if (
            parent is not None
            and parent.id == result.id
            and parent.type == "member_expression"
            and node_text(parent.child_by_field_name("property") or parent) == "t"
        ):
            return translator, False
        return None

    def _configured_hook_translator(self, arguments: list[tree_sitter.Node]) -> Translator:
        """The translation function a configured hook (`hooks`) gives: the namespace its first
        argument names, else one not known here (the hook may fix its own); the `keyPrefix`
        of its second, as `useTranslation`'s."""
        options = arguments[1] if len(arguments) > 1 else None
        namespace = self._namespace_argument(arguments[0]) if arguments else None
        return Translator(
            self._option(options, "keyPrefix") if options is not None else None,
            OPAQUE if namespace is None else namespace,
            fixed=True,
        )

    def _bind_render_props(self, elements: list[tree_sitter.Node]) -> set[int]:
        """Bind the `t` parameter of the function a react-i18next `<Translation ns keyPrefix>`
        renders (`{(t) => …}`), which is `useTranslation(ns, { keyPrefix })`'s; the ids of
        those elements (they name no key themselves)."""
        bound: set[int] = set()
        for element in elements:
            tag = _opening_tag(element)
            name = tag.child_by_field_name("name")
            if name is None or node_text(name) not in RENDER_PROP_ELEMENTS:
                continue
            source = self._evaluator.import_source(node_text(name), name)
            if source is None or not source.startswith(_I18N_PACKAGES[1:]):
                continue
            bound.add(element.id)
            attributes = _attributes(tag)
            values: dict[str, tree_sitter.Node] = {}
            for attribute in ("ns", "keyPrefix"):
                value = named_child(attributes[attribute], 1) if attribute in attributes else None
                inner = _expression_inside(value) if value is not None else None
                if inner is not None:
                    values[attribute] = inner
            namespace = values.get("ns")
            prefix = values.get("keyPrefix")
            translator = Translator(
                self._evaluator.value_of(prefix) if prefix is not None else None,
                self._namespace_argument(namespace) if namespace is not None else None,
                fixed=True,
                scope=self._namespace_scope(namespace) if namespace is not None else [],
            )
            for child in element.named_children if element.type == "jsx_element" else ():
                function = _expression_inside(child) if child.type == "jsx_expression" else None
                if function is None or function.type not in _FUNCTIONS:
                    continue
                parameter = _first_parameter_of(function)
                if parameter is not None and parameter.type == "identifier":
                    self._bind(node_text(parameter), function, translator)
        return bound

    def _factory_translator(self, factory: str, arguments: list[tree_sitter.Node]) -> Translator:
        """The translation function `factory(arguments…)` makes.

        next-intl's `useTranslations('ns')`/`getTranslations('ns')` nest keys under the
        namespace (a key path); i18next's `getFixedT(lng, ns, keyPrefix)` binds a namespace and
        takes the key prefix as its third argument.
        """
        if factory == READ_FACTORY:
            prefix = self._value_unless_empty(arguments[0]) if arguments else None
            return Translator(prefix, joined=prefix is not None)
        if factory == "getFixedT":
            # A list of namespaces is looked up in order: the key may be in any of them.
            namespace = self._namespace_list(arguments[1]) if len(arguments) > 1 else None
            prefix = self._value_unless_empty(arguments[2]) if len(arguments) > 2 else None
            scope = self._namespace_scope(arguments[1]) if len(arguments) > 1 else []
            return Translator(prefix, namespace, fixed=True, scope=scope)
        extracted = factory in EXTRACTING_FACTORIES
        if not arguments:
            return Translator(extracted=True) if extracted else _EMPTY
        argument = arguments[0]
        if factory != "useTranslations" and argument.type == "object":
            # getTranslations({ locale, namespace }), createTranslator({ messages, namespace })
            return Translator(self._option(argument, "namespace"), extracted=extracted)
        return Translator(self._value_unless_empty(argument), extracted=extracted)

    def _value_unless_empty(self, node: tree_sitter.Node) -> Expr | None:
        if node.type in ("null", "undefined"):
            return None
        return self._evaluator.value_of(node)

    def _namespace_argument(self, node: tree_sitter.Node) -> Expr | None:
        """`'ns'`, or the first of `['ns', 'other']` (i18next's default namespace of `t`)."""
        if node.type in ("null", "undefined"):
            return None
        if node.type == "array":
            first = named_child(node, 0)
            return self._evaluator.value_of(first) if first is not None else None
        return self._evaluator.value_of(node)

    def _namespace_list(self, node: tree_sitter.Node) -> Expr | None:
        """`'ns'`, or each of `['ns', 'other']` (an `ns` option, where i18next looks the key up
        in each namespace in turn)."""
        if node.type == "array":
            items = [self._evaluator.value_of(item) for item in node.named_children]
            return (items[0] if len(items) == 1 else Branches(items)) if items else None
        return self._namespace_argument(node)

    def _namespace_scope(self, node: tree_sitter.Node) -> list[Expr]:
        """Every namespace of `['ns', 'other']`, when it lists several (see
        `Translator.scope`)."""
        items = node.named_children if node.type == "array" else []
        return [self._evaluator.value_of(item) for item in items] if len(items) > 1 else []

    def _bind_renames(self, nodes: list[tree_sitter.Node], bound: set[int]) -> None:
        """Bind `import { t as tr }` and `{ t: tx }` patterns (props, parameters, objects)."""
        for node in nodes:
            if node.id in bound:
                continue
            bound.add(node.id)
            if node.type == "import_specifier":
                local = node.child_by_field_name("alias")
                if local is not None:
                    self._bind(node_text(local), self._root, self._plain)
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
                self._bind(node_text(local), scope, self._passed)

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

    def _bind_wrappers(self, calls: list[tree_sitter.Node]) -> None:
        """Bind the functions that pass their first parameter on as a translation call's key
        (`const tr = (key) => t(key)`, see `scan.wrappers`) to that call's translator."""
        for call in calls:
            callee = call.child_by_field_name("function")
            if call.id in self._forwards or callee is None:
                continue
            wrapper = forwarding_wrapper(call)
            translator = self._translator_of(callee) if wrapper is not None else None
            if wrapper is None or translator is None:
                continue
            self._forwards[call.id] = wrapper
            self._bind(wrapper.name, wrapper.scope, translator)

    def _forwarded(self, call_id: int, calls: list[tree_sitter.Node]) -> bool:
        """Whether a call is a wrapper passing its parameter on whose every use is one of this
        file's calls, all of them key sites: then the call itself proves nothing more. A
        wrapper the file exports, passes around or names elsewhere (a comment too), or never
        calls, keeps its call as a dynamic site, as other code may call it with any key."""
        wrapper = self._forwards.get(call_id)
        if wrapper is None:
            return False
        if self._names.matches_path(wrapper.name):
            return True  # a configured function: its calls are key sites in every file
        if wrapper.exported:
            return False
        called = {
            call.id
            for call in calls
            if (callee := call.child_by_field_name("function")) is not None
            and callee.type == "identifier"
            and node_text(callee) == wrapper.name
        }
        return bool(called) and mentions(self._document, wrapper.name) == len(called) + 1

    def _translator_of(self, callee: tree_sitter.Node) -> Translator | None:
        """The translation function `callee` refers to at its position, if it is one.

        A configured name is a translation function wherever it is called, even where a local
        variable or parameter shadows it: a key passed to an unrelated `t` is rare, and a
        missed key would let `cleanup` delete a used translation. `t.rich(…)`, `t.raw(…)` and
        the other next-intl methods of a translation function translate as it does.
        """
        kind = callee.type
        if kind == "identifier":
            return self._named_translator(node_text(callee), callee)
        if kind == "member_expression":
            path = _dotted_path(callee)
            if path is not None and self._names.matches_path(path):
                root = path.split(".", 1)[0]
                source = self._evaluator.import_source(root, callee)
                if root in _I18N_INSTANCES and source in (None, *_I18N_PACKAGES):
                    return self._plain
                head, _, last = path.rpartition(".")
                typed = self._typed.of_member(head, last, callee) if "." not in head else None
                return typed or self._passed
            target = callee.child_by_field_name("object")
            prop = callee.child_by_field_name("property")
            if target is not None and prop is not None and node_text(prop) in _RICH_METHODS:
                return self._translator_of(target)
            if target is not None and prop is not None:
                return self._member_of_call(target, node_text(prop))
            return None
        if kind in ("non_null_expression", "parenthesized_expression"):
            inner = named_child(callee, 0)
            return self._translator_of(inner) if inner is not None else None
        return None

    def _member_of_call(self, target: tree_sitter.Node, name: str) -> Translator | None:
        """A translation function read off what a call returns: `useI18n().t` (the hook's
        own functions), or a Vue-injected `$t` through a chain with a call in it
        (`getCurrentInstance().proxy.$t`)."""
        if name.startswith("$") and name in self._names.bare:
            return self._passed
        function = (
            target.child_by_field_name("function") if target.type == "call_expression" else None
        )
        hook = _last_name(function) if function is not None else ""
        if hook == "useI18n" and name in HOOK_TRANSLATOR_NAMES[hook]:
            return self._plain
        return None

    def _named_translator(self, name: str, identifier: tree_sitter.Node) -> Translator | None:
        """The translation function the identifier `name` refers to at its position, if any:
        the innermost binding around it, else a configured name's own."""
        position = identifier.start_byte
        best: _Binding | None = None
        for binding in self._bindings.get(name, ()):
            if binding.scope_start <= position < binding.scope_end and (
                best is None
                or binding.scope_end - binding.scope_start < best.scope_end - best.scope_start
            ):
                best = binding
        if best is not None:
            return best.translator
        if name not in self._names.bare:
            return None
        if not self._evaluator.is_local(name, identifier):
            return self._plain
        typed = self._typed.of_name(name, identifier)
        if typed is not None:
            return typed
        made = self._evaluator.binding_value(name, identifier)
        if isinstance(made, Called | Member) and self._passed is _PASSED:
            # `const t = useAppT()` with `useAppT` imported: linking says what the hook gives
            return Translator(None, OPAQUE, hook=made)
        return self._passed

    # -- sites --------------------------------------------------------------------------------

    def _site(
        self,
        start: int,
        end: int,
        kind: str,
        key: Expr,
        translator: Translator = _EMPTY,
        options: _CallOptions = _NO_OPTIONS,
        position: int | None = None,
    ) -> None:
        """Record a site spanning [start, end) of the file, located at `position` or `start`,
        with the description of an `i18n:` comment on the line above it."""
        if translator.joined:  # Transloco's `read`: the prefix is part of the key's text
            key = Join([translator.prefix or Text(""), Text("."), key], template=False)
            translator = msgspec.structs.replace(translator, prefix=None, joined=False)
        located = self._source_offset(start if position is None else position)
        # The end is exclusive: where the site's last byte came from, and one past it.
        end = self._source_offset(end - 1) + 1 if end > start else self._source_offset(start)
        start = self._source_offset(start)
        line, column = self._positions.line_column(located)
        description = None if kind == "commented" else self._comments.above(located, line)
        end_line, end_column = self._positions.line_column(max(end, start))
        self._sites.append(
            SiteFact(
                line=line,
                column=column,
                end_line=end_line,
                end_column=end_column,
                preview=_preview(self._source, start, end),
                kind=kind,
                key=key,
                translator=translator,
                namespace=options.namespace,
                context=options.context,
                default=options.default,
                plural=options.plural,
                subtree=options.subtree,
                spellings=options.spellings,
                description=description,
                key_prefix=options.key_prefix,
                also_namespace=options.also_namespace,
                generated=list(options.generated),
            )
        )

    def _call_site(self, call: tree_sitter.Node, translator: Translator, *, subtree: bool) -> None:
        arguments = _arguments(call)
        if not arguments:
            listed = call.child_by_field_name("arguments")
            if listed is not None and listed.type == "arguments":  # not a tagged template t`key`
                self._site(call.start_byte, call.end_byte, "empty_call", OPAQUE)
            return
        options = self._call_options(arguments[1:3]) if len(arguments) > 1 else _NO_OPTIONS
        if subtree:
            options = options._replace(subtree=True)
        argument = arguments[0]
        if argument.type == "object":  # vue-i18n's `v-t="{ path: 'key', args }"`
            argument = self._option_node(argument, "path") or argument
        self._note_key_literals(argument)
        if translator.extracted:
            key, default = self._extracted_message(argument)
            options = _CallOptions(default=default)
        else:
            key = self._key_argument(argument)
            if isinstance(key, Record) and "defaultMessage" in key.fields:
                key = _message_id(key)  # a FormatJS descriptor through a configured function
        if len(arguments) >= 3 and self._scoped_service_call(call):
            # `transloco.translate(k, params, 'admin')`: a language, or a scope whose keys
            # are `admin.k`: the key, or under any scope.
            key = Branches([key, Join([OPAQUE, Text("."), key], template=False)])
            options = _NO_OPTIONS
        self._site(call.start_byte, call.end_byte, "key", key, translator, options)
        self._site_calls.add(call.id)

    def _scoped_service_call(self, call: tree_sitter.Node) -> bool:
        """Whether `call` is a configured Transloco service method (`service:TranslocoService.
        translate`), whose third argument may name a scope."""
        callee = call.child_by_field_name("function")
        name = _last_name(callee) if callee is not None else ""
        return any(
            service == SCOPED_SERVICE and method == name for service, method in self._names.services
        )

    def _store_call(self, offset: int) -> None:
        """`get(store)(key)` at `offset`: the outer call is a key site of the plain `t`."""
        node = self._root.descendant_for_byte_range(offset, offset + 1)
        inner = node.parent if node is not None else None
        if inner is None or inner.type != "call_expression" or inner.start_byte != offset:
            return
        outer = inner.parent
        if (
            outer is not None
            and outer.type == "call_expression"
            and outer.id not in self._site_calls
        ):
            function = outer.child_by_field_name("function")
            if function is not None and function.id == inner.id:
                self._call_site(outer, self._plain, subtree=False)

    def _extracted_message(self, node: tree_sitter.Node) -> tuple[Expr, Expr | None]:
        """The key and text of a message written inline for next-intl's `useExtracted`: the
        hash of its text (`t('Hello!')`, `t({ message, description })`), or its explicit `id`
        (`t({ id: 'carousel.next', message: 'Right' })`). next-intl refuses any other
        argument at build time; here it is a key not known."""
        value = self._evaluator.value_of(node)
        if isinstance(value, Record):
            given, message = value.fields.get("id"), value.fields.get("message")
            text = message if isinstance(message, Text) else None
            if given is not None:
                return given, text
            value = message if message is not None else OPAQUE
        if isinstance(value, Text) and node.type != "identifier":
            return Text(next_intl_key(value.value)), value
        return OPAQUE, None

    def _resource_site(self, call: tree_sitter.Node) -> None:
        """i18next's `i18n.getResource(lng, ns, key)`: the key, in that namespace."""
        callee = call.child_by_field_name("function")
        arguments = _arguments(call)
        if callee is None or callee.type != "member_expression" or len(arguments) < 3:
            return
        namespace = self._namespace_argument(arguments[1])
        self._note_key_literals(arguments[2])
        key = self._evaluator.value_of(arguments[2])
        options = _NO_OPTIONS._replace(namespace=namespace)
        self._site(call.start_byte, call.end_byte, "key", key, self._plain, options)
        self._site_calls.add(call.id)

    def _messages_sites(self) -> None:
        """Reads of a messages value without `t()` (see `scan.messages`): each reads its key
        and every key below it, in a namespace not known here."""
        for read in messages_reads(self._root, self._document, self._evaluator, self._site_calls):
            node = read.node
            options = _NO_OPTIONS._replace(subtree=True)
            self._site(node.start_byte, node.end_byte, "key", read.key, _PASSED, options)

    def _imported_chain_sites(self) -> None:
        """Member chains on imported names, which read keys if linking finds a messages value
        there (`IMPORTED_READ`, see `scan.messages.imported_chains`)."""
        chains = imported_chains(self._root, self._document, self._evaluator, self._site_calls)
        for read in chains:
            node = read.node
            options = _NO_OPTIONS._replace(subtree=True)
            self._site(node.start_byte, node.end_byte, IMPORTED_READ, read.key, _PASSED, options)

    def _note_key_literals(self, argument: tree_sitter.Node) -> None:
        """Remember the string literals a key argument spells its key with (itself, the
        branches of a conditional, the items of a fallback array, the parts of a `+`)."""
        pending = [argument]
        while pending:
            node = pending.pop()
            kind = node.type
            if kind in ("string", "template_string"):
                self.key_literals.add(node.start_byte)
            elif kind in ("array", "parenthesized_expression", "binary_expression"):
                pending.extend(node.named_children)
            elif kind == "ternary_expression":
                pending.extend(
                    branch
                    for branch in (
                        node.child_by_field_name("consequence"),
                        node.child_by_field_name("alternative"),
                    )
                    if branch is not None
                )

    def _key_argument(self, node: tree_sitter.Node) -> Expr:
        if node.type == "array":  # i18next fallback keys: t(['a.specific', 'a.fallback'])
            options = [self._evaluator.value_of(item) for item in node.named_children]
            return Branches(options) if options else OPAQUE
        return self._evaluator.value_of(node)

    def _call_options(self, arguments: list[tree_sitter.Node]) -> _CallOptions:
        """`t(key, 'Default', { count, context, ns, defaultValue, returnObjects, keyPrefix })`."""
        values: dict[str, Expr] = {}
        if arguments and arguments[0].type in ("string", "template_string"):
            values["defaultValue"] = self._evaluator.value_of(arguments[0])
        plural = subtree = False
        options = next((node for node in arguments if node.type == "object"), None)
        for child in options.named_children if options is not None else ():
            value_node: tree_sitter.Node | None = None
            if child.type == "shorthand_property_identifier":
                name = node_text(child)
            elif child.type == "pair":
                key_node = child.child_by_field_name("key")
                value_node = child.child_by_field_name("value")
                if key_node is None or value_node is None:
                    continue
                name = plain_string(key_node) or node_text(key_node)
            else:
                continue
            if name == "count":
                plural = True
            elif name == "returnObjects":
                subtree = value_node is not None and value_node.type == "true"
            elif name in ("context", "ns", "defaultValue", "keyPrefix"):
                if value_node is None:
                    values[name] = self._evaluator.binding_value(name, child)
                elif name == "ns":
                    values[name] = self._namespace_list(value_node) or OPAQUE
                else:
                    values[name] = self._evaluator.value_of(value_node)
        return _CallOptions(
            plural=plural,
            context=values.get("context"),
            namespace=values.get("ns"),
            default=values.get("defaultValue"),
            subtree=subtree,
            key_prefix=values.get("keyPrefix"),
        )

    def _option_node(self, node: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
        """The node of property `name` of an options object literal (`{ keyPrefix: x }`, or
        the shorthand `{ keyPrefix }`), if it has one."""
        if node.type != "object":
            return None
        for child in node.named_children:
            if child.type == "pair":
                key_node = child.child_by_field_name("key")
                if key_node is not None and (plain_string(key_node) or node_text(key_node)) == name:
                    return child.child_by_field_name("value")
            elif child.type == "shorthand_property_identifier" and node_text(child) == name:
                return child
        return None

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
        """`<Translation i18nKey="k" count={n}>`: an element naming a key like a call does."""
        element = attribute.parent
        value = named_child(attribute, 1)
        if value is None or element is None:
            return
        attributes = _attributes(element)
        options = self._element_options(attributes)
        inner = _expression_inside(value) or value
        self._note_key_literals(inner)
        key = self._key_argument(inner)
        self._site(
            element.start_byte,
            element.end_byte,
            "key",
            key,
            self._plain,
            options,
            position=attribute.start_byte,
        )

    def _vnode_site(self, pair: tree_sitter.Node) -> None:
        """`h(Translation, { keypath: 'k' })`: vue-i18n's Translation component rendered by
        a render function names its key like `<i18n-t keypath>` does."""
        value = pair.child_by_field_name("value")
        if value is None:
            return
        self._note_key_literals(value)
        key = self._evaluator.value_of(value)
        self._site(pair.start_byte, pair.end_byte, "key", key, self._plain)

    def _trans_site(self, element: tree_sitter.Node) -> None:
        """`<Trans i18nKey="k">`, or a `<Trans>` whose children (or `defaults`) are its key."""
        tag = _opening_tag(element)
        attributes = _attributes(tag)
        options = self._element_options(attributes)
        translator = self._plain
        if "t" in attributes:
            value = named_child(attributes["t"], 1)
            inner = _expression_inside(value) if value is not None else None
            translator = (self._translator_of(inner) if inner is not None else None) or translator
        children_key, children_default = trans_key(element, self._content, self._evaluator.value_of)
        if "i18nKey" in attributes:
            value = named_child(attributes["i18nKey"], 1)
            if value is not None:
                self._note_key_literals(_expression_inside(value) or value)
            inner = (_expression_inside(value) or value) if value is not None else None
            key = self._key_argument(inner) if inner is not None else OPAQUE  # a list: fallbacks
            position = attributes["i18nKey"].start_byte
        else:
            key = children_key if children_key is not None else OPAQUE
            position = element.start_byte
            options = options._replace(spellings=True)
        options = self._trans_t_options(attributes, options)._replace(default=children_default)
        self._site(element.start_byte, element.end_byte, "key", key, translator, options, position)

    def _trans_t_options(
        self, attributes: dict[str, tree_sitter.Node], options: _CallOptions
    ) -> _CallOptions:
        """`<Trans tOptions={{ context, ns }}>`: react-i18next passes the `context` on when the
        element has none, and its own namespace over `ns` (the `ns` prop, else `t`'s, else the
        default), where the extractors write the key: the key is read in either."""
        value = named_child(attributes["tOptions"], 1) if "tOptions" in attributes else None
        inner = _expression_inside(value) if value is not None else None
        if inner is None or inner.type != "object":
            return options
        if options.context is None:
            options = options._replace(context=self._option(inner, "context"))
        namespace = self._option_node(inner, "ns")
        if namespace is not None and options.namespace is None:
            options = options._replace(also_namespace=self._namespace_list(namespace))
        return options

    def _element_options(self, attributes: dict[str, tree_sitter.Node]) -> _CallOptions:
        """`count`, `context`, `ns` and `defaults` props of a key-naming element."""
        values: dict[str, Expr] = {}
        for name in ("context", "ns", "defaults"):
            value = named_child(attributes[name], 1) if name in attributes else None
            inner = _expression_inside(value) if value is not None else None
            if name == "ns" and inner is not None and inner.type == "array":
                values[name] = self._namespace_list(inner) or OPAQUE  # each, in order
            elif value is not None:
                values[name] = self._jsx_value(value)
        return _CallOptions(
            plural="count" in attributes,
            context=values.get("context"),
            namespace=values.get("ns"),
            default=values.get("defaults"),
        )

    def _jsx_value(self, node: tree_sitter.Node) -> Expr:
        if node.type == "jsx_expression":
            inner = _expression_inside(node)
            return self._evaluator.value_of(inner) if inner is not None else OPAQUE
        return self._evaluator.value_of(node)

    # -- FormatJS -------------------------------------------------------------------------------

    def _descriptor_call(self, call: tree_sitter.Node, name: str) -> None:
        """`formatMessage(descriptor)`, `defineMessage(descriptor)`, `defineMessages({…})`:
        each message descriptor names its `id` (with its `defaultMessage`)."""
        arguments = _arguments(call)
        if not arguments:
            self._site(call.start_byte, call.end_byte, "empty_call", OPAQUE)
            return
        argument = arguments[0]
        if name != "defineMessages":
            descriptor = self._evaluator.value_of(argument)
            if name == "formatMessage":
                descriptor = self._hashed_message(call, argument, descriptor)
            self._descriptor_site(call, descriptor)
            return
        messages = self._evaluator.defined_messages(call)
        if len(arguments) > 1 and isinstance(self._evaluator.value_of(argument), Text):
            argument = arguments[1]  # defineMessages('prefix', { key: 'Default' })
        argument = _unwrapped(argument)  # defineMessages({…} as const), `satisfies …`
        if argument.type != "object":
            return  # messages defined elsewhere are sites where they are defined
        for pair in argument.named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            value = pair.child_by_field_name("value") if pair.type == "pair" else None
            if key is None or value is None:
                continue
            field = self._evaluator.property_name(key)
            if isinstance(messages, Record) and field in messages.fields:
                descriptor = messages.fields[field]
            else:
                descriptor = self._evaluator.value_of(value)
            self._descriptor_site(pair, descriptor)

    def _hashed_message(
        self, call: tree_sitter.Node, argument: tree_sitter.Node, descriptor: Expr
    ) -> Expr:
        """`intl.formatMessage({ defaultMessage })` without an `id`: the descriptor with the
        id babel-plugin-react-intl-auto gives it (from the hash of its text, or its `key`).
        The plugin rewrites only a call on `intl` whose argument is an object literal of plain
        properties (or a constant bound to one) in a file importing `injectIntl` or
        `useIntl`."""
        callee = call.child_by_field_name("function")
        target = callee.child_by_field_name("object") if callee is not None else None
        if (
            not isinstance(descriptor, Record)
            or "id" in descriptor.fields
            or callee is None
            or callee.type != "member_expression"
            or target is None
            or node_text(target) != "intl"
        ):
            return descriptor
        literal = argument if argument.type == "object" else None
        if argument.type == "identifier":
            literal = self._evaluator.object_literal(argument)
        default = descriptor.fields.get("defaultMessage")
        if literal is None or not isinstance(default, Text) or not plain_object(literal):
            return descriptor
        if writes_property(literal, "id"):
            return descriptor
        modules = _named_import_sources(self._root, _INTL_PROVIDERS)
        if not modules:
            return descriptor
        key = descriptor.fields.get("key")
        auto = AutoId(
            message_hash(default.value),
            True,
            key.value if isinstance(key, Text) else None,
            modules=modules,
        )
        return Record({**descriptor.fields, "id": auto})

    def _descriptor_site(self, node: tree_sitter.Node, descriptor: Expr) -> None:
        default = select(descriptor, "defaultMessage")
        options = _CallOptions(default=None if default is OPAQUE else default)
        key = _message_id(descriptor)
        self._site(node.start_byte, node.end_byte, "key", key, _EMPTY, options)

    def _formatted_message_site(self, element: tree_sitter.Node) -> None:
        """`<FormattedMessage id="k" defaultMessage="…" />` or `{...messages.k}`."""
        tag = _opening_tag(element)
        fields: dict[str, Expr] = {}
        written: dict[str, Expr] = {}
        for child in tag.named_children:
            if child.type == "jsx_expression":  # {...descriptor}
                spread = _expression_inside(child)
                inner = named_child(spread, 0) if spread is not None else None
                if spread is not None and spread.type == "spread_element" and inner is not None:
                    value = self._evaluator.value_of(inner)
                    for field in ("id", "defaultMessage"):
                        fields[field] = select(value, field)
            elif child.type == "jsx_attribute":
                name_node, value_node = named_child(child, 0), named_child(child, 1)
                if name_node is not None and value_node is not None:
                    written[node_text(name_node)] = fields[node_text(name_node)] = self._jsx_value(
                        value_node
                    )
        if "id" not in written and "defaultMessage" in written:
            auto = self._hashed_element(tag, written)
            if auto is not None:
                fields["id"] = auto
        described = "id" in fields or "defaultMessage" in fields
        self._descriptor_site(element, Record(fields) if described else OPAQUE)

    def _hashed_element(self, tag: tree_sitter.Node, written: dict[str, Expr]) -> AutoId | None:
        """The id babel-plugin-react-intl-auto gives an element written with a
        `defaultMessage` and no `id`: the hash of the text (or the `key`, with `useKey`), when
        the element is FormatJS's, imported by name."""
        name = tag.child_by_field_name("name")
        default = written["defaultMessage"]
        if name is None or name.type != "identifier" or not isinstance(default, Text):
            return None
        local = node_text(name)
        modules = [
            module
            for element in FORMATJS_ELEMENTS
            if (module := self._evaluator.imported_as(local, name, element)) is not None
        ]
        if not modules:
            return None
        key = written.get("key")
        # An empty text is not hashed: its id is the path alone.
        suffix = message_hash(default.value) if default.value else ""
        return AutoId(suffix, True, key.value if isinstance(key, Text) else None, modules=modules)

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
        self._site(start, end, "commented", OPAQUE)


# next-intl's methods of a translation function, which take a key like the function does.
_RICH_METHODS = frozenset({"rich", "markup", "raw", "has"})


def _hook_value(translator: Translator, gives_object: bool) -> Expr:
    """What a hook of the file exports (see `Translator.hook`): its calls return the
    translator's namespace and key prefix, or an object holding it as `t`."""
    fields: dict[str, Expr] = {HOOK: Text("")}
    if translator.namespace is not None:
        fields[HOOK_NAMESPACE] = translator.namespace
    if translator.prefix is not None:
        fields[HOOK_PREFIX] = translator.prefix
    made: Expr = Record(fields)
    return Returns(Record({"t": made}) if gives_object else made)


def _message_id(descriptor: Expr) -> Expr:
    """A message descriptor's `id`. A message written without one (`{ defaultMessage }`) gets
    an `AutoId`, and every `AutoId` carries the literal text and description that
    `formatjs extract` hashes into an id: linking derives the id from whichever tool the
    project runs."""
    if not isinstance(descriptor, Record) or "defaultMessage" not in descriptor.fields:
        return select(descriptor, "id")
    given = descriptor.fields.get("id")
    if given is not None and not isinstance(given, AutoId):
        return given
    default = descriptor.fields["defaultMessage"]
    description = descriptor.fields.get("description")
    text = default.value if isinstance(default, Text) else None
    note = description.value if isinstance(description, Text) else None
    described = description is not None and not isinstance(description, Text)
    if given is None:  # no Babel plugin names this message: only `formatjs extract` may
        name = message_hash(text) if text else ""
        return AutoId(name, True, text=text, description=note, described=described)
    return msgspec.structs.replace(given, text=text, description=note, described=described)


def _unwrapped(node: tree_sitter.Node) -> tree_sitter.Node:
    """`node` without the TypeScript wrappers and parentheses around it (`{…} as const`,
    `{…} satisfies T`, `(…)`, `x!`), which change no value."""
    while node.type in _VALUE_WRAPPERS:
        inner = named_child(node, 0)
        if inner is None:
            break
        node = inner
    return node


def _arguments(call: tree_sitter.Node) -> list[tree_sitter.Node]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.type != "arguments":
        return []
    return [node for node in arguments.named_children if node.type != "comment"]


def _last_name(callee: tree_sitter.Node) -> str:
    """The last name of a callee path (`intl.formatMessage` → `formatMessage`)."""
    while callee.type in ("non_null_expression", "parenthesized_expression"):
        inner = named_child(callee, 0)
        if inner is None:
            return ""
        callee = inner
    if callee.type == "member_expression":
        prop = callee.child_by_field_name("property")
        return node_text(prop) if prop is not None else ""
    return node_text(callee) if callee.type == "identifier" else ""


def _uses_formatjs(root: tree_sitter.Node, document: bytes) -> bool:
    """Whether the file imports FormatJS (`react-intl`, `@formatjs/intl`), or one of its names
    from anywhere (an app's own `defineMessages` wrapper, a re-exporting module)."""
    # A module or name this finds is written in the text (a source with escapes is no plain
    # string): a file without one of these words has no such import, at the cost of a search.
    if not any(word in document for word in _FORMATJS_WORDS):
        return False
    for statement in root.named_children:
        if statement.type != "import_statement":
            continue
        source = statement.child_by_field_name("source")
        name = plain_string(source) if source is not None else None
        if name is not None and any(
            name == module or name.startswith(module.rstrip("*")) for module in FORMATJS_MODULES
        ):
            return True
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        if clause is not None and not FORMATJS_NAMES.isdisjoint(_imported_names(clause)):
            return True
    return False


def _imported_names(clause: tree_sitter.Node) -> list[str]:
    """The local names an import clause binds (default, named and namespace imports)."""
    names = []
    for part in clause.named_children:
        if part.type == "identifier":
            names.append(node_text(part))
        elif part.type == "named_imports":
            for specifier in part.named_children:
                local = specifier.child_by_field_name("alias") or specifier.child_by_field_name(
                    "name"
                )
                if local is not None:
                    names.append(node_text(local))
    return names


def _member_name(member: tree_sitter.Node) -> str | None:
    """The property name of an object literal's member (`t` of `t`, `t: x`), None for a
    spread or a computed name."""
    if member.type == "shorthand_property_identifier":
        return node_text(member)
    if member.type == "pair":
        key = member.child_by_field_name("key")
        if key is not None and key.type in ("property_identifier", "string"):
            return plain_string(key) or node_text(key)
    return None


def _renamed_imports(root: tree_sitter.Node, names: tuple[str, ...]) -> dict[str, str]:
    """The local names the file's imports give `names` under another name
    (`import { useTranslations as useT }` → `{"useT": "useTranslations"}`)."""
    return {
        found.local: found.imported
        for found in named_imports(root)
        if found.imported in names and found.local != found.imported
    }


def _named_import_sources(root: tree_sitter.Node, names: frozenset[str]) -> list[str]:
    """The modules the file imports one of `names` from by name (`import { useIntl } …`)."""
    return list(
        dict.fromkeys(
            found.module
            for found in named_imports(root)
            if found.module is not None and found.imported in names
        )
    )


def _element_of(tag: tree_sitter.Node) -> tree_sitter.Node:
    """The element a tag belongs to (`<a …/>` is its own element)."""
    if tag.type == "jsx_opening_element" and tag.parent is not None:
        return tag.parent
    return tag


def _opening_tag(element: tree_sitter.Node) -> tree_sitter.Node:
    if element.type == "jsx_element":
        opening = element.child_by_field_name("open_tag")
        if opening is not None:
            return opening
    return element


def _element_name(element: tree_sitter.Node) -> str:
    name = _opening_tag(element).child_by_field_name("name")
    return node_text(name) if name is not None else ""


def _attributes(tag: tree_sitter.Node) -> dict[str, tree_sitter.Node]:
    """The named attributes of an opening or self-closing tag, by name (the first of each)."""
    found: dict[str, tree_sitter.Node] = {}
    for child in tag.named_children:
        if child.type != "jsx_attribute":
            continue
        name = named_child(child, 0)
        if name is not None:
            found.setdefault(node_text(name), child)
    return found


def _expression_inside(node: tree_sitter.Node) -> tree_sitter.Node | None:
    if node.type != "jsx_expression":
        return node
    return next((c for c in node.named_children if c.type != "comment"), None)


def _hook_translator_names(pattern: tree_sitter.Node, names: frozenset[str]) -> list[str]:
    """The local names `t` gets in `const { t } = …`, `{ t: tx }` or `[t] = useTranslation()`
    (and vue-i18n's `tm`, `te`, … from `useI18n()`)."""
    if pattern.type == "array_pattern":
        first = named_child(pattern, 0)
        return [node_text(first)] if first is not None and first.type == "identifier" else []
    found = []
    for child in pattern.named_children if pattern.type == "object_pattern" else ():
        if child.type == "shorthand_property_identifier_pattern" and node_text(child) in names:
            found.append(node_text(child))
        elif child.type == "pair_pattern":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if (
                key is not None
                and value is not None
                and node_text(key) in names
                and value.type == "identifier"
            ):
                found.append(node_text(value))
    return found


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


__all__ = ["extract_facts", "extract_file"]
