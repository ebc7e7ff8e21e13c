"""Keys a locale message names inside itself: i18next nesting (`$t(key)`, `$t(key, {…})`),
vue-i18n linked messages (`@:key`, `@.lower:key`, `@:{'key'}`, vue-i18n 8's `@:(key)`) and, in a
Transloco project, key references (`{{ common.edit }}`, a key when no parameter is given).

Only the libraries' default syntax is read (i18next's `nestingPrefix` `$t(`, `nestingSuffix`
`)`, options after `,`; vue-i18n's `@` links). What a key means as a locale path (its `ns:`
head, its plural forms) is the reader's business: see `reference.follow_messages`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from i18nprune.locales.view import LocaleView

_NESTING = "$t("
_INTERPOLATION = "{{"
# i18next cuts the key at the last `}` when the body holds braces (options, interpolations),
# else at the first `,` (formatters follow it), then splits the options off at `,{`.
_BRACES = re.compile(r"\{.*\}", re.DOTALL)
_OPTIONS = re.compile(r",[ ]*\{")
# A `context` or `ns` option: a quoted value, or anything else (an interpolation).
_OPTION = re.compile(r"""["']?(context|ns)["']?\s*:\s*(?:"([^"]*)"|'([^']*)'|([^\s,}]+))""")
# vue-i18n: `@`, an optional `.modifier`, then `:`.
_LINK = re.compile(r"@(?:\.[A-Za-z_][A-Za-z0-9_$]*)?:")
# What ends a linked key in vue-i18n 9 and later (the tokenizer's `readLinkedRefer`); whitespace
# too, which no key holds.
_LINK_STOP = re.compile(r"[{@|()\s]")
# vue-i18n 8's linked key and its bracketed form.
_LINK_V8 = re.compile(r"[A-Za-z0-9_\-|./]+")
_LINK_V8_BRACKETED = re.compile(r"\(([A-Za-z0-9_\-:|./]+)\)")
_LITERAL = re.compile(r"\{\s*'((?:[^'\\]|\\.)*)'\s*\}")
# Transloco: an interpolation of a plain (dotted) name, which reads a key when the call gives
# no parameter of that name.
_REFERENCE = re.compile(r"\{\{\s*([A-Za-z_$][\w$-]*(?:\.[\w$-]+)*)\s*\}\}")


class NamedKey(NamedTuple):
    """One key a message names.

    `spellings` are the readings of the key as written, the likeliest first: i18next has one
    (its `ns:` head included); a vue-i18n link that ends in punctuation is read as vue-i18n 9
    reads it (`@:a.b!` → `a.b!`), as vue-i18n 8 does (`a.b`) and without a trailing dot.
    `dynamic`: the key is built at run time, and its spelling is the static text before the
    first interpolation (`$t(status.{{code}})` → `status.`). `context` is the literal context
    of a nesting's options (`"*"`: not literal); `namespace` its `ns` option (`"*"`: not
    literal). `linked`: a vue-i18n link (no namespaces, never an object), else a nesting.
    """

    spellings: tuple[str, ...]
    linked: bool
    dynamic: bool = False
    context: str | None = None
    namespace: str | None = None
    optional: bool = False
    """A Transloco reference, which may be a parameter: it names a key only when one is there
    (never reported missing)."""


def naming_paths(view: LocaleView, *, references: bool = False) -> list[str]:
    """The paths of `view` whose message may name a key: a cheap test of every leaf's text
    before `named_keys` reads the few that pass (`references`: Transloco's `{{ key }}` too)."""
    return [
        path
        for path, leaf in view.leaves.items()
        if type(text := leaf.value) is str
        and (_NESTING in text or "@" in text or (references and _INTERPOLATION in text))
    ]


def named_keys(text: str, *, references: bool = False) -> list[NamedKey]:
    """The keys `text` names, in the order it names them (a key named twice is listed twice).

    Every `$t(` is read, those inside another nesting's options too; a `$t(` whose parentheses
    or quotes do not close names nothing, as in i18next. With `references` (a Transloco
    project), each `{{ name }}` may name the key `name`.
    """
    found: list[NamedKey] = []
    if _NESTING in text:
        found.extend(_nestings(text))
    if "@" in text:
        found.extend(_links(text))
    if references and _INTERPOLATION in text:
        found.extend(
            NamedKey((match.group(1),), linked=False, optional=True)
            for match in _REFERENCE.finditer(text)
        )
    return found


def _nestings(text: str) -> list[NamedKey]:
    found = []
    start = text.find(_NESTING)
    while start != -1:
        body = _nesting_body(text, start + len(_NESTING))
        named = _nesting_key(body) if body is not None else None
        if named is not None:
            found.append(named)
        start = text.find(_NESTING, start + len(_NESTING))
    return found


def _nesting_body(text: str, start: int) -> str | None:
    """The text between `$t(` (ending at `start`) and its `)`: quoted strings are skipped and
    parentheses inside balanced, as i18next's `nestingRegexp` matches; None when unclosed."""
    depth = 0
    position = start
    while position < len(text):
        char = text[position]
        if char in "\"'":
            close = text.find(char, position + 1)
            if close == -1:
                return None
            position = close
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return text[start:position]
            depth -= 1
        position += 1
    return None


def _nesting_key(body: str) -> NamedKey | None:
    """The key (and context and namespace options) of a nesting's body, as i18next reads it."""
    if _BRACES.search(body):
        body = body[: body.rfind("}") + 1]
    else:
        comma = body.find(",")
        if comma != -1:
            body = body[:comma]
    key, options = body, ""
    parts = _OPTIONS.split(body, maxsplit=1)
    if len(parts) == 2:
        key, options = parts[0], "{" + parts[1]
    key = key.strip()
    context = namespace = None
    for match in _OPTION.finditer(options):
        name, double, single, bare = match.groups()
        quoted = double if double is not None else single
        value = quoted if quoted is not None and _INTERPOLATION not in quoted else "*"
        if bare is not None and bare in ("null", "undefined", "false"):
            continue
        if name == "context":
            context = value
        else:
            namespace = value
    cut = key.find(_INTERPOLATION)
    if cut != -1:
        return NamedKey((key[:cut],), linked=False, dynamic=True, namespace=namespace)
    if not key:
        return None
    return NamedKey((key,), linked=False, context=context, namespace=namespace)


def _links(text: str) -> list[NamedKey]:
    found = []
    for match in _LINK.finditer(text):
        named = _link_key(text, match.end())
        if named is not None:
            found.append(named)
    return found


def _link_key(text: str, start: int) -> NamedKey | None:
    """The key a link names from `start` (just after its `:`)."""
    rest = text[start:]
    if rest.startswith("{"):
        literal = _LITERAL.match(rest)
        if literal is None:  # `@:{name}`, `@:{0}`: the key is a parameter's value
            return NamedKey(("",), linked=True, dynamic=True)
        return NamedKey((_unescape(literal.group(1)),), linked=True)
    bracketed = _LINK_V8_BRACKETED.match(rest)
    if bracketed is not None:
        return NamedKey((bracketed.group(1),), linked=True)
    stop = _LINK_STOP.search(rest)
    current = rest[: stop.start()] if stop is not None else rest
    older = _LINK_V8.match(rest)
    spellings = [current]
    if older is not None:
        spellings += [older.group(), older.group().rstrip(".")]
    readings = tuple(dict.fromkeys(spelling for spelling in spellings if spelling))
    return NamedKey(readings, linked=True) if readings else None


def _unescape(literal: str) -> str:
    """A vue-i18n literal's text (`\\'` and `\\\\` escaped)."""
    return re.sub(r"\\(.)", r"\1", literal)
