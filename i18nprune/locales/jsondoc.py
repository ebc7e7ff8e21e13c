"""Locale JSON documents edited by leaf path and written back in their own style, atomically.

The one door through which the project writes and deletes locale files
(docs/architecture.md#house-rules, docs/locale-files.md#writing): key order, indentation,
newlines, number spellings and non-ASCII text survive.
"""

from __future__ import annotations

import bisect
import codecs
import functools
import json
import math
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import msgspec

from i18nprune.envelope import Code, ProblemError, error
from i18nprune.locales.jsonfile import parse_json_bytes, read_file_bytes
from i18nprune.locales.keyroot import KeyRoot, ensure_keys_object, keys_object, object_span
from i18nprune.locales.leaves import (
    MESSAGE_KEYS,
    STRUCTURED_KEYS,
    is_leaf_object,
    is_lingui_catalog,
    is_message_object,
    is_structured_leaf,
    list_leaves,
)
from i18nprune.locales.paths import join_path, split_path
from i18nprune.system.atomic import write_atomically

Part = str | int
Container = dict[str, object] | list[object]
Step = tuple[Container, Part]
"""A container on the way to a leaf and the key (or index) taken in it."""

# The indentation of the first key line after the top-level `{`.
_FIRST_KEY_INDENT = re.compile(rb"\s*\{[ \t]*\r?\n(?:[ \t]*\r?\n)*([ \t]*)\"")

# JSON text can name a lone surrogate (`"\ud800"`), which UTF-8 cannot carry raw.
_SURROGATE = re.compile("[\ud800-\udfff]")
# A key ending in `[n]` spells an array index (see `locales.paths`).
_ENDS_IN_INDEX = re.compile(r"\[\d+\]$")
# The keys of structured leaves and messages: only such a key can make a namespace a leaf.
_LEAF_FIELDS = STRUCTURED_KEYS | MESSAGE_KEYS


class JsonStyle(msgspec.Struct, frozen=True):
    """How a locale file is laid out; detected when it is loaded, kept when it is written."""

    indent: str
    """One level of indentation, as found on the first key line (`"  "`, `"    "`, `"\\t"`);
    two spaces when the file shows none (`{}`, or everything on one line)."""
    newline: str
    """`"\\r\\n"` when the file's first line break is one, else `"\\n"`."""
    final_newline: bool
    """Whether the file ends with a newline."""
    flat_keys: bool
    """New keys are written as flat dotted keys (`{"a.b": "x"}`), not nested objects. Detected
    as: some top-level key contains a dot and no top-level value is a nested object (structured
    leaves and arrays do not count as nesting)."""
    byte_order_mark: bool = False
    """Whether the file starts with a UTF-8 byte-order mark."""
    message_objects: bool = False
    """Texts are structured-JSON messages (`{"id": {"string": "…"}}`): a text written to a new
    key becomes `{"string": text}`. Detected as: the file holds more messages than plain
    strings."""
    lingui_fields: tuple[str, ...] = ()
    """The fields of a Lingui catalog's entries (`@lingui/format-json`'s `lingui` style), as its
    first entry orders them; empty when the file is no such catalog (`is_lingui_catalog`). A
    document of such a file is a `LinguiCatalogDocument`."""
    lingui_source: dict[str, object] | None = None
    """The entries of the source locale's Lingui catalog by id, which a target's new entries
    copy (`LinguiCatalogDocument.counterpart_style`); None in a style read from a file."""


_encode_string = json.encoder.encode_basestring

_DEFAULT_STYLE = JsonStyle(indent="  ", newline="\n", final_newline=True, flat_keys=False)


class _SpelledNumber(float):
    """A number read from a locale file that remembers its spelling (`1.0`, `1e3`, `0.50`, `-0`),
    so that writing the file back never turns `1e3` into `1000.0`. Integers are plain `int`s,
    which are exact already. It never leaves the document: `get` answers plain floats.
    """

    spelling: str

    def __new__(cls, spelling: str) -> _SpelledNumber:
        number = super().__new__(cls, spelling)
        number.spelling = spelling
        return number


