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

# A string (escapes included), a structural character, or a bare literal (number, true, …).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


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
    """Where the JSON text `text` spells the object at `root` (from its `{` to just after its
    `}`), or None when it spells none. `root` must not be empty. Of a key spelled twice the
    last spelling, which is the one a JSON parser keeps. Linear in the text."""
    found: tuple[int, int] | None = None
    # The open containers: for an object, the key of the member being read; None for an array.
    keys: list[str | None] = []
    objects: list[bool] = []
    expect_key = False
    start = -1
    inside = -1  # the depth of the root object while it is open
    for match in _TOKEN.finditer(text):
        token = match.group()
        if expect_key:
            expect_key = False
            if token.startswith('"'):
                keys[-1] = json.loads(token)
                continue
        if token in ("{", "["):
            if (
                token == "{"
                and inside < 0
                and len(keys) == len(root)
                and all(objects)
                and tuple(keys) == root
            ):
                start, inside = match.start(), len(keys) + 1
            objects.append(token == "{")
            keys.append(None)
            expect_key = token == "{"
        elif token in ("}", "]"):
            if len(keys) == inside:
                found, inside = (start, match.end()), -1
            keys.pop()
            objects.pop()
        elif token == "," and objects and objects[-1]:
            expect_key = True
    return found


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
