"""Reading a request line the fast parser refused or that nests deeply: the JSON grammar checked
without recursion, the top-level members kept as raw tokens, and the first place in each member
the server cannot use (a lone surrogate, nesting past MAX_DEPTH) named by its path
(docs/serve.md#3-messages).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects a request line may hold; its object is level 1."""

PathPart = bytes | int
"""A step into a value: an object member's name as its raw JSON string token, or an index."""

_WS = re.compile(rb"[ \t\n\r]*+")
# Possessive quantifiers: an unterminated string fails in linear time.
_STRING = re.compile(rb'"(?:[^"\\\x00-\x1f]++|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*+"')
_SCALAR = re.compile(
    rb"-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+|true|false|null"
)
# Escapes in order, a valid surrogate pair first: group 1 is a surrogate escape left alone.
_ESCAPE = re.compile(
    rb"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    rb"|(u[dD][89a-fA-F][0-9a-fA-F]{2})|.)",
    re.DOTALL,
)
_OPENERS = frozenset(b"{[")


class NotJson(ValueError):
    """The line breaks the JSON grammar (RFC 8259); the message says where."""


@dataclass(frozen=True)
class Flaw:
    """The first place in a member's value the server cannot use.

    `path` leads from the member's value to the place. `escape` is the lone surrogate escape as
    sent (`\\ud800`), or None when arrays and objects nest deeper than MAX_DEPTH there; with
    `in_name` the surrogate is in the name that `path` ends with, not in a value.
    """

    path: tuple[PathPart, ...]
    escape: str | None
    in_name: bool = False


@dataclass(frozen=True)
class Members:
    """A line holding one JSON object: each member's value as its raw token (the last one of a
    repeated name; members whose names are not valid Unicode are left out), and the flaw of
    each member that has one."""

    values: dict[str, bytes]
    flaws: dict[str, Flaw]
    flawed: bool
    """Whether a lone surrogate or nesting too deep is anywhere, ignored members included."""


@dataclass(frozen=True)
class NotAnObject:
    """A line holding valid JSON that is not an object; `array` when it is an array (a batch)."""

    array: bool


def read_members(line: bytes) -> Members | NotAnObject:
    """Read a non-blank line of valid UTF-8 as one JSON value. Raises NotJson.

    Costs one regex match per token and no recursion, however deep the line nests.
    """
    reader = _Reader(line)
    return reader.read()


class _Reader:
    """One pass over a line. Per open array or object, `objects` says whether it is an object
    and `parts` where in it the reader is (the current member's name token, or an index)."""

    def __init__(self, line: bytes) -> None:
        self.line = line
        self.objects: list[bool] = []
        self.parts: list[PathPart] = []
        self.values: dict[str, bytes] = {}
        self.flaws: dict[str, Flaw] = {}
        self.member: str | None = None
        """The top-level member being read; None before the first, or when its name is unusable."""
        self.value_start = -1
        self.flawed = False

    def read(self) -> Members | NotAnObject:
        line = self.line
        pos = self._skip_ws(0)
        top = line[pos : pos + 1]
        pos = self._value(pos)
        while True:
            pos = self._after_value(pos)
            if not self.objects:
                break
            pos = self._value(pos)
        if self._skip_ws(pos) != len(line):
            raise NotJson(f"unexpected data after the JSON value at byte {pos}")
        if top != b"{":
            return NotAnObject(array=top == b"[")
        return Members(self.values, self.flaws, self.flawed)

    def _skip_ws(self, pos: int) -> int:
        match = _WS.match(self.line, pos)
        assert match is not None  # `*` always matches
        return match.end()

    def _value(self, pos: int) -> int:
        """Read the value at `pos` up to its end, or up to the first value inside it."""
        line = self.line
        while True:
            if pos >= len(line):
                raise NotJson("the line ends where a value is expected")
            if line[pos] not in _OPENERS:
                return self._scalar(pos)
            is_object = line[pos] == ord("{")
            if len(self.objects) >= MAX_DEPTH:
                self._flaw(None)
            self.objects.append(is_object)
            self.parts.append(b"" if is_object else 0)
            pos = self._skip_ws(pos + 1)
            if line[pos : pos + 1] == (b"}" if is_object else b"]"):
                self._close()
                return pos + 1
            if is_object:
                pos = self._name(pos)

    def _scalar(self, pos: int) -> int:
        if self.line[pos] == ord('"'):
            match = _STRING.match(self.line, pos)
            if match is None:
                raise NotJson(f"invalid string at byte {pos}")
            self._check_text(match.group())
            return match.end()
        match = _SCALAR.match(self.line, pos)
        if match is None:
            raise NotJson(f"invalid character at byte {pos}")
        return match.end()

    def _name(self, pos: int) -> int:
        """Read a member name and its colon; return where its value starts."""
        match = _STRING.match(self.line, pos)
        if match is None:
            raise NotJson(f"expected a member name at byte {pos}")
        token = match.group()
        self.parts[-1] = token
        top_level = len(self.objects) == 1
        if top_level:
            self.member = _text(token)
            if self.member is None:
                self.flawed = True
            else:
                self.flaws.pop(self.member, None)  # a repeated name: the last one counts
        else:
            self._check_text(token, in_name=True)
        pos = self._skip_ws(match.end())
        if self.line[pos : pos + 1] != b":":
            raise NotJson(f"expected ':' at byte {pos}")
        pos = self._skip_ws(pos + 1)
        if top_level:
            self.value_start = pos
        return pos

    def _after_value(self, pos: int) -> int:
        """After a value: close containers and pass commas; return where the next value starts
        (or the end of the top-level value, with no container left open)."""
        line = self.line
        while self.objects:
            if len(self.objects) == 1 and self.member is not None and self.value_start >= 0:
                self.values[self.member] = line[self.value_start : pos]
                self.value_start = -1
            pos = self._skip_ws(pos)
            is_object = self.objects[-1]
            char = line[pos : pos + 1]
            if char == b",":
                pos = self._skip_ws(pos + 1)
                if is_object:
                    return self._name(pos)
                index = self.parts[-1]
                assert isinstance(index, int)
                self.parts[-1] = index + 1
                return pos
            if char != (b"}" if is_object else b"]"):
                raise NotJson(f"expected ',' or a closing bracket at byte {pos}")
            self._close()
            pos += 1
        return pos

    def _close(self) -> None:
        self.objects.pop()
        self.parts.pop()

    def _check_text(self, token: bytes, *, in_name: bool = False) -> None:
        """Note a lone surrogate escape in a string token of the current member."""
        if b"\\u" not in token or (self.flawed and self._member_flawed()):
            return
        for match in _ESCAPE.finditer(token):
            if match.group(1) is not None:
                self._flaw(match.group().decode("ascii"), in_name=in_name)
                return

    def _member_flawed(self) -> bool:
        return self.member is None or self.member in self.flaws

    def _flaw(self, escape: str | None, *, in_name: bool = False) -> None:
        self.flawed = True
        if self.member is not None and self.member not in self.flaws:
            self.flaws[self.member] = Flaw(tuple(self.parts[1:]), escape, in_name)


def _text(token: bytes) -> str | None:
    """A JSON string token as text; None when it holds a lone surrogate."""
    text: str = json.loads(token)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return text


def part_text(part: PathPart) -> str | int:
    """A path step as a name (which may hold lone surrogates) or an index."""
    if isinstance(part, int):
        return part
    name: str = json.loads(part)
    return name
