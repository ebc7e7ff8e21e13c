"""Finding where a request line nests past the limit without reading it token by token: the
regex engine skips whatever stays within the limit, so a line of a million levels costs about
as much as copying it (docs/serve.md#2-framing, nesting).
"""

from __future__ import annotations

import re
from functools import cache
from itertools import accumulate
from operator import sub

_STRING = rb'"(?:[^"\\]++|\\.)*+"'
_TOKEN = rb'(?:[^\[\]{}"]++|' + _STRING + rb")"
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


# Past the limit only brackets outside strings are counted, at C speed: strings are first made
# bracket-free (`_neutral`), then each byte is a step of the depth (`_STEPS`: an opener up, a
# closer down, anything else level), summed with `accumulate` a chunk at a time.
_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_BLANKS = bytes.maketrans(b"[]{}", b"    ")
_STEPS = bytes(2 if byte in b"[{" else 0 if byte in b"]}" else 1 for byte in range(256))
"""A byte's step of the depth, plus one (bytes cannot be negative)."""
_CHUNK = 1 << 16


def cut_too_deep(line: bytes, limit: int) -> bytes | None:
    """`line` with each top-level member that nests past `limit` levels cut short, or None when
    no container in it is deeper than `limit` (the top-level value is level 1).

    A cut member keeps what comes before its first container past the limit; that container
    becomes `[TOO_DEEP]` (still one level too deep, so a careful reader finds it where it was)
    and the containers around it are closed. What follows inside the member is skipped unread: only
    its brackets are counted, so the rest of the line is found. A line that ends inside a
    member past the limit is cut there (and is not JSON). A line that is not JSON otherwise may
    be returned cut or as None; either way the careful reader refuses it.

    Linear in the length of the line, at regex speed within the limit and at C speed past it
    (whatever the brackets do there).
    """
    pieces: list[bytes] = []
    kept_from = 0
    stack: list[int] = []  # where each open container starts, while within the limit
    neutral: bytes | None = None  # the line without brackets in strings, once one is too deep
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
            if neutral is None:
                neutral = _neutral(line)
            member_end = _close_member(neutral, pos + 1, len(stack) + 1)
            if member_end is None:
                return b"".join(pieces)
            pieces.append(b"".join(_CLOSING[line[start]] for start in reversed(stack[1:])))
            kept_from = pos = member_end
            del stack[1:]
    if not pieces:
        return None
    pieces.append(line[kept_from:])
    return b"".join(pieces)


def _close_member(neutral: bytes, pos: int, depth: int) -> int | None:
    """Where the top-level member ends, reading `neutral` (the line, strings bracket-free) from
    `pos` at `depth` open containers: just after the bracket that leaves one (the top-level
    object) open; None if the line ends first."""
    lowest = 1 - depth  # the fall in depth that ends the member
    fallen = 0  # the depth's change from `pos` to `start`
    for start in range(pos, len(neutral), _CHUNK):
        steps = neutral[start : start + _CHUNK].translate(_STEPS)
        counts = range(1, len(steps) + 1)
        if fallen + min(map(sub, accumulate(steps), counts)) <= lowest:
            for count, total in zip(counts, accumulate(steps), strict=True):
                if fallen + total - count <= lowest:
                    return start + count
        fallen += steps.count(2) - steps.count(0)
    return None


def _neutral(line: bytes) -> bytes:
    """`line` with no bracket inside a string, at the same offsets: escapes are blanked (they
    occur only in strings), then every other piece between quotes is a string's content. A
    string that never ends keeps its brackets (the line is not JSON either way)."""
    pieces = _ESCAPE.sub(b"  ", line).split(b'"')
    pieces[1:-1:2] = [piece.translate(_BLANKS) for piece in pieces[1:-1:2]]
    return b'"'.join(pieces)
