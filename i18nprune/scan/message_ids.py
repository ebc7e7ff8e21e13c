"""The ids babel-plugin-react-intl-auto gives FormatJS messages written without one: the file's
path relative to where Babel runs, shaped by the plugin's options, joined with the message's
name (or the hash of its text). The rules are the plugin's own (3.3.0), written down in
`docs/decisions.md`; a file's facts hold only what its text says (`AutoId`), and linking
derives the id here, where the file's path and the project's Babel config are known.
"""

from __future__ import annotations

import os
import posixpath
import re
from typing import Literal, NamedTuple

import msgspec

from i18nprune.scan.content_ids import formatjs_content, interpolate_id
from i18nprune.scan.expressions import OPAQUE, AutoId, Expr, Text

PLUGIN = "babel-plugin-react-intl-auto"
DEFAULT_MODULE = "react-intl"


class JsRegex(msgspec.Struct, frozen=True):
    """A JavaScript regular expression literal (`/src[\\\\/]/u`), as written."""

    pattern: str
    flags: str


RemovePrefix = bool | str | JsRegex | None


class PluginOptions(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The options of babel-plugin-react-intl-auto that shape ids (`extractComments` only adds
    descriptions). `relative_to` is already resolved: the absolute directory paths are made
    relative to (Babel's working directory, or the `relativeTo` option's folder in it)."""

    remove_prefix: RemovePrefix = None
    filebase: bool = False
    include_export_name: bool | Literal["all"] = False
    use_key: bool = False
    separator: str | None = None
    module_source_name: str = DEFAULT_MODULE
    relative_to: str


class MessageIdScope(msgspec.Struct, frozen=True, kw_only=True):
    """Where the plugin runs: on the files under `folder` (relative to the project root, `""`
    for all), with the options read from `config` (relative to the root). `options` is `None`
    when the plugin is configured but its options cannot be known; `problem` says why.

    A scope with a `pattern` is `formatjs extract`'s instead (run by a script of `config`): a
    message without an id gets the id that pattern makes of its text (`preserve_whitespace`
    when the script keeps the text's white space)."""

    folder: str
    config: str
    options: PluginOptions | None
    problem: str | None = None
    pattern: str | None = None
    preserve_whitespace: bool = False


class UnsupportedPattern(ValueError):
    """A `removePrefix` whose regular expression i18nprune cannot read the way JavaScript does."""


class _Removal(NamedTuple):
    """How `removePrefix` edits a file's folder path: `pattern` replaces its first match (every
    match with `every`), applied to the dotted path (`dotted`) or to the slashed one; without a
    pattern, `literal` is removed where it first occurs (JavaScript could not compile the
    expression the plugin built, and the plugin then matches its text)."""

    pattern: re.Pattern[str] | None
    literal: str
    every: bool
    dotted: bool


_NO_REMOVAL = _Removal(None, "", every=False, dotted=False)


class PluginRules:
    """One scope's options, compiled once. Raises UnsupportedPattern for a `removePrefix` that
    cannot be read as JavaScript would."""

    def __init__(self, options: PluginOptions) -> None:
        self.options = options
        self.separator = "." if options.separator is None else options.separator
        self.removal = _removal(options.remove_prefix, self.separator)

    def message_id(self, auto: AutoId, file: str) -> str:
        """The id of `auto`, written in `file` (a path relative to `options.relative_to`)."""
        if auto.hashed:
            suffix = auto.key if self.options.use_key and auto.key else auto.name
            return self.prefix(file, suffix)
        export = None
        include = self.options.include_export_name
        if include and auto.export is not None:
            export = auto.export
        elif include == "all" and auto.default_export:
            export = "default"
        joined = _node_join(self.prefix(file, export), auto.name)
        return joined.replace("/", self.separator)

    def prefix(self, file: str, export: str | None) -> str:
        """The plugin's `getPrefix`: the file's folder (or path without extension, with
        `filebase`) as a dotted path, less `removePrefix`, then `export` after a dot."""
        options = self.options
        if options.remove_prefix is True:
            return "" if export is None else export
        folder = re.sub(r"\..+$", "", file, count=1) if options.filebase else _dirname(file)
        removal = self.removal
        if removal.pattern is not None and not removal.dotted:
            folder = removal.pattern.sub("", folder, count=0 if removal.every else 1)
        fixed = folder.replace("/", self.separator)
        if removal.pattern is not None and removal.dotted:
            fixed = removal.pattern.sub("", fixed, count=1)
        elif removal.literal:
            fixed = fixed.replace(removal.literal, "", 1)
        if export is None:
            return fixed
        return export if fixed == "" else f"{fixed}.{export}"


class MessageIds:
    """Derives the ids of a project's `AutoId`s, each from the scope its file lies in."""

    def __init__(self, root: str, scopes: list[MessageIdScope]) -> None:
        self._root = root
        self._scopes: list[tuple[MessageIdScope, PluginRules | None]] = []
        for scope in sorted(scopes, key=lambda s: len(s.folder), reverse=True):
            try:
                rules = PluginRules(scope.options) if scope.options is not None else None
            except UnsupportedPattern:
                rules = None
            self._scopes.append((scope, rules))

    def scope_of(self, relpath: str) -> MessageIdScope | None:
        """The scope whose folder holds `relpath` (the innermost), if any."""
        found = self._find(relpath)
        return found[0] if found is not None else None

    def resolve(self, auto: AutoId, relpath: str) -> Expr:
        """The id of `auto`, written in `relpath`: a `Text`; `auto` itself when the plugin runs
        there with options that are not known; `OPAQUE` when the plugin does not act on it."""
        found = self._find(relpath)
        if found is None:
            return OPAQUE
        scope, rules = found
        if scope.pattern is not None:
            return _extracted_id(auto, scope.pattern, scope.preserve_whitespace)
        if rules is None:
            return auto
        source = rules.options.module_source_name
        if not any(source in module for module in auto.modules):
            return OPAQUE
        path = os.path.relpath(os.path.join(self._root, relpath), rules.options.relative_to)
        return Text(rules.message_id(auto, path.replace(os.sep, "/")))

    def _find(self, relpath: str) -> tuple[MessageIdScope, PluginRules | None] | None:
        for scope, rules in self._scopes:
            if (
                not scope.folder
                or relpath == scope.folder
                or relpath.startswith(scope.folder + "/")
            ):
                return scope, rules
        return None


def _extracted_id(auto: AutoId, pattern: str, preserve_whitespace: bool) -> Expr:
    """The id `formatjs extract` gives `auto` with `pattern`: `auto` itself (unknown) when its
    text or description is not literal, `OPAQUE` when it has no text (no message)."""
    if auto.text is None or auto.described:
        return auto
    if not auto.text:
        return OPAQUE
    content = formatjs_content(auto.text, auto.description, preserve_whitespace=preserve_whitespace)
    return Text(interpolate_id(pattern, content))


def check_options(options: PluginOptions) -> str | None:
    """Why ids cannot be derived with `options` (a `removePrefix` JavaScript reads otherwise
    than i18nprune can), or `None`."""
    try:
        PluginRules(options)
    except UnsupportedPattern as problem:
        return str(problem)
    return None


def murmur3_32(text: str) -> int:
    """MurmurHash3 (x86, 32 bits, seed 0) of a JavaScript string as the `murmurhash3js`
    package computes it: over the low byte of each UTF-16 code unit."""
    units = text.encode("utf-16-le")[::2]
    mask = 0xFFFFFFFF
    hash_ = 0
    whole = len(units) - len(units) % 4
    for start in range(0, whole, 4):
        block = int.from_bytes(units[start : start + 4], "little")
        hash_ ^= _scramble(block)
        hash_ = ((hash_ << 13) | (hash_ >> 19)) & mask
        hash_ = (hash_ * 5 + 0xE6546B64) & mask
    tail = units[whole:]
    if tail:
        hash_ ^= _scramble(int.from_bytes(tail, "little"))
    hash_ ^= len(units)
    hash_ ^= hash_ >> 16
    hash_ = (hash_ * 0x85EBCA6B) & mask
    hash_ ^= hash_ >> 13
    hash_ = (hash_ * 0xC2B2AE35) & mask
    return hash_ ^ (hash_ >> 16)


def message_hash(text: str) -> str:
    """The plugin's id suffix for a message without a name: the decimal hash of its text."""
    return str(murmur3_32(text))


def _scramble(block: int) -> int:
    mask = 0xFFFFFFFF
    block = (block * 0xCC9E2D51) & mask
    block = ((block << 15) | (block >> 17)) & mask
    return (block * 0x1B873593) & mask


def _dirname(path: str) -> str:
    """Node's `path.dirname` of a relative posix path (`"."` for a bare file name)."""
    head = posixpath.dirname(path)
    return head if head else "."


def _node_join(*parts: str) -> str:
    """Node's `path.posix.join`: the non-empty parts joined and normalized (`"."` for none)."""
    joined = "/".join(part for part in parts if part)
    if not joined:
        return "."
    normal = posixpath.normpath(joined)
    if normal.startswith("//"):
        normal = normal[1:]
    return normal + "/" if joined.endswith("/") and normal != "/" else normal


# -- removePrefix as JavaScript reads it ----------------------------------------------------

# Characters JavaScript's `u` mode lets a backslash escape as themselves.
_SYNTAX_CHARACTERS = frozenset("^$\\.*+?()[]{}|/")
_CLASS_ESCAPES = frozenset("dDwWsSbBfnrtv")
_QUANTIFIERS = frozenset("*+?")
_GROUPING = frozenset("()[]{}|")
# What the plugin's `escapeRegExp` escapes: in `u` mode a `\-`, `\,`, `\#` or escaped space is
# itself invalid, so an expression holding one of these stops the build.
_FATAL_IN_FALLBACK = re.compile(r"[-,#\s]")


class _JsSyntaxError(Exception):
    """JavaScript would throw compiling this expression."""


def _removal(remove_prefix: RemovePrefix, separator: str) -> _Removal:
    if remove_prefix is True:
        return _NO_REMOVAL  # the path is left out altogether
    if isinstance(remove_prefix, JsRegex):
        pattern, every = _regex_literal(remove_prefix)
        return _Removal(pattern, "", every=every, dotted=False)
    # Unset, it is `""`: the expression still takes a leading separator off (`.` for a file
    # where Babel runs).
    text = remove_prefix if isinstance(remove_prefix, str) else ""
    expression = "^" + text.replace("/", "") + "\\" + separator + "?"
    try:
        return _Removal(_u_mode(expression), "", every=False, dotted=True)
    except _JsSyntaxError:
        if _FATAL_IN_FALLBACK.search(expression):
            raise UnsupportedPattern(
                f"removePrefix {text!r} with separator {separator!r} makes an expression the "
                "plugin cannot compile (the build would stop)"
            ) from None
        return _Removal(None, expression, every=False, dotted=True)


def _u_mode(expression: str) -> re.Pattern[str]:
    """`new RegExp(expression, 'u')` as a Python pattern, for expressions of literal text,
    `.`, anchors, quantifiers and escapes. Raises _JsSyntaxError where JavaScript throws, and
    UnsupportedPattern for groups, classes and alternatives."""
    out: list[str] = []
    index = 0
    while index < len(expression):
        char = expression[index]
        index += 1
        if char == "\\":
            if index >= len(expression):
                raise _JsSyntaxError
            escaped = expression[index]
            index += 1
            if escaped in _SYNTAX_CHARACTERS:
                out.append(re.escape(escaped))
            elif escaped in _CLASS_ESCAPES:
                out.append("\\" + escaped)
            elif escaped == "0" and not expression[index : index + 1].isdigit():
                out.append("\\x00")
            elif escaped == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", expression[index : index + 2]):
                out.append("\\x" + expression[index : index + 2])
                index += 2
            elif escaped == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", expression[index : index + 4]):
                out.append("\\u" + expression[index : index + 4])
                index += 4
            elif escaped in "ukpPc":
                raise UnsupportedPattern(f"the escape `\\{escaped}` in removePrefix")
            else:
                raise _JsSyntaxError  # `u` mode allows no other escape (`\_`, `\-`, `\1`)
        elif char in _GROUPING:
            raise UnsupportedPattern(f"`{char}` in removePrefix (groups, classes, alternatives)")
        elif char in _QUANTIFIERS:
            if char == "+" and out and out[-1] in _QUANTIFIERS:
                raise _JsSyntaxError  # `a?+`: Python would read a possessive quantifier
            out.append(char)
        else:
            out.append(char if char in "^$." else re.escape(char))
    try:
        return re.compile("".join(out), re.ASCII)
    except re.error:
        raise _JsSyntaxError from None


def _regex_literal(regex: JsRegex) -> tuple[re.Pattern[str], bool]:
    """A regular expression literal of the config as a Python pattern, and whether it replaces
    every match (`g`). Raises UnsupportedPattern when Python reads it otherwise."""
    flags = 0
    for flag in regex.flags:
        if flag == "i":
            flags |= re.IGNORECASE
        elif flag == "m":
            flags |= re.MULTILINE
        elif flag == "s":
            flags |= re.DOTALL
        elif flag not in "gud":
            raise UnsupportedPattern(f"the flag `{flag}` of removePrefix /{regex.pattern}/")
    pattern = regex.pattern
    if re.search(r"\\[pPkc]|\\u\{|\(\?<[^=!]", pattern):
        raise UnsupportedPattern(f"removePrefix /{pattern}/ uses syntax Python reads otherwise")
    try:
        return re.compile(pattern, flags | re.ASCII), "g" in regex.flags
    except re.error as problem:
        raise UnsupportedPattern(f"removePrefix /{pattern}/: {problem}") from None


__all__ = [
    "DEFAULT_MODULE",
    "PLUGIN",
    "JsRegex",
    "MessageIdScope",
    "MessageIds",
    "PluginOptions",
    "PluginRules",
    "UnsupportedPattern",
    "check_options",
    "message_hash",
    "murmur3_32",
]
