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

import msgspec

# Marks our files, so that a foreign SQLite database is never read or changed as a cache.
_APPLICATION = "i18nprune-translation-cache"
# Bump with a migration step in `_prepare` when the tables change.
_SCHEMA_VERSION = 1
# SQLite builds before 3.32 allow 999 parameters per statement; three are the fixed columns.
_CHUNK_SIZE = 900
# Outlasts another run's largest write transaction (one batch of translations).
_BUSY_TIMEOUT_SECONDS = 10.0
_BUSY_RETRY_SECONDS = 0.005

_SCHEMA = (
    "CREATE TABLE schema_info (application TEXT NOT NULL, version INTEGER NOT NULL)",
    "CREATE TABLE translations ("
    "provider TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL, key TEXT NOT NULL,"
    " translation TEXT NOT NULL, PRIMARY KEY (provider, source, target, key))",
)


class CacheStatistics(msgspec.Struct, frozen=True):
    """What a `TranslationCache` did since it was opened.

    `hits` and `misses` count distinct keys per `get_many` call; `writes` counts entries stored.
    """

    hits: int
    misses: int
    writes: int


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
        rows = [(provider, source, target, key, text) for key, text in entries]
        with self._turn:
            if self._connection is None or not rows:
                return
            try:
                with self._connection:
                    self._connection.execute("BEGIN IMMEDIATE")
                    self._connection.executemany(
                        "INSERT OR REPLACE INTO translations VALUES (?, ?, ?, ?, ?)", rows
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
            return _lookup(self._connection, provider, source, target, keys)
        # Read-only: how to open the file depends on whether a writer is live right now, and an
        # immutable connection must not keep pages cached while a writer may come and go.
        connection = _connect(self.path, writable=False)
        if connection is None:
            return {}
        try:
            if not _holds_cache(connection):
                return {}
            return _lookup(connection, provider, source, target, keys)
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
    connection: sqlite3.Connection, provider: str, source: str, target: str, keys: list[str]
) -> dict[str, str]:
    found: dict[str, str] = {}
    # A cold cache (or one without this language pair) answers one probe instead of a query
    # per chunk of keys: the primary key's prefix finds the pair's first row, if any.
    probe = connection.execute(
        "SELECT 1 FROM translations WHERE provider = ? AND source = ? AND target = ? LIMIT 1",
        (provider, source, target),
    )
    if probe.fetchone() is None:
        return found
    for start in range(0, len(keys), _CHUNK_SIZE):
        chunk = keys[start : start + _CHUNK_SIZE]
        marks = ", ".join("?" * len(chunk))
        found.update(
            connection.execute(
                "SELECT key, translation FROM translations"
                f" WHERE provider = ? AND source = ? AND target = ? AND key IN ({marks})",
                (provider, source, target, *chunk),
            )
        )
    return found


def _prepare(connection: sqlite3.Connection, *, writable: bool) -> None:
    """Check that the file is our cache (raising `_Unusable` when not); when writable, switch
    it to WAL and create the tables of an empty file.

    A foreign or newer file is rejected before anything is written to it.
    """
    holds_cache = _holds_cache(connection)
    if not writable:
        return
    _use_wal(connection)
    # A cache lost to a crash costs only re-translation; WAL keeps it consistent anyway.
    connection.execute("PRAGMA synchronous=NORMAL")
    if not holds_cache:
        _create_tables(connection)


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


def _holds_cache(connection: sqlite3.Connection) -> bool:
    """True for our cache at this schema version, False for an empty database; raises
    `_Unusable` for anything else."""
    tables = {
        name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
    }
    if not tables:
        return False
    if not {"schema_info", "translations"} <= tables:
        raise _Unusable("is not an i18nprune translation cache")
    rows = connection.execute("SELECT application, version FROM schema_info").fetchall()
    if len(rows) != 1 or rows[0][0] != _APPLICATION or not isinstance(rows[0][1], int):
        raise _Unusable("is not an i18nprune translation cache")
    version = rows[0][1]
    if version > _SCHEMA_VERSION:
        raise _Unusable(f"was written by a newer i18nprune (cache schema {version})")
    if version != _SCHEMA_VERSION:
        raise _Unusable("is not an i18nprune translation cache")
    return True


def _create_tables(connection: sqlite3.Connection) -> None:
    # Another run may be creating them at the same moment: decide under the write lock.
    with connection:
        connection.execute("BEGIN IMMEDIATE")
        if _holds_cache(connection):
            return
        for statement in _SCHEMA:
            connection.execute(statement)
        connection.execute("INSERT INTO schema_info VALUES (?, ?)", (_APPLICATION, _SCHEMA_VERSION))


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
