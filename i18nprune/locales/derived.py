"""Counts an op derives from locale files (a target's keys the source lacks, its stale leaves),
kept beside the scan cache while the files they were counted from are unchanged: a warm
`validate` reads no target file it read before.

A count is reused only when it was counted against the same inputs (`against`: a digest of
what else it depends on, such as the source's paths) from the same files, each with the same
stamp as then, as `FileMemo` judges a stamp (size, mtime, ctime, inode; a file changed within
`RACY_SECONDS` of its reading is not trusted). A cache that cannot be read is ignored and
rebuilt; runs that may not write to disk keep theirs in this process's memory instead.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

from i18nprune.locales.memo import RACY_SECONDS
from i18nprune.system.atomic import write_atomically
from i18nprune.system.digests import sha256

DERIVED_FILE_NAME = "derived-v1.msgpack"

Stamp = tuple[int, int, int, int]
"""A file's size, mtime, ctime (nanoseconds) and inode."""


class _Record(msgspec.Struct, frozen=True, array_like=True):
    against: bytes
    files: list[str]
    stamps: list[Stamp]
    value: int


class _Document(msgspec.Struct):
    records: dict[str, _Record]


class DerivedStatistics(msgspec.Struct, frozen=True):
    """What a `DerivedCounts` did: counts computed (their files read) and counts reused."""

    computed: int
    reused: int


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(_Document)
MEMORY_FOLDERS = 8
"""How many cache folders (projects) a process keeps counts of in memory, most recent first."""
_memory: OrderedDict[Path, dict[str, _Record]] = OrderedDict()
_memory_lock = threading.Lock()


def digest_of(value: object) -> bytes:
    """A short digest of `value` (anything msgpack encodes), for a count's `against`."""
    return sha256(_encoder.encode(value)).digest()[:16]


class DerivedCounts:
    """The counts of one run over a project's cache folder (`None`: nothing is kept).

    `writable`: the cache file may be written (`save`); otherwise it is only read, and the
    counts are kept in this process's memory for its later runs (a read-only `serve`). Each file is
    stat'd once per instance (a lock file every count names, once): an op that writes locale
    files counts after its writes. Not thread-safe: one run uses it from one thread at a time.
    """

    def __init__(self, cache_dir: Path | None, *, writable: bool) -> None:
        self._cache_dir = cache_dir
        self._writable = writable
        self._records: dict[str, _Record] | None = None
        self._stamps: dict[str, Stamp | None] = {}
        self._changed = False
        self._computed = 0
        self._reused = 0

    def count(
        self, key: str, against: bytes, files: Sequence[Path], compute: Callable[[], int]
    ) -> int:
        """`compute()`, which counts from `files` (and inputs `against` digests), or what it
        returned under `key` before for the same `against` and the same files, unchanged.
        Whatever `compute` raises propagates (and nothing is kept)."""
        names = [str(path) for path in files]
        stamps = [self._stamp(name) for name in names]
        records = self._loaded()
        known = records.get(key)
        if (
            known is not None
            and known.against == against
            and known.files == names
            and None not in stamps
            and known.stamps == stamps
        ):
            self._reused += 1
            return known.value
        value = compute()
        self._computed += 1
        settled = time.time_ns() - RACY_SECONDS * 1e9
        if self._cache_dir is not None and all(
            stamp is not None and stamp[1] < settled for stamp in stamps
        ):
            records[key] = _Record(against, names, [s for s in stamps if s is not None], value)
            self._changed = True
        return value

    def save(self) -> None:
        """Keep the counts computed since the last save: in the cache file when writable (put
        in place atomically; a failure keeps the old file, and the next run counts again),
        else in this process's memory."""
        if not self._changed or self._cache_dir is None or self._records is None:
            return
        self._changed = False
        if not self._writable:
            with _memory_lock:
                _memory[self._cache_dir] = dict(self._records)
                _memory.move_to_end(self._cache_dir)
                while len(_memory) > MEMORY_FOLDERS:
                    _memory.popitem(last=False)
            return
        try:
            self._cache_dir.mkdir(parents=True, exist_ok=True)
            write_atomically(
                self._cache_dir / DERIVED_FILE_NAME, _encoder.encode(_Document(self._records))
            )
        except OSError:
            pass  # a cache folder that cannot be written is reported by the scan cache

    def statistics(self) -> DerivedStatistics:
        """How many counts were computed and reused so far."""
        return DerivedStatistics(self._computed, self._reused)

    def _stamp(self, name: str) -> Stamp | None:
        if name not in self._stamps:
            self._stamps[name] = _stamp(name)
        return self._stamps[name]

    def _loaded(self) -> dict[str, _Record]:
        if self._records is None:
            self._records = self._read()
        return self._records

    def _read(self) -> dict[str, _Record]:
        if self._cache_dir is None:
            return {}
        if not self._writable:
            with _memory_lock:
                kept = _memory.get(self._cache_dir)
            if kept is not None:
                return dict(kept)
        try:
            return dict(_decoder.decode((self._cache_dir / DERIVED_FILE_NAME).read_bytes()).records)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            return {}  # none yet, unreadable or of another version: counted again


def _stamp(name: str) -> Stamp | None:
    try:
        status = os.stat(name)
    except OSError:
        return None
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
