"""From a key argument's resolved value to literal keys and, when it is dynamic, a prefix.

Conditionals expand into one key per branch; the first unknown part ends the static text, whose
last complete segment is the prefix (`errors.${code}` → `errors`, `a.b${x}` → `a`).
"""

from __future__ import annotations

from i18nprune.scan.expressions import Branches, Expr, Join, Text
from i18nprune.scan.facts import ResolvedKey

_MAX_ALTERNATIVES = 64
_NON_LITERAL = "non_literal"


def resolve_key(key: Expr, prefix: Expr | None, context: Expr | None) -> ResolvedKey:
    """What a site means, from its resolved key value, key prefix and `context` option.

    An i18next namespace (`ns:key`) is stripped from static text. A prefix that is not a known
    string makes every key of the site dynamic, with no prefix.
    """
    literal_context = None
    if context is not None:
        literal_context = context.value if isinstance(context, Text) else "*"
    alternatives = _alternatives(key, None)
    static = [text for text, hole in alternatives if hole is None]
    dynamic = [(text, hole) for text, hole in alternatives if hole is not None]
    if prefix is not None and not isinstance(prefix, Text):
        kind = dynamic[0][1] if dynamic else _NON_LITERAL
        return ResolvedKey([], kind, None, literal_context)
    key_prefix = prefix.value if isinstance(prefix, Text) and prefix.value else None
    keys = sorted(
        {_prefixed(key_prefix, stripped) for stripped in map(_strip_namespace, static) if stripped}
    )
    if not dynamic:
        return ResolvedKey(keys, None, None, literal_context)
    common = _common_segments([_aligned(_strip_namespace(text)) for text, _ in dynamic])
    dynamic_prefix = key_prefix if common is None else _prefixed(key_prefix, common)
    return ResolvedKey(keys, dynamic[0][1], dynamic_prefix, literal_context)


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


def _strip_namespace(text: str) -> str:
    """`common:home.title` → `home.title` (i18next's namespace separator)."""
    return text.split(":", 1)[1] if ":" in text else text


def _aligned(text: str) -> str | None:
    """The static text cut back to its last complete segment, `None` when nothing remains."""
    cut = max(text.rfind("."), text.rfind("["))
    return text[:cut] if cut > 0 else None


def _common_segments(prefixes: list[str | None]) -> str | None:
    if not prefixes or any(prefix is None for prefix in prefixes):
        return None
    split = [prefix.split(".") for prefix in prefixes if prefix is not None]
    common: list[str] = []
    for segments in zip(*split, strict=False):
        if any(segment != segments[0] for segment in segments):
            break
        common.append(segments[0])
    return ".".join(common) or None


def _prefixed(prefix: str | None, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key
