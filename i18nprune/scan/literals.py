"""The quoted strings of a source file, found lexically: evidence that a key may be used as data.

`label: "labels.copyAsSvg"` in a table and `t(action.label)` elsewhere: no call names the key,
but the string does. Every text between two quotes of the same kind is taken (script, markup
and comments alike), so the set over-approximates the file's string literals and never misses
one — an extra text can only protect a key, a missed one could let `cleanup` delete it. A
template with holes contributes its static head when that ends a key segment
(`` `errors.tooSmall.${type}` `` → `errors.tooSmall.`), which names a whole subtree.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Mapping
from itertools import accumulate, islice
from operator import itemgetter
from zlib import adler32, crc32

import msgspec

from i18nprune.scan.positions import _CONTINUATION, _UTF8_BOM

_QUOTES = (b"'", b'"', b"`")
# Byte values, for membership tests: `b"\n" in text` first fails to read its operand as an
# `int` (raising and clearing an error), which costs more than the search in a short text.
_BACKSLASH = ord("\\")
_NEWLINE = ord("\n")
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


def keyed_by_hash(texts: Iterable[str]) -> dict[int, str]:
    """`texts` keyed by `text_hash`: the form `LiteralIndex.find` looks texts up in."""
    return {text_hash(text): text for text in texts}


def _hash(raw: bytes) -> int:
    # Two C checksums make 64 bits: collisions (which could only protect a key) are negligible.
    return crc32(raw) | (adler32(raw) << 32)


def index_literals(content: bytes, skipped: frozenset[int] = frozenset()) -> LiteralIndex:
    """Every distinct quoted text of `content`, at its first occurrence.

    `skipped` are the offsets of opening quotes to leave out (strings that are the key of a
    call, which its site accounts for in its own namespace).

    Quotes and double quotes end at a line break, as in JavaScript; backticks may span lines,
    and of a template with `${…}` holes only a head ending in `.` is a text. Escapes are
    decoded (`'it\\'s'` is `it's`). `content` is UTF-8 (scanned files are checked before).
    """
    found: dict[bytes, int] = {}
    backslashes = _BACKSLASH in content  # one byte search saves two longer ones in most files
    for quote in _QUOTES:
        if quote not in content:
            continue
        escaped = backslashes and b"\\" + quote in content  # some text may hold an escaped quote
        if quote == b"`" or escaped:
            candidates: Iterable[tuple[bytes, int]] = _joined_candidates(content, quote, escaped)
        else:
            candidates = (
                (match.group(1), match.start()) for match in _PATTERNS[quote].finditer(content)
            )
        for text, start in candidates:
            if text not in found and not (skipped and start in skipped):
                found[text] = start
    return _located(content, found)


def _texts_between(quote: bytes) -> re.Pattern[bytes]:
    """Each `quote` (not the last) opening the text up to the next one (the matches overlap:
    the closing quote opens the next text) when that text is one: 1 to `_MAX_TEXT_BYTES` bytes
    on one line."""
    return re.compile(quote + rb"(?=([^" + quote + rb"\n]{1,%d})" % _MAX_TEXT_BYTES + quote + rb")")


_PATTERNS = {quote: _texts_between(quote) for quote in (b"'", b'"')}


def _joined_candidates(content: bytes, quote: bytes, escaped: bool) -> list[tuple[bytes, int]]:
    """Each text between two `quote`s (with `escaped`, one escaped by an odd number of
    backslashes belongs to the text) with the offset of its opening quote, when it is one (see
    `_texts_between`; of a backtick template, all of it, lines and all, or of one with `${…}`
    holes the head before the first hole when that ends in `.` on one line)."""
    candidates: list[tuple[bytes, int]] = []
    parts = content.split(quote)
    if escaped:
        parts = _joined_at_escapes(parts, quote)
    template = quote == b"`"
    start = len(parts[0])  # where the literal starts: its opening quote
    for text in islice(parts, 1, len(parts) - 1):  # (the last part follows the last quote)
        opening, start = start, start + len(text) + 1
        if template:
            hole = text.find(b"${")
            if hole >= 0:
                text = text[:hole]
                if not text.endswith(b".") or _NEWLINE in text:
                    continue
        elif _NEWLINE in text:
            continue
        if text and len(text) <= _MAX_TEXT_BYTES:
            candidates.append((text, opening))
    return candidates


def _joined_at_escapes(parts: list[bytes], quote: bytes) -> list[bytes]:
    """`parts` (of a split at `quote`) with each part that ends in an escaping backslash joined
    to the next, as long as that is not the last (which is after the last quote)."""
    joined = [parts[0]]
    last = len(parts) - 1
    index = 1
    while index < last:
        text = parts[index]
        while text.endswith(b"\\") and _escapes_next(text) and index < last - 1:
            index += 1
            text += quote + parts[index]
        joined.append(text)
        index += 1
    joined.append(parts[last])
    return joined


def _escapes_next(text: bytes) -> bool:
    backslashes = len(text) - len(text.rstrip(b"\\"))
    return backslashes % 2 == 1


def _located(content: bytes, found: dict[bytes, int]) -> LiteralIndex:
    """The index of `found` (raw text → offset of its opening quote): lines and columns as
    `Positions` counts them, by one forward cursor over the offsets in order."""
    if not found:
        return LiteralIndex()
    # Imported here (it brings `html` and the scope tables): a warm scan reads indexes only.
    from i18nprune.scan.evaluate import decode_escapes

    hashes = array("Q")
    line_steps: list[int] = []
    columns: list[int] = []
    seen: set[int] = set()
    ascii_only = content.isascii()
    count, rfind = content.count, content.rfind
    # The cursor: an offset, its line's start and its 0-based column (a BOM is no column).
    cursor = line_start = len(_UTF8_BOM) if content.startswith(_UTF8_BOM) else 0
    column = 0
    for raw, offset in sorted(found.items(), key=itemgetter(1)):
        value = (
            crc32(raw) | (adler32(raw) << 32)
            if _BACKSLASH not in raw
            else text_hash(decode_escapes(raw.decode()))
        )
        if value in seen:
            continue
        seen.add(value)
        newlines = count(b"\n", cursor, offset)
        if newlines:
            line_start = rfind(b"\n", cursor, offset) + 1
            column = (
                offset - line_start
                if ascii_only
                else len(content[line_start:offset].translate(None, _CONTINUATION))
            )
        elif ascii_only:
            column = offset - line_start
        else:
            column += len(content[cursor:offset].translate(None, _CONTINUATION))
        cursor = offset
        hashes.append(value)
        line_steps.append(newlines)
        columns.append(column + 1)
    line_steps[0] += 1  # the first line is counted from line 0
    return LiteralIndex(hashes.tobytes(), _packed(line_steps), _packed(columns))