class LocaleDocument:
    """A locale JSON file held as an ordered tree, editable by leaf path, written back in its own
    style.

    Leaf paths are those of `i18nprune.locales.paths`; a literal dotted key and nested keys name
    the same path. With a `key_root` (`locales.root`), paths start in the object at that key path
    and the rest of the file is no leaf: it is never read, changed or removed. Make one with
    `load` or `new`.
    """

    def __init__(
        self,
        path: Path,
        style: JsonStyle,
        tree: dict[str, object],
        original: bytes | None,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> None:
        self.path = path
        self.style = style
        # Keys are flat strings that may contain dots (i18next `keySeparator: false`): a path
        # names a top-level key first, and new keys are never split into nested objects.
        self.literal_keys = literal_keys
        self.key_root = key_root
        # The whole file; the leaves are those of the object where keys start, which is
        # created here (and written only with a first edit) when the file lacks it.
        self._document = tree
        self._tree = _OrderedTree(ensure_keys_object(tree, key_root))
        # The file's bytes as last loaded or saved; None until a new file is first written.
        self._saved = original
        self._edited = original is None
        # The order callers place new keys by, indexed: see `_order_index`.
        self._order: _OrderIndex | None = None
        # Objects a new key was last put into, by the parts leading to them, where every
        # object on the way (and the object itself) is a namespace whose keys each spell one
        # part: there, finding a path and its place is a few dict lookups (see `_set_plain`).
        # Emptied by any edit that could change what a path leads to.
        self._plain: dict[tuple[Part, ...], dict[str, object]] = {}
        # The leaf last added, when it stands last in every object on its way: a file filled
        # in the order of `order` adds each leaf after it (see `_append`). None after any
        # other edit.
        self._tail: _Tail | None = None

    @classmethod
    def load(
        cls,
        path: Path,
        display_path: str,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> LocaleDocument:
        """The document in the file at `path`, with its style detected.

        `literal_keys`: paths are flat keys first; `key_root`: where keys start (see the
        class). Raises `LocaleFileError` (messages name `display_path`, with line and column
        for invalid JSON) when the file cannot be read, is not strict JSON, is not a JSON
        object, or holds something other than an object at `key_root`; such a file is never
        written.
        """
        raw = read_file_bytes(path, display_path)
        tree = parse_json_bytes(raw, display_path, number=_read_number)
        keys = keys_object(tree, key_root, display_path)
        style = _detect_style(raw, keys if keys is not None else {})
        made = LinguiCatalogDocument if cls is LocaleDocument and style.lingui_fields else cls
        return made(path, style, tree, raw, literal_keys=literal_keys, key_root=key_root)

    @classmethod
    def new(
        cls,
        path: Path,
        style: object = None,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> LocaleDocument:
        """An empty document for a file that does not exist yet, written in `style` (by default
        two-space indentation, `\\n`, a final newline, nested keys); with a `key_root`, the
        objects leading there are written around the keys (`{"mappings": {…}}`)."""
        chosen = style if isinstance(style, JsonStyle) else _DEFAULT_STYLE
        made = LinguiCatalogDocument if cls is LocaleDocument and chosen.lingui_fields else cls
        return made(path, chosen, {}, None, literal_keys=literal_keys, key_root=key_root)

    def adopt(self, style: object) -> None:
        """Take from `style` (of the file this one is a counterpart of) what this file does
        not show itself. A JSON file shows its whole layout, so nothing; see
        `YamlDocument.adopt`."""

    def get(self, path: str) -> object | None:
        """The value of the leaf at `path`, or None when there is none (see `has`).

        A string, number, boolean, None (JSON null) or structured leaf (a copy: editing it does
        not edit the document), as `json.loads` would give it. Of a path spelled twice
        (`{"a.b": …, "a": {"b": …}}`) the first in document order, as readers see it.
        """
        chain = next(self._leaves(path), None)
        return None if chain is None else _plain_copy(_child(*chain[-1]))

    def has(self, path: str) -> bool:
        """True when the document holds a leaf at `path` (whatever its value, null included)."""
        return next(self._leaves(path), None) is not None

    def paths(self) -> list[str]:
        """Every leaf path in document order, each once."""
        self._tree.settle()
        return list(dict.fromkeys(leaf.path for leaf in list_leaves(self._tree.root, "")))

    def set(self, path: str, value: object, *, order: Sequence[str] | None = None) -> bool:
        """Make `value` (a JSON value: string, number, boolean, None, structured leaf) the leaf
        at `path`; True when the document had no leaf there.

        An existing leaf is replaced where it stands, spelled as it is; an equal value (a number
        equal to the one written `1e3`, say) leaves the file as it is. A new key is inserted
        where `order` (the source locale's leaf paths, in document order) places it: after the
        key holding the nearest preceding path of `order`, else before the key holding the
        nearest following one, else at the end of its object. Missing parent objects are
        created — as one flat dotted key when the file stores flat keys or the object already
        holds dotted keys starting with the same segment, nested otherwise; a parent that exists
        nested is always used. Whatever stands where the path needs an object (a string, say)
        is replaced. Array items can be replaced or appended, one after another.

        Raises `TypeError` or `ValueError` for a value JSON cannot hold, the document root, or
        an array index past the end of its array plus one.

        Costs time proportional to the depth of `path` (and, for a new key, to the distance to
        the nearest path of `order` that the same object holds), not to the document's size.
        """
        if self._tail is not None and self._append(((path, value),), 0, order):
            return True
        self._tail = None
        node = _copy_json(value)
        if self._plain and not self.literal_keys:
            done = self._set_plain(path, node, order)
            if done is not None:
                if done:
                    self._tail = self._tail_at(path)
                return done
        parts: list[Part] = [path] if self.literal_keys and path else list(_split(path))
        if not parts:
            raise ValueError("the document root is not a leaf path")
        chain = next(self._leaves(path), None)
        if chain is None:
            if isinstance(node, str) and self.style.message_objects:
                node = {"string": node}
            self._insert(path, parts, node, order)
            self._edited = True
            if not self.literal_keys:
                self._tail = self._tail_at(path)
            return True
        self._replace(*chain[-1], node)
        return False

    def reaches(self, path: str) -> bool:
        """Whether `set` can put a leaf at `path`: False when an array on its way would be left
        with a gap (an index past the end of an array, or a new array not starting at
        `[0]`), for which `set` raises ValueError."""
        if self.literal_keys:
            return bool(path)
        parts = list(_split(path))
        if not parts:
            return False
        if next(self._leaves(path), None) is not None:
            return True
        container, used = self._tree.deepest_container(parts)
        rest = parts[used:]
        if isinstance(container, list):
            index = rest[0]
            assert isinstance(index, int)  # lists are only entered for index parts
            if index > len(container):
                return False
            rest = rest[1:]
        return all(part == 0 for part in rest if isinstance(part, int))

    def set_many(
        self, leaves: Sequence[tuple[str, object]], *, order: Sequence[str] | None = None
    ) -> int:
        """`set` each (path, value) of `leaves` in turn; how many were new leaves.

        The same as that many calls of `set` (and raises as the failing one would, the leaves
        before it set); cheaper per leaf while the document is filled in the order of `order`,
        each new leaf right after the one added before it.
        """
        added = done = 0
        while done < len(leaves):
            appended = self._append(leaves, done, order)
            added += appended
            done += appended
            if done < len(leaves):
                path, value = leaves[done]
                added += self.set(path, value, order=order)
                done += 1
        return added

    def delete(self, path: str) -> bool:
        """Remove the leaf at `path` (every spelling of it); objects and arrays left empty by
        that are removed too, up to the document root. False when there is no such leaf."""
        chains = list(self._leaves(path))
        if chains:
            self._plain.clear()  # emptied objects leave the tree
            self._tail = None
        # Last first: removing a later leaf never moves an earlier one.
        for chain in reversed(chains):
            self._tree.remove_leaf(chain)
        self._edited = self._edited or bool(chains)
        return bool(chains)

    def render(self) -> bytes:
        """The file's bytes in its own style.

        Until the document is edited these are the bytes it was loaded from (or last saved),
        whatever their layout; after an edit the whole tree is laid out the way
        `json.dumps(indent=…, ensure_ascii=False)` does, with the file's indentation, newlines,
        final newline, byte-order mark and number spellings. With a `key_root` that the file
        spells, only the object there is laid out anew: every byte around it stays as it was.
        """
        if not self._edited and self._saved is not None:
            return self._saved
        self._tree.settle()
        if self.key_root and self._saved is not None:
            spliced = _render_into(self._saved, self.key_root, self._tree.root, self.style)
            if spliced is not None:
                return spliced
        return render_tree(self._document, self.style)

    def save(self, *, root: Path) -> bool:
        """Write the document to its file atomically if that changes the file; True when written.

        An unedited document is never written (so a file changed by someone else since `load`
        is left alone), nor is one whose bytes equal the file's. Links are resolved and the real
        file is written, the link kept; missing parent folders are created. See
        `write_atomically` for the guarantees under a crash or kill.

        Raises `ProblemError` with `Code.PATH_OUTSIDE_ROOT` when the real path leaves `root`,
        and with `Code.LOCALE_WRITE_FAILED` when the file cannot be written (it is unchanged).
        """
        if not self._edited:
            return False
        display = _display(self.path, root)
        target = _resolve_inside(self.path, root, display, "written")
        content = self.render()
        try:
            written = _current_bytes(target) != content
            if written:
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomically(target, content)
        except OSError as exc:
            raise ProblemError(
                error(
                    Code.LOCALE_WRITE_FAILED,
                    f"{display}: cannot be written ({exc.strerror or exc}) — check the "
                    "permissions of the file and its folder and the free disk space; the file "
                    "was not changed",
                    display,
                )
            ) from exc
        self._saved = content
        self._edited = False
        return written

    def _leaves(self, path: str) -> Iterator[list[Step]]:
        """The chains to each leaf spelled `path`; with literal keys, the top-level key named
        `path` when there is one, else its nested spellings."""
        if self.literal_keys and path:
            literal = list(self._tree.leaves([path]))
            if literal:
                return iter(literal)
        return self._tree.leaves(_split(path))

    def _replace(self, container: Container, key: Part, node: object) -> None:
        """Put `node` in place of the leaf `container[key]`, unless it is the same value."""
        current = _child(container, key)
        if isinstance(node, str):
            if isinstance(current, str):
                if node == current:
                    return
            elif is_message_object(current):
                assert isinstance(current, dict)  # guaranteed by is_message_object
                node = {**current, "string": node}  # a new text; its context stays
        if not (isinstance(node, str) and isinstance(current, str)) and _comparable_text(
            current
        ) == _comparable_text(node):
            return
        self._tree.replace(container, key, _keep_spellings(node, current))
        # A namespace that became a leaf: paths below it no longer lead anywhere.
        if (
            self._plain
            and isinstance(container, dict)
            and key in _LEAF_FIELDS
            and is_leaf_object(container)
        ):
            self._plain.clear()
        self._edited = True

    def _set_plain(self, path: str, node: object, order: Sequence[str] | None) -> bool | None:
        """`set`, when the parent object of `path` is in `_plain` and the leaf either exists
        or is new with the nearest preceding path of `order` (if any) a sibling the object
        holds: what `set` does then, without its searches. None (nothing done) in every other
        case, which `set` then handles.
        """
        parts = _split(path)
        prefix = parts[:-1]
        container = self._plain.get(prefix)
        if container is None:
            return None
        key = parts[-1]
        if not isinstance(key, str) or not _spells_one_part(key):
            return None
        if key in container:
            if not _is_leaf(container[key]):
                return None  # a namespace (or array) where the leaf goes: `_insert` replaces it
            self._replace(container, key, node)
            return False
        anchor: tuple[str, bool] | None = None
        if order is not None:
            index = self._order
            if index is None or not index.describes(order, path):
                index = self._order_index(order, path)
            position = index.position(path)
            if position is not None:
                if position == 0:
                    return None
                other = _split(order[position - 1])
                depth = len(prefix)
                if len(other) <= depth or other[:depth] != prefix:
                    return None
                head = other[depth]
                if not isinstance(head, str) or head == "" or head not in container:
                    return None
                anchor = (head, True)
        if isinstance(node, str) and self.style.message_objects:
            node = {"string": node}
        self._tree.insert_key(container, key, node, anchor)
        if key in _LEAF_FIELDS and is_leaf_object(container):
            self._plain.clear()  # a namespace that became a structured leaf
        self._edited = True
        return True

    def _append(
        self, leaves: Sequence[tuple[str, object]], start: int, order: Sequence[str] | None
    ) -> int:
        """`set` each leaf of `leaves` from `start` on, while it is new and its nearest
        preceding path in `order` is the tail; how many were set.

        The key `set` inserts for such a leaf goes after the tail's key in the same object,
        that object's last: at its end, where this puts it without `set`'s searches. Stops
        (leaving the rest to `set`) at a leaf that does not follow the tail, that exists, or
        whose new keys would be anything but one plain key each.
        """
        tail = self._tail
        if tail is None or order is None or start >= len(leaves):
            return 0
        positions = self._order_index(order, leaves[start][0]).positions
        previous, previous_parts, objects = tail.path, tail.parts, tail.objects
        flat_keys, messages = self.style.flat_keys, self.style.message_objects
        done = start
        try:
            for index in range(start, len(leaves)):
                path, value = leaves[index]
                position = positions.get(path)
                # (`order[position] != path`: `order` changed since indexed; `set` re-indexes.)
                if not position or order[position] != path or order[position - 1] != previous:
                    break
                parts = path.split(".") if "[" not in path else _split(path)
                depth = 0
                for part, previous_part in zip(parts, previous_parts, strict=False):
                    if part != previous_part:
                        break
                    depth += 1
                # A path on the way to the tail, or below it, replaces or is replaced.
                if depth == len(parts) or depth == len(previous_parts):
                    break
                container = objects[depth]
                key = parts[depth]
                if key in container or (flat_keys and depth + 1 < len(parts)):
                    break
                if not _appendable(key):
                    break
                if depth + 1 < len(parts) and not all(map(_appendable, parts[depth + 1 :])):
                    break
                node = value if isinstance(value, str) else _copy_json(value)
                if messages and isinstance(node, str):
                    node = {"string": node}
                child = node if depth + 1 == len(parts) else _build(parts[depth + 1 :], node, path)
                # `_OrderedTree.insert_key` without an anchor, for such a namespace and key
                # (see `_Tail`): the dict's own insertion.
                container[cast(str, key)] = child
                if len(parts) != depth + 1 or len(previous_parts) != depth + 1:  # no sibling
                    objects = objects[: depth + 1]
                    for _ in parts[depth + 1 :]:  # the objects `_build` made, down to the leaf's
                        objects.append(cast(dict[str, object], child))
                        child = next(iter(cast(dict[str, object], child).values()))
                previous, previous_parts = path, parts
                done += 1
        finally:
            if done > start:
                self._tail = _Tail(previous, previous_parts, objects)
                self._edited = True
        return done - start

    def _tail_at(self, path: str) -> _Tail | None:
        """The tail made of the leaf just added at `path`, if it stands last in every object
        on its way, each a namespace whose keys each spell one part (see `_append`)."""
        parts = _split(path)
        objects: list[dict[str, object]] = []
        node: object = self._tree.root
        for part in parts:
            if not isinstance(node, dict) or not _appendable(part):
                return None
            index = self._tree.index_of(node)
            if index.leaf or index.compound or self._tree.pending(node):
                return None
            if next(reversed(node), None) != part:
                return None
            objects.append(node)
            node = node[part]
        return _Tail(path, parts, objects)

    def _remember_plain(self, prefix: Sequence[Part]) -> None:
        """Note the object at `prefix` in `_plain` when it and every object on the way to it
        are namespaces whose keys each spell one part (so `_set_plain` may edit it)."""
        node: object = self._tree.root
        for part in (*prefix, None):
            if not isinstance(node, dict):
                return
            index = self._tree.index_of(node)
            if index.leaf or index.compound:
                return
            if part is None:
                self._plain[tuple(prefix)] = node
                return
            if not isinstance(part, str) or part == "":
                return
            node = node.get(part)

    def _insert(
        self, path: str, parts: list[Part], node: object, order: Sequence[str] | None
    ) -> None:
        if self._insert_somewhere(path, parts, node, order) and not self.literal_keys:
            self._remember_plain(parts[:-1])
        else:
            self._plain.clear()

    def _insert_somewhere(
        self, path: str, parts: list[Part], node: object, order: Sequence[str] | None
    ) -> bool:
        """Insert the new leaf; True when that only added one key spelling one part to an
        existing object (and maybe new objects below it), which leaves every other path of
        the document leading where it did."""
        container, used = self._tree.deepest_container(parts)
        rest = parts[used:]
        if isinstance(container, list):
            index = rest[0]
            assert isinstance(index, int)  # lists are only entered for index parts
            child = _build(rest[1:], node, path)
            if index < len(container):
                container[index] = child
            elif index == len(container):
                container.append(child)
            else:
                raise ValueError(
                    f"cannot set {path!r}: its array has {len(container)} items, so the next "
                    f"one is [{len(container)}]"
                )
            return False
        key_parts = self._new_key_parts(container, rest)
        key = join_path(key_parts)
        child = _build(rest[len(key_parts) :], node, path)
        if key in container:
            self._tree.replace(container, key, child)
            return False
        anchor = self._anchor(container, parts[:used], path, order)
        self._tree.insert_key(container, key, child, anchor)
        return len(key_parts) == 1 and _spells_one_part(key) and not is_leaf_object(container)

    def _new_key_parts(self, container: dict[str, object], rest: list[Part]) -> list[Part]:
        """The parts of `rest` that the new key in `container` spells (the rest nest below it)."""
        head = rest[0]
        flat = len(rest) > 1 and (
            self.style.flat_keys
            or (isinstance(head, str) and self._tree.has_dotted_key(container, head))
        )
        if not flat:
            return rest[:1]
        # An array cannot be spelled in a key: the flat key stops at the first index.
        width = next((i for i, part in enumerate(rest) if isinstance(part, int)), len(rest))
        return rest[: max(width, 1)]

    def _anchor(
        self,
        container: dict[str, object],
        prefix: list[Part],
        path: str,
        order: Sequence[str] | None,
    ) -> tuple[str, bool] | None:
        """(key of `container`, True to insert after it / False before it) for a new `path`:
        the key holding the nearest path of `order` before `path` that `container` holds, else
        the one holding the nearest after it."""
        if order is None or not container:
            return None  # an empty object holds no key to place the new one by
        index = self._order_index(order, path)
        position = index.position(path)
        if position is None:
            return None
        under = tuple(prefix)
        for other in index.before(under, position):
            key = self._tree.key_holding(container, prefix, other)
            if key is not None:
                return key, True
        for other in index.after(under, position):
            key = self._tree.key_holding(container, prefix, other)
            if key is not None:
                return key, False
        return None

    def _order_index(self, order: Sequence[str], path: str) -> _OrderIndex:
        """The index of `order`.

        Callers pass the same `order` for many paths, so it is built once per sequence and
        rebuilt when the sequence turns out to have changed since.
        """
        index = self._order
        if index is None or not index.describes(order, path):
            index = self._order = _OrderIndex(order)
        return index


class LinguiCatalogDocument(LocaleDocument):
    """A Lingui catalog of `@lingui/format-json`'s `lingui` style, edited entry by entry.

    Each entry (`{"translation": …, "message": …, "origin": […], …}`) is one leaf at its id,
    taken whole (`literal_keys`); its value is its `translation`, the field a translator fills.
    Setting a leaf changes only the `translation` of its entry; every other field stays as it
    is. A new entry of a target is a copy of the source catalog's entry of that id (given by
    `adopt` or `new`), as `lingui extract` writes every locale's entry, with the text as its
    `translation`. Without one (a new id, or the source's own file) it gets the file's field
    layout: the fields of its first entry in their order, `translation` the text and the lists,
    objects and `obsolete` flag Lingui declares empty (`[]`, `{}`, `false`); `message`,
    `context` and the like are then left to `lingui extract`, which writes them from the code
    and keeps the translation. Deleting a leaf removes the whole entry. `LocaleDocument.load`
    and `new` make one for such a file (or style).
    """

    def __init__(
        self,
        path: Path,
        style: JsonStyle,
        tree: dict[str, object],
        original: bytes | None,
        *,
        literal_keys: bool = False,
        key_root: KeyRoot = (),
    ) -> None:
        super().__init__(path, style, tree, original, literal_keys=True, key_root=key_root)
        self._source_entries = style.lingui_source or {}

    def adopt(self, style: object) -> None:
        """Take the source catalog's entries from `style` (see `counterpart_style`), to copy
        the ones this file lacks when they are added."""
        if isinstance(style, JsonStyle) and style.lingui_source is not None:
            self._source_entries = style.lingui_source

    def counterpart_style(self) -> JsonStyle:
        """The style of a target's catalog made after this one (a source's): its layout, and
        its entries to copy."""
        self._tree.settle()
        return msgspec.structs.replace(self.style, lingui_source=self._tree.root)

    def get(self, path: str) -> object | None:
        """The `translation` of the entry `path`, or None when the catalog has no such entry."""
        entry = self._entry(path)
        return None if entry is None else entry["translation"]

    def has(self, path: str) -> bool:
        return self._entry(path) is not None

    def paths(self) -> list[str]:
        self._tree.settle()
        return [key for key in self._tree.root if key]

    def reaches(self, path: str) -> bool:
        return bool(path)

    def set(self, path: str, value: object, *, order: Sequence[str] | None = None) -> bool:
        """Make `value` the `translation` of the entry `path`, adding the entry (placed by
        `order`, as `LocaleDocument.set` places a key) when there is none; True when it was
        added. `value` is text, or a structured leaf whose `value` is taken (an entry has no
        field for a review mark). Raises `TypeError` for anything else."""
        text = value["value"] if isinstance(value, dict) and is_structured_leaf(value) else value
        if not isinstance(text, str):
            raise TypeError(f"a Lingui catalog entry's translation is text, not {value!r}")
        entry = self._entry(path)
        if entry is None:
            return super().set(path, self._new_entry(path, text), order=order)
        if entry["translation"] != text:
            entry["translation"] = text
            self._edited = True
        return False

    def delete(self, path: str) -> bool:
        """Remove the entry `path`, all its fields; False when there is none."""
        if self._entry(path) is None:
            return False
        self._tree.remove_leaf([(self._tree.root, path)])
        self._edited = True
        return True

    def _entry(self, path: str) -> dict[str, object] | None:
        entry = self._tree.root.get(path) if path else None
        if isinstance(entry, dict) and isinstance(entry.get("translation"), str):
            return entry
        return None

    def _new_entry(self, path: str, text: str) -> dict[str, object]:
        source = self._source_entries.get(path)
        if isinstance(source, dict) and isinstance(source.get("translation"), str):
            copied = _copy_json(source)
            assert isinstance(copied, dict)  # a copy of a dict
            copied["translation"] = text
            return copied
        entry: dict[str, object] = {}
        for field in self.style.lingui_fields or ("translation",):
            if field == "translation":
                entry[field] = text
            elif field in _LINGUI_EMPTY:
                entry[field] = _copy_json(_LINGUI_EMPTY[field])
        entry.setdefault("translation", text)
        return entry


def as_counterpart(document: LocaleDocument, style: object) -> LocaleDocument:
    """The document to edit for the target file loaded as `document`, whose source file has
    `style`: a JSON file that holds nothing yet (`{}`) shows no layout of its own, so when the
    source is a Lingui catalog it becomes one, indented as the source; any other document is
    itself."""
    if (
        type(document) is LocaleDocument
        and isinstance(style, JsonStyle)
        and style.lingui_fields
        and not document._tree.root
    ):
        adopted = msgspec.structs.replace(
            document.style,
            indent=style.indent,
            lingui_fields=style.lingui_fields,
            lingui_source=style.lingui_source,
        )
        return LinguiCatalogDocument(
            document.path, adopted, document._document, document._saved, key_root=document.key_root
        )
    return document


# The fields of a Lingui entry a new entry carries empty, as `@lingui/conf`'s `MessageType`
# declares them; the others (`message`, `context`, …) only Lingui's extraction knows.
_LINGUI_EMPTY: dict[str, object] = {
    "origin": [],
    "comments": [],
    "extractedComments": [],
    "flags": [],
    "placeholders": {},
    "extra": {},
    "obsolete": False,
}


class _OrderIndex:
    """A sequence of leaf paths indexed two ways: the first position of each path, and, per
    prefix of parts, the positions of the paths below it (found when first asked for)."""

    def __init__(self, order: Sequence[str]) -> None:
        self._order = order
        self._length = len(order)
        self._first = _first_positions(order)
        self._below: dict[tuple[Part, ...], list[int]] | None = None

    def describes(self, order: Sequence[str], path: str) -> bool:
        """Whether this still indexes `order` (the same sequence, unchanged where `path` is)."""
        return (
            self._order is order
            and self._length == len(order)
            and not _moved(order, self._first, path)
        )

    @property
    def positions(self) -> dict[str, int]:
        """The first position of each path (read only)."""
        return self._first

    def position(self, path: str) -> int | None:
        return self._first.get(path)

    def before(self, prefix: tuple[Part, ...], position: int) -> Iterator[str]:
        """The paths below `prefix` before `position`, nearest first."""
        order = self._order
        if position > 0 and _split(order[position - 1])[: len(prefix)] == prefix:
            yield order[position - 1]  # the common case: the path just before is a sibling
            position -= 1
        positions = self._positions_below(prefix)
        for index in range(bisect.bisect_left(positions, position) - 1, -1, -1):
            yield order[positions[index]]

    def after(self, prefix: tuple[Part, ...], position: int) -> Iterator[str]:
        """The paths below `prefix` after `position`, nearest first."""
        positions = self._positions_below(prefix)
        for index in range(bisect.bisect_right(positions, position), len(positions)):
            yield self._order[positions[index]]

    def _positions_below(self, prefix: tuple[Part, ...]) -> list[int]:
        if self._below is None:
            below: dict[tuple[Part, ...], list[int]] = {}
            for index, other in enumerate(self._order):
                parts = _split(other)
                for depth in range(len(parts)):
                    below.setdefault(parts[:depth], []).append(index)
            self._below = below
        return self._below.get(prefix, [])


class _OrderedTree:
    """A parsed locale object whose keys can be found by path and inserted anywhere cheaply.

    Inserting into the middle of a dict means rebuilding it, which made filling a large flat
    file quadratic. So an object that gets a key anywhere but at its end keeps its key order in
    a `_KeyChain`, and the dict takes that order in `settle`: whoever reads key order (the
    renderer, `list_leaves`) settles first; lookups by key do not need to.

    Finding a path is a dict lookup per part as long as no key of the objects on the way spells
    several parts (`"a.b"`, `"a[1]"`): each object's `_KeyIndex`, made when the object is first
    entered, counts such keys, so the slow search for every spelling runs only where one exists.
    """

    def __init__(self, root: dict[str, object]) -> None:
        self.root = root
        # id(object) -> (object, its pending order); holding the object keeps its id unique.
        self._chains: dict[int, tuple[dict[str, object], _KeyChain]] = {}
        # id(object) -> (object, what its keys spell), likewise.
        self._indexes: dict[int, tuple[dict[str, object], _KeyIndex]] = {}

    def leaves(self, parts: Sequence[Part]) -> Iterator[list[Step]]:
        """The chains of steps from the root to each leaf spelled `parts`, in document order."""
        chain = self._single_chain(parts)
        if chain is not None:
            return iter([chain] if chain else [])
        return self._leaves_below(self.root, parts)

    def deepest_container(self, parts: list[Part]) -> tuple[Container, int]:
        """The deepest existing object or array on the way to `parts`, and how many parts lead
        there; at least the last part is left for the new key."""
        container: Container = self.root
        used = 0
        while used < len(parts) - 1:
            for key, width in self._spellings(container, parts[used:]):
                child = _child(container, key)
                if used + width < len(parts) and self._accepts(child, parts[used + width]):
                    assert isinstance(child, dict | list)
                    container, used = child, used + width
                    break
            else:
                break
        return container, used

    def key_holding(
        self, container: dict[str, object], prefix: list[Part], other: str
    ) -> str | None:
        """The key of `container` (found at `prefix`) under which path `other` lies, if any."""
        parts = _split(other)
        if len(parts) <= len(prefix) or list(parts[: len(prefix)]) != prefix:
            return None
        spelled = self._spellings(container, parts[len(prefix) :])
        return str(spelled[0][0]) if spelled else None

    def replace(self, container: Container, key: Part, node: object) -> None:
        """Put `node` where `container[key]` stands."""
        _put(container, key, node)
        # Whether an object is a leaf depends on its keys and on its `value` or `string`.
        if isinstance(container, dict) and key in _LEAF_FIELDS:
            self._changed(container)

    def has_dotted_key(self, container: dict[str, object], head: str) -> bool:
        """Whether a key of `container` starts with `head` and a dot (`head.…`)."""
        return self._index(container).dotted_heads.get(head, 0) > 0

    def insert_key(
        self,
        container: dict[str, object],
        key: str,
        child: object,
        anchor: tuple[str, bool] | None,
    ) -> None:
        """Add the new `key` to `container`: after (True) or before (False) the anchor key, or
        at the end without one."""
        indexed = self._indexes.get(id(container))
        # (What `_spells_one_part` rules out, inline: most keys have none of it.)
        if indexed is not None and (not key or "." in key or key.endswith("]")):
            indexed[1].add(key)
        pending = self._chains.get(id(container))
        if pending is None:
            if anchor is None or (anchor[1] and anchor[0] == next(reversed(container))):
                container[key] = child  # at the end, where the dict puts it anyway
                # A namespace becomes a leaf object only by getting a field of one; a leaf
                # object stops being one by getting any other key.
                if indexed is not None and (indexed[1].leaf or key in _LEAF_FIELDS):
                    self._changed(container)
                return
            pending = self._chains[id(container)] = (container, _KeyChain(container))
        container[key] = child
        if indexed is not None and (indexed[1].leaf or key in _LEAF_FIELDS):
            self._changed(container)  # see above
        chain = pending[1]
        if anchor is None:
            chain.insert_before(None, key)
        elif anchor[1]:
            chain.insert_after(anchor[0], key)
        else:
            chain.insert_before(anchor[0], key)

    def remove_leaf(self, chain: list[Step]) -> None:
        """Remove the leaf at the end of `chain`, and each container that leaves empty."""
        for container, key in reversed(chain):
            _remove(container, key)
            pending = self._chains.get(id(container))
            if pending is not None and isinstance(key, str):
                pending[1].remove(key)
            if isinstance(container, dict):
                indexed = self._indexes.get(id(container))
                if indexed is not None and isinstance(key, str):
                    indexed[1].discard(key)
                if container:
                    self._changed(container)
                else:
                    self._indexes.pop(id(container), None)  # it leaves the tree next
            if container:
                return

    def pending(self, container: dict[str, object]) -> bool:
        """Whether `container`'s key order is still to be settled (its dict order is not it)."""
        return id(container) in self._chains

    def settle(self, container: dict[str, object] | None = None) -> None:
        """Give `container` (by default every object) its pending key order."""
        if container is None:
            settling = list(self._chains.values())
        else:
            settling = [self._chains[id(container)]] if id(container) in self._chains else []
        for target, chain in settling:
            del self._chains[id(target)]
            items = [(key, target[key]) for key in chain]
            target.clear()
            target.update(items)

    def _single_chain(self, parts: Sequence[Part]) -> list[Step] | None:
        """The one chain to the leaf spelled `parts` (empty when there is none), or None when
        an object on the way has keys spelling several parts (then `_leaves_below` decides)."""
        node: object = self.root
        chain: list[Step] = []
        for part in parts:
            if isinstance(node, dict):
                index = self._index(node)
                if index.leaf:
                    return []
                if index.compound or part == "":
                    return None  # an empty part joins its neighbour (see `join_path`)
                if not isinstance(part, str) or part not in node:
                    return []
            elif isinstance(node, list):
                if not isinstance(part, int) or part >= len(node):
                    return []
            else:
                return []
            chain.append((node, part))
            node = _child(node, part)
        return chain if chain and _is_leaf(node) else []

    def _leaves_below(self, node: object, parts: Sequence[Part]) -> Iterator[list[Step]]:
        if not parts:
            if _is_leaf(node):
                yield []
            return
        if not isinstance(node, dict | list):
            return
        for key, width in self._spellings(node, parts):
            for rest in self._leaves_below(_child(node, key), parts[width:]):
                yield [(node, key), *rest]

    def _spellings(self, container: Container, parts: Sequence[Part]) -> list[tuple[Part, int]]:
        """(key, parts it spells) for each key of `container` that spells a prefix of `parts`.

        A list's index spells one part; a dict key spells one or more (`"a.b"` spells a, b).
        Keys come in document order; a structured leaf has no keys to enter.
        """
        if isinstance(container, list):
            head = parts[0]
            return [(head, 1)] if isinstance(head, int) and head < len(container) else []
        index = self._index(container)
        if index.leaf:
            return []
        head = parts[0]
        if head != "" and not index.compound:
            return [(head, 1)] if isinstance(head, str) and head in container else []
        found: list[tuple[Part, int]] = []
        for width in range(1, len(parts) + 1):
            key = join_path(parts[:width])
            if key in container:
                found.append((key, width))
        if len(found) > 1:
            self.settle(container)
            position = {key: index for index, key in enumerate(container)}
            found.sort(key=lambda spelled: position[str(spelled[0])])
        return found

    def _accepts(self, node: object, part: Part) -> bool:
        """True when `node` is a container that `part` names a position in."""
        if isinstance(part, int):
            return isinstance(node, list)
        return isinstance(node, dict) and not self._index(node).leaf

    def index_of(self, container: dict[str, object]) -> _KeyIndex:
        """What the keys of `container` spell (see `_KeyIndex`)."""
        return self._index(container)

    def _index(self, container: dict[str, object]) -> _KeyIndex:
        indexed = self._indexes.get(id(container))
        if indexed is None:
            indexed = self._indexes[id(container)] = (container, _KeyIndex(container))
        return indexed[1]

    def _changed(self, container: dict[str, object]) -> None:
        """`container`'s keys or values changed: it may have become a leaf object, or ceased
        to be one."""
        indexed = self._indexes.get(id(container))
        if indexed is not None:
            indexed[1].leaf = is_leaf_object(container)


class _KeyIndex:
    """What the keys of one object spell: how many spell anything but one key part (`"a.b"`,
    `"a[1]"`, `""`), and the first segments of the dotted ones; and whether the object is a
    leaf (a structured leaf or message), which has no keys to enter."""

    __slots__ = ("compound", "dotted_heads", "leaf")

    def __init__(self, container: dict[str, object]) -> None:
        self.compound = 0
        self.dotted_heads: dict[str, int] = {}
        self.leaf = is_leaf_object(container)
        for key in container:
            self.add(key)

    def add(self, key: str) -> None:
        if _spells_one_part(key):
            return
        self.compound += 1
        if "." in key:
            head = key.partition(".")[0]
            self.dotted_heads[head] = self.dotted_heads.get(head, 0) + 1

    def discard(self, key: str) -> None:
        if _spells_one_part(key):
            return
        self.compound -= 1
        if "." in key:
            head = key.partition(".")[0]
            self.dotted_heads[head] -= 1


def _spells_one_part(key: str) -> bool:
    """Whether `key` spells exactly the one path part `key` (`split_path(key) == [key]`)."""
    return bool(key) and "." not in key and not (key.endswith("]") and _ENDS_IN_INDEX.search(key))


class _Tail:
    """The leaf last added, standing last in every object on its way (`LocaleDocument._tail`):
    its path, the parts of it, and those objects, from the root to its own. Each is a
    namespace whose keys each spell one part and whose key order is settled (no `_KeyChain`),
    so a plain key added at its end changes nothing that `_OrderedTree` keeps of it."""

    __slots__ = ("objects", "parts", "path")

    def __init__(self, path: str, parts: Sequence[Part], objects: list[dict[str, object]]):
        self.path = path
        self.parts = parts
        self.objects = objects


def _appendable(part: Part) -> bool:
    """Whether `_append` can add the key part `part` at the end of a namespace: a key that
    spells just itself, and no structured-leaf or message field (which could turn the
    namespace into a leaf)."""
    return isinstance(part, str) and part not in _LEAF_FIELDS and _spells_one_part(part)


class _KeyChain:
    """The key order of one object as a doubly linked list (`None` stands for both ends), so
    a key goes anywhere in constant time."""

    def __init__(self, keys: Iterable[str]) -> None:
        self._next: dict[str | None, str | None] = {None: None}
        self._previous: dict[str | None, str | None] = {None: None}
        for key in keys:
            self.insert_before(None, key)

    def insert_after(self, anchor: str | None, key: str) -> None:
        following = self._next[anchor]
        self._next[anchor], self._previous[key] = key, anchor
        self._next[key], self._previous[following] = following, key

    def insert_before(self, anchor: str | None, key: str) -> None:
        self.insert_after(self._previous[anchor], key)

    def remove(self, key: str) -> None:
        before, after = self._previous.pop(key), self._next.pop(key)
        self._next[before], self._previous[after] = after, before

    def __iter__(self) -> Iterator[str]:
        key = self._next[None]
        while key is not None:
            yield key
            key = self._next[key]


def delete_locale_file(path: Path, *, root: Path, locales_dir: Path) -> None:
    """Delete the locale file at `path`, and the folders that leaves empty below `locales_dir`.

    A symbolic link is removed itself, never its target; a file already gone is not an error.
    Raises `ProblemError` with `Code.PATH_OUTSIDE_ROOT` when the file's folder resolves outside
    `root`, and with `Code.LOCALE_WRITE_FAILED` when the file cannot be removed.
    """
    display = _display(path, root)
    entry = _resolve_inside(path.parent, root, display, "deleted") / path.name
    try:
        entry.unlink(missing_ok=True)
    except OSError as exc:
        raise ProblemError(
            error(
                Code.LOCALE_WRITE_FAILED,
                f"{display}: cannot be deleted ({exc.strerror or exc}) — check the permissions "
                "of its folder",
                display,
            )
        ) from exc
    stop = Path(os.path.realpath(locales_dir))
    folder = entry.parent
    while folder != stop and folder.is_relative_to(stop):
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to remove), and so neither are those above
            return
        folder = folder.parent


def _read_number(text: str) -> object:
    if text == "-0" or any(mark in text for mark in ".eE"):
        return _SpelledNumber(text)
    try:
        return int(text)
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        return _SpelledNumber(text)


def _detect_style(raw: bytes, tree: dict[str, object]) -> JsonStyle:
    byte_order_mark = raw.startswith(codecs.BOM_UTF8)
    body = raw[len(codecs.BOM_UTF8) :] if byte_order_mark else raw
    first_break = body.find(b"\n")
    crlf = first_break > 0 and body[first_break - 1 : first_break] == b"\r"
    indent = _FIRST_KEY_INDENT.match(body)
    return JsonStyle(
        indent=indent.group(1).decode("ascii") if indent else _DEFAULT_STYLE.indent,
        newline="\r\n" if crlf else "\n",
        final_newline=body.endswith(b"\n"),
        flat_keys=stores_flat_keys(tree),
        byte_order_mark=byte_order_mark,
        message_objects=_stores_messages(tree),
        lingui_fields=_lingui_fields(tree),
    )


def stores_flat_keys(tree: dict[str, object]) -> bool:
    """Whether new keys go in flat (see `JsonStyle.flat_keys`)."""
    return any("." in key for key in tree) and not any(
        isinstance(value, dict) and not is_leaf_object(value) for value in tree.values()
    )


def _lingui_fields(tree: dict[str, object]) -> tuple[str, ...]:
    """The fields of the first entry of `tree` when it is a Lingui catalog, else none."""
    if not is_lingui_catalog(tree):
        return ()
    first = next(entry for key, entry in tree.items() if key)
    assert isinstance(first, dict)  # guaranteed by is_lingui_catalog
    return tuple(first)


def _stores_messages(tree: dict[str, object]) -> bool:
    messages = strings = 0
    pending: list[object] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, str):
            strings += 1
        elif isinstance(node, dict):
            if is_message_object(node):
                messages += 1
            elif not is_leaf_object(node):
                pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return messages > strings


def _build(parts: Sequence[Part], node: object, path: str) -> object:
    """`node` wrapped in the new objects and arrays that `parts` name."""
    for part in reversed(parts):
        if isinstance(part, int):
            if part != 0:
                raise ValueError(f"cannot set {path!r}: a new array starts at [0], not [{part}]")
            node = [node]
        else:
            node = {part: node}
    return node


@functools.lru_cache(maxsize=1 << 15)
def _split(path: str) -> tuple[Part, ...]:
    """`split_path(path)`, remembered: writers look the same paths up again and again."""
    return tuple(split_path(path))


def _first_positions(order: Sequence[str]) -> dict[str, int]:
    positions: dict[str, int] = {}
    for index, path in enumerate(order):
        positions.setdefault(path, index)
    return positions


def _moved(order: Sequence[str], positions: dict[str, int], path: str) -> bool:
    index = positions.get(path)
    return index is not None and order[index] != path


def _is_leaf(node: object) -> bool:
    return not isinstance(node, dict | list) or is_leaf_object(node)


# Steps pair objects with `str` keys and arrays with `int` indices (`_spellings` makes them so);
# a tuple's type cannot say that, hence the casts.
def _child(container: Container, key: Part) -> object:
    return cast(Any, container)[key]


def _put(container: Container, key: Part, node: object) -> None:
    cast(Any, container)[key] = node


def _remove(container: Container, key: Part) -> None:
    del cast(Any, container)[key]


def _copy_json(value: object) -> object:
    """A deep copy of `value`, which must be something JSON can hold."""
    if value is None or isinstance(value, str | int | _SpelledNumber):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a JSON number")
        return value
    if isinstance(value, dict):
        copied: dict[str, object] = {}
        for key, child in value.items():
            if not isinstance(key, str):
                raise TypeError(f"JSON object keys are strings, not {type(key).__name__}")
            copied[key] = _copy_json(child)
        return copied
    if isinstance(value, list):
        return [_copy_json(child) for child in value]
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _keep_spellings(new: object, old: object) -> object:
    """`new` with each number that equals, by value, the number `old` holds at the same place
    spelled as `old` spells it: a structured leaf or message read (numbers as plain floats),
    edited and set back keeps `0.50` or `1e2` in its other fields."""
    if isinstance(old, _SpelledNumber):
        same = isinstance(new, float) and float(old) == new
        return old if same else new
    if isinstance(new, dict) and isinstance(old, dict):
        return {key: _keep_spellings(child, old.get(key)) for key, child in new.items()}
    return new


def _plain_copy(node: object) -> object:
    """A deep copy of `node` with spelled numbers as plain floats."""
    if isinstance(node, dict):
        return {key: _plain_copy(child) for key, child in node.items()}
    if isinstance(node, list):
        return [_plain_copy(child) for child in node]
    return float(node) if isinstance(node, _SpelledNumber) else node


def _comparable_text(node: object) -> str:
    """Compact JSON text of `node` with numbers by value (`1e3` as `1000.0`): two leaves are
    the same when these are equal."""
    chunks: list[str] = []
    _lay_out(node, None, 0, chunks)
    return "".join(chunks)


def render_tree(tree: dict[str, object], style: JsonStyle) -> bytes:
    """The bytes of a whole JSON document `tree` laid out in `style`."""
    text = _laid_out(tree, style, 0)
    if style.final_newline:
        text += style.newline
    encoded = text.encode("utf-8")
    return codecs.BOM_UTF8 + encoded if style.byte_order_mark else encoded


def _render_into(
    saved: bytes, root: KeyRoot, keys: dict[str, object], style: JsonStyle
) -> bytes | None:
    """`saved` with the object it spells at `root` replaced by `keys` laid out at that depth;
    None when `saved` spells no object there."""
    byte_order_mark = saved.startswith(codecs.BOM_UTF8)
    text = saved[len(codecs.BOM_UTF8) if byte_order_mark else 0 :].decode("utf-8")
    span = object_span(text, root)
    if span is None:
        return None
    start, end = span
    encoded = (text[:start] + _laid_out(keys, style, len(root)) + text[end:]).encode("utf-8")
    return codecs.BOM_UTF8 + encoded if byte_order_mark else encoded


def _laid_out(node: object, style: JsonStyle, depth: int) -> str:
    """The JSON text of `node` laid out in `style`, as the value of a member at `depth`."""
    chunks: list[str] = []
    _lay_out_indented(node, style.indent, "\n" + style.indent * depth, chunks)
    text = "".join(chunks)
    # Only strings can hold a lone surrogate: escaping them in the whole text is `_string`'s
    # escaping of each.
    if _SURROGATE.search(text):
        text = _SURROGATE.sub(_escape_surrogate, text)
    if style.newline != "\n":  # JSON strings escape their line breaks, so all of these are ours
        text = text.replace("\n", style.newline)
    return text


def _lay_out(node: object, indent: str | None, depth: int, out: list[str]) -> None:
    """Append `node`'s JSON text to `out`: one member per line like `json.dumps(indent=…)`,
    numbers as spelled; or, when `indent` is None, `_comparable_text`'s form."""
    if isinstance(node, dict | list) and node:
        opening, closing = ("{", "}") if isinstance(node, dict) else ("[", "]")
        between, last = (
            (", ", "") if indent is None else (",\n" + indent * (depth + 1), "\n" + indent * depth)
        )
        out.append(opening if indent is None else opening + "\n" + indent * (depth + 1))
        members = node.items() if isinstance(node, dict) else ((None, item) for item in node)
        for index, (key, child) in enumerate(members):
            if index:
                out.append(between)
            if key is not None:
                out.append(_string(key) + ": ")
            _lay_out(child, indent, depth + 1, out)
        out.append(last + closing)
    else:
        out.append(_scalar(node, spelled=indent is not None))


def _lay_out_indented(node: object, indent: str, line: str, out: list[str]) -> None:
    """`_lay_out(node, indent, depth, out)` where `line` is a line break and the indentation
    of depth, with strings as `json.dumps` writes them (lone surrogates left for the caller)."""
    if isinstance(node, dict | list) and node:
        inner = line + indent
        pieces: list[str] = []
        if isinstance(node, dict):
            for key, child in node.items():
                if isinstance(child, str):
                    pieces.append(_encode_string(key) + ": " + _encode_string(child))
                else:
                    nested = [_encode_string(key), ": "]
                    _lay_out_indented(child, indent, inner, nested)
                    pieces.append("".join(nested))
            opening, closing = "{", "}"
        else:
            for item in node:
                if isinstance(item, str):
                    pieces.append(_encode_string(item))
                else:
                    nested = []
                    _lay_out_indented(item, indent, inner, nested)
                    pieces.append("".join(nested))
            opening, closing = "[", "]"
        out.append(opening + inner + ("," + inner).join(pieces) + line + closing)
    elif isinstance(node, str):
        out.append(_encode_string(node))
    else:
        out.append(_scalar(node, spelled=True))


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _scalar(node: object, *, spelled: bool) -> str:
    if isinstance(node, str):
        return _string(node)
    if node is None or isinstance(node, bool):
        return json.dumps(node)
    if isinstance(node, _SpelledNumber) and spelled:
        return node.spelling
    if isinstance(node, int):
        return int.__repr__(node)
    if isinstance(node, float):
        return float.__repr__(node)
    if isinstance(node, dict | list):
        return "{}" if isinstance(node, dict) else "[]"
    raise TypeError(f"{type(node).__name__} is not a JSON value")


def _string(text: str) -> str:
    encoded = _encode_string(text)  # what json.dumps(text, ensure_ascii=False) returns
    if _SURROGATE.search(encoded):
        encoded = _SURROGATE.sub(_escape_surrogate, encoded)
    return encoded


def _current_bytes(target: Path) -> bytes | None:
    try:
        return target.read_bytes()
    except FileNotFoundError:
        return None


def _resolve_inside(path: Path, root: Path, display: str, action: str) -> Path:
    """`path` with every link resolved; raises `ProblemError` (`Code.PATH_OUTSIDE_ROOT`) when
    that leaves `root`."""
    real = Path(os.path.realpath(path))
    real_root = Path(os.path.realpath(root))
    if real.is_relative_to(real_root):
        return real
    raise ProblemError(
        error(
            Code.PATH_OUTSIDE_ROOT,
            f"{display}: resolves to {real}, outside the project root {real_root} — not "
            f"{action}; keep locale files, and the links to them, inside the project",
            display,
        )
    )


def _display(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()
