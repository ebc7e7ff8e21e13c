"""Key descriptions written in the code: an `i18n:` comment on the line right above a key site
(`// i18n: Hero heading`, `/* i18n: … */`, JSX `{/* i18n: … */}`, a template's
`<!-- i18n: … -->`) tells translators and providers what the text is for.
"""

from __future__ import annotations

import re

_MARK = b"i18n:"
# The whole previous line is the comment: one of the comment forms, optionally inside JSX braces.
_COMMENT = re.compile(
    rb"\s*(?:\{\s*)?(?:"
    rb"//\s*i18n:(?P<line>.*?)"
    rb"|/\*+\s*i18n:(?P<block>.*?)\*+/"
    rb"|<!--\s*i18n:(?P<markup>.*?)-->"
    rb")\s*\}?\s*",
    re.DOTALL,
)


class DescriptionComments:
    """Finds the `i18n:` comment above the sites of one file's content. Only the line before a
    site's line is looked at, once per line however many sites it holds, so the cost grows
    with the sites, not with the file (a minified bundle has one long line)."""

    def __init__(self, content: bytes) -> None:
        self._content = content
        self._marked = _MARK in content  # most files hold no description: one search each
        self._by_line: dict[int, str | None] = {}

    def above(self, offset: int, line: int) -> str | None:
        """The description written on the line before `line`, the 1-based line of byte
        `offset`; None when that line is not an `i18n:` comment (or has an empty one)."""
        if not self._marked:
            return None
        if line in self._by_line:
            return self._by_line[line]
        content = self._content
        line_start = content.rfind(b"\n", 0, offset) + 1
        found: str | None = None
        if line_start > 0:
            previous_start = content.rfind(b"\n", 0, line_start - 1) + 1
            previous = content[previous_start : line_start - 1]
            if _MARK in previous:
                found = _description(previous)
        self._by_line[line] = found
        return found


def _description(line: bytes) -> str | None:
    match = _COMMENT.fullmatch(line)
    if match is None:
        return None
    raw = match["line"] if match["line"] is not None else match["block"] or match["markup"]
    text = " ".join(raw.decode("utf-8", "replace").split()) if raw is not None else ""
    return text or None
