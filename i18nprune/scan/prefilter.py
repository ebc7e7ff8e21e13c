"""A byte-level test that rules out files which cannot contain a key site, before parsing."""

from __future__ import annotations

import re

from i18nprune.scan.callees import (
    FACTORIES_RETURNING_TRANSLATOR,
    HOOKS_RETURNING_OBJECT,
    KEY_ATTRIBUTES,
    CalleeNames,
)


def site_trigger(names: CalleeNames) -> re.Pattern[bytes]:
    """A pattern found in every file that has a key site, a commented one included.

    A translation name must appear as a word followed by something that can continue a call or a
    binding (`t(`, `t<`, `t!`, `t?.`, `t as`, `t:`, `t,`, `t}`, `t =`, end of line…), which keeps
    prose such as "don't" from forcing a parse. Hook and attribute names count anywhere.
    """
    segments = b"|".join(
        re.escape(name.encode()) for name in sorted(names.last_segments, key=len, reverse=True)
    )
    words = b"|".join(
        re.escape(word.encode())
        for word in (*HOOKS_RETURNING_OBJECT, *FACTORIES_RETURNING_TRANSLATOR, *KEY_ATTRIBUTES)
    )
    return re.compile(
        rb"(?<![\w$])(?:(?:"
        + segments
        + rb")(?=[ \t]*(?:[(<!?:;,})\]=.&|/\r\n]|as\b|\Z))|(?:"
        + words
        + rb")(?![\w$]))"
    )
