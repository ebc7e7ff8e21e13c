"""i18next's selector API (`t($ => $.app.title)`, i18next ≥ 25.4): the keys a selector's path
reads, as i18next's `keysFromSelector` builds them from the namespaces the `t` was made for.
"""

from __future__ import annotations

from typing import NamedTuple

from i18nprune.keys import KeySyntax
from i18nprune.scan.expressions import Branches, Expr, Selector, Text, concatenate


class Reading(NamedTuple):
    """One key a selector may mean: `key`, in `namespace` when its path names one (`None`:
    the site's own namespace)."""

    key: Expr
    namespace: str | None = None


def has_selector(key: Expr) -> bool:
    """Whether `key` is a selector or a fallback list holding one."""
    if isinstance(key, Branches):
        return any(isinstance(option, Selector) for option in key.options)
    return isinstance(key, Selector)


def selector_scope(
    explicit: Expr | None, bound: Expr | None, listed: list[Expr], fixed: bool, syntax: KeySyntax
) -> list[str] | None:
    """The namespaces a selector's first segment is matched against, in order: the call's
    `ns` option, else the translator's (`useTranslation(['a', 'b'])`), else the default for a
    translator bound to none (`useTranslation()`); `None` when not known statically (i18next's
    own `t` matches the instance's `ns` list, a `t` the code is handed any)."""
    if explicit is not None:
        return _texts(explicit)
    if listed:
        return _texts(Branches(listed))
    if bound is not None:
        return _texts(bound)
    return [syntax.default_namespace] if fixed else None


def selector_readings(key: Expr, scope: list[str] | None, syntax: KeySyntax) -> list[Reading]:
    """The keys a selector `key` (or a fallback list of them) may mean, the likeliest first.

    The path's segments are joined by the key separator. A first segment naming a namespace of
    `scope` other than the first is that namespace (`useTranslation(['a', 'b'])`, then
    `$.b.title` is `b:title`), as i18next reads it by default. One naming the first (or only)
    namespace is a namespace only under `enableSelector: 'strict'`, and one naming a namespace
    of the project where the scope is not known may be one: both readings are kept (one
    present is enough).
    """
    if isinstance(key, Branches):
        options = [selector_readings(option, scope, syntax) for option in key.options]
        if all(len(readings) == 1 and readings[0].namespace is None for readings in options):
            return [Reading(Branches([readings[0].key for readings in options]))]
        return [reading for readings in options for reading in readings]
    if not isinstance(key, Selector):
        return [Reading(key)]
    separator = syntax.key_separator or "."
    whole = Reading(_joined(key.path, separator))
    first = key.path[0] if key.path else None
    if len(key.path) < 2 or not isinstance(first, Text):
        return [whole]
    named = Reading(_joined(key.path[1:], separator), first.value)
    if scope is not None:
        if first.value in scope[1:]:
            return [named]
        return [whole, named] if first.value in scope[:1] else [whole]
    known = syntax.namespaces or frozenset()
    return [whole, named] if first.value in known else [whole]


def plain_key(key: Expr, syntax: KeySyntax) -> Expr:
    """`key` with each selector read as its whole path."""
    return selector_readings(key, [], syntax)[0].key if has_selector(key) else key


def _joined(path: list[Expr], separator: str) -> Expr:
    parts: list[Expr] = []
    for part in path:
        if parts:
            parts.append(Text(separator))
        parts.append(part)
    return concatenate(parts, template=False)


def _texts(value: Expr) -> list[str] | None:
    """The namespace names a value lists (`'a'`, `['a', 'b']`), when all are known."""
    options = value.options if isinstance(value, Branches) else [value]
    if all(isinstance(option, Text) for option in options):
        return [option.value for option in options if isinstance(option, Text)]
    return None
