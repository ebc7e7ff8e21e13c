"""The translation cache: a SQLite file shared by concurrent runs, untouched when read-only,
harmless when corrupt or foreign."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from i18nprune.translate.cache import CacheStatistics, TranslationCache


def _snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file below `directory` with its bytes and modification time."""
    return {
        str(path.relative_to(directory)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def _filled_cache(path: Path, entries: list[tuple[str, str]]) -> None:
    with TranslationCache.open(path, writable=True) as cache:
        cache.put_many("deepl", "en", "fr", entries)
        assert cache.problem is None


def _version_1_cache(path: Path, rows: list[tuple[str, str, str, str, str]]) -> None:
    """A cache file as version 1 of the schema wrote it (before rows were filed by digest)."""
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("CREATE TABLE schema_info (application TEXT NOT NULL, version INTEGER)")
        connection.execute(
            "CREATE TABLE translations (provider TEXT NOT NULL, source TEXT NOT NULL,"
            " target TEXT NOT NULL, key TEXT NOT NULL, translation TEXT NOT NULL,"
            " PRIMARY KEY (provider, source, target, key))"
        )
        connection.execute("INSERT INTO schema_info VALUES ('i18nprune-translation-cache', 1)")
        connection.executemany("INSERT INTO translations VALUES (?, ?, ?, ?, ?)", rows)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.close()


_VERSION_1_ROWS = [
    ("deepl", "en", "fr", 'Hello <x id="0"/>', 'Bonjour <x id="0"/>'),
    ("deepl", "en", "fr", "Bye", "Salut"),
    ("libre", "en", "de", "Bye", "Tschüss"),
]


def test_stored_translations_are_found_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [('Hello <x id="0"/>', 'Bonjour <x id="0"/>'), ("Bye", "Salut")])
    with TranslationCache.open(path, writable=True) as cache:
        found = cache.get_many("deepl", "en", "fr", ['Hello <x id="0"/>', "Bye", "Unknown"])
    assert found == {'Hello <x id="0"/>': 'Bonjour <x id="0"/>', "Bye": "Salut"}


def test_entries_are_kept_apart_by_provider_source_and_target(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [("Hello", "Bonjour")])
    with TranslationCache.open(path, writable=True) as cache:
        other_provider = cache.get_many("libre", "en", "fr", ["Hello"])
        other_source = cache.get_many("deepl", "de", "fr", ["Hello"])
        other_target = cache.get_many("deepl", "en", "fr-CA", ["Hello"])
    assert (other_provider, other_source, other_target) == ({}, {}, {})


def test_a_new_translation_replaces_the_cached_one(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [("Hello", "Bonjour")])
    _filled_cache(path, [("Hello", "Salut")])
    with TranslationCache.open(path, writable=True) as cache:
        assert cache.get_many("deepl", "en", "fr", ["Hello"]) == {"Hello": "Salut"}


def test_a_later_entry_of_one_write_replaces_an_earlier_one_of_the_same_key(
    tmp_path: Path,
) -> None:
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [("Hello", "Bonjour"), ("Bye", "Salut"), ("Hello", "Coucou")])
    with TranslationCache.open(path, writable=True) as cache:
        found = cache.get_many("deepl", "en", "fr", ["Hello", "Bye"])
    assert found == {"Hello": "Coucou", "Bye": "Salut"}


def test_statistics_count_distinct_hits_misses_and_writes(tmp_path: Path) -> None:
    with TranslationCache.open(tmp_path / "translations.sqlite3", writable=True) as cache:
        cache.put_many("deepl", "en", "fr", [("a", "A"), ("b", "B")])
        cache.get_many("deepl", "en", "fr", ["a", "a", "b", "c"])
        assert cache.statistics() == CacheStatistics(hits=2, misses=1, writes=2)


def test_the_file_records_its_application_and_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "home" / "translations.sqlite3"
    _filled_cache(path, [])
    connection = sqlite3.connect(path)
    try:
        rows = connection.execute("SELECT application, version FROM schema_info").fetchall()
        journal_mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        connection.close()
    assert (rows, journal_mode) == ([("i18nprune-translation-cache", 2)], "wal")


def test_twenty_thousand_keys_are_looked_up_in_one_call(tmp_path: Path) -> None:
    # How fast: benchmarks/micro.py (`cache_lookup_20k_keys_s`).
    keys = [f'Message number {n} with <x id="0"/> and some words' for n in range(20_000)]
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [(key, key.upper()) for key in keys])
    with TranslationCache.open(path, writable=True) as cache:
        found = cache.get_many("deepl", "en", "fr", [*keys, "never stored"])
    assert len(found) == 20_000
    assert found[keys[12_345]] == keys[12_345].upper()


