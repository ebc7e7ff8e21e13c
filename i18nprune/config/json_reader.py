"""Reading `i18nprune.config.json`: strict JSON, errors with line and column."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path

import msgspec

from i18nprune.config.document import ConfigDocument, KeyPath
from i18nprune.envelope import Code, Issue, ProblemError, error
from i18nprune.jsontext import json_kind, line_column, located_problem


def read_json_config(path: Path, text: str) -> ConfigDocument:
    """Parse a strict-JSON config whose top level is an object.

    Raises ProblemError: CONFIG_PARSE_ERROR (`path:line:col: message`) for malformed JSON,
    CONFIG_INVALID when the top level is not an object.
    """
    try:
        # msgspec is the strict judge (no NaN/Infinity, no trailing commas)
        data = msgspec.json.decode(text.encode("utf-8"))
    except msgspec.DecodeError as problem:
        raise ProblemError(_parse_error(path, text, problem)) from None
    if not isinstance(data, dict):
        where = f"{path}:1"
        raise ProblemError(
            error(
                Code.CONFIG_INVALID,
                f"{where}: the config must be a JSON object (`{{…}}`), not {json_kind(data)}",
                where,
            )
        )
    return ConfigDocument(path=path, data=data, key_lines=_KeyLines(text))


class _KeyLines(Mapping[KeyPath, int]):
    """The line of every key of a JSON config, found when first asked for: most runs never
    point at a key, and finding them loads the JS parser."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._lines: dict[KeyPath, int] | None = None

    def _found(self) -> dict[KeyPath, int]:
        if self._lines is None:
            from i18nprune.config.js_literal import literal_key_lines

            self._lines = literal_key_lines(self._text)
        return self._lines

    def __getitem__(self, key_path: KeyPath) -> int:
        return self._found()[key_path]

    def __iter__(self) -> Iterator[KeyPath]:
        return iter(self._found())

    def __len__(self) -> int:
        return len(self._found())


def _parse_error(path: Path, text: str, problem: msgspec.DecodeError) -> Issue:
    # The standard library words JSON errors for people and gives line and column; it only
    # accepts what msgspec rejects for NaN/Infinity, where msgspec's byte offset is used.
    try:
        json.loads(text)
    except json.JSONDecodeError as readable:
        line, column, message = located_problem(text, readable)
    else:
        message = str(problem)
        line, column = 1, 1
        if "(byte " in message:
            offset = int(message.rsplit("(byte ", 1)[1].rstrip(")"))
            before = text.encode("utf-8")[:offset].decode("utf-8", errors="replace")
            line, column = line_column(before, len(before))
            message = message.rsplit(" (byte ", 1)[0]
    where = f"{path}:{line}:{column}"
    return error(Code.CONFIG_PARSE_ERROR, f"{where}: invalid JSON: {message}", where)
