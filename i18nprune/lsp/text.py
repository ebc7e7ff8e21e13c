"""Open documents and positions: LSP positions count UTF-16 code units by default (or UTF-8
bytes, or code points, as negotiated); the engine counts characters (code points), lines and
columns from 1."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Literal

import msgspec

Encoding = Literal["utf-16", "utf-8", "utf-32"]


class Position(msgspec.Struct, frozen=True):
    line: int
    character: int


class Range(msgspec.Struct, frozen=True):
    start: Position
    end: Position


def units(text: str, encoding: Encoding) -> int:
    """The length of `text` in the encoding's code units."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def characters(text: str, count: int, encoding: Encoding) -> int:
    """How many characters of `text` the first `count` code units cover (a position inside a
    character counts it whole)."""
    if encoding == "utf-32" or text.isascii():
        return min(count, len(text))
    used = 0
    for index, char in enumerate(text):
        if used >= count:
            return index
        used += units(char, encoding)
    return len(text)


@dataclass
class LineMap:
    """The lines of a text, for turning offsets and positions into one another."""

    text: str
    starts: list[int] = field(init=False)

    def __post_init__(self) -> None:
        starts = [0]
        find = self.text.find
        at = find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = find("\n", at + 1)
        self.starts = starts

    def line_text(self, line: int) -> str:
        """Line `line` (0-based) without its end of line; empty past the end."""
        if line >= len(self.starts):
            return ""
        start = self.starts[line]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[start:end].removesuffix("\r")

    def offset(self, position: Position, encoding: Encoding) -> int:
        """The character offset of an LSP position (clamped to the text)."""
        if position.line >= len(self.starts):
            return len(self.text)
        line = self.line_text(position.line)
        return self.starts[position.line] + characters(line, position.character, encoding)

    def position(self, offset: int, encoding: Encoding) -> Position:
        """The LSP position of a character offset."""
        line = bisect.bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        return Position(line, units(self.text[start:offset], encoding))

    def from_engine(self, line: int, column: int, encoding: Encoding) -> Position:
        """The LSP position of an engine position (1-based line and character column)."""
        if line < 1:
            return Position(0, 0)
        text = self.line_text(line - 1)
        return Position(line - 1, units(text[: max(column - 1, 0)], encoding))

    def engine(self, position: Position, encoding: Encoding) -> tuple[int, int]:
        """The engine position (1-based line and column) of an LSP position."""
        text = self.line_text(position.line)
        return position.line + 1, characters(text, position.character, encoding) + 1


class ContentChange(msgspec.Struct, frozen=True):
    text: str
    range: Range | None = None


@dataclass
class Document:
    """An open document as the client holds it."""

    uri: str
    language: str
    version: int
    text: str
    _lines: LineMap | None = field(default=None, repr=False)

    @property
    def lines(self) -> LineMap:
        if self._lines is None:
            self._lines = LineMap(self.text)
        return self._lines

    def apply(self, changes: list[ContentChange], version: int, encoding: Encoding) -> None:
        """Apply `didChange` content changes in order (a change without a range replaces the
        whole text)."""
        for change in changes:
            if change.range is None:
                self.text = change.text
            else:
                lines = self.lines
                start = lines.offset(change.range.start, encoding)
                end = max(lines.offset(change.range.end, encoding), start)
                self.text = self.text[:start] + change.text + self.text[end:]
            self._lines = None
        self.version = version
