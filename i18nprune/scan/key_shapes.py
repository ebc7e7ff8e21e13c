"""From a site's static values to what it means as locale keys: literal `(namespace, path)`
keys and, when the key is dynamic, the namespace and prefix it may reach.

Conditionals expand into one key per branch; the first unknown part ends the static text. With
nested keys the prefix is its last complete segment (`errors.${code}` → `errors`, `a.b${x}` →
`a`); with flat keys it is the static text itself. A static part that is only a namespace
(`errors:${code}`), or a fully dynamic key through a namespace-bound `t`, reaches that whole
namespace (prefix `""`).
"""

from __future__ import annotations

from typing import NamedTuple

from i18nprune.keys import KeySyntax
from i18nprune.scan.expressions import Branches, Expr, Join, Text

_MAX_ALTERNATIVES = 64
_NON_LITERAL = "non_literal"


class Namespace(NamedTuple):
    """The namespace a site's keys go to when their text names none: `name` (`None`: not
    known statically, so any) and whether the code chose it (a binding or an option) rather
    than the default."""

    name: str | None
    chosen: bool


class SiteMeaning(NamedTuple):
    """The literal keys a site proves (in the order the code spells them) and, for a dynamic
    one, the kind, namespace and prefix of what it may reach (`dynamic_prefix` `None`:
    nothing can be said), and the namespaces it may reach whole besides (`error.${x}` with
    `.`-separated namespaces reaches `error/api`)."""

    keys: list[tuple[str | None, str]]
    dynamic_kind: str | None
    dynamic_namespace: str | None
    dynamic_prefix: str | None
    context: str | None
    also_reaches: tuple[str, ...] = ()


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
) -> SiteMeaning:
    """What a site means, from its resolved key value, key prefix and `context` option.

    A prefix that is not a known string makes every key of the site dynamic, with no prefix.
    """
    literal_context = None
    if context is not None:
        literal_context = context.value if isinstance(context, Text) else "*"
    if isinstance(key, Text) and (prefix is None or isinstance(prefix, Text)):
        # The common case, `t('a.b')`: one static key.
        text_namespace, path = _split(key.value, syntax)
        if not path:
            return SiteMeaning([], None, None, None, literal_context)
        full = _prefixed(prefix.value if prefix is not None else None, path)
        return SiteMeaning(
            [(text_namespace or namespace.name, full)], None, None, None, literal_context
        )
    alternatives = _alternatives(key, None)
    static = [text for text, hole in alternatives if hole is None]
    dynamic = [(text, hole) for text, hole in alternatives if hole is not None]
    if prefix is not None and not isinstance(prefix, Text):
        kind = dynamic[0][1] if dynamic else _NON_LITERAL
        return SiteMeaning([], kind, namespace.name, None, literal_context)
    key_prefix = prefix.value if isinstance(prefix, Text) and prefix.value else None
    keys: dict[tuple[str | None, str], None] = {}
    for text in static:
        text_namespace, path = _split(text, syntax)
        if path:
            keys[(text_namespace or namespace.name, _prefixed(key_prefix, path))] = None
    ordered = list(keys)  # in the order the code spells them
    if not dynamic:
        return SiteMeaning(ordered, None, None, None, literal_context)
    reach = [_reach(text, key_prefix, namespace, syntax) for text, _ in dynamic]
    namespaces = {space for space, _ in reach}
    dynamic_namespace = namespaces.pop() if len(namespaces) == 1 else None
    dynamic_prefix = _common_prefix([start for _, start in reach], syntax)
    whole = tuple(
        dict.fromkeys(
            name
            for text, _ in dynamic
            if key_prefix is None
            for name in syntax.namespaces_under(text)
        )
    )
    return SiteMeaning(
        ordered, dynamic[0][1], dynamic_namespace, dynamic_prefix, literal_context, whole
    )


def _reach(
    text: str, key_prefix: str | None, namespace: Namespace, syntax: KeySyntax
) -> tuple[str | None, str | None]:
    """(namespace, prefix) a dynamic key whose static text is `text` may reach."""
    text_namespace, rest = _split(text, syntax)
    if syntax.key_separator is None:
        start: str | None = rest or None
    else:
        start = _aligned(rest)
    if key_prefix is not None:
        start = key_prefix if start is None else _prefixed(key_prefix, start)
    if start is None and syntax.uses_namespaces and (text_namespace or namespace.chosen):
        start = ""  # the whole namespace, which the code names
    return text_namespace or namespace.name, start


def _split(text: str, syntax: KeySyntax) -> tuple[str | None, str]:
    """The namespace a key's text names (always `None` with namespaces off) and its path."""
    namespace, rest = syntax.split_namespace(text)
    return (namespace if syntax.uses_namespaces else None), rest


def _alternatives(value: Expr, hole_kind: str | None) -> list[tuple[str, str | None]]:
    """Each possible value as (static text, kind of the hole after it or `None` if complete).

    The outermost concatenation names the kind of a hole (`template_interpolation` or
    `concatenation`); a hole outside any concatenation is `non_literal`.
    """
    if isinstance(value, Text):
        return [(value.value, None)]
    if isinstance(value, Branches):
        merged: list[tuple[str, str | None]] = []
        for option in value.options:
            merged.extend(_alternatives(option, hole_kind))
        return _bounded(list(dict.fromkeys(merged)), hole_kind)
    if isinstance(value, Join):
        kind = hole_kind or ("template_interpolation" if value.template else "concatenation")
        combined: list[tuple[str, str | None]] = [("", None)]
        for part in value.parts:
            extended: list[tuple[str, str | None]] = []
            part_alternatives = _alternatives(part, kind)
            for text, hole in combined:
                if hole is not None:
                    extended.append((text, hole))
                else:
                    extended.extend((text + more, gap) for more, gap in part_alternatives)
            combined = _bounded(list(dict.fromkeys(extended)), kind)
        return combined
    return [("", hole_kind or _NON_LITERAL)]


def _bounded(
    alternatives: list[tuple[str, str | None]], hole_kind: str | None
) -> list[tuple[str, str | None]]:
    """Collapse an exploding set of alternatives into one dynamic alternative."""
    if len(alternatives) <= _MAX_ALTERNATIVES:
        return alternatives
    texts = [text for text, _ in alternatives]
    low, high = min(texts), max(texts)
    length = next((i for i, (a, b) in enumerate(zip(low, high, strict=False)) if a != b), len(low))
    return [(low[:length], hole_kind or _NON_LITERAL)]


def _aligned(text: str) -> str | None:
    """The static text cut back to its last complete segment, `None` when nothing remains."""
    cut = max(text.rfind("."), text.rfind("["))
    return text[:cut] if cut > 0 else None


def _common_prefix(prefixes: list[str | None], syntax: KeySyntax) -> str | None:
    """The prefix every one of `prefixes` lies under (segment-wise with nested keys)."""
    if not prefixes or any(prefix is None for prefix in prefixes):
        return None
    known = [prefix for prefix in prefixes if prefix is not None]
    if len(set(known)) == 1 or "" in known:
        return known[0] if len(set(known)) == 1 else ""
    if syntax.key_separator is None:
        low, high = min(known), max(known)
        length = next(
            (i for i, (a, b) in enumerate(zip(low, high, strict=False)) if a != b), len(low)
        )
        return low[:length] or None
    split = [prefix.split(".") for prefix in known]
    common: list[str] = []
    for segments in zip(*split, strict=False):
        if any(segment != segments[0] for segment in segments):
            break
        common.append(segments[0])
    return ".".join(common) or None


def _prefixed(prefix: str | None, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
