"""The rules a glossary entry (`translate.glossary`, a glossary file's rows) must follow: what
config validation and the glossary reader refuse, with the same words."""

from __future__ import annotations

from collections.abc import Mapping

from i18nprune.locale_codes import looks_like_locale_code
from i18nprune.placeholders import placeholder_signature

_EMPTY_SIGNATURE = placeholder_signature("")


def term_problems(term: str, translations: Mapping[str, str]) -> list[tuple[tuple[str, ...], str]]:
    """What is wrong with a glossary entry, as `(key path below the entry, problem)` pairs;
    empty when it is usable.

    A term must be non-empty, without edge whitespace, and hold no placeholder, tag, ICU brace
    or newline (it is matched in message text only); a translation the same, keyed by a
    locale code.
    """
    problems: list[tuple[tuple[str, ...], str]] = []
    problem = text_problem(term)
    if problem is not None:
        problems.append((("term",), problem))
    for code, form in translations.items():
        if not looks_like_locale_code(code):
            problems.append((("translations", code), "is not a locale code (`de`, `pt-BR`)"))
            continue
        problem = text_problem(form)
        if problem is not None:
            problems.append((("translations", code), problem))
    return problems


def text_problem(text: str) -> str | None:
    """Why `text` cannot be a glossary term or translation, or None when it can."""
    if not text.strip():
        return "must not be empty"
    if text != text.strip():
        return "must not start or end with whitespace"
    if "{" in text or "}" in text or placeholder_signature(text) != _EMPTY_SIGNATURE:
        return "must not contain placeholders, tags, braces or newlines"
    return None
