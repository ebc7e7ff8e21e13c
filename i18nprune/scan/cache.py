"""The incremental scan cache: each file's facts keyed by content hash, in one msgpack file
replaced atomically; an unreadable or foreign cache is ignored and rebuilt. Runs that may not
write to disk keep theirs in this process's memory instead.

A scan holds each file's record encoded (`EncodedFile`, one buffer per file) and decodes the
part it needs when it needs it: a cold scan of 100k files keeps kilobytes per file, not the
dozens of objects a decoded record is.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

import msgspec

from i18nprune.envelope import Code, Issue, info
from i18nprune.scan.facts import FileFacts
from i18nprune.scan.literals import LiteralIndex
from i18nprune.system.atomic import AtomicFile

CACHE_FILE_NAME = "scan-v3.msgpack"
MEMORY_IDENTITIES = 8
"""How many scan identities (roots × functions) the in-memory cache keeps, most recent first."""
# Bump when extraction changes what it records, so that old facts are never reused.
FACTS_VERSION = 26

EncodedFile = bytes | msgspec.Raw
"""A `CachedFile` as msgpack: bytes a scan encoded, or a slice of the cache file it loaded."""


class CachedStat(msgspec.Struct, frozen=True, array_like=True):
    """The leading fields of a `CachedFile`, decoded without its literals and facts.

    `triggered` is whether the prefilter found a possible key site; `stat_trusted` is false
    when the file changed too recently for its mtime to prove that it did not change again
    since it was read.
    """

    size: int
    mtime_ns: int
    inode: int
    digest: bytes
    triggered: bool
    stat_trusted: bool


class CachedLiterals(CachedStat, frozen=True, array_like=True):
    """A `CachedFile` decoded up to its quoted texts, without its facts."""

    literals: LiteralIndex


class CachedFile(CachedLiterals, frozen=True, array_like=True):
    """What is remembered of one file between scans: its stat and content hash, its quoted
    texts, and its facts — `None` when the prefilter showed the file holds no key site and
    nothing asked for its exports (such a file keeps no site record at all)."""

    facts: FileFacts | None


_NIL = b"\xc0"  # msgpack's nil


class _CacheDocument(msgspec.Struct, kw_only=True):
    identity: str
    link: msgspec.Raw = msgspec.Raw(_NIL)
    """The last linking's output over exactly these files (see `link.snapshot_link`); nil when
    none was kept."""
    files: dict[str, msgspec.Raw]


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(_CacheDocument)
_stat_decoder = msgspec.msgpack.Decoder(CachedStat)
_literals_decoder = msgspec.msgpack.Decoder(CachedLiterals)
_file_decoder = msgspec.msgpack.Decoder(CachedFile)


def encode_file(entry: CachedFile) -> bytes:
    """`entry` as the scan keeps it and the cache stores it."""
    return _encoder.encode(entry)


def decode_stat(encoded: EncodedFile) -> CachedStat | None:
    """The stat and content fields of an encoded file (`None`: the record is damaged)."""
    try:
        return _stat_decoder.decode(encoded)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def decode_literals(encoded: EncodedFile) -> CachedLiterals | None:
    """The stat, content fields and quoted texts of an encoded file (`None`: the record is
    damaged)."""
    try:
        return _literals_decoder.decode(encoded)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def decode_file(encoded: EncodedFile) -> CachedFile | None:
    """All of an encoded file (`None`: the record is damaged)."""
    try:
        return _file_decoder.decode(encoded)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def load_cache_document(
    cache_dir: Path, identity: str
) -> tuple[dict[str, EncodedFile], msgspec.Raw | None, list[Issue]]:
    """The encoded files of a previous scan with the same `identity`, by path relative to root,
    and the linked output saved beside them (still encoded; None when there is none).

    A missing cache, or one written for another identity, is empty without an issue; an
    unreadable or corrupt one is empty with an info issue (it will be rebuilt). Each file's
    record is only checked when it is decoded: a damaged one then counts as not cached.
    """
    path = cache_dir / CACHE_FILE_NAME
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, None, []
    except OSError as problem:
        return {}, None, [_problem(path, f"cannot be read ({problem.strerror})")]
    try:
        document = _decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as problem:
        return {}, None, [_problem(path, f"is corrupt ({problem})")]
    if document.identity != identity:
        return {}, None, []
    link = (
        None if len(document.link) == len(_NIL) and bytes(document.link) == _NIL else document.link
    )
    return dict(document.files), link, []


def save_cache(
    cache_dir: Path,
    identity: str,
    files: dict[str, EncodedFile],
    link: Iterable[bytes] | None = None,
) -> list[Issue]:
    """Replace the cache atomically (see `write_atomically`); problems become info issues.
    `link` is the encoded linked output over exactly `files` (chunks of one msgpack value).
    The file records are msgpack already, so the document is their concatenation behind a
    header (`CacheStream`): writing it never holds a second copy of the whole scan."""
    try:
        stream = CacheStream(cache_dir, identity)
    except OSError as problem:
        return [_problem(cache_dir / CACHE_FILE_NAME, f"cannot be written ({problem.strerror})")]
    try:
        return stream.finish(files.items(), link)
    finally:
        stream.abort()  # (nothing once finished)


class CacheStream:
    """A new cache file written while the scan makes its records (`add`), so that a cold scan
    need not hold what only the cache needs (each record's quoted texts); put in place whole by
    `finish`, after the linking saved with it (see `write_atomically`: a crash or an interrupt
    leaves the old cache). A record added twice for one path is stored twice: the last one
    added is what `load_cache_document` reads.

    The document it writes is `_CacheDocument`, its entries in this order: the identity, the
    files (a map whose length is written last) and then the linked output (`save_cache` writes
    a whole scan with it too; a reader takes the entries in any order). Raises
    `OSError` when the file cannot be made; a later failure makes `finish` report it."""

    def __init__(self, cache_dir: Path, identity: str) -> None:
        self.path = cache_dir / CACHE_FILE_NAME
        cache_dir.mkdir(parents=True, exist_ok=True)
        self._file = AtomicFile(self.path)
        self._count = 0
        self._failure: OSError | None = None
        self._write(b"\x83" + _encoder.encode("identity") + _encoder.encode(identity))
        self._write(_encoder.encode("files") + b"\xdf")  # a map 32: a big-endian count follows
        self._count_at = self._file.tell()
        self._write(bytes(4))

    @property
    def failed(self) -> bool:
        """Whether a write failed (the file is then abandoned, and `finish` reports it)."""
        return self._failure is not None

    def add(self, relpath: str, encoded: EncodedFile) -> None:
        """Write the record of `relpath`."""
        self._count += 1
        self._write(_encoder.encode(relpath) + bytes(encoded))

    def finish(
        self, files: Iterable[tuple[str, EncodedFile]], link: Iterable[bytes] | None
    ) -> list[Issue]:
        """Write the records of `files` and the linked output `link` (as in `save_cache`) and
        put the file in place; problems become info issues (nothing is replaced then)."""
        for relpath, encoded in files:
            self.add(relpath, encoded)
        self._write(_encoder.encode("link"))
        for chunk in (_NIL,) if link is None else link:
            self._write(chunk)
        if self._failure is None:
            try:
                self._file.overwrite(self._count_at, self._count.to_bytes(4, "big"))
                self._file.commit()
            except OSError as problem:
                self._failure = problem
        if self._failure is not None:
            return [_problem(self.path, f"cannot be written ({self._failure.strerror})")]
        return []

    def abort(self) -> None:
        """Give up the file (nothing once finished; twice is fine)."""
        self._file.abort()

    def _write(self, data: bytes) -> None:
        if self._failure is not None:
            return
        try:
            self._file.write(data)
        except OSError as problem:
            self._failure = problem
            self._file.abort()


_memory: OrderedDict[str, dict[str, EncodedFile]] = OrderedDict()
_memory_lock = threading.Lock()


def remember_scan(identity: str, files: dict[str, EncodedFile]) -> None:
    """Keep a scan's files in this process's memory (for runs that may not write the disk
    cache, such as a read-only `serve` session); only the most recent identities are kept."""
    with _memory_lock:
        _memory[identity] = files
        _memory.move_to_end(identity)
        while len(_memory) > MEMORY_IDENTITIES:
            _memory.popitem(last=False)


def recall_scan(identity: str) -> dict[str, EncodedFile]:
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
