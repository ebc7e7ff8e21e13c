"""Words and positions for JSON text shared by the config and locale readers: what kind a value
is, where an offset is, and where a parse error really is."""

from __future__ import annotations

import json


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
