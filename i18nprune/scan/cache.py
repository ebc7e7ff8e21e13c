"""The incremental scan cache: each file's facts keyed by content hash, in one msgpack file
replaced atomically; an unreadable or foreign cache is ignored and rebuilt. Runs that may not
write to disk keep theirs in this process's memory instead.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

import msgspec

from i18nprune.envelope import Code, Issue, info
from i18nprune.scan.facts import FileFacts
from i18nprune.scan.literals import LiteralIndex
from i18nprune.system.atomic import write_atomically

CACHE_FILE_NAME = "scan-v3.msgpack"
MEMORY_IDENTITIES = 8
"""How many scan identities (roots × functions) the in-memory cache keeps, most recent first."""
# Bump when extraction changes what it records, so that old facts are never reused.
FACTS_VERSION = 4


class CachedFile(msgspec.Struct, array_like=True):
    """What is remembered of one file between scans.

    `facts` is `None` when the prefilter showed the file holds no key site and nothing asked
    for its exports; `literals` are its quoted texts; `stat_trusted` is false when the file
    changed too recently for its mtime to prove that it did not change again since it was read.
    """

    size: int
    mtime_ns: int
    inode: int
    digest: bytes
    triggered: bool
    stat_trusted: bool
    facts: FileFacts | None
    literals: LiteralIndex = LiteralIndex()


class _CacheDocument(msgspec.Struct):
    identity: str
    files: dict[str, CachedFile]


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(_CacheDocument)


def load_cache(cache_dir: Path, identity: str) -> tuple[dict[str, CachedFile], list[Issue]]:
    """The cached files of a previous scan with the same `identity`, by path relative to root.

    A missing cache, or one written for another identity, is empty without an issue; an
    unreadable or corrupt one is empty with an info issue (it will be rebuilt).
    """
    path = cache_dir / CACHE_FILE_NAME
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, []
    except OSError as problem:
        return {}, [_problem(path, f"cannot be read ({problem.strerror})")]
    try:
        document = _decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as problem:
        return {}, [_problem(path, f"is corrupt ({problem})")]
    if document.identity != identity:
        return {}, []
    return document.files, []


def save_cache(cache_dir: Path, identity: str, files: dict[str, CachedFile]) -> list[Issue]:
    """Replace the cache atomically (see `write_atomically`); problems become info issues."""
    path = cache_dir / CACHE_FILE_NAME
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        write_atomically(path, _encoder.encode(_CacheDocument(identity=identity, files=files)))
    except OSError as problem:
        return [_problem(path, f"cannot be written ({problem.strerror})")]
    return []


_memory: OrderedDict[str, dict[str, CachedFile]] = OrderedDict()
_memory_lock = threading.Lock()


def remember_scan(identity: str, files: dict[str, CachedFile]) -> None:
    """Keep a scan's files in this process's memory (for runs that may not write the disk
    cache, such as a read-only `serve` session); only the most recent identities are kept."""
    with _memory_lock:
        _memory[identity] = files
        _memory.move_to_end(identity)
        while len(_memory) > MEMORY_IDENTITIES:
            _memory.popitem(last=False)


def recall_scan(identity: str) -> dict[str, CachedFile]:
    """The files `remember_scan` kept for `identity`, or an empty mapping. Callers revalidate
    each entry against the file on disk, exactly as for the disk cache."""
    with _memory_lock:
        return _memory.get(identity, {})


def _problem(path: Path, what: str) -> Issue:
    return info(
        Code.SCAN_CACHE_ERROR,
        f"scan cache {path} {what}; scanning without it (it is rebuilt when writable).",
        path=str(path),
    )
