"""Reading one locale JSON file strictly, with failures that point at the file, line and column."""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from pathlib import Path

from i18nprune.envelope import Code, ProblemError, error
from i18nprune.jsontext import duplicate_key, json_kind, line_column, located_problem

# A JSON string (skipped whole) or one of the non-standard constants Python's parser accepts.
_STRING_OR_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')

_FIX_HINT = "fix the file; it will not be modified"


class LocaleFileError(ProblemError):
    """A locale file that cannot be used: unreadable, not strict JSON, or not a JSON object.

    `issue` is an error whose message starts with the file (and line and column, when known)
    and says what to do.
    """


class _DuplicateKey(Exception):
    """Raised from the parser when an object spells a key twice (which JSON readers resolve
    silently, each its own way)."""


class _NonStandardConstant(Exception):
    """Raised from the parser when it meets NaN or Infinity, which strict JSON forbids."""


def read_json_file(path: Path, display_path: str) -> dict[str, object]:
    """The top-level object of the strict JSON file at `path`.

    UTF-8, with a byte-order mark tolerated. `display_path` is how messages name the file
    (usually relative to the project root).

    Raises `LocaleFileError` with `Code.LOCALE_UNREADABLE` when the file cannot be read,
    `Code.LOCALE_INVALID_JSON` for invalid UTF-8 or JSON (message `file:line:column: why`),
    a key an object spells twice included (both places named), and
    `Code.LOCALE_NOT_OBJECT` when the top level is not an object.
    """
    return parse_json_bytes(read_file_bytes(path, display_path), display_path)


def read_file_bytes(path: Path, display_path: str) -> bytes:
    """The bytes of the file at `path`.

    Raises `LocaleFileError` with `Code.LOCALE_UNREADABLE` when the file cannot be read.
    """
    try:
        return path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise LocaleFileError(
            error(
                Code.LOCALE_UNREADABLE,
                f"{display_path}: cannot be read ({reason}) — check that it is a readable file",
                display_path,
            )
        ) from exc


def parse_json_bytes(
    raw: bytes, display_path: str, *, number: Callable[[str], object] | None = None
) -> dict[str, object]:
    """The top-level object of the strict JSON document `raw` (UTF-8, byte-order mark tolerated).

    `number`, when given, builds every number from its source text instead of `int`/`float`
    (writers use it to keep numbers exactly as spelled). Raises `LocaleFileError` as
    `read_json_file` does for invalid UTF-8, invalid JSON, and a top level that is not an object.
    """
    doc = _parse(decode_text(raw, display_path), display_path, number)
    if not isinstance(doc, dict):
        raise LocaleFileError(
            error(
                Code.LOCALE_NOT_OBJECT,
                f"{display_path}: the top level is {json_kind(doc)}, but a locale file must be"
                " a JSON object of keys — wrap its content in an object; it will not be modified",
                display_path,
            )
        )
    return doc


def decode_text(raw: bytes, display_path: str, code: Code = Code.LOCALE_INVALID_JSON) -> str:
    """The text of a locale file's bytes `raw`: UTF-8, a byte-order mark dropped. Raises
    `LocaleFileError` with `code` (the format's syntax error) naming the line and column of the
    first byte that is not UTF-8."""
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8", "replace")
        line, column = line_column(before, len(before))
        raise LocaleFileError(
            error(
                code,
                f"{display_path}:{line}:{column}: not valid UTF-8 (byte 0x{raw[exc.start]:02x})"
                " — save the file as UTF-8; it will not be modified",
                display_path,
            )
        ) from exc


def _parse(text: str, display_path: str, number: Callable[[str], object] | None) -> object:
    try:
        return json.loads(
            text,
            parse_constant=_reject_constant,
            parse_int=number,
            parse_float=number,
            object_pairs_hook=_unique_keys,
        )
    except _DuplicateKey as exc:
        raise LocaleFileError(
            error(Code.LOCALE_INVALID_JSON, _duplicate_message(text, display_path), display_path)
        ) from exc
    except json.JSONDecodeError as exc:
        line, column, why = located_problem(text, exc)
        message = f"{display_path}:{line}:{column}: {why} — {_FIX_HINT}"
        raise LocaleFileError(error(Code.LOCALE_INVALID_JSON, message, display_path)) from exc
    except RecursionError as exc:
        line, column, depth = _too_deep(text)
        message = (
            f"{display_path}:{line}:{column}: nested too deeply to read ({depth:,} levels "
            f"from here) — {_FIX_HINT}"
        )
        raise LocaleFileError(error(Code.LOCALE_INVALID_JSON, message, display_path)) from exc
    except _NonStandardConstant as exc:
        line, column = _constant_position(text)
        message = f"{display_path}:{line}:{column}: {exc} is not valid JSON — {_FIX_HINT}"
        raise LocaleFileError(error(Code.LOCALE_INVALID_JSON, message, display_path)) from exc


# A locale file nested deeper than this is a mistake (or an attack), not messages.
_SENSIBLE_DEPTH = 100
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep(text: str) -> tuple[int, int, int]:
    """Where a document too deeply nested begins to be so: the line and column of the bracket
    that opens level `_SENSIBLE_DEPTH + 1` (else of the deepest level), and how many levels
    deeper the document goes from there. Linear in the text, strings skipped."""
    depth = deepest = 0
    start = start_depth = None
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if start is None or (start_depth or 0) <= _SENSIBLE_DEPTH:
                    start, start_depth = match.start(), depth
        elif token in "]}":
            depth -= 1
    if start is None or start_depth is None:
        return 1, 1, 0
    line, column = line_column(text, start)
    return line, column, deepest - start_depth + 1


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _DuplicateKey
    return found


def _duplicate_message(text: str, display_path: str) -> str:
    # Found again by a pass over the text: the parser tells no position (the error path only).
    duplicate = duplicate_key(text)
    assert duplicate is not None  # the parser saw one
    key, first, then = duplicate
    line, column = line_column(text, then)
    first_line, first_column = line_column(text, first)
    return (
        f"{display_path}:{line}:{column}: duplicate key {json.dumps(key, ensure_ascii=False)}, "
        f"first at {display_path}:{first_line}:{first_column} (JSON readers keep only one of "
        f"them) — {_FIX_HINT}"
    )


def _reject_constant(name: str) -> object:
    raise _NonStandardConstant(name)


def _constant_position(text: str) -> tuple[int, int]:
    # The parser stops at the first constant outside a string, so that is the one to point at.
    for match in _STRING_OR_CONSTANT.finditer(text):
        if match.group(1):
            return line_column(text, match.start(1))
    return 1, 1
