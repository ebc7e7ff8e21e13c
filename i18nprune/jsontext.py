"""Words and positions for JSON text shared by the config and locale readers: what kind a value
is, where an offset is, and where a parse error really is."""

from __future__ import annotations

import json
import re


def json_kind(value: object) -> str:
    """A decoded JSON value's kind as a message says it: "an object", "an array", "null"…"""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def located_problem(text: str, exc: json.JSONDecodeError) -> tuple[int, int, str]:
    """Where a JSON error is and what it is; a trailing comma is pointed at itself, not at the
    `}` or `]` after it where the parser noticed."""
    before = text[: exc.pos].rstrip()
    closing = text[exc.pos : exc.pos + 1]
    expecting = exc.msg.startswith(("Expecting property name", "Expecting value"))
    if expecting and before.endswith(",") and closing in ("}", "]"):
        line, column = line_column(text, len(before) - 1)
        return line, column, f"trailing comma before `{closing}` (JSON allows none)"
    return exc.lineno, exc.colno, exc.msg


# A string (escapes included), a structural character, or a bare literal (number, true, …).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


def duplicate_key(text: str) -> tuple[str, int, int] | None:
    """The first key an object of the JSON document `text` spells twice, with the offsets of
    its first and its second spelling (keys compared as decoded: `"a"` and `"\\u0061"` are
    one); None when no object repeats a key. One pass, linear in the text."""
    # Each open object's keys (key → offset), or None for an open array.
    stack: list[dict[str, int] | None] = []
    expect_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        keys = stack[-1] if stack else None
        if expect_key and keys is not None and token.startswith('"'):
            key = json.loads(token)
            first = keys.setdefault(key, match.start())
            if first != match.start():
                return key, first, match.start()
            expect_key = False
        elif token == "{":
            stack.append({})
            expect_key = True
        elif token == "[":
            stack.append(None)
        elif token in ("}", "]"):
            if stack:
                stack.pop()
            expect_key = False
        elif token == ",":
            expect_key = keys is not None
    return None