_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from i18nprune.translate.cache import TranslationCache

    path, name, ready = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    (ready / name).touch()
    deadline = time.monotonic() + 10
    while len(list(ready.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.001)
    with TranslationCache.open(path, writable=True) as cache:
        for batch in range(40):
            entries = [(f"{name}-{batch}-{n}", f"{name} {batch} {n}") for n in range(50)]
            entries.append((f"shared-{batch}", name))
            cache.put_many("pseudo", "en", "fr", entries)
        if cache.problem is not None:
            sys.exit(cache.problem)
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("existing", [False, True], ids=["new file", "version 1 file"])
def test_two_processes_writing_one_file_at_once_both_succeed(
    tmp_path: Path, existing: bool
) -> None:
    path = tmp_path / "home" / "translations.sqlite3"
    if existing:  # both open it at once, and one of them migrates it
        path.parent.mkdir()
        _version_1_cache(path, _VERSION_1_ROWS)
    ready = tmp_path / "ready"
    ready.mkdir()
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path), name, str(ready)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("first", "second")
    ]
    errors = [writer.communicate(timeout=60)[1] for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0], errors
    keys = [
        f"{name}-{batch}-{n}"
        for name in ("first", "second")
        for batch in range(40)
        for n in range(50)
    ]
    shared = [f"shared-{batch}" for batch in range(40)]
    with TranslationCache.open(path, writable=False) as cache:
        assert len(cache.get_many("pseudo", "en", "fr", keys)) == len(keys)
        assert set(cache.get_many("pseudo", "en", "fr", shared).values()) <= {"first", "second"}
        assert cache.statistics().misses == 0
        if existing:
            assert cache.get_many("libre", "en", "de", ["Bye"]) == {"Bye": "Tschüss"}


def test_read_only_open_of_a_missing_file_is_an_empty_cache_and_creates_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "home" / "translations.sqlite3"
    with TranslationCache.open(path, writable=False) as cache:
        found = cache.get_many("deepl", "en", "fr", ["Hello"])
        cache.put_many("deepl", "en", "fr", [("Hello", "Bonjour")])
        problem = cache.problem
    assert (found, problem, list(tmp_path.iterdir())) == ({}, None, [])


def test_read_only_use_leaves_the_directory_byte_identical(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [("Hello", "Bonjour")])
    before = _snapshot(tmp_path)
    with TranslationCache.open(path, writable=False) as cache:
        found = cache.get_many("deepl", "en", "fr", ["Hello", "Bye"])
        cache.put_many("deepl", "en", "fr", [("Bye", "Salut")])
        statistics = cache.statistics()
    assert found == {"Hello": "Bonjour"}
    assert statistics == CacheStatistics(hits=1, misses=1, writes=0)
    assert _snapshot(tmp_path) == before


