"""Masked texts in a provider's HTML/XML mode: escaping the plain parts around `<x id="N"/>`
tokens before sending, and unescaping answers (tokens kept, spelled canonically) after.
"""

from __future__ import annotations

import html
import re

TOKEN = re.compile(r'(<x id="\d+"/>)')
# what an HTML-mode provider may hand back for a token: spacing changed, or `<x …></x>`
_ANSWER_TOKEN = re.compile(r'(<x\s+id\s*=\s*"(\d+)"\s*(?:/>|>\s*</x\s*>))')


def escape_masked(text: str) -> str:
    """`text` with `&`, `<`, `>` of its plain parts as entities; tokens stay literal."""
    if "&" not in text:
        angles = text.count("<")
        if angles == text.count(">") and (angles == 0 or angles == len(TOKEN.findall(text))):
            return text  # every `<` and `>` is a token's own: the plain parts need nothing
    parts = TOKEN.split(text)
    parts[::2] = [html.escape(part, quote=False) for part in parts[::2]]
    return "".join(parts)


def unescape_answer(text: str) -> str:
    """A provider's HTML-mode answer as a masked text: entities decoded in the plain parts,
    tokens in the canonical `<x id="N"/>` spelling."""
    if "&" not in text and text.count("<") == len(TOKEN.findall(text)):
        # No entity, and every `<` opens a token spelled canonically: nothing to decode or
        # respell (the common case, tokens or not).
        return text
    parts = _ANSWER_TOKEN.split(text)
    # split yields [plain, whole token, id, plain, whole token, id, …]
    pieces: list[str] = []
    for index in range(0, len(parts), 3):
        pieces.append(html.unescape(parts[index]))
        if index + 2 < len(parts):
            pieces.append(f'<x id="{parts[index + 2]}"/>')
    return "".join(pieces)
