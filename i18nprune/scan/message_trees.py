"""The shape of a messages document written in a Vue `<i18n>` block (JSON, JSON5, YAML): its
objects as dicts, arrays as lists, every text a leaf (`None`). Lenient by design: a block we
cannot read whole still gives the keys read before the fault, and only answers keys (a key it
answers is not reported missing), so nothing is removed on its word."""

from __future__ import annotations

import re

_MAX_DEPTH = 100
"""Containers nested deeper are skipped unread (their keys stay unanswered): a block is read
by recursion, and a hostile one must not exhaust the stack."""
_TOKEN = re.compile(
    r"""\s+|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|[{}\[\]:,]|[^\s{}\[\]:,"']+""",
    re.DOTALL,
)


def json5_tree(text: str) -> object:
    """The shape of a JSON or JSON5 document (comments, single quotes, bare keys, trailing
    commas)."""
    tokens = [
        token
        for token in (match.group() for match in _TOKEN.finditer(text))
        if not token.isspace() and not token.startswith(("//", "/*"))
    ]
    value, _ = _json_value(tokens, 0)
    return value


def _json_value(tokens: list[str], at: int, depth: int = 0) -> tuple[object, int]:
    if at >= len(tokens):
        return None, at
    token = tokens[at]
    if token in ("{", "[") and depth >= _MAX_DEPTH:
        return None, _past_container(tokens, at)
    if token == "{":
        tree: dict[str, object] = {}
        at += 1
        while at < len(tokens) and tokens[at] != "}":
            if tokens[at] == ",":
                at += 1
                continue
            key = _unquoted(tokens[at])
            if at + 1 >= len(tokens) or tokens[at + 1] != ":":
                return tree, len(tokens)
            tree[key], at = _json_value(tokens, at + 2, depth + 1)
        return tree, at + 1
    if token == "[":
        items: list[object] = []
        at += 1
        while at < len(tokens) and tokens[at] != "]":
            if tokens[at] == ",":
                at += 1
                continue
            item, at = _json_value(tokens, at, depth + 1)
            items.append(item)
        return items, at + 1
    return None, at + 1


def _past_container(tokens: list[str], at: int) -> int:
    """The index after the container that opens at `at` (or the end)."""
    open_count = 0
    for index in range(at, len(tokens)):
        if tokens[index] in ("{", "["):
            open_count += 1
        elif tokens[index] in ("}", "]"):
            open_count -= 1
            if open_count == 0:
                return index + 1
    return len(tokens)


def _unquoted(token: str) -> str:
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'":
        return re.sub(r"\\(.)", r"\1", token[1:-1])
    return token


class _Line:
    __slots__ = ("indent", "text")

    def __init__(self, indent: int, text: str) -> None:
        self.indent = indent
        self.text = text


def yaml_tree(text: str) -> object:
    """The shape of a YAML document of mappings and sequences (block scalars, flow
    collections and multi-line plain texts are leaves)."""
    lines = []
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            continue
        lines.append(_Line(len(raw) - len(raw.lstrip(" ")), raw.strip()))
    if not lines:
        return None
    value, _ = _yaml_block(lines, 0, lines[0].indent)
    return value


def _yaml_block(lines: list[_Line], at: int, indent: int, depth: int = 0) -> tuple[object, int]:
    if depth >= _MAX_DEPTH:
        return None, _past(lines, at, indent - 1)
    if lines[at].text == "-" or lines[at].text.startswith("- "):
        items: list[object] = []
        while at < len(lines) and lines[at].indent == indent and lines[at].text.startswith("-"):
            rest = lines[at].text[1:].strip()
            if rest and _yaml_key(rest) is not None:
                lines[at] = _Line(indent + 2, rest)  # `- key: value` opens a mapping
                item, at = _yaml_block(lines, at, indent + 2, depth + 1)
            else:
                at, item = at + 1, None
                if at < len(lines) and lines[at].indent > indent:
                    item, at = _yaml_block(lines, at, lines[at].indent, depth + 1)
            items.append(item)
        return items, at
    tree: dict[str, object] = {}
    while at < len(lines) and lines[at].indent == indent:
        split = _yaml_key(lines[at].text)
        if split is None:
            return tree, _past(lines, at + 1, indent)
        key, rest = split
        at += 1
        value: object = None
        if not rest and at < len(lines) and lines[at].indent > indent:
            value, at = _yaml_block(lines, at, lines[at].indent, depth + 1)
        elif rest.startswith(("{", "[")):
            value = json5_tree(rest)
        tree[key] = value
        at = _past(lines, at, indent)
    return tree, at


def _past(lines: list[_Line], at: int, indent: int) -> int:
    """The first line at or after `at` indented no deeper than `indent`."""
    while at < len(lines) and lines[at].indent > indent:
        at += 1
    return at


def _yaml_key(text: str) -> tuple[str, str] | None:
    """`key: rest` split at the colon that ends a mapping key (outside quotes), else None."""
    if text[:1] in ("'", '"'):
        close = text.find(text[0], 1)
        while close > 0 and text[0] == "'" and text[close + 1 : close + 2] == "'":
            close = text.find("'", close + 2)
        if close < 0 or not text[close + 1 :].lstrip().startswith(":"):
            return None
        key = text[1:close].replace("''", "'") if text[0] == "'" else text[1:close]
        return key, text[close + 1 :].lstrip()[1:].strip()
    match = re.search(r":(?:\s|$)", text)
    if match is None:
        return None
    return text[: match.start()].strip(), text[match.end() :].strip()
