"""The quoted strings of a source file, found lexically: evidence that a key may be used as data.

`label: "labels.copyAsSvg"` in a table and `t(action.label)` elsewhere: no call names the key,
but the string does. Every text between two quotes of the same kind is taken (script, markup
and comments alike), so the set over-approximates the file's string literals and never misses
one — an extra text can only protect a key, a missed one could let `cleanup` delete it.
"""

from __future__ import annotations

import re
from bisect import bisect_right

import msgspec

from i18nprune.scan.evaluate import decode_escapes

_QUOTES = (b"'", b'"', b"`")
_MAX_TEXT_BYTES = 512


class LiteralFact(msgspec.Struct, frozen=True, array_like=True):
    """A quoted text of a file and where it first occurs (1-based line, column in characters)."""

    text: str
    line: int
    column: int


def quoted_texts(content: bytes, skipped: frozenset[int] = frozenset()) -> list[LiteralFact]:
    """Every distinct quoted text of `content`, at its first occurrence.

    `skipped` are the offsets of opening quotes to leave out (strings that are the key of a
    call, which its site accounts for in its own namespace).

    Quotes and double quotes end at a line break, as in JavaScript; backticks may span lines,
    and a template with `${…}` holes is not a text (its value is not known). Escapes are
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
            if (
                not text
                or len(text) > _MAX_TEXT_BYTES
                or start - 1 in skipped
                or text in found
                or (quote != b"`" and b"\n" in text)
                or (quote == b"`" and b"${" in text)
            ):
                continue
            found[text] = start - 1  # where the literal starts: its opening quote
    return _located(content, found)


def _escapes_next(text: bytes) -> bool:
    backslashes = len(text) - len(text.rstrip(b"\\"))
    return backslashes % 2 == 1


def _located(content: bytes, found: dict[bytes, int]) -> list[LiteralFact]:
    if not found:
        return []
    line_starts = [0] + [match.end() for match in re.finditer(rb"\n", content)]
    facts: dict[str, LiteralFact] = {}
    for raw, offset in sorted(found.items(), key=lambda item: item[1]):
        text = raw.decode("utf-8", "replace")
        if "\\" in text:
            text = decode_escapes(text)
        if text in facts:
            continue
        line = bisect_right(line_starts, offset)
        prefix = content[line_starts[line - 1] : offset]
        column = len(prefix) if prefix.isascii() else len(prefix.decode("utf-8", "replace"))
        facts[text] = LiteralFact(text, line, column + 1)
    return list(facts.values())
