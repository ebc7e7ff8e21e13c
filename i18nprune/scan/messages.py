"""The messages object read without `t()`: code that holds a locale's messages as a value and
reads keys from it — next-intl's `useMessages()`, vue-i18n's `getLocaleMessage()`, i18next's
`getResourceBundle()`, an import of `en.json`, a build module's `readI18nFile('en.json')`, and
what a helper builds from them (`transKeys = buildPaths(en)`).

A member chain on such a value uses the key it spells (`pwa.screenshots.dark`) and every key
below it; a computed member keeps the keys below its static part
(`messages.SchemaErrors[body]`); a chain that stops early (`Object.keys(messages.errors)`) keeps
its subtree. The object passed on whole (`<Provider messages={messages}>`) is how an app hands
its messages to its i18n library, and uses no key by itself.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import tree_sitter

from i18nprune.locale_codes import is_language_code
from i18nprune.scan.expressions import Expr, Messages, Text
from i18nprune.scan.scopes import named_child, named_imports
from i18nprune.syntax_tree import node_text

if TYPE_CHECKING:
    from i18nprune.scan.evaluate import Evaluator

MESSAGES_METHODS = frozenset({"getLocaleMessage", "getResourceBundle"})
"""vue-i18n's and i18next's functions that return a locale's messages, however they are reached
(`i18n.global.getLocaleMessage('en')`, a destructured `getLocaleMessage`)."""
NEXT_INTL_GETTERS = frozenset({"useMessages", "getMessages"})
NEXT_INTL_MODULES = frozenset({"next-intl", "next-intl/server", "use-intl"})
"""next-intl's getters return the messages only when imported from next-intl: apps write hooks
of the same name that return other things (umami's `useMessages()` returns its descriptors)."""

MESSAGES_TRIGGER = re.compile(
    rb"(?<![\w$])(?:useMessages|getMessages|getLocaleMessage|getResourceBundle)(?![\w$])"
    rb"|(?<![\w.$-])[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*\.json[\"'`]"
)
"""What a file that holds a messages value contains: one of the calls, or a quoted name of a
file named like a locale (`'en.json'`, `"../locales/pt-BR.json"`)."""
IMPORTED_READ = "messages_import"
"""The kind of a site that is a member chain on an imported name (`imported_chains`): linking
makes it a key site when the name is a messages value, and drops it otherwise."""
_CHAIN = frozenset(
    {
        "member_expression",
        "subscript_expression",
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
    }
)
_DECLARING = frozenset({"variable_declarator", "import_clause", "import_specifier"})
_PATTERN_NAMES = frozenset({"identifier", "shorthand_property_identifier_pattern"})


def names_locale_file(text: str) -> bool:
    """Whether a module path or file name names a locale's JSON file (`../locales/en.json`,
    `'pt-BR.json'`): its name is a locale code."""
    if not text.endswith(".json"):
        return False
    name = text.rsplit("/", 1)[-1][: -len(".json")]
    return is_language_code(name)


_TRIGGER_WORDS = (b".json", b"Messages", b"getLocaleMessage", b"getResourceBundle")


def may_hold_messages(document: bytes) -> bool:
    """Whether a file can hold a messages value at all (a cheap test before any tree walk):
    substring searches first, which run at memory speed, and the pattern only where one hits
    (the pattern alone, tried at every letter, cost ~0.1 ms per 4 KB file)."""
    return any(word in document for word in _TRIGGER_WORDS) and (
        MESSAGES_TRIGGER.search(document) is not None
    )


class MessagesRead:
    """A place that reads keys from a messages value: the node of the whole chain, and the
    key path it reads (a `Text` path, or a `Join` of a static head and an unknown rest)."""

    __slots__ = ("key", "node")

    def __init__(self, node: tree_sitter.Node, key: Expr) -> None:
        self.node = node
        self.key = key


def messages_reads(
    root: tree_sitter.Node, document: bytes, evaluator: Evaluator, skipped: set[int]
) -> list[MessagesRead]:
    """Every read of a messages value in the tree of `document`, except chains that are
    the key argument of a call in `skipped` (node ids of key sites' calls: there the chain is
    the key, and the site accounts for it)."""
    bindings = {name for name, node in _declared_names(root) if _is_messages(evaluator, name, node)}
    reads: list[MessagesRead] = []
    for name in sorted(bindings):
        for reference in _references(root, document, name):
            if _declares(reference) or not _is_messages(evaluator, name, reference):
                continue
            read = _read(reference, evaluator, skipped)
            if read is not None:
                reads.append(read)
    return reads


def imported_chains(
    root: tree_sitter.Node, document: bytes, evaluator: Evaluator, skipped: set[int]
) -> list[MessagesRead]:
    """Member chains of two or more members on a name the file imports from another module
    (`transKeys.tabs.layers` with `transKeys` imported): whether that name is a messages
    value only linking can tell, so each is a read to confirm there (`IMPORTED_READ`); the
    key arguments of calls in `skipped` are their sites' already."""
    imported = {found.local for found in named_imports(root)}
    for statement in root.named_children:  # `import en from …`
        clause = named_child(statement, 0) if statement.type == "import_statement" else None
        default = named_child(clause, 0) if clause is not None else None
        if clause is not None and clause.type == "import_clause" and default is not None:
            imported.update([node_text(default)] if default.type == "identifier" else [])
    if not imported:
        return []
    reads: list[MessagesRead] = []
    for match in _member_accesses(tuple(sorted(imported))).finditer(document):
        if match.start() and document[match.start() - 1] in _NAME_BYTES:
            continue  # the end of a longer name, or a member of something else (`x.name`)
        reference = root.descendant_for_byte_range(match.start(), match.end())
        if reference is None or reference.type != "identifier" or _declares(reference):
            continue
        if _is_messages(evaluator, node_text(reference), reference):
            continue  # a locale file's import: `messages_reads` reads it here
        read = _chain_read(reference, evaluator, skipped)
        if read is not None:
            reads.append(read)
    return reads


# The bytes that may come before a name in a longer one, or make it a member (`x.name`).
_NAME_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")


@functools.lru_cache(maxsize=256)
def _member_accesses(names: tuple[str, ...]) -> re.Pattern[bytes]:
    """One search for every name of `names` followed by a member access (`name.`, `name?.`);
    what comes before a match is checked by the caller (a look-behind before the names would
    make the search try it at every byte, five times slower). Files of one app import the
    same few sets of names: each set's pattern is made once."""
    listed = b"|".join(re.escape(name.encode()) for name in sorted(names, key=len, reverse=True))
    return re.compile(rb"(?:" + listed + rb")(?=\s*\??\.[^.])")


def _chain_read(
    reference: tree_sitter.Node, evaluator: Evaluator, skipped: set[int]
) -> MessagesRead | None:
    """The static member chain from `reference` (at least two members, the last one before a
    call left out), unless it is the key argument of a call in `skipped`."""
    node, members = reference, 0
    while True:
        parent = node.parent
        if (
            parent is None
            or parent.type != "member_expression"
            or parent.child_by_field_name("object") != node
        ):
            break
        node, members = parent, members + 1
    outer = node.parent
    if outer is not None and outer.type == "type_query":  # `keyof typeof keys.a.b`: a type
        return None
    if outer is not None and outer.type == "call_expression" and node is not reference:
        if outer.child_by_field_name("function") == node:  # `keys.errors.map(…)`
            node, members = named_child(node, 0) or node, members - 1
    elif outer is not None and outer.type == "arguments":
        call = outer.parent
        if call is not None and call.id in skipped and named_child(outer, 0) == node:
            return None
    if members < 2:
        return None
    return MessagesRead(node, evaluator.value_of(node))


def _is_messages(evaluator: Evaluator, name: str, node: tree_sitter.Node) -> bool:
    return isinstance(evaluator.binding_value(name, node), Messages)


def _declared_names(root: tree_sitter.Node) -> Iterator[tuple[str, tree_sitter.Node]]:
    """Each name a declaration or import of the file binds, with its node."""
    cursor = root.walk()
    visited_children = False
    while True:
        node = cursor.node
        assert node is not None
        if not visited_children:
            if node.type in _DECLARING:
                yield from _bound_names(node)
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            visited_children = False
        elif cursor.goto_parent():
            visited_children = True
        else:
            return


def _bound_names(declaration: tree_sitter.Node) -> Iterator[tuple[str, tree_sitter.Node]]:
    if declaration.type == "import_clause":
        default = named_child(declaration, 0)
        if default is not None and default.type == "identifier":
            yield node_text(default), default
        return
    if declaration.type == "import_specifier":
        local = declaration.child_by_field_name("alias") or declaration.child_by_field_name("name")
        if local is not None:
            yield node_text(local), local
        return
    pattern = declaration.child_by_field_name("name")
    pending = [pattern] if pattern is not None else []
    while pending:
        node = pending.pop()
        if node.type in _PATTERN_NAMES:
            yield node_text(node), node
        elif node.type == "pair_pattern":
            value = node.child_by_field_name("value")
            if value is not None:
                pending.append(value)
        elif node.type in ("object_pattern", "object_assignment_pattern", "assignment_pattern"):
            pending.extend(node.named_children)


def _references(root: tree_sitter.Node, document: bytes, name: str) -> Iterator[tree_sitter.Node]:
    """The identifiers called `name` in the tree (found by a word search of the text)."""
    word = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
    for match in word.finditer(document):
        node = root.descendant_for_byte_range(match.start(), match.end())
        if node is not None and node.type in ("identifier", "shorthand_property_identifier"):
            yield node


def _declares(node: tree_sitter.Node) -> bool:
    """Whether `node` is the name a declaration binds, not a use of it."""
    parent = node.parent
    if parent is None:
        return True
    if parent.type == "variable_declarator":
        return parent.child_by_field_name("name") == node
    return parent.type in (
        "import_clause",
        "import_specifier",
        "object_pattern",
        "pair_pattern",
        "shorthand_property_identifier_pattern",
        "formal_parameters",
        "required_parameter",
    )


def _read(
    reference: tree_sitter.Node, evaluator: Evaluator, skipped: set[int]
) -> MessagesRead | None:
    """The read that the chain starting at `reference` makes, if it reads a key: the longest
    static part of the chain (`pwa.screenshots.dark`), or where a computed member leaves it
    (`pwa.webmanifest[env]` of `pwa.webmanifest[env].name`)."""
    chain = [reference]
    while True:
        node, parent = chain[-1], chain[-1].parent
        if parent is None or parent.type not in _CHAIN:
            break
        if (
            parent.type in ("member_expression", "subscript_expression")
            and parent.child_by_field_name("object") != node
        ):
            break
        chain.append(parent)
    outer = chain[-1].parent
    if (
        len(chain) > 1
        and outer is not None
        and outer.type == "call_expression"
        and chain[-1].type == "member_expression"
        and outer.child_by_field_name("function") == chain[-1]
    ):  # `messages.errors.hasOwnProperty(…)` reads `errors`
        chain.pop()
    elif outer is not None and outer.type == "arguments":
        call = outer.parent
        if call is not None and call.id in skipped and named_child(outer, 0) == chain[-1]:
            return None  # the key of a site (`t(transKeys.home.title)`)
    read: MessagesRead | None = None
    for node in chain[1:]:
        value = evaluator.value_of(node)
        if isinstance(value, Messages):
            read = MessagesRead(node, Text(value.path))
            continue
        if not isinstance(value, Messages) and node.type == "subscript_expression":
            read = MessagesRead(node, value)  # a computed member: what lies below the head
        break
    return read
