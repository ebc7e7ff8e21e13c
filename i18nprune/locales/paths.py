"""Leaf paths: the text form of a position in a locale document (`home.title`, `list[2].label`).

The grammar has no escaping: `.` always separates keys, so a literal dotted key `{"a.b": …}`
and nested keys `{"a": {"b": …}}` name the same path (docs/locale-files.md#leaves-and-paths),
and a key ending in `[n]` (decimal n) reads as an array index. Any other `[`/`]` is part of the
key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_TRAILING_INDEX = re.compile(r"\[(\d+)\]$")
# An index as `split_path` reads one: `[n]` ending its segment.
_INDEX = re.compile(r"\[\d+\](?=[.\[]|$)")


def split_path(path: str) -> list[str | int]:
    """The parts of `path`: keys as `str`, array indices as `int`.

    `"list[2].label"` → `["list", 2, "label"]`; `""` (the document root) → `[]`.
    """
    if not path:
        return []
    if "[" not in path:  # no index anywhere: the keys alone
        return list(path.split("."))
    parts: list[str | int] = []
    for segment in path.split("."):
        indices: list[int] = []
        while match := _TRAILING_INDEX.search(segment):
            indices.append(int(match.group(1)))
            segment = segment[: match.start()]
        # "[0].x" at the root and "a[1][2]" carry no key text before their indices
        if segment or not indices:
            parts.append(segment)
        parts.extend(reversed(indices))
    return parts


def join_path(parts: Sequence[str | int]) -> str:
    """The path text for `parts`, the inverse of `split_path`.

    Keys are joined with `.` and indices written `[n]`, without escaping: a key containing `.`
    yields the same path as nested keys, which is the product's reading of dotted keys.
    `split_path(join_path(parts)) == parts` holds for non-empty keys without `.` that do not
    end in `[n]`.
    """
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif text:
            text += "." + part
        else:
            text = part
    return text


def is_under(path: str, prefix: str) -> bool:
    """True when `path` is `prefix` or lies below it (`prefix.…` or `prefix[…`).

    Segment-aligned: `home.titles` is not under `home.title`. The empty prefix is the document
    root, so every path is under it.
    """
    if not prefix or path == prefix:
        return True
    return path.startswith(prefix) and path[len(prefix)] in ".["


def array_key(path: str) -> str | None:
    """The path of the outermost array `path` lies in (`steps[2].label` → `steps`), None when
    it lies in no array.

    An array is one value: its items are positional, so the key holding it is what the code
    uses and what a command keeps or removes whole, never an item alone.
    """
    if "[" not in path:
        return None
    match = _INDEX.search(path)
    return path[: match.start()] if match is not None and match.start() > 0 else None


def dotted_spelling(path: str) -> str:
    """`path` with its array indices spelled as i18next's keys reach them (`steps[2].label` →
    `steps.2.label`)."""
    return _INDEX.sub(lambda match: "." + match.group()[1:-1], path)


def array_items(paths: Iterable[str]) -> dict[str, list[str]]:
    """The `paths` lying in arrays, by the key holding each array (see `array_key`), in order."""
    found: dict[str, list[str]] = {}
    for path in paths:
        if "[" in path:
            key = array_key(path)
            if key is not None:
                found.setdefault(key, []).append(path)
    return found
