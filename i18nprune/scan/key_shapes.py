"""From a site's static values to what it means as locale keys: literal `(namespace, path)`
keys and, when the key is dynamic, what it may reach.

Conditionals expand into one key per branch. A dynamic branch reaches the keys that start with
its static head, character by character (`errors.${code}` → `errors.`, `a.b${x}` → `a.b`),
or, when its path has no static head, the keys that end with its static tail (`${x}Response`
→ `Response`). A head that is only a namespace (`errors:${code}`), or a fully dynamic key
through a namespace-bound `t`, reaches that whole namespace (prefix `""`).
"""

from __future__ import annotations

from typing import NamedTuple

from i18nprune.keys import KeySyntax
from i18nprune.scan.expressions import WHOLE_FILE, AutoId, Branches, Expr, Join, Messages, Text
from i18nprune.scan.records import DERIVED_ID

_MAX_ALTERNATIVES = 64
_NON_LITERAL = "non_literal"


class Namespace(NamedTuple):
    """The namespace a site's keys go to when their text names none: `name` (`None`: not
    known statically, so any) and whether the code chose it (a binding or an option) rather
    than the default."""

    name: str | None
    chosen: bool


class Reach(NamedTuple):
    """What one dynamic branch of a site may reach: keys of `namespace` (`None`: any) that start
    with `prefix` (`""`: the whole namespace; `None`: the path has no static head) or, when
    there is no head, that end with `suffix` (`""`: no static tail either)."""

    namespace: str | None
    prefix: str | None
    suffix: str = ""


class SiteMeaning(NamedTuple):
    """The literal keys a site proves (in the order the code spells them) and, for a dynamic
    one, the kind of its first hole and what each of its dynamic branches may reach."""

    keys: list[tuple[str | None, str]]
    dynamic_kind: str | None
    reaches: tuple[Reach, ...]
    context: str | None


class _Alternative(NamedTuple):
    """One possible value of a key: its static `head` (the whole text when `hole` is `None`),
    the kind of the first unknown part after it, and the static `tail` after the last one."""

    head: str
    hole: str | None
    tail: str = ""


def static_text(value: Expr | None) -> str | None:
    """The text of a value known exactly, else `None`."""
    return value.value if isinstance(value, Text) else None


def site_namespace(explicit: Expr | None, bound: Expr | None, syntax: KeySyntax) -> Namespace:
    """Where keys without a `ns:` of their own go: the `{ ns }` option, else the translator's
    binding (`useTranslation('ns')`), else the default namespace. `None` with namespaces off."""
    if not syntax.uses_namespaces:
        return Namespace(None, False)
    chosen = explicit if explicit is not None else bound
    if chosen is None:
        return Namespace(syntax.default_namespace, False)
    if isinstance(chosen, Text):
        return Namespace(chosen.value, True)
    return Namespace(None, True)


def site_namespaces(
    explicit: Expr | None, bound: Expr | None, syntax: KeySyntax
) -> list[Namespace]:
    """`site_namespace`, where a list of known namespaces (`{ ns: ['a', 'b'] }`,
    `getFixedT(lng, ['a', 'b'])`) is each of them in order: i18next looks the key up in each,
    so one holding it is enough."""
    chosen = explicit if explicit is not None else bound
    if (
        syntax.uses_namespaces
        and isinstance(chosen, Branches)
        and chosen.options
        and all(isinstance(option, Text) for option in chosen.options)
    ):
        names = dict.fromkeys(option.value for option in chosen.options if isinstance(option, Text))
        return [Namespace(name, True) for name in names]
    return [site_namespace(explicit, bound, syntax)]


