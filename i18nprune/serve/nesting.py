"""Finding where a request line nests past the limit without reading it token by token: the
regex engine skips whatever stays within the limit, so a line of a million levels costs about
as much as copying it (PROTOCOL §2, nesting).
"""

from __future__ import annotations

import re
from functools import cache

_STRING = rb'"(?:[^"\\]++|\\.)*+"'
_TOKEN = rb'(?:[^\[\]{}"]++|' + _STRING + rb")"
_STRING_TOKEN = re.compile(_STRING, re.DOTALL)
_CLOSING = {ord("["): b"]", ord("{"): b"}"}
_OPENERS = b"[{"
_CLOSERS = b"]}"
TOO_DEEP = b'"\\u0000too deep"'
"""The string that stands for a container past the limit in a cut line."""
_MARK = b"[" + TOO_DEEP + b"]"
_WITHIN_CAP = 8
"""The tallest container one match of the within-limit scan skips; taller ones are entered."""


def _items(height: int) -> bytes:
    """Tokens and containers at most `height` levels tall (0: no brackets at all)."""
    if height == 0:
        return _TOKEN
    return rb"(?:" + _TOKEN + rb"|[\[{]" + _items(height - 1) + rb"*+[\]}])"


@cache
def _within(height: int) -> re.Pattern[bytes]:
    return re.compile(_items(height) + rb"*+", re.DOTALL)


# Past the limit only brackets outside strings are counted, a run at a time: everything up to
# the next closing bracket, then the closing brackets (and what separates them) that follow.
# Containers up to _SKIPPED_HEIGHT tall are skipped whole, so that brackets that turn often
# (`[[]][[]]…`) cost the regex engine, not a step here each; an opener that opens another at
# once is not tried as such a container (a run of a million would try each).
_SKIPPED_HEIGHT = 2
_OPENS_ANOTHER = rb'[\[{](?=\s*+(?:"(?:[^"\\]++|\\.)*+"\s*+:\s*+)?[\[{])'
"""An opener followed at once by another (after a member name, in an object)."""
_TURN = re.compile(
    rb"((?:[^\[\]{}\"]++|"
    + _STRING
    + rb"|"
    + _OPENS_ANOTHER
    + rb"|[\[{]"
    + _items(_SKIPPED_HEIGHT - 1)
    + rb"*+[\]}]|[\[{])*+)([\]}\s,]*+)",
    re.DOTALL,
)
"""Up to the next closing bracket outside strings (group 1), then the closing brackets and
separators that follow it (group 2)."""
_SEPARATORS = b" \t\n\r,"


def cut_too_deep(line: bytes, limit: int) -> bytes | None:
    """`line` with each top-level member that nests past `limit` levels cut short, or None when
    no container in it is deeper than `limit` (the top-level value is level 1).

    A cut member keeps what comes before its first container past the limit; that container
    becomes `[TOO_DEEP]` (still one level too deep, so a careful reader finds it where it was)
    and the containers around it are closed. What follows inside the member is skipped unread: only
    its brackets are counted, so the rest of the line is found. A line that ends inside a
    member past the limit is cut there (and is not JSON). A line that is not JSON otherwise may
    be returned cut or as None; either way the careful reader refuses it.

    Linear in the length of the line; at regex speed except for one step per ~4 bytes of
    brackets that turn from opening to closing past the limit.
    """
    pieces: list[bytes] = []
    kept_from = 0
    stack: list[int] = []  # where each open container starts, while within the limit
    pos, end = 0, len(line)
    while True:
        match = _within(min(limit - len(stack), _WITHIN_CAP)).match(line, pos)
        assert match is not None  # `*+` always matches
        pos = match.end()
        if pos == end:
            break
        char = line[pos]
        if char in _CLOSERS:
            if not stack:
                break  # more closing than opening brackets: not JSON
            stack.pop()
            pos += 1
        elif char not in _OPENERS:
            break  # a string that never ends: not JSON
        elif len(stack) < limit:
            stack.append(pos)
            pos += 1
        else:
            pieces += [line[kept_from:pos], _MARK]
            member_end = _close_member(line, pos + 1, len(stack) + 1)
            if member_end is None:
                return b"".join(pieces)
            pieces.append(b"".join(_CLOSING[line[start]] for start in reversed(stack[1:])))
            kept_from = pos = member_end
            del stack[1:]
    if not pieces:
        return None
    pieces.append(line[kept_from:])
    return b"".join(pieces)


def _close_member(line: bytes, pos: int, depth: int) -> int | None:
    """Where the top-level member ends, reading from `pos` at `depth` open containers: just
    after the bracket that leaves one (the top-level object) open; None if the line ends or
    breaks first."""
    for turn in _TURN.finditer(line, pos):
        closing = turn.group(2)
        if not closing:
            return None  # the end of the line, or a string that never ends
        depth += _net_depth(turn.group(1))
        closers = len(closing.translate(None, _SEPARATORS))
        if depth - closers <= 1:
            return turn.start(2) + _after_closers(closing, depth - 1)
        depth -= closers
    return None


def _after_closers(run: bytes, count: int) -> int:
    """The offset in `run` (closing brackets and separators) just after its `count`th bracket."""
    low, high = count, len(run)  # the answer is in low..high: each byte is one bracket at most
    while low < high:
        middle = (low + high) // 2
        if len(run[:middle].translate(None, _SEPARATORS)) < count:
            low = middle + 1
        else:
            high = middle
    return low


def _net_depth(chunk: bytes) -> int:
    """Opening minus closing brackets outside strings (`chunk` holds whole strings only)."""
    if b'"' in chunk:
        if b"\\" in chunk:  # an escaped quote does not end its string
            chunk = _STRING_TOKEN.sub(b"", chunk)
        else:  # every quote opens or closes a string: strings are the odd pieces
            chunk = b"".join(chunk.split(b'"')[::2])
    return chunk.count(b"[") + chunk.count(b"{") - chunk.count(b"]") - chunk.count(b"}")
