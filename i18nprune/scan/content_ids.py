"""Ids that message extractors derive from a message's own text: FormatJS's id interpolation
pattern (`formatjs extract --id-interpolation-pattern '[sha512:contenthash:base64:6]'`) and
next-intl's `useExtracted` keys (the first six characters of the text's SHA-512 in base64).
"""

from __future__ import annotations

import base64
import re

from i18nprune.system.digests import sha512

FORMATJS_DEFAULT_PATTERN = "[sha512:contenthash:base64:6]"
"""The pattern `formatjs extract`, babel-plugin-formatjs and the ts-transformer document as
their default."""

# webpack's loader-utils placeholder, as FormatJS's own `interpolateName` reads it.
_HASH = re.compile(r"\[(?:([^:\]]+):)?(?:hash|contenthash)(?::([a-z]+\d*))?(?::(\d+))?\]", re.I)
# Placeholders that name the file, which the extractor is given in a way not known here.
_PATH_PLACEHOLDER = re.compile(r"\[(?:ext|name|path|folder|query|\d+)\]", re.I)
_DIGESTS = frozenset({"hex", "base64", "base64url", "latin1", "binary"})


def pattern_problem(pattern: str) -> str | None:
    """Why ids made with `pattern` cannot be derived here, or `None`."""
    if _PATH_PLACEHOLDER.search(pattern):
        return f"the id pattern {pattern!r} names the file, whose path the extractor gets as given"
    import hashlib  # OpenSSL's algorithms: loaded where a project names one, never in workers

    for match in _HASH.finditer(pattern):
        algorithm, digest = (match.group(1) or "md5").lower(), (match.group(2) or "hex").lower()
        if algorithm not in hashlib.algorithms_available:
            return f"the id pattern {pattern!r} hashes with {algorithm!r}"
        if digest not in _DIGESTS:
            return f"the id pattern {pattern!r} encodes the hash as {digest!r}"
    return None


def formatjs_content(message: str, description: str | None, *, preserve_whitespace: bool) -> str:
    """What FormatJS hashes for a message without an id: its text (white space trimmed and
    collapsed, unless `--preserve-whitespace`), then `#` and the description when it has one."""
    text = message if preserve_whitespace else " ".join(message.split())
    return f"{text}#{description}" if description else text


def interpolate_id(pattern: str, content: str) -> str:
    """`pattern` with each hash placeholder replaced by the hash of `content` (call
    `pattern_problem` first: patterns it refuses are not derived)."""

    import hashlib

    def digest(match: re.Match[str]) -> str:
        algorithm = (match.group(1) or "md5").lower()
        encoding = (match.group(2) or "hex").lower()
        raw = hashlib.new(algorithm, content.encode("utf-8")).digest()
        if encoding == "hex":
            text = raw.hex()
        elif encoding == "base64":
            text = base64.b64encode(raw).decode("ascii")
        elif encoding == "base64url":
            text = base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
        else:
            text = raw.decode("latin-1")
        length = match.group(3)
        return text[: int(length)] if length else text

    return _HASH.sub(digest, pattern)


def next_intl_key(message: str) -> str:
    """The key next-intl's extractor gives a `useExtracted` message without an explicit id."""
    digest = sha512(message.encode("utf-8")).digest()
    return base64.b64encode(digest).decode("ascii")[:6]


__all__ = [
    "FORMATJS_DEFAULT_PATTERN",
    "formatjs_content",
    "interpolate_id",
    "next_intl_key",
    "pattern_problem",
]
