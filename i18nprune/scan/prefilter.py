"""A byte-level test that rules out files which cannot contain a key site, before parsing."""

from __future__ import annotations

import re

from i18nprune.scan.callees import (
    FACTORIES_RETURNING_TRANSLATOR,
    FORMATJS_CALLEES,
    FORMATJS_ELEMENTS,
    HOOKS_RETURNING_OBJECT,
    KEY_ATTRIBUTES,
    NAMESPACE_HOCS,
    NEXT_I18NEXT_HOOKS,
    RENDER_PROP_ELEMENTS,
    RESOURCE_GETTERS,
    TRANS_ELEMENTS,
    CalleeNames,
)
from i18nprune.scan.injected import KEY_FUNCTIONS
from i18nprune.scan.messages import may_hold_messages
from i18nprune.scan.svelte_stores import MODULE as SVELTE_I18N

# What may follow a translation name in a call or a binding: `t(`, `t<`, `t!`, `t?.`, `t as`,
# `t:`, `t,`, `t}`, `t =`, `t.bind`, end of line or file. Prose such as "don't" does not match.
_CONTINUATION = rb"(?=[ \t]*(?:[(<!?:;,})\]=.&|/\r\n]|as\b|\Z))"
_ANGULAR_I18N_ATTRIBUTE = re.compile(rb"\si18n(?:-[\w.:-]+)?(?=[\s=/>])")
_WORDS = (
    *HOOKS_RETURNING_OBJECT,
    *FACTORIES_RETURNING_TRANSLATOR,
    *KEY_ATTRIBUTES,
    *TRANS_ELEMENTS,
    *NAMESPACE_HOCS,
    *NEXT_I18NEXT_HOOKS,
    *RENDER_PROP_ELEMENTS,
    *RESOURCE_GETTERS,
    *FORMATJS_CALLEES,
    *FORMATJS_ELEMENTS,
    SVELTE_I18N,  # its stores may be imported under any name (`import { _ as intl }`)
)


class SiteTrigger:
    """Finds, at memory speed, whether a file might contain a key site (a commented one too).

    False positives only cost a parse; a false negative would lose keys, so every construct that
    extraction recognises as a site or a translator binding contains one of these triggers.
    """

    def __init__(self, names: CalleeNames) -> None:
        # One pattern per name, each starting with a literal, keeps `re` on its fast path; the
        # word boundary is checked by a lookbehind *after* the literal for the same reason.
        self._name_patterns = [
            re.compile(escaped + rb"(?<![\w$]" + escaped + rb")" + _CONTINUATION)
            for escaped in (
                re.escape(name.encode()) for name in (*names.last_segments, *names.components)
            )
        ]
        words = (
            *_WORDS,
            *sorted(names.hooks),
            *names.trans_elements,
            # Angular: a template's pipes and directives, a service's type, the modules
            # whose key functions a file imports (`scan.injected`).
            *sorted(names.pipes | names.directives),
            *dict.fromkeys(service for service, _ in names.services),
            *(KEY_FUNCTIONS if names.services or names.pipes or names.directives else ()),
        )
        self._words = [word.encode() for word in dict.fromkeys(words)]
        # A word holding another (`useTranslation` holds `Trans`) is there only where the other
        # is: searching for the shortest ones answers "any word?" in fewer passes.
        self._shortest_words = sorted(
            {word for word in self._words if not any(o != word and o in word for o in self._words)}
        )
        self._word_pattern = re.compile(
            rb"(?<![\w$])(?:" + b"|".join(re.escape(word) for word in self._words) + rb")(?![\w$])"
        )

    def found_in(self, content: bytes) -> bool:
        """Whether `content` may hold a key site and so must be parsed for its sites (a read
        of a messages value included, see `scan.messages`)."""
        if any(pattern.search(content) for pattern in self._name_patterns):
            return True
        if any(word in content for word in self._shortest_words) and self._word_pattern.search(
            content
        ):
            return True
        # A component given a key prefix by attribute (`i18nKeyPrefix="question"`) tells the
        # prefixes of another file's keys (`FileFacts.prefix_props`).
        # vue-i18n's `<i18n path="k">` (8) names a key by a common word; an `<i18n>` block
        # holds messages that answer keys (`FileFacts.answers`).
        # Lingui's macros and runtime are named by their imports (`@lingui/core/macro`).
        # Angular's own i18n: `i18n`/`i18n-<name>` attributes, `$localize` templates, and a
        # component keeping white space or with delimiters of its own (its messages' ids are not
        # the ones read).
        return (
            may_hold_messages(content)
            or b"refix=" in content
            or b"<i18n" in content
            or b"@lingui/" in content
            or b"$localize`" in content
            or b"preserveWhitespaces" in content
            or b"interpolation" in content
            or _ANGULAR_I18N_ATTRIBUTE.search(content) is not None
        )