def site_prefixes(
    bound: Expr | None, own: Expr | None, fixed: bool
) -> tuple[list[Expr | None], bool]:
    """The key prefixes a site's keys take, from its translator's prefix (`bound`) and the
    call's own `keyPrefix` option (`own`), and whether they are readings of one key (one
    present is enough) rather than branches the code takes (each is used).

    On i18next's fixed `t` (`fixed`) the call's option replaces the translator's prefix, and
    `''` removes it (i18next ≥ 21.8.14; `''` from 23.12); a conditional of literals
    (`{ keyPrefix: ok ? 'a' : 'b' }`) is one prefix per branch. i18next's plain `t` ignores
    the option: a translator not known to be fixed (`i18n.t`, a `t` the code is handed) reads
    the key both ways, the call's first (the one `missing` reports: what the code means).
    """
    if own is None:
        return [bound], False
    options: list[Expr] = [own]
    if isinstance(own, Branches) and all(isinstance(option, Text) for option in own.options):
        options = own.options  # else not all known: the site is dynamic
    called = list(
        dict.fromkeys(
            None if isinstance(option, Text) and not option.value else option for option in options
        )
    )
    if fixed or called == [bound]:
        return called, False
    return list(dict.fromkeys([*called, bound])), True


def resolve_key(
    key: Expr,
    prefix: Expr | None,
    context: Expr | None,
    namespace: Namespace,
    syntax: KeySyntax,
    *,
    subtree: bool = False,
) -> SiteMeaning:
    """What a site means, from its resolved key value, key prefix and `context` option.

    A prefix that is not a known string makes every key of the site dynamic, reaching nothing.
    A site that reads a subtree whole (`subtree`) reaches nothing by its tail: the keys under
    it do not end with it.
    """
    literal_context = None
    if context is not None:
        literal_context = context.value if isinstance(context, Text) else "*"
    if isinstance(key, Messages):
        key = Text(key.path)  # a path read from the messages (`t(transKeys.home.title)`)
    if isinstance(key, Text) and (prefix is None or isinstance(prefix, Text)):
        # The common case, `t('a.b')`: one static key.
        text_namespace, path = _split(key.value, syntax)
        if not path:
            return SiteMeaning([], None, (), literal_context)
        full = _prefixed(syntax.code_path(prefix.value) if prefix is not None else None, path)
        return SiteMeaning([(text_namespace or namespace.name, full)], None, (), literal_context)
    alternatives = _alternatives(key, None)
    static = [alternative.head for alternative in alternatives if alternative.hole is None]
    dynamic = [alternative for alternative in alternatives if alternative.hole is not None]
    if prefix is not None and not isinstance(prefix, Text):
        kind = dynamic[0].hole if dynamic else _NON_LITERAL
        return SiteMeaning([], kind, (Reach(namespace.name, None),), literal_context)
    key_prefix = (
        syntax.code_path(prefix.value) if isinstance(prefix, Text) and prefix.value else None
    )
    keys: dict[tuple[str | None, str], None] = {}
    for text in static:
        text_namespace, path = _split(text, syntax)
        if path:
            keys[(text_namespace or namespace.name, _prefixed(key_prefix, path))] = None
    ordered = list(keys)  # in the order the code spells them
    if not dynamic:
        return SiteMeaning(ordered, None, (), literal_context)
    reaches = dict.fromkeys(
        reach
        for alternative in dynamic
        for reach in _reach(alternative, key_prefix, namespace, syntax, subtree=subtree)
    )
    return SiteMeaning(ordered, dynamic[0].hole, tuple(reaches), literal_context)


def _reach(
    alternative: _Alternative,
    key_prefix: str | None,
    namespace: Namespace,
    syntax: KeySyntax,
    *,
    subtree: bool,
) -> list[Reach]:
    """What a dynamic alternative may reach: the keys starting with its path's static head
    (and, with no `keyPrefix`, the namespaces whose names continue the head), else those ending
    with its tail, else a whole namespace the code names, else nothing."""
    text_namespace, rest = _split(alternative.head, syntax)
    space = text_namespace or namespace.name
    head = rest if key_prefix is None else _prefixed(key_prefix, rest)
    if head:
        whole = syntax.namespaces_under(alternative.head) if key_prefix is None else []
        return [Reach(space, head), *(Reach(name, "") for name in whole)]
    tail = "" if subtree else _path_suffix(alternative.tail, syntax)
    if tail:
        # An unknown head may name a namespace itself, unless the code chose one.
        return [Reach(text_namespace or (namespace.name if namespace.chosen else None), None, tail)]
    if syntax.uses_namespaces and (text_namespace or namespace.chosen):
        return [Reach(space, "")]  # the whole namespace, which the code names
    return [Reach(space, None)]


