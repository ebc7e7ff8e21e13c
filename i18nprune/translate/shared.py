"""A fleet's shared translation memory: the embedded cache as a first level, the fleet's Redis
(`fleet.store`) behind it, keyed exactly alike (cached provider name, languages, unit key).

Every member reads what any member stored; what this run receives goes to the local cache
first, then to Redis, so a run that loses the server keeps what arrived and a rerun sends only
the rest. Once the server is lost (`lost`), the memory answers from and stores into the local
cache alone, and never raises: the run's `ClaimingRequester` sends nothing more, and the run
ends with an error instead of writing (members that cannot coordinate would send texts twice
and trip the provider's limit).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Sequence

from i18nprune.fleet.connection import FleetUnavailable, shown
from i18nprune.fleet.store import FleetStore, Scope
from i18nprune.translate.cache import CacheStatistics, TranslationCache


class SharedMemory:
    """The translation memory of a fleet member (see the module). `local` is the embedded
    cache (None: none); `store` the fleet's records; `writable=False` stores nothing anywhere.
    Threads may share it."""

    def __init__(self, local: TranslationCache | None, store: FleetStore, *, writable: bool):
        self.store = store
        self._local = local
        self._writable = writable
        self._turn = threading.Lock()
        self._shared_hits = 0
        self._hits = 0
        self._misses = 0
        self._writes = 0

    @property
    def problem(self) -> str | None:
        """The local cache's problem (the shared memory's own failure is `lost`)."""
        return self._local.problem if self._local is not None else None

    @property
    def location(self) -> str:
        """The shared memory's URL, password redacted."""
        return shown(self.store.server.url)

    @property
    def lost(self) -> FleetUnavailable | None:
        """The failure that lost the server, once one did."""
        return self.store.lost

    @property
    def shared_hits(self) -> int:
        """Keys found in the shared memory and not in the local cache."""
        return self._shared_hits

    def get_many(
        self, provider: str, source: str, target: str, keys: Sequence[str]
    ) -> dict[str, str]:
        """The translations of `keys` that the local cache or the fleet has, by key; what only
        the fleet had is copied into the local cache."""
        wanted = list(dict.fromkeys(keys))
        found = self._local.get_many(provider, source, target, wanted) if self._local else {}
        rest = [key for key in wanted if key not in found]
        if rest:
            shared: dict[str, str] = {}
            with contextlib.suppress(FleetUnavailable):  # kept in `lost`
                shared = self.store.get(Scope(provider, source, target), rest)
            if shared and self._local is not None and self._writable:
                self._local.put_many(provider, source, target, shared.items())
            found.update(shared)
            with self._turn:
                self._shared_hits += len(shared)
        with self._turn:
            self._hits += len(found)
            self._misses += len(wanted) - len(found)
        return found

    def put_many(
        self, provider: str, source: str, target: str, entries: Iterable[tuple[str, str]]
    ) -> None:
        """Store `(key, translation)` entries locally, then in the fleet's memory (unless the
        server is lost)."""
        if not self._writable:
            return
        rows = list(entries)
        if not rows:
            return
        if self._local is not None:
            self._local.put_many(provider, source, target, rows)
        with contextlib.suppress(FleetUnavailable):  # kept in `lost`
            self.store.put(Scope(provider, source, target), rows)
        with self._turn:
            self._writes += len(rows)

    def statistics(self) -> CacheStatistics:
        """Hits (local or shared), misses and writes since the member started."""
        return CacheStatistics(hits=self._hits, misses=self._misses, writes=self._writes)

    def close(self) -> None:
        """Close the local cache and the connections (idempotent)."""
        if self._local is not None:
            self._local.close()
        self.store.close()
