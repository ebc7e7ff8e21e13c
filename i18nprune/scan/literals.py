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
from itertools import accumulate

import msgspec

from i18nprune.scan.evaluate import decode_escapes
from i18nprune.scan.positions import Positions

_QUOTES = (b"'", b'"', b"`")
_MAX_TEXT_BYTES = 512


class LiteralIndex(msgspec.Struct, frozen=True, array_like=True):
    """A file's distinct quoted texts, compactly (the scan keeps one per file, cache included):
    a 64-bit hash of each text and the line and column (1-based, columns in characters) of its
    first occurrence, as packed arrays in this machine's byte order.

    In order of occurrence, `lines` holds each line's distance from the previous one (the first
    from line 0) and `columns` the columns, each array in the narrowest of 1, 2 or 4 bytes per
    item that fits its values (the width is the array's length ÷ the number of texts): most
    files need 10 bytes per text rather than 16.
    """

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
        lines = list(accumulate(_unpacked(self.lines, len(hashes))))
        columns = _unpacked(self.columns, len(hashes))
        return [
            (wanted[value], lines[index], columns[index])
            for index, value in enumerate(hashes)
            if value in wanted
        ]


_WIDTHS = {1: "B", 2: "H", 4: "I"}


def _packed(values: list[int]) -> bytes:
    """`values` (non-negative, below 2³²) in the narrowest array type that holds them all."""
    top = max(values, default=0)
    code = "B" if top < 1 << 8 else "H" if top < 1 << 16 else "I"
    return array(code, values).tobytes()


def _unpacked(raw: bytes, count: int) -> array[int]:
    values = array(_WIDTHS[len(raw) // count] if count else "B")
    values.frombytes(raw)
    return values


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
    hashes = array("Q")
    line_steps: list[int] = []
    columns: list[int] = []
    seen: set[int] = set()
    previous_line = 0
    for raw, offset in sorted(found.items(), key=lambda item: item[1]):
        value = _hash(raw) if b"\\" not in raw else text_hash(decode_escapes(raw.decode()))
        if value in seen:
            continue
        seen.add(value)
        line, column = positions.line_column(offset)
        hashes.append(value)
        line_steps.append(line - previous_line)
        columns.append(column)
        previous_line = line
    return LiteralIndex(hashes.tobytes(), _packed(line_steps), _packed(columns))
