"""The quoted strings of a source file, found lexically: evidence that a key may be used as data.

`label: "labels.copyAsSvg"` in a table and `t(action.label)` elsewhere: no call names the key,
but the string does. Every text between two quotes of the same kind is taken (script, markup
and comments alike), so the set over-approximates the file's string literals and never misses
one — an extra text can only protect a key, a missed one could let `cleanup` delete it. A
template with holes contributes its static head when that ends a key segment
(`` `errors.tooSmall.${type}` `` → `errors.tooSmall.`), which names a whole subtree.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Mapping

import msgspec

from i18nprune.scan.evaluate import decode_escapes
from i18nprune.scan.positions import Positions

_QUOTES = (b"'", b'"', b"`")
_MAX_TEXT_BYTES = 512


class LiteralIndex(msgspec.Struct, frozen=True, array_like=True):
    """A file's distinct quoted texts, compactly (the scan keeps one per file, cache included):
    a 64-bit hash of each text and the line and column (1-based, columns in characters) of its
    first occurrence, as packed arrays in this machine's byte order."""

    hashes: bytes = b""
    lines: bytes = b""
    columns: bytes = b""

    def find(self, wanted: Mapping[int, str]) -> list[tuple[str, int, int]]:
        """`(text, line, column)` of each text of `wanted` (keyed by `text_hash`) the file
        quotes; a file that quotes none of them costs one pass in C."""
        hashes = array("Q")
        hashes.frombytes(self.hashes)
        if wanted.keys().isdisjoint(hashes):
            return []
        lines, columns = array("I"), array("I")
        lines.frombytes(self.lines)
        columns.frombytes(self.columns)
        return [
            (wanted[value], lines[index], columns[index])
            for index, value in enumerate(hashes)
            if value in wanted
        ]


def text_hash(text: str) -> int:
    """The hash `LiteralIndex` files a text under."""
    return _hash(text.encode("utf-8", "surrogatepass"))


def _hash(raw: bytes) -> int:
    # Two C checksums make 64 bits: collisions (which could only protect a key) are negligible.
    return zlib.crc32(raw) | (zlib.adler32(raw) << 32)


def index_literals(content: bytes, skipped: frozenset[int] = frozenset()) -> LiteralIndex:
    """Every distinct quoted text of `content`, at its first occurrence.

    `skipped` are the offsets of opening quotes to leave out (strings that are the key of a
    call, which its site accounts for in its own namespace).

    Quotes and double quotes end at a line break, as in JavaScript; backticks may span lines,
    and of a template with `${…}` holes only a head ending in `.` is a text. Escapes are
    decoded (`'it\\'s'` is `it's`). `content` is UTF-8 (scanned files are checked before).
    """
    found: dict[bytes, int] = {}
    for quote in _QUOTES:
        if quote not in content:
            continue
        # Splitting at a quote is a C-speed pass; each text between two quotes is a candidate.
        parts = content.split(quote)
        offset = len(parts[0]) + 1
        index = 1
        while index < len(parts) - 1:
            text, start = parts[index], offset
            # A quote escaped by an odd number of backslashes belongs to the text.
            while _escapes_next(text) and index < len(parts) - 2:
                index += 1
                text += quote + parts[index]
            offset = start + len(text) + 1
            index += 1
            if quote == b"`" and b"${" in text:
                text = text[: text.index(b"${")]
                if not text.endswith(b".") or b"\n" in text:
                    continue
            if (
                not text
                or len(text) > _MAX_TEXT_BYTES
                or start - 1 in skipped
                or text in found
                or (quote != b"`" and b"\n" in text)
            ):
                continue
            found[text] = start - 1  # where the literal starts: its opening quote
    return _located(content, found)


def _escapes_next(text: bytes) -> bool:
    backslashes = len(text) - len(text.rstrip(b"\\"))
    return backslashes % 2 == 1


def _located(content: bytes, found: dict[bytes, int]) -> LiteralIndex:
    if not found:
        return LiteralIndex()
    positions = Positions(content)
    hashes, lines, columns = array("Q"), array("I"), array("I")
    seen: set[int] = set()
    for raw, offset in sorted(found.items(), key=lambda item: item[1]):
        value = _hash(raw) if b"\\" not in raw else text_hash(decode_escapes(raw.decode()))
        if value in seen:
            continue
        seen.add(value)
        line, column = positions.line_column(offset)
        hashes.append(value)
        lines.append(line)
        columns.append(column)
    return LiteralIndex(hashes.tobytes(), lines.tobytes(), columns.tobytes())
