"""Examining one source file: read it safely, hash it, and extract its facts when it may
matter — the unit of work of both the scanning process and the parse workers.
"""

from __future__ import annotations

import functools
import os

import msgspec

from i18nprune.envelope import Code, Issue, warning
from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.extract import extract_file
from i18nprune.scan.facts import FileFacts
from i18nprune.scan.grammars import PROSE_SUFFIXES
from i18nprune.scan.literals import LiteralIndex, index_literals
from i18nprune.scan.prefilter import SiteTrigger
from i18nprune.system.digests import blake2b

# Larger files are scanned too (the prefilter keeps files without key sites cheap); past this
# a file is not read at all, and removal ops count it as unscanned.
MAX_SOURCE_BYTES = 64 * 1024 * 1024
# The most punctuation marks (brackets, quotes, operators, `;`) a file whose syntax is read may
# hold (only files that may hold a key site are parsed). A syntax tree and its key sites cost
# ~200-330 bytes a mark: 400k marks are ~2.5-4 MB of hand-written code or ~1 MB of dense calls
# (~130 MB, 1 s of CPU), while a 13 MB file of 800k calls took 1.6 GB and 46 s. Past this, its
# keys are not read and removal ops count it as unscanned.
MAX_PARSED_MARKS = 400_000
_NOT_MARKS = bytes(
    byte
    for byte in range(256)
    if not (33 <= byte < 127 and not chr(byte).isalnum()) or byte in b"_$"
)
# A few raw NUL characters (`'\x00'` written unescaped in a string) do not make a file binary.
_NUL_ALLOWANCE = 8


class Examined(msgspec.Struct, frozen=True, array_like=True):
    """The outcome of examining one file.

    `facts` is `None` when the file was not parsed (no key site possible and its exports not
    requested) or could not be read, in which case `issue` says why. `literals` are its quoted
    texts, found in every file that could be read.
    """

    relpath: str
    digest: bytes
    triggered: bool
    facts: FileFacts | None
    literals: LiteralIndex = LiteralIndex()
    issue: Issue | None = None


@functools.cache
def _tools(functions: tuple[str, ...]) -> tuple[CalleeNames, SiteTrigger]:
    names = CalleeNames(functions)
    return names, SiteTrigger(names)


def content_digest(content: bytes, suffix: str) -> bytes:
    """The cache key of a file's facts: its bytes and its type (which picks the grammar)."""
    return blake2b(suffix.encode() + b"\0" + content, digest_size=16).digest()


def _looks_binary(content: bytes) -> bool:
    """Many NUL bytes (a UTF-16 or binary file); one in a string literal is valid source."""
    return content.count(b"\0") > max(_NUL_ALLOWANCE, len(content) // 1000)


def read_source(path: str, relpath: str) -> bytes | Issue:
    """The bytes of a source file, or the issue that keeps it from being scanned.

    Files over 64 MB, with many NUL bytes, or not valid UTF-8 are skipped with a warning.
    """
    try:
        content, too_large = _read_whole(path)
    except OSError as problem:
        return warning(
            Code.SCAN_UNREADABLE,
            f"{relpath}: cannot be read ({problem.strerror}); skipped.",
            path=relpath,
        )
    if too_large or len(content) > MAX_SOURCE_BYTES:
        return warning(
            Code.SCAN_TOO_LARGE,
            f"{relpath}: larger than {MAX_SOURCE_BYTES // (1024 * 1024)} MB, most likely "
            "generated or bundled; not scanned. Exclude it if it holds no key of yours.",
            path=relpath,
        )
    if _looks_binary(content):
        return warning(
            Code.SCAN_BINARY,
            f"{relpath}: contains NUL bytes, so it is not a text source; skipped.",
            path=relpath,
        )
    if content.isascii():
        return content
    try:
        content.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = content.count(b"\n", 0, problem.start) + 1
        return warning(
            Code.SCAN_BINARY,
            f"{relpath}:{line}: not valid UTF-8 (byte {problem.start}); skipped. "
            "Save the file as UTF-8.",
            path=relpath,
        )
    return content


def _read_whole(path: str) -> tuple[bytes, bool]:
    """The bytes of the file at `path` (empty when over the limit), and whether it is."""
    # A bare descriptor read sized by the file: no file object, no buffer, one read for a file
    # that keeps its size (a read with a 64 MB limit would allocate that much).
    descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        size = os.fstat(descriptor).st_size
        if size > MAX_SOURCE_BYTES:
            return b"", True
        content = os.read(descriptor, size + 1)
        if len(content) == size:
            return content, False
        chunks = [content]  # it changed since, or the read was short: read on to its end
        while chunk := os.read(descriptor, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), False
    finally:
        os.close(descriptor)


def examine_content(
    relpath: str, content: bytes, functions: tuple[str, ...], *, force: bool
) -> Examined:
    """Hash `content`, index its quoted texts, and extract its facts if it may hold a key site
    or `force` is set (prose pages — `.md`, `.mdx`, `.svx` — only have quoted texts)."""
    suffix = relpath[relpath.rfind(".") :]
    names, trigger = _tools(functions)
    digest = content_digest(content, suffix)
    triggered = suffix not in PROSE_SUFFIXES and trigger.found_in(content)
    if not (triggered or force) or suffix in PROSE_SUFFIXES:
        return Examined(relpath, digest, triggered, None, index_literals(content))
    marks = len(content.translate(None, _NOT_MARKS)) if len(content) > MAX_PARSED_MARKS else 0
    if marks > MAX_PARSED_MARKS:
        message = (
            f"{relpath}: {len(content) / (1 << 20):.1f} MB of code with {marks:,} "
            f"punctuation marks, more than the {MAX_PARSED_MARKS:,} i18nprune parses in one "
            "file (most likely generated or bundled); its keys are not read. Exclude it if it "
            "holds no key of yours."
        )
        return _not_read(relpath, digest, triggered, content, Code.SCAN_TOO_LARGE, message)
    try:
        facts, key_literals = extract_file(content, suffix, names)
    except RecursionError:
        message = f"{relpath}: expressions nested too deeply to analyse; not scanned."
        return _not_read(relpath, digest, triggered, content, Code.SCAN_PARSE_ERROR, message)
    return Examined(relpath, digest, triggered, facts, index_literals(content, key_literals))


def _not_read(
    relpath: str, digest: bytes, triggered: bool, content: bytes, code: Code, message: str
) -> Examined:
    """A file whose keys were not read (its quoted texts still indexed), with the warning."""
    issue = warning(code, message, path=relpath)
    return Examined(relpath, digest, triggered, None, index_literals(content), issue)


def examine_path(relpath: str, path: str, functions: tuple[str, ...], *, force: bool) -> Examined:
    """Read the file at `path` and examine it (see `examine_content`)."""
    content = read_source(path, relpath)
    if isinstance(content, Issue):
        return Examined(relpath, b"", False, None, issue=content)
    return examine_content(relpath, content, functions, force=force)
