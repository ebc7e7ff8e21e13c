"""Where a file really fails to parse: tree-sitter's error nodes, minus the ones its grammars
raise on valid code, and the repairs that let valid code the grammars reject parse.

A syntax error makes a file's evidence incomplete, so removal ops refuse over it; an error the
grammar invents on valid code must not. Two remedies, both conservative:

- a *repair* blanks (or renames, same length) a token the grammars cannot read where TypeScript
  and JSX accept it — a bare `&` in JSX, the `import('…').` of an import type, the `accessor`
  after another modifier, `in`/`out` variance, the `type` of `export type *`, a reserved word as
  a JSX attribute name, the `?.` of an optional call with type arguments (`f<T>?.()`) — and
  the reparse is kept only when it has fewer real errors. No
  repaired token can hold a key, and offsets are kept, so every position stays the file's;
- an error the grammar leaves inside a type (an annotation, type arguments or parameters) whose
  text holds no quote, backtick or parenthesis is not counted: no key, literal or call, can be
  there. Any other error counts, and the file is not fully read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import tree_sitter

_JSX_TEXT_OWNERS = frozenset({"jsx_element", "jsx_fragment"})
# A `&` that starts no character reference and is no `&&`/`&=` operator: JSX text allows it,
# the grammar does not.
_BARE_AMPERSAND = re.compile(rb"(?<!&)&(?!&|=|#?\w+;)")
_REPAIR_ROUNDS = 3
# What an error's text needs for a key to sit in it: a string, a template or a call.
_MAY_HOLD_KEY = re.compile(rb"[\"'`(]")
# Nodes whose text is a type: an error confined to one is read as the grammar's, not the code's.
_TYPE_CONTEXTS = frozenset(
    {
        "type_annotation",
        "opt_type_annotation",
        "type_arguments",
        "type_parameters",
        "type_alias_declaration",
        "interface_body",
        "object_type",
        "property_signature",
        "method_signature",
        "index_signature",
        "union_type",
        "intersection_type",
        "generic_type",
        "lookup_type",
        "conditional_type",
        "constraint",
        "tuple_type",
        "array_type",
        "function_type",
        "extends_type_clause",
        "implements_clause",
    }
)
# Where a walk up from a token stops looking for a type context: a statement or a body.
_SCOPE_ENDS = frozenset({"statement_block", "program", "class_body", "expression_statement"})
# `import('react').` before a qualified name in a type (`import('react').FC<P>`).
_IMPORT_TYPE = re.compile(rb"""\bimport\s*\(\s*(["'])[^"'\n]*\1\s*\)\s*\.""")
# `accessor` as a modifier after another one (`static accessor x`): never before a line break.
_ACCESSOR = re.compile(rb"\baccessor(?=[ \t]+[#\w$\[])")
# Variance annotations on a type parameter (`<in out T>`, `<out T>`).
_VARIANCE = re.compile(rb"(?<=[<,])\s*((?:in\s+)?(?:out\s+)?)(?=[A-Za-z_$])")
_EXPORT_TYPE_STAR = re.compile(rb"\bexport\s+(type)(?=\s*\*)")
_JSX_TAGS = frozenset({"jsx_opening_element", "jsx_self_closing_element"})
# `extends` as a tag's first attribute (`<A extends={Base}>`): TypeScript reads it as JSX since a
# type parameter's `extends` is never followed by `=`; the TSX grammar reads type parameters.
_EXTENDS_ATTRIBUTE = re.compile(rb"<\s*[A-Za-z_$][\w$.:-]*\s+(extends)(?=\s*=)")
_LEADING_WORD = re.compile(rb"[A-Za-z]+")
RESERVED_WORDS = frozenset(
    b"break case catch class const continue debugger default delete do else enum export "
    b"extends false finally for function if import in instanceof new null return super switch "
    b"this throw true try typeof var void while with".split()
)
"""JavaScript's reserved words: names where JSX (`<Fade in={…}>`) and Vue (`:class="class"`)
allow them, keywords to the grammars."""

Patch = tuple[int, int, bytes]
"""A same-length replacement of `document[start:end]`."""


def repair(root: tree_sitter.Node, document: bytes) -> bytes | None:
    """`document` with the tokens the grammars cannot read where the language allows them
    blanked or renamed (offsets kept), or `None` when there is none. Callers reparse and keep
    the better tree."""
    repaired = bytearray(document)
    changed = False
    for finder in _REPAIRS:
        for start, end, text in finder(root, document):
            if repaired[start:end] != text:
                repaired[start:end] = text
                changed = True
    return bytes(repaired) if changed else None


def _blank(start: int, end: int) -> Patch:
    return start, end, b" " * (end - start)


def _bare_ampersands(root: tree_sitter.Node, document: bytes) -> Iterator[Patch]:
    for start, end in _error_ranges(root):
        for match in _BARE_AMPERSAND.finditer(document, start, end):
            yield _blank(match.start(), match.end())


def _in_type(root: tree_sitter.Node, offset: int) -> bool:
    """Whether the token at `offset` is part of a type (up to its statement or body)."""
    return _within_type(root.descendant_for_byte_range(offset, offset + 1))


def _within_type(node: tree_sitter.Node | None) -> bool:
    while node is not None and node.type not in _SCOPE_ENDS:
        if node.type in _TYPE_CONTEXTS:
            return True
        node = node.parent
    return False


def _inside(root: tree_sitter.Node, offset: int, owner: str) -> bool:
    """Whether the token at `offset` is directly in an `owner` (no function body between)."""
    node: tree_sitter.Node | None = root.descendant_for_byte_range(offset, offset + 1)
    while node is not None and node.type not in ("statement_block", "program"):
        if node.type == owner:
            return True
        node = node.parent
    return False


def _import_types(root: tree_sitter.Node, document: bytes) -> Iterator[Patch]:
    for match in _IMPORT_TYPE.finditer(document):
        if _in_type(root, match.start()):
            yield _blank(match.start(), match.end())


def _modified_accessors(root: tree_sitter.Node, document: bytes) -> Iterator[Patch]:
    for match in _ACCESSOR.finditer(document):
        if _inside(root, match.start(), "class_body"):
            yield _blank(match.start(), match.end())


def _variance(root: tree_sitter.Node, document: bytes) -> Iterator[Patch]:
    for match in _VARIANCE.finditer(document):
        if match.group(1) and _inside(root, match.start(1), "type_parameters"):
            yield _blank(match.start(1), match.end(1))


def _export_type_star(root: tree_sitter.Node, document: bytes) -> Iterator[Patch]:
    for match in _EXPORT_TYPE_STAR.finditer(document):
        if _inside(root, match.start(1), "export_statement"):
            yield _blank(match.start(1), match.end(1))


def _jsx_reserved_attributes(root: tree_sitter.Node, document: bytes) -> Iterator[Patch]:
    """A reserved word naming a JSX attribute, renamed `_…` (no attribute the scan reads is
    named by one): the grammar's error is the word in a tag it read (`<Fade in={…}>`), or the
    tag itself (`<Fade for='x'>` in JavaScript)."""
    for error in _error_nodes(root):
        parent, children = error.parent, error.children
        if parent is not None and parent.type in _JSX_TAGS:
            words = children[:1]
        elif len(children) > 2 and children[0].type == "<" and children[1].is_named:
            words = children[2:]
        else:
            continue
        for word in words:
            if not word.is_named and word.type.encode() in RESERVED_WORDS:
                yield word.start_byte, word.end_byte, b"_" * (word.end_byte - word.start_byte)


def _jsx_extends_attributes(root: tree_sitter.Node, document: bytes) -> Iterator[Patch]:
    for start, end in _error_ranges(root):
        # the error may start at the `=` after the word, or at the tag
        for match in _EXTENDS_ATTRIBUTE.finditer(document, max(0, start - 256), end):
            yield match.start(1), match.end(1), b"_" * len(match.group(1))


def _optional_instantiated_calls(root: tree_sitter.Node, document: bytes) -> Iterator[Patch]:
    """The `?.` of an optional call with type arguments (`intl.formatMessage<T>?.(…)`), which
    the grammar reads as a member access missing its name: blanked, the call is a plain one
    (whether it is optional changes no key)."""
    pending = [root] if root.has_error else []
    while pending:
        node = pending.pop()
        for child in node.children:
            if child.has_error:
                pending.append(child)
            if not child.is_missing or node.type != "member_expression":
                continue
            target = node.child_by_field_name("object")
            chain = node.child_by_field_name("optional_chain")
            if target is None or chain is None or target.type != "instantiation_expression":
                continue
            if document[chain.end_byte :].lstrip()[:1] == b"(":
                yield _blank(chain.start_byte, chain.end_byte)


def _error_nodes(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    pending = [root] if root.has_error else []
    while pending:
        node = pending.pop()
        for child in node.children:
            if child.is_error:
                yield child
            if child.has_error:
                pending.append(child)


_REPAIRS: tuple[Callable[[tree_sitter.Node, bytes], Iterator[Patch]], ...] = (
    _bare_ampersands,
    _import_types,
    _modified_accessors,
    _variance,
    _export_type_star,
    _jsx_reserved_attributes,
    _jsx_extends_attributes,
    _optional_instantiated_calls,
)


def parse_repaired(
    document: bytes, tree: tree_sitter.Tree, reparse: Callable[[bytes], tree_sitter.Tree]
) -> tuple[bytes, tree_sitter.Tree]:
    """The document and tree to extract from: `tree`, or a repaired reparse with fewer real
    errors (`repair`; a bare `&` can make tree-sitter lose a whole JSX element)."""
    for _ in range(_REPAIR_ROUNDS):
        if not tree.root_node.has_error:
            break
        repaired = repair(tree.root_node, document)
        if repaired is None:
            break
        candidate = reparse(repaired)
        if _error_count(candidate.root_node, repaired) >= _error_count(tree.root_node, document):
            break
        document, tree = repaired, candidate
    return document, tree


def _error_ranges(root: tree_sitter.Node) -> list[tuple[int, int]]:
    ranges = []
    pending = [root]
    while pending:
        node = pending.pop()
        for child in node.children:
            if child.is_error:
                ranges.append((child.start_byte, child.end_byte))
            elif child.has_error:
                pending.append(child)
    return ranges


def _error_count(root: tree_sitter.Node, document: bytes) -> int:
    count = 0
    pending = [root] if root.has_error else []
    while pending:
        node = pending.pop()
        for child in node.children:
            if (child.is_error or child.is_missing) and not _is_grammar_artifact(child, document):
                count += 1
            elif child.has_error:
                pending.append(child)
    return count


def first_syntax_error(root: tree_sitter.Node, document: bytes) -> int | None:
    """The byte offset of the first real syntax error under `root`, or `None`."""
    if not root.has_error:
        return None
    pending = [root]
    found: list[int] = []
    while pending:
        node = pending.pop()
        for child in node.children:
            if (child.is_error or child.is_missing) and not _is_grammar_artifact(child, document):
                found.append(child.start_byte)
                continue
            if child.has_error:
                pending.append(child)
    return min(found) if found else None


def _is_grammar_artifact(node: tree_sitter.Node, document: bytes) -> bool:
    parent = node.parent
    if parent is None:
        return False
    # A missing token is judged by the text around it: its parent's.
    judged = parent if node.is_missing else node
    if _within_type(parent) and not _MAY_HOLD_KEY.search(
        document, judged.start_byte, judged.end_byte
    ):
        return True
    if node.is_error and document[node.start_byte : node.start_byte + 1] == b"&":
        # JSX allows a bare `&` (it is not an entity), the grammar only `&name;` forms.
        owner = parent.parent
        return parent.type in _JSX_TEXT_OWNERS or (
            parent.type == "string" and owner is not None and owner.type == "jsx_attribute"
        )
    if node.is_missing and node.type == "!" and parent.type == "non_null_expression":
        # styled.div<{ $x: boolean }>`…`: the grammar reads the type arguments as an
        # instantiation and wants a `!` before the template.
        instantiated = parent.named_children[0] if parent.named_children else None
        call = parent.parent
        arguments = call.child_by_field_name("arguments") if call is not None else None
        return (
            instantiated is not None
            and instantiated.type == "instantiation_expression"
            and arguments is not None
            and arguments.type == "template_string"
        )
    return False
