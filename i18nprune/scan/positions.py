"""Byte offsets of a source file as 1-based lines and columns (columns count code points), at a
cost per lookup that does not grow with the file or its line: minified one-line bundles hold
thousands of sites on a single line.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right

_UTF8_BOM = b"\xef\xbb\xbf"
_BLOCK = 4096
# UTF-8 continuation bytes: a code point is every byte that is not one of these.
_CONTINUATION = bytes(range(0x80, 0xC0))


class Positions:
    """Lines and columns of byte offsets into `content` (UTF-8; a leading BOM is not a column).

    Lookups in increasing offset order (the usual order: sites and literals are found front to
    back) move a cursor and cost what lies between two offsets; a lookup behind the cursor
    costs a binary search over line starts and at most one 4 KiB block, both found once.
    """

    def __init__(self, content: bytes) -> None:
        self._content = content
        self._bom = len(_UTF8_BOM) if content.startswith(_UTF8_BOM) else 0
        self._ascii = content.isascii()
        self._offset = self._bom
        self._line = 1
        self._column = 0
        """The cursor: an offset, its line, and its 0-based column."""
        self._line_starts: array[int] | None = None
        self._continuations: array[int] | None = None

    def line_column(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of a byte offset (on a code point boundary)."""
        content = self._content
        if offset < self._bom:
            offset = self._bom
        cursor = self._offset
        if offset >= cursor:  # the usual case, kept to a few C calls (literals look up many)
            line = self._line
            newlines = content.count(b"\n", cursor, offset)
            if newlines:
                line += newlines
                line_start = content.rfind(b"\n", cursor, offset) + 1
                column = offset - line_start if self._ascii else self._width(line_start, offset)
            else:
                width = offset - cursor if self._ascii else self._width(cursor, offset)
                column = self._column + width
        else:
            starts = self._line_starts
            if starts is None:
                starts = self._line_starts = _line_starts(content)
            line = bisect_right(starts, offset)
            line_start = max(starts[line - 1], self._bom)
            column = offset - line_start
            if not self._ascii and column:
                column -= self._continuations_before(offset) - self._continuations_before(
                    line_start
                )
        self._offset, self._line, self._column = offset, line, column
        return line, column + 1

    def _width(self, start: int, end: int) -> int:
        """The code points in `content[start:end]`."""
        if self._ascii:
            return end - start
        text = self._content[start:end]
        return len(text.translate(None, _CONTINUATION))

    def _continuations_before(self, offset: int) -> int:
        """How many continuation bytes `content[:offset]` holds."""
        counts = self._continuations
        if counts is None:
            counts = self._continuations = _block_continuations(self._content)
        block = offset // _BLOCK
        rest = self._content[block * _BLOCK : offset]
        return counts[block] + len(rest) - len(rest.translate(None, _CONTINUATION))


def _line_starts(content: bytes) -> array[int]:
    starts = array("q", [0])
    find = content.find
    position = find(b"\n")
    while position >= 0:
        starts.append(position + 1)
        position = find(b"\n", position + 1)
    return starts


def _block_continuations(content: bytes) -> array[int]:
    """The number of continuation bytes before each 4 KiB block (one entry per block, plus
    one for the end)."""
    counts = array("q", [0])
    total = 0
    for start in range(0, len(content), _BLOCK):
        block = content[start : start + _BLOCK]
        total += len(block) - len(block.translate(None, _CONTINUATION))
        counts.append(total)
    return counts
