"""Where each path of a locale file is spelled: the line and column of its key (or, for an array
item, of its value), found by one pass over the file's JSON text."""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import msgspec

from i18nprune.locales.formats import format_of, is_template_name
from i18nprune.locales.memo import FileMemo
from i18nprune.locales.paths import array_items
from i18nprune.locales.podoc import po_positions
from i18nprune.locales.view import LocaleView
from i18nprune.locales.xliffdoc import xliff_positions
from i18nprune.locales.yamldoc import yaml_positions

# A string (escapes included), a structural character, or a bare literal (number, true, …).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


@dataclass
class _Container:
    is_object: bool
    path: str
    index: int = 0
    """The current item of an array."""
    next_path: str = ""
    """In an object: the path of the value after the key just read."""


@dataclass(frozen=True)
class PathPositions:
    """The 1-based line and column (in characters) where each path of one document is spelled;
    of a path spelled twice (`{"a.b": …, "a": {"b": …}}`) the first spelling, as for leaves."""

    offsets: dict[str, int]
    line_starts: list[int] = field(repr=False)

    def position(self, path: str) -> tuple[int, int] | None:
        """`(line, column)` of `path`, or None when the document does not spell it."""
        offset = self.offsets.get(path)
        if offset is None:
            return None
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1


def path_positions(text: str) -> PathPositions:
    """The positions of every path in `text`, a JSON document that parsed (a text that does not
    parse gives positions for what could be read before the fault). Linear in the text."""
    offsets: dict[str, int] = {}
    stack: list[_Container] = []
    expect_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        top = stack[-1] if stack else None
        if top is not None and top.is_object and expect_key:
            if token == "}":
                stack.pop()
                expect_key = False
                continue
            if token.startswith('"'):
                # Without a backslash the text between the quotes is the key itself.
                key = token[1:-1] if "\\" not in token else json.loads(token)
                top.next_path = f"{top.path}.{key}" if top.path else key
                offsets.setdefault(top.next_path, match.start())
            expect_key = False
            continue
        if token == ":":
            continue
        if token == ",":
            if top is not None and top.is_object:
                expect_key = True
            elif top is not None:
                top.index += 1
            continue
        if token in ("}", "]"):
            if stack:
                stack.pop()
            continue
        if top is None:
            path = ""
        elif top.is_object:
            path = top.next_path
        else:
            path = f"{top.path}[{top.index}]"
            offsets.setdefault(path, match.start())
        if token == "{":
            stack.append(_Container(is_object=True, path=path))
            expect_key = True
        elif token == "[":
            stack.append(_Container(is_object=False, path=path))
    return PathPositions(offsets, _line_starts(text))


class KeyLocation(msgspec.Struct, frozen=True):
    """Where one locale file defines a path (`file` relative to the project root)."""

    locale: str
    file: str
    line: int
    column: int


_positions: FileMemo[PathPositions | None] = FileMemo()


def _read(path: Path) -> PathPositions | None:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    return file_positions(text, path)


def file_positions(text: str, path: Path) -> PathPositions:
    """The positions of every path in `text`, the content of the locale file `path`, read by
    its format (see `path_positions` for JSON, `locales.yamldoc.yaml_positions` for YAML, and
    for XLIFF each unit's id, at the quote that opens its value)."""
    kind = format_of(path.name)
    if kind == "xliff":
        return PathPositions(xliff_positions(text), _line_starts(text))
    if kind not in ("yaml", "po"):
        return path_positions(text)
    line_starts = _line_starts(text)
    spelled_at = (
        yaml_positions(text, path)
        if kind == "yaml"
        else po_positions(text, template=is_template_name(path.name))
    )
    offsets = {
        spelled: line_starts[line - 1] + column - 1
        for spelled, (line, column) in spelled_at.items()
        if line <= len(line_starts)
    }
    return PathPositions(offsets, line_starts)


def _line_starts(text: str) -> list[int]:
    return [0, *(found.end() for found in re.finditer("\n", text))]


def locate_paths(view: LocaleView, paths: Iterable[str]) -> dict[str, KeyLocation]:
    """Where `view` defines each of `paths` (paths it does not define are left out; a key
    holding an array is where its key is spelled); each segment file involved is read once. A
    file that cannot be read now is left out too."""
    by_rel = {segment.rel: segment for segment in view.segments}
    documents: dict[str, PathPositions | None] = {}
    found: dict[str, KeyLocation] = {}
    # The files spell the paths from their top level, through the object where keys start.
    prefix = "".join(f"{key}." for key in view.key_root)
    arrays: dict[str, str] | None = None  # the key holding an array → its first item's rel
    for path in paths:
        rel = view.leaf_segment.get(path)
        if rel is None:
            if arrays is None:
                arrays = {
                    key: view.leaf_segment[items[0]]
                    for key, items in array_items(view.leaf_segment).items()
                }
            rel = arrays.get(path)
        if rel is None:
            continue
        if rel not in documents:
            file = by_rel[rel].path
            documents[rel] = _positions.get(file, None, partial(_read, file))
        positions = documents[rel]
        spot = positions.position(prefix + path) if positions is not None else None
        if spot is not None:
            found[path] = KeyLocation(view.locale, rel, *spot)
    return found
