"""Where a file really fails to parse: tree-sitter's error nodes, minus the ones its grammars
raise on valid code (a bare `&` in JSX text or attributes, type arguments on a tagged template).

A syntax error makes a file's evidence incomplete, so removal ops refuse over it; an error the
grammar invents on valid code must not.
"""

from __future__ import annotations

import tree_sitter

_JSX_TEXT_OWNERS = frozenset({"jsx_element", "jsx_fragment"})


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
