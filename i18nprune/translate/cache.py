"""The persistent translation cache: one SQLite file mapping (provider, source language, target
language, key text) to a translation, shared safely by concurrent runs.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Protocol

import msgspec

from i18nprune.system.digests import blake2b

# Marks our files, so that a foreign SQLite database is never read or changed as a cache.
_APPLICATION = "i18nprune-translation-cache"
# Bump with a migration step in `_create_or_migrate` when the tables change.
_SCHEMA_VERSION = 2
_FIRST_VERSION = 1
# SQLite builds before 3.32 allow 999 parameters per statement; three are the fixed columns.
_CHUNK_SIZE = 900
# Outlasts another run's largest write transaction (one batch of translations).
_BUSY_TIMEOUT_SECONDS = 10.0
_BUSY_RETRY_SECONDS = 0.005

# Version 2 files each row under a 64-bit digest of its four key columns, and finds it by that
# one small integer: version 1's index held the whole key text of every row, and a run's rows,
# which come in no order, rewrote its pages at every commit (100k rows: ~0.95 s of CPU, against
# ~0.35 s). A row's columns are compared on every read, so two keys of one digest can only
# cost a miss: the later one replaces the earlier. `pairs` lists the language pairs each
# provider has rows for, so that a look-up for a pair without any costs one probe.
_TABLES = (
    "CREATE TABLE translations ("
    "digest INTEGER NOT NULL, provider TEXT NOT NULL, source TEXT NOT NULL,"
    " target TEXT NOT NULL, key TEXT NOT NULL, translation TEXT NOT NULL)",
    "CREATE UNIQUE INDEX translations_by_digest ON translations (digest)",
    "CREATE TABLE pairs ("
    "provider TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL,"
    " PRIMARY KEY (provider, source, target)) WITHOUT ROWID",
)
_SCHEMA = (
    "CREATE TABLE schema_info (application TEXT NOT NULL, version INTEGER NOT NULL)",
    *_TABLES,
)
_DIGEST_FUNCTION = "i18nprune_digest"


def _row_digest(provider: str, source: str, target: str, key: str) -> int:
    """The signed 64-bit digest a row of the cache is filed under (BLAKE2b of its key
    columns)."""
    data = f"{provider}\0{source}\0{target}\0{key}".encode("utf-8", "surrogatepass")
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "big", signed=True)


class CacheStatistics(msgspec.Struct, frozen=True):
    """What a `TranslationCache` did since it was opened.

    `hits` and `misses` count distinct keys per `get_many` call; `writes` counts entries stored.
    """

    hits: int
    misses: int
    writes: int


class TranslationMemory(Protocol):
    """What a run reads translations from and stores them in: the embedded cache
    (`TranslationCache`) or a fleet's shared memory (`translate.shared.SharedMemory`).

    `problem`: one line saying why the memory stores nothing (the run goes on without it), or
    None. `get_many` and `put_many` are synchronous (hosts call them in a thread); a shared
    memory raises `FleetUnavailable` from them when its server is lost, which stops the run.
    """

    @property
    def problem(self) -> str | None:
        """Why the memory stores nothing, or None (see the class)."""
        ...

    @property
    def location(self) -> str:
        """Where the memory is, as issues name it (a file, or a URL without its password)."""
        ...

    def get_many(
        self, provider: str, source: str, target: str, keys: Sequence[str]
    ) -> dict[str, str]: ...

    def put_many(
        self, provider: str, source: str, target: str, entries: Iterable[tuple[str, str]]
    ) -> None: ...

    def statistics(self) -> CacheStatistics: ...

    def close(self) -> None: ...


class _Unusable(Exception):
    """The file is not a cache this version can use; the message completes a sentence."""


class TranslationCache:
    """Translations remembered between runs, keyed by provider id, source and target language
    codes and an opaque key text (the caller's masked text, placeholder names included).

    Only those four strings and the translation are stored: no provider settings, URLs or keys.
    Runs may share the file: it uses WAL and waits for another run's write instead of failing.
    A cache that cannot be used (corrupt or foreign file, a newer schema, an I/O error) behaves
    as an empty cache that stores nothing, and says why in `problem`; it never deletes or
    overwrites the file. Calls are synchronous and may block while another run writes (up to a
    busy timeout); threads may share one object (its calls take turns). Build it with `open`.

    `problem` is one line naming the file, what is wrong and what to do about it, or `None`
    while the cache works; it is set by `open` or by the first failing call, after which the
    cache is inert.
    """

    def __init__(
        self,
        path: Path,
        connection: sqlite3.Connection | None,
        *,
        problem: str | None,
    ) -> None:
        self.path = path
        self.problem = problem
        self._connection = connection
        self._turn = threading.Lock()
        self._closed = False
        self._hits = 0
        self._misses = 0
        self._writes = 0

    @classmethod
    def open(cls, path: Path, *, writable: bool) -> TranslationCache:
        """Open the cache file at `path`; never raises for a problem with the file.

        Writable: creates the file (and its directory) when missing, switches it to WAL and
        creates the tables, and keeps the file open until `close`. Read-only
        (`writable=False`): never creates, writes or migrates the file or anything beside it,
        and opens it only for the duration of each `get_many`; a missing file is an empty
        cache without a problem.
        """
        connection = None
        try:
            connection = _connect(path, writable=writable)
            if connection is not None:
                _prepare(connection, writable=writable)
        except (sqlite3.Error, OSError, _Unusable) as failure:
            if connection is not None:
                connection.close()
            return cls(path, None, problem=_describe(path, failure))
        if not writable and connection is not None:
            connection.close()
            connection = None
        return cls(path, connection, problem=None)

    @property
    def location(self) -> str:
        """The cache file."""
        return str(self.path)

    def get_many(
        self, provider: str, source: str, target: str, keys: Sequence[str]
    ) -> dict[str, str]:
        """The cached translations of those `keys` that have one, by key.

        Looks keys up in chunks, so tens of thousands cost a few milliseconds. A failing read
        makes the cache inert (see `problem`) and returns nothing.
        """
        wanted = list(dict.fromkeys(keys))
        found: dict[str, str] = {}
        with self._turn:
            if not self._closed and self.problem is None:
                try:
                    found = self._read(provider, source, target, wanted)
                except (sqlite3.Error, OSError, _Unusable) as failure:
                    self._disable(failure)
            self._hits += len(found)
            self._misses += len(wanted) - len(found)
        return found

    def put_many(
        self, provider: str, source: str, target: str, entries: Iterable[tuple[str, str]]
    ) -> None:
        """Store `(key, translation)` entries, replacing older translations of the same keys.

        All entries are written in one transaction: after an interruption either all or none
        are stored. Does nothing on a read-only, closed or unusable cache; a failing write
        makes the cache inert (see `problem`) instead of raising.
        """
        if self._connection is None:
            return  # read-only, closed or inert: no row need be digested (checked again below)
        rows = [
            (_row_digest(provider, source, target, key), provider, source, target, key, text)
            for key, text in entries
        ]
        with self._turn:
            if self._connection is None or not rows:
                return
            try:
                with self._connection:
                    self._connection.execute("BEGIN IMMEDIATE")
                    self._connection.executemany(
                        "INSERT OR REPLACE INTO translations VALUES (?, ?, ?, ?, ?, ?)", rows
                    )
                    self._connection.execute(
                        "INSERT OR IGNORE INTO pairs VALUES (?, ?, ?)", (provider, source, target)
                    )
            except sqlite3.Error as failure:
                self._disable(failure)
                return
            self._writes += len(rows)

    def statistics(self) -> CacheStatistics:
        """Hits, misses and writes since `open`."""
        return CacheStatistics(hits=self._hits, misses=self._misses, writes=self._writes)

    def close(self) -> None:
        """Release the file. Idempotent; the cache is inert afterwards."""
        with self._turn:
            self._closed = True
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def __enter__(self) -> TranslationCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _read(self, provider: str, source: str, target: str, keys: list[str]) -> dict[str, str]:
        if self._connection is not None:
            return _lookup(self._connection, _SCHEMA_VERSION, provider, source, target, keys)
        # Read-only: how to open the file depends on whether a writer is live right now, and an
        # immutable connection must not keep pages cached while a writer may come and go.
        connection = _connect(self.path, writable=False)
        if connection is None:
            return {}
        try:
            version = _cache_version(connection)
            if version is None:
                return {}
            return _lookup(connection, version, provider, source, target, keys)
        finally:
            connection.close()

    def _disable(self, failure: Exception) -> None:
        self.problem = _describe(self.path, failure)
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _connect(path: Path, *, writable: bool) -> sqlite3.Connection | None:
    """A connection in autocommit mode (transactions are explicit), or None for a read-only
    cache whose file does not exist."""
    if writable:
        path.parent.mkdir(parents=True, exist_ok=True)
        return sqlite3.connect(
            path, timeout=_BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
        )
    if not path.exists():
        return None
    # A read-only connection to a WAL database creates `-wal` and `-shm` beside it unless they
    # exist (a writer is live: join its WAL) or the file is opened immutable (no writer now:
    # the file alone is the whole database).
    live = all(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm"))
    uri = path.resolve().as_uri() + ("?mode=ro" if live else "?mode=ro&immutable=1")
    return sqlite3.connect(
        uri, timeout=_BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False, uri=True
    )


def _lookup(
    connection: sqlite3.Connection,
    version: int,
    provider: str,
    source: str,
    target: str,
    keys: list[str],
) -> dict[str, str]:
    """The translations of `keys` in a cache of schema `version` (a read-only open may meet a
    file of an earlier version, which only a writer migrates)."""
    pair = (provider, source, target)
    if version == _FIRST_VERSION:
        return _lookup_1(connection, pair, keys)
    found: dict[str, str] = {}
    # A cold cache (or one without this language pair) answers one probe instead of a query
    # per chunk of keys.
    probe = "SELECT 1 FROM pairs WHERE provider = ? AND source = ? AND target = ?"
    if connection.execute(probe, pair).fetchone() is None:
        return found
    for start in range(0, len(keys), _CHUNK_SIZE):
        chunk = keys[start : start + _CHUNK_SIZE]
        marks = ", ".join("?" * len(chunk))
        rows = connection.execute(
            "SELECT key, translation FROM translations"
            f" WHERE digest IN ({marks}) AND provider = ? AND source = ? AND target = ?",
            (*(_row_digest(*pair, key) for key in chunk), *pair),
        )
        wanted = set(chunk)
        # A row of another key under a wanted key's digest is no answer for it.
        found.update((key, text) for key, text in rows if key in wanted)
    return found


def _lookup_1(
    connection: sqlite3.Connection, pair: tuple[str, str, str], keys: list[str]
) -> dict[str, str]:
    """`_lookup` in a version 1 file (rows keyed by their columns)."""
    found: dict[str, str] = {}
    # The primary key's prefix finds the pair's first row, if any.
    probe = "SELECT 1 FROM translations WHERE provider = ? AND source = ? AND target = ? LIMIT 1"
    if connection.execute(probe, pair).fetchone() is None:
        return found
    for start in range(0, len(keys), _CHUNK_SIZE):
        chunk = keys[start : start + _CHUNK_SIZE]
        marks = ", ".join("?" * len(chunk))
        found.update(
            connection.execute(
                "SELECT key, translation FROM translations"
                f" WHERE provider = ? AND source = ? AND target = ? AND key IN ({marks})",
                (*pair, *chunk),
            )
        )
    return found


def _prepare(connection: sqlite3.Connection, *, writable: bool) -> None:
    """Check that the file is our cache (raising `_Unusable` when not); when writable, switch
    it to WAL and create the tables of an empty file, or migrate an earlier version's.

    A foreign or newer file is rejected before anything is written to it.
    """
    version = _cache_version(connection)
    if not writable:
        return
    _use_wal(connection)
    # A cache lost to a crash costs only re-translation; WAL keeps it consistent anyway.
    connection.execute("PRAGMA synchronous=NORMAL")
    if version != _SCHEMA_VERSION:
        _create_or_migrate(connection)


def _use_wal(connection: sqlite3.Connection) -> None:
    # While another run switches the file, SQLite answers SQLITE_BUSY at once instead of calling
    # the busy handler (it avoids a lock upgrade deadlock), so this waits itself.
    deadline = time.monotonic() + _BUSY_TIMEOUT_SECONDS
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as failure:
            busy = _error_name(failure).startswith("SQLITE_BUSY")
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(_BUSY_RETRY_SECONDS)


def _cache_version(connection: sqlite3.Connection) -> int | None:
    """The schema version of our cache (this version's or an earlier one), None for an empty
    database; raises `_Unusable` for anything else."""
    tables = {
        name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
    }
    if not tables:
        return None
    if not {"schema_info", "translations"} <= tables:
        raise _Unusable("is not an i18nprune translation cache")
    rows = connection.execute("SELECT application, version FROM schema_info").fetchall()
    if len(rows) != 1 or rows[0][0] != _APPLICATION or not isinstance(rows[0][1], int):
        raise _Unusable("is not an i18nprune translation cache")
    version = rows[0][1]
    if version > _SCHEMA_VERSION:
        raise _Unusable(f"was written by a newer i18nprune (cache schema {version})")
    if version < _FIRST_VERSION:
        raise _Unusable("is not an i18nprune translation cache")
    return version


def _create_or_migrate(connection: sqlite3.Connection) -> None:
    """Create the tables of an empty file, or bring an earlier version's to this one."""
    # Another run may be doing the same at the same moment: decide under the write lock.
    with connection:
        connection.execute("BEGIN IMMEDIATE")
        version = _cache_version(connection)
        if version is None:
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.execute(
                "INSERT INTO schema_info VALUES (?, ?)", (_APPLICATION, _SCHEMA_VERSION)
            )
        elif version < _SCHEMA_VERSION:
            _migrate_from_1(connection)


def _migrate_from_1(connection: sqlite3.Connection) -> None:
    """Version 1 → 2, in the caller's transaction: every row is kept, filed under its
    digest."""
    connection.create_function(_DIGEST_FUNCTION, 4, _row_digest, deterministic=True)
    connection.execute("ALTER TABLE translations RENAME TO translations_1")
    for statement in _TABLES:
        connection.execute(statement)
    connection.execute(
        "INSERT OR REPLACE INTO translations SELECT"
        f" {_DIGEST_FUNCTION}(provider, source, target, key), provider, source, target, key,"
        " translation FROM translations_1"
    )
    connection.execute(
        "INSERT INTO pairs SELECT DISTINCT provider, source, target FROM translations_1"
    )
    connection.execute("DROP TABLE translations_1")
    connection.execute("UPDATE schema_info SET version = ?", (_SCHEMA_VERSION,))


def _describe(path: Path, failure: Exception) -> str:
    """One line for `problem`: the file, what is wrong, and what the user can do."""
    if isinstance(failure, _Unusable):
        return f"translation cache {path} {failure}; delete it to start an empty cache"
    if _error_name(failure).startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return f"translation cache {path} is corrupt ({failure}); delete it to start an empty cache"
    detail = (failure.strerror if isinstance(failure, OSError) else None) or str(failure)
    return f"translation cache {path} cannot be used ({detail}); translations are not cached"


def _error_name(failure: Exception) -> str:
    """SQLite's name of the error (`SQLITE_BUSY`); empty for errors the sqlite3 module raises
    itself."""
    return getattr(failure, "sqlite_errorname", None) or ""
