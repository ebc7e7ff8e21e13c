"""Where keys start inside a locale file (`locales.root`): the object at a key path, such as
`mappings` in `{"version": 3, "mappings": {…keys}}`, found in a parsed document and in its text.

Leaf paths are relative to that object; everything else in the file is no key and is left as it
is. The empty root `()` is the file's top level.
"""

from __future__ import annotations

import json
import re

from i18nprune.envelope import Code, Issue, error, warning
from i18nprune.jsontext import json_kind
from i18nprune.locales.jsonfile import LocaleFileError

KeyRoot = tuple[str, ...]
"""The object keys leading from a file's top level to where its keys start."""

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def parse_key_root(text: str) -> KeyRoot:
    """The keys of a `locales.root` value: `"data.messages"` → `("data", "messages")`; `""` (the
    top level) → `()`. The config has checked it (no empty key, no array index)."""
    return tuple(text.split(".")) if text else ()


def key_root_text(root: KeyRoot) -> str:
    """The dotted spelling of `root`, as `locales.root` writes it."""
    return ".".join(root)


def keys_object(
    document: dict[str, object], root: KeyRoot, display_path: str
) -> dict[str, object] | None:
    """The object of `document` where keys start, or None when the document has none there
    (it holds no keys yet).

    Raises `LocaleFileError` with `Code.LOCALE_NOT_OBJECT` when a value on the way is not an
    object (`"mappings": "…"`): keys cannot start there, and such a file is never written.
    """
    node: dict[str, object] = document
    for depth, key in enumerate(root):
        child = node.get(key)
        if child is None and key not in node:
            return None
        if not isinstance(child, dict):
            raise LocaleFileError(_not_an_object(display_path, root[: depth + 1], root, child))
        node = child
    return node


def ensure_keys_object(document: dict[str, object], root: KeyRoot) -> dict[str, object]:
    """The object of `document` where keys start, created (with the objects on the way, each
    added after the keys already there) when the document lacks it. `keys_object` must have
    accepted the document."""
    node = document
    for key in root:
        child = node.setdefault(key, {})
        assert isinstance(child, dict)  # keys_object raised for anything else
        node = child
    return node


def missing_root_warning(display_path: str, root: KeyRoot) -> Issue:
    """The warning for a file with content but no object where keys start."""
    return warning(
        Code.LOCALE_ROOT_MISSING,
        f"{display_path}: has no `{key_root_text(root)}` object (locales.root), so it holds no "
        "keys — commands that add keys create it; if this file keeps its keys elsewhere, set "
        "locales.root to where they start",
        path=display_path,
    )


def object_span(text: str, root: KeyRoot) -> tuple[int, int] | None:
    """Where the JSON text `text` (a document that parses) spells the object at `root`, from
    its `{` to just after its `}`; None when it spells none. `root` must not be empty. Of a key
    spelled twice the last spelling, which is the one a JSON parser keeps.

    Only the objects on the way are walked member by member; every other value is skipped by
    the C scanner of `json`, so this costs about as much as parsing the file.
    """
    span = None
    at = _past_whitespace(text, 0)
    for key in root:
        span = _last_member(text, at, key) if text.startswith("{", at) else None
        if span is None:
            return None
        at = span[0]
    return span if span is not None and text.startswith("{", span[0]) else None


def _last_member(text: str, at: int, key: str) -> tuple[int, int] | None:
    """The span of the value of the last member named `key` of the object whose `{` is at
    `at`."""
    found = None
    index = _past_whitespace(text, at + 1)
    if text.startswith("}", index):
        return None
    while True:
        name, index = _DECODER.raw_decode(text, index)  # the key, a string
        index = _past_whitespace(text, index) + 1  # past the colon
        start = _past_whitespace(text, index)
        _, end = _DECODER.raw_decode(text, start)
        if name == key:
            found = (start, end)
        index = _past_whitespace(text, end)
        if text.startswith("}", index):
            return found
        index = _past_whitespace(text, index + 1)  # past the comma


def _past_whitespace(text: str, index: int) -> int:
    match = _WHITESPACE.match(text, index)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _not_an_object(display_path: str, at: KeyRoot, root: KeyRoot, value: object) -> Issue:
    where = f"`{key_root_text(at)}`"
    if at != root:
        where += f" (on the way to `{key_root_text(root)}`)"
    return error(
        Code.LOCALE_NOT_OBJECT,
        f"{display_path}: {where} is {json_kind(value)}, but locales.root says keys start "
        f"at `{key_root_text(root)}`, so it must be an object of keys — fix the file or "
        "locales.root; it will not be modified",
        display_path,
    )
