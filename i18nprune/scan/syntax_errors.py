"""Where a file really fails to parse: tree-sitter's error nodes, minus the ones its grammars
raise on valid code (a bare `&` in JSX text or attributes, type arguments on a tagged template),
and the repair that lets valid JSX with bare `&`s parse.

A syntax error makes a file's evidence incomplete, so removal ops refuse over it; an error the
grammar invents on valid code must not.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import tree_sitter

_JSX_TEXT_OWNERS = frozenset({"jsx_element", "jsx_fragment"})
# A `&` that starts no character reference and is no `&&`/`&=` operator: JSX text allows it,
# the grammar does not.
_BARE_AMPERSAND = re.compile(rb"(?<!&)&(?!&|=|#?\w+;)")
_REPAIR_ROUNDS = 3


def repair_ampersands(root: tree_sitter.Node, document: bytes) -> bytes | None:
    """`document` with the bare `&`s inside its error regions blanked (offsets kept), or `None`
    when there is none to blank. Callers reparse and keep the better tree."""
    repaired = bytearray(document)
    changed = False
    for start, end in _error_ranges(root):
        for match in _BARE_AMPERSAND.finditer(document, start, end):
            repaired[match.start()] = ord(" ")
            changed = True
    return bytes(repaired) if changed else None


def parse_repaired(
    document: bytes, tree: tree_sitter.Tree, reparse: Callable[[bytes], tree_sitter.Tree]
) -> tuple[bytes, tree_sitter.Tree]:
    """The document and tree to extract from: `tree`, or a repaired reparse with fewer real
    errors (a bare `&` can make tree-sitter lose a whole JSX element)."""
    for _ in range(_REPAIR_ROUNDS):
        if not tree.root_node.has_error or b"&" not in document:
            break
        repaired = repair_ampersands(tree.root_node, document)
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