def test_read_only_open_sees_what_a_live_writer_committed(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    with TranslationCache.open(path, writable=True) as writer:
        writer.put_many("deepl", "en", "fr", [("Hello", "Bonjour")])
        with TranslationCache.open(path, writable=False) as reader:
            assert reader.get_many("deepl", "en", "fr", ["Hello"]) == {"Hello": "Bonjour"}


def test_read_only_cache_sees_entries_written_after_it_was_opened(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [("Hello", "Bonjour")])
    with TranslationCache.open(path, writable=False) as reader:
        _filled_cache(path, [("Bye", "Salut")])
        with TranslationCache.open(path, writable=True) as writer:
            writer.put_many("deepl", "en", "fr", [("Thanks", "Merci")])
            found = reader.get_many("deepl", "en", "fr", ["Hello", "Bye", "Thanks"])
    assert found == {"Hello": "Bonjour", "Bye": "Salut", "Thanks": "Merci"}


def test_a_file_that_turns_corrupt_after_open_makes_the_cache_inert(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [("Hello", "Bonjour")])
    with TranslationCache.open(path, writable=False) as cache:
        path.write_bytes(b"garbage\n" * 1000)
        first = cache.get_many("deepl", "en", "fr", ["Hello"])
        problem = cache.problem
    assert first == {}
    assert problem is not None and str(path) in problem and "corrupt" in problem


@pytest.mark.parametrize("writable", [True, False], ids=["writable", "read-only"])
def test_a_corrupt_file_is_an_empty_cache_left_untouched(tmp_path: Path, writable: bool) -> None:
    path = tmp_path / "translations.sqlite3"
    path.write_bytes(b"this is not a database\n" * 200)
    before = _snapshot(tmp_path)
    with TranslationCache.open(path, writable=writable) as cache:
        found = cache.get_many("deepl", "en", "fr", ["Hello"])
        cache.put_many("deepl", "en", "fr", [("Hello", "Bonjour")])
        problem = cache.problem
    assert found == {}
    assert problem is not None and "\n" not in problem
    assert str(path) in problem and "corrupt" in problem and "delete it" in problem
    assert _snapshot(tmp_path) == before


def test_a_foreign_database_is_not_used_or_changed(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("CREATE TABLE users (name TEXT)")
        connection.execute("INSERT INTO users VALUES ('ada')")
    connection.close()
    before = _snapshot(tmp_path)
    with TranslationCache.open(path, writable=True) as cache:
        cache.put_many("deepl", "en", "fr", [("Hello", "Bonjour")])
        problem = cache.problem
    assert problem == (
        f"translation cache {path} is not an i18nprune translation cache;"
        " delete it to start an empty cache"
    )
    assert _snapshot(tmp_path) == before


def test_a_cache_of_a_newer_schema_is_not_used_or_changed(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [("Hello", "Bonjour")])
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("UPDATE schema_info SET version = 3")
    connection.close()
    before = _snapshot(tmp_path)
    with TranslationCache.open(path, writable=True) as cache:
        found = cache.get_many("deepl", "en", "fr", ["Hello"])
        cache.put_many("deepl", "en", "fr", [("Bye", "Salut")])
        problem = cache.problem
    assert found == {}
    assert problem is not None and "newer i18nprune (cache schema 3)" in problem
    assert _snapshot(tmp_path) == before


def test_a_path_that_cannot_be_opened_is_reported_instead_of_raised(tmp_path: Path) -> None:
    with TranslationCache.open(tmp_path, writable=True) as cache:
        found = cache.get_many("deepl", "en", "fr", ["Hello"])
        problem = cache.problem
    assert found == {}
    assert problem == (
        f"translation cache {tmp_path} cannot be used (unable to open database file);"
        " translations are not cached"
    )


def test_a_version_1_cache_is_migrated_by_a_writer_and_keeps_every_translation(
    tmp_path: Path,
) -> None:
    path = tmp_path / "translations.sqlite3"
    _version_1_cache(path, _VERSION_1_ROWS)
    with TranslationCache.open(path, writable=True) as cache:
        french = cache.get_many("deepl", "en", "fr", ['Hello <x id="0"/>', "Bye", "Other"])
        german = cache.get_many("libre", "en", "de", ["Bye"])
        cache.put_many("deepl", "en", "fr", [("Bye", "Au revoir")])
        problem = cache.problem
    assert problem is None
    assert french == {'Hello <x id="0"/>': 'Bonjour <x id="0"/>', "Bye": "Salut"}
    assert german == {"Bye": "Tschüss"}
    connection = sqlite3.connect(path)
    try:
        version = connection.execute("SELECT version FROM schema_info").fetchall()
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    finally:
        connection.close()
    assert version == [(2,)]
    assert "translations_1" not in tables
    with TranslationCache.open(path, writable=False) as cache:
        assert cache.get_many("deepl", "en", "fr", ["Bye"]) == {"Bye": "Au revoir"}


def test_a_version_1_cache_is_read_as_it_is_by_a_read_only_run(tmp_path: Path) -> None:
    path = tmp_path / "translations.sqlite3"
    _version_1_cache(path, _VERSION_1_ROWS)
    before = _snapshot(tmp_path)
    with TranslationCache.open(path, writable=False) as cache:
        found = cache.get_many("deepl", "en", "fr", ["Bye", "Other"])
        missing_pair = cache.get_many("deepl", "en", "it", ["Bye"])
        problem = cache.problem
    assert (found, missing_pair, problem) == ({"Bye": "Salut"}, {}, None)
    assert _snapshot(tmp_path) == before


def test_a_row_filed_under_a_wanted_keys_digest_is_not_taken_for_it(tmp_path: Path) -> None:
    # Two keys of one 64-bit digest cannot be found by search; this stands one in by rewriting
    # a stored row's key, as a collision would leave it.
    path = tmp_path / "translations.sqlite3"
    _filled_cache(path, [("Hello", "Bonjour")])
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("UPDATE translations SET key = 'Another text'")
    connection.close()
    with TranslationCache.open(path, writable=True) as cache:
        assert cache.get_many("deepl", "en", "fr", ["Hello"]) == {}
