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

    `kind` is `string` for a plain string, a structured-JSON message (`value` is then its
    `string`) or an entry of a Lingui catalog (its `translation`: see `list_leaves`),
    `structured` for a structured leaf (`value` is then its `value` string), `placeholder` for
    any of those whose text is the missing-placeholder sentinel (and for a Lingui entry not
    translated), and `other` for a number, boolean or null (kept untouched by every writer).

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


# `@lingui/format-json`'s `lingui` style (its default): a catalog maps each message id to an
# entry `{"translation": "…", "message": "…", "origin": [[file, line]], "comments": […], …}`,
# the fields of `@lingui/conf`'s `MessageType` (Lingui 3 to 5, `extractedComments`, `flags`,
# `description` and `defaults` of older versions included).
LINGUI_ENTRY_FIELDS = frozenset(
    {
        "translation",
        "message",
        "origin",
        "comments",
        "extractedComments",
        "obsolete",
        "flags",
        "context",
        "extra",
        "placeholders",
        "description",
        "defaults",
    }
)


def is_text(leaf: Leaf) -> bool:
    """Whether `leaf` holds a text: a plain string or a structured message's `value` (not a
    missing-placeholder leaf, nor a number, boolean or null)."""
    return leaf.kind in ("string", "structured") and isinstance(leaf.value, str)


def is_translation(leaf: Leaf) -> bool:
    """Whether `leaf` is a text that stands as a translation: `is_text`, and not queued for
    translation again (`needsTranslationAgain`, such as `sync --metadata` writes)."""
    return is_text(leaf) and not leaf.needs_translation_again


def is_lingui_catalog(keys: object) -> bool:
    """True when the object `keys` (where a file's keys start) is a Lingui catalog of the
    `lingui` style: it has entries, and every top-level value but that of the key `""` is an
    entry — an object with a string `translation` and no field Lingui does not write. Told by
    the whole file, never by one entry: a namespace `{"translation": …, "message": …}` beside
    any other key leaves the file an ordinary one."""
    if not isinstance(keys, dict):
        return False
    entries = 0
    for key, node in keys.items():
        if not key:
            continue
        if not (
            isinstance(node, dict)
            and isinstance(node.get("translation"), str)
            and LINGUI_ENTRY_FIELDS.issuperset(node)
        ):
            return False
        entries += 1
    return entries > 0


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


def list_leaves(doc: object, placeholder: str, *, source: bool = False) -> list[Leaf]:
    """Every leaf of a parsed JSON document in document order, repeated paths included.

    A Lingui catalog (`is_lingui_catalog`) has one leaf per entry, at its id taken whole (ids
    are never split at dots), whose value is the entry's `translation`. An entry whose
    `translation` is empty is not translated: in a target locale it is a `placeholder` leaf
    (held, to be translated); in the `source` locale its value is its `message`, which is what
    Lingui itself shows for it (and writes into `translation` on its next extract), and only an
    entry without one is a placeholder.

    A path can repeat when a file spells it twice (`{"a.b": …, "a": {"b": …}}`); callers that
    report such duplicates use this, everyone else uses `flatten_leaves`. Empty objects and
    arrays contribute nothing.

    A top-level key `""` and everything under it are left out: the path `""` is the document
    itself, and `{"": {"b": …}}` would read as the path `b`, which names the top-level key `b`.
    No path reaches that subtree, so no command reads, copies, translates or removes it.
    """
    if is_lingui_catalog(doc):
        assert isinstance(doc, dict)  # guaranteed by is_lingui_catalog
        return [
            lingui_entry_leaf(key, entry, placeholder, source=source)
            for key, entry in doc.items()
            if key
        ]
    found: list[Leaf] = []
    _collect(doc, "", placeholder, found)
    return found


def lingui_entry_leaf(
    path: str, entry: dict[str, object], placeholder: str, *, source: bool
) -> Leaf:
    """The leaf of the Lingui catalog entry `entry` at `path` (see `list_leaves`)."""
    text = entry["translation"]
    assert isinstance(text, str)  # guaranteed by is_lingui_catalog
    if not text and source:
        message = entry.get("message")
        text = message if isinstance(message, str) else ""
    kind: LeafKind = "placeholder" if not text or text == placeholder else "string"
    return Leaf(path, kind, text)


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
