"""What was read from a locale file, remembered for as long as the file provably did not change
— so a long-lived `serve` answers editor requests without parsing the same JSON again.

A file's stamp is its size, mtime, ctime and inode; a result is remembered only when the file's
mtime lies more than `RACY_SECONDS` in the past, so an edit within the clock's granularity of
the read cannot hide behind an unchanged stamp (the rule the scan cache applies to sources); a
later edit moves the ctime even when it restores size and mtime.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")

RACY_SECONDS = 2.0
ENTRIES = 4096
"""Files remembered per memo, the least recently used dropped first."""


class FileMemo(Generic[T]):
    """Results computed from files, keyed by path and `key` (what else the result depends on)
    and valid while the file's stamp is unchanged. Thread-safe."""

    def __init__(self, entries: int = ENTRIES) -> None:
        self._entries = entries
        self._lock = threading.Lock()
        self._known: OrderedDict[tuple[str, Hashable], tuple[tuple[int, ...], T]] = OrderedDict()

    def get(self, path: Path, key: Hashable, compute: Callable[[], T]) -> T:
        """`compute()` for `path`, or what it returned before for this file as it is now.
        Whatever `compute` raises propagates (and nothing is remembered)."""
        try:
            status = os.stat(path)
        except OSError:
            return compute()
        stamp = (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
        slot = (str(path), key)
        with self._lock:
            known = self._known.get(slot)
            if known is not None and known[0] == stamp:
                self._known.move_to_end(slot)
                return known[1]
        value = compute()
        settled = time.time_ns() - status.st_mtime_ns
        if settled > RACY_SECONDS * 1e9:
            with self._lock:
                self._known[slot] = (stamp, value)
                self._known.move_to_end(slot)
                while len(self._known) > self._entries:
                    self._known.popitem(last=False)
        return value
