"""The leaf model: what a locale document holds at each path (strings, structured leaves, …).

Readers see a document as a flat mapping from path to `Leaf`; the shape rules live here.
"""

from __future__ import annotations

from typing import Literal

import msgspec

NEEDS_REVIEW = "needsReview"
"""The field of a structured leaf that marks a translation nobody has checked yet."""
STRUCTURED_KEYS = frozenset(
    {"value", "status", "confidence", NEEDS_REVIEW, "needsTranslationAgain", "source"}
)

LeafKind = Literal["string", "structured", "placeholder", "other"]
LeafValue = str | int | float | bool | None


class Leaf(msgspec.Struct, frozen=True, gc=False):
    """One translatable position of a locale document.

    `kind` is `string` for a plain string or a structured-JSON message (`value` is then its
    `string`), `structured` for a structured leaf (`value` is then its `value` string),
    `placeholder` for any of those whose text is the missing-placeholder sentinel, and `other`
    for a number, boolean or null (kept untouched by every writer).

    Not tracked by the garbage collector (`gc=False`): it holds only strings, numbers and
    booleans, so it can be in no reference cycle, and untracked it is 16 bytes smaller (a
    large locale has one per leaf) and no collection walks it.
    """

    path: str
    kind: LeafKind
    value: LeafValue
    needs_translation_again: bool = False


# Crowdin/Transifex "structured JSON" (FormatJS's `--format crowdin`, Saleor's locales): a
# message is `{"string": "…", "context": "…"}`.
MESSAGE_KEYS = frozenset({"string", "context", "developer_comment", "character_limit"})


def is_structured_leaf(node: object) -> bool:
    """True when `node` is a structured leaf rather than a namespace.

    That is an object whose keys all belong to `STRUCTURED_KEYS` and whose `value` is a string;
    `{"value": "x", "label": "y"}` is a namespace.
    """
    return (
        isinstance(node, dict)
        and isinstance(node.get("value"), str)
        and STRUCTURED_KEYS.issuperset(node)
    )


def marked_for_review(node: object) -> bool:
    """True when `node` (a leaf as its file holds it) is a structured leaf marked
    `needsReview: true`."""
    return isinstance(node, dict) and node.get(NEEDS_REVIEW) is True


def is_message_object(node: object) -> bool:
    """True when `node` is one message of a structured-JSON file (`{"string": …}` with at
    most `context`, `developer_comment` and `character_limit` beside it)."""
    return (
        isinstance(node, dict)
        and isinstance(node.get("string"), str)
        and MESSAGE_KEYS.issuperset(node)
    )


def is_leaf_object(node: object) -> bool:
    """True when the object `node` is one leaf (structured leaf or message), not a namespace."""
    return is_structured_leaf(node) or is_message_object(node)


def list_leaves(doc: object, placeholder: str) -> list[Leaf]:
    """Every leaf of a parsed JSON document in document order, repeated paths included.

    A path can repeat when a file spells it twice (`{"a.b": …, "a": {"b": …}}`); callers that
    report such duplicates use this, everyone else uses `flatten_leaves`. Empty objects and
    arrays contribute nothing.

    A top-level key `""` and everything under it are left out: the path `""` is the document
    itself, and `{"": {"b": …}}` would read as the path `b`, which names the top-level key `b`.
    No path reaches that subtree, so no command reads, copies, translates or removes it.
    """
    found: list[Leaf] = []
    _collect(doc, "", placeholder, found)
    return found


def flatten_leaves(doc: object, placeholder: str) -> dict[str, Leaf]:
    """The leaves of a parsed JSON document by path; of a repeated path the first one wins.

    Literal dotted keys and nesting address the same path, array items are `[i]`, a structured
    leaf is one leaf, and a string equal to `placeholder` is a placeholder leaf.
    """
    leaves: dict[str, Leaf] = {}
    for leaf in list_leaves(doc, placeholder):
        leaves.setdefault(leaf.path, leaf)
    return leaves


def _collect(node: object, path: str, placeholder: str, found: list[Leaf]) -> None:
    # Paths are built as text here rather than through join_path: this runs once per key of
    # every locale file, and the concatenation below is exactly join_path's grammar.
    if isinstance(node, dict):
        if is_structured_leaf(node):
            found.append(_structured_leaf(path, node, placeholder))
            return
        if is_message_object(node):
            text = node["string"]
            found.append(Leaf(path, "placeholder" if text == placeholder else "string", text))
            return
        for key, child in node.items():
            if not key and not path:
                continue  # see `list_leaves`: the top-level key "" has no path
            child_path = f"{path}.{key}" if path else key
            if isinstance(child, str):  # most keys hold a string: no call for them
                kind: LeafKind = "placeholder" if child == placeholder else "string"
                found.append(Leaf(child_path, kind, child))
            else:
                _collect(child, child_path, placeholder, found)
    elif isinstance(node, list):
        for index, child in enumerate(node):
            _collect(child, f"{path}[{index}]", placeholder, found)
    elif isinstance(node, str):
        found.append(Leaf(path, "placeholder" if node == placeholder else "string", node))
    elif node is None or isinstance(node, int | float | bool):
        found.append(Leaf(path, "other", node))
    else:
        raise TypeError(f"not a JSON value at {path!r}: {type(node).__name__}")


def _structured_leaf(path: str, node: dict[str, object], placeholder: str) -> Leaf:
    text = node["value"]
    assert isinstance(text, str)  # guaranteed by is_structured_leaf
    return Leaf(
        path,
        "placeholder" if text == placeholder else "structured",
        text,
        needs_translation_again=node.get("needsTranslationAgain") is True,
    )