def _path_suffix(tail: str, syntax: KeySyntax) -> str:
    """The end of a key's static tail that its path surely ends with: the tail, less what a
    namespace separator in it may cut off with the namespace (`${ns}:title` → `title`)."""
    separator = syntax.ns_separator
    if separator is None or separator not in tail:
        return syntax.code_path(tail)
    if syntax.uses_namespaces and separator == syntax.key_separator:
        return tail.rsplit(separator, 1)[1]  # the longest namespace may end at any separator
    return syntax.code_path(tail.split(separator, 1)[1])


def _split(text: str, syntax: KeySyntax) -> tuple[str | None, str]:
    """The namespace a key's text names (always `None` with namespaces off) and its path (a
    path read from a whole locale file's content is taken below `locales.root`)."""
    if text.startswith(WHOLE_FILE):
        return None, syntax.below_root(text[len(WHOLE_FILE) + 1 :])
    namespace, rest = syntax.split_namespace(text)
    return (namespace if syntax.uses_namespaces else None), syntax.code_path(rest)


def _alternatives(value: Expr, hole_kind: str | None) -> list[_Alternative]:
    """Each possible value of `value`.

    The outermost concatenation names the kind of a hole (`template_interpolation` or
    `concatenation`); a hole outside any concatenation is `non_literal`, or `derived_id` for a
    message id that is not known.
    """
    if isinstance(value, Text):
        return [_Alternative(value.value, None)]
    if isinstance(value, Messages):
        return [_Alternative(value.path, None)]
    if isinstance(value, AutoId):
        return [_Alternative("", DERIVED_ID)]
    if isinstance(value, Branches):
        merged: list[_Alternative] = []
        for option in value.options:
            merged.extend(_alternatives(option, hole_kind))
        return _bounded(list(dict.fromkeys(merged)), hole_kind)
    if isinstance(value, Join):
        kind = hole_kind or ("template_interpolation" if value.template else "concatenation")
        combined = [_Alternative("", None)]
        for part in value.parts:
            following = _alternatives(part, kind)
            joined = [_joined(first, then) for first in combined for then in following]
            combined = _bounded(list(dict.fromkeys(joined)), kind)
        return combined
    return [_Alternative("", hole_kind or _NON_LITERAL)]


def _joined(first: _Alternative, then: _Alternative) -> _Alternative:
    """`first` followed by `then`: the head grows until the first hole, the tail restarts
    after each."""
    if first.hole is None:
        return _Alternative(first.head + then.head, then.hole, then.tail)
    if then.hole is None:
        return first._replace(tail=first.tail + then.head)
    return first._replace(tail=then.tail)


def _bounded(alternatives: list[_Alternative], hole_kind: str | None) -> list[_Alternative]:
    """Collapse an exploding set of alternatives into one dynamic alternative: the head all of
    them start with and the tail all of them end with."""
    if len(alternatives) <= _MAX_ALTERNATIVES:
        return alternatives
    ends = [a.head if a.hole is None else a.tail for a in alternatives]
    reversed_ends = [end[::-1] for end in ends]
    head = _shared_start([a.head for a in alternatives])
    return [_Alternative(head, hole_kind or _NON_LITERAL, _shared_start(reversed_ends)[::-1])]


def _shared_start(texts: list[str]) -> str:
    """The longest text every one of `texts` starts with."""
    low, high = min(texts), max(texts)
    length = next((i for i, (a, b) in enumerate(zip(low, high, strict=False)) if a != b), len(low))
    return low[:length]


def _prefixed(prefix: str | None, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
