"""Counts derived from locale files, kept between runs: reused only while every file they were
counted from is unchanged and they were counted against the same inputs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from i18nprune.locales.derived import (
    DERIVED_FILE_NAME,
    DerivedCounts,
    DerivedStatistics,
    digest_of,
)
from i18nprune.locales.memo import RACY_SECONDS

AGAINST = digest_of(["a", "b"])


def settled(path: Path, text: str) -> Path:
    """Write `text` and date the file back past the racy window."""
    path.write_text(text)
    past = time.time() - 10 * RACY_SECONDS
    os.utime(path, (past, past))
    return path


class Counter:
    """A count of the keys of files, which says how often it was asked."""

    def __init__(self, *paths: Path) -> None:
        self.paths = paths
        self.calls = 0

    def __call__(self) -> int:
        self.calls += 1
        return sum(path.read_text().count(":") for path in self.paths)


def run(
    cache: Path | None, key: str, paths: list[Path], *, writable: bool = True
) -> tuple[int, DerivedStatistics]:
    """One run's count of `paths` under `key`, saved as an op saves it."""
    counts = DerivedCounts(cache, writable=writable)
    value = counts.count(key, AGAINST, paths, Counter(*paths))
    counts.save()
    return value, counts.statistics()


def test_an_unchanged_file_is_counted_once_across_runs(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1, "b": 2}')
    assert run(tmp_path / "cache", "extra/fr", [fr]) == (2, DerivedStatistics(1, 0))
    assert run(tmp_path / "cache", "extra/fr", [fr]) == (2, DerivedStatistics(0, 1))
    assert (tmp_path / "cache" / DERIVED_FILE_NAME).is_file()


def test_an_edited_file_is_counted_again(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1}')
    run(tmp_path / "cache", "extra/fr", [fr])
    settled(fr, '{"a": 1, "b": 2, "c": 3}')
    assert run(tmp_path / "cache", "extra/fr", [fr]) == (3, DerivedStatistics(1, 0))


def test_an_edit_that_keeps_size_and_mtime_is_counted_again(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1}')
    run(tmp_path / "cache", "extra/fr", [fr])
    status = fr.stat()
    fr.write_text('{"a":11}')  # same size
    os.utime(fr, ns=(status.st_atime_ns, status.st_mtime_ns))  # same mtime; the ctime moved
    assert run(tmp_path / "cache", "extra/fr", [fr]) == (1, DerivedStatistics(1, 0))


def test_a_deleted_or_added_file_is_counted_again(tmp_path: Path) -> None:
    common = settled(tmp_path / "common.json", '{"a": 1}')
    extra = settled(tmp_path / "extra.json", '{"b": 1, "c": 2}')
    run(tmp_path / "cache", "extra/fr", [common])
    assert run(tmp_path / "cache", "extra/fr", [common, extra]) == (3, DerivedStatistics(1, 0))
    extra.unlink()
    assert run(tmp_path / "cache", "extra/fr", [common]) == (1, DerivedStatistics(1, 0))


def test_a_count_against_other_inputs_is_counted_again(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1}')
    run(tmp_path / "cache", "extra/fr", [fr])
    counts = DerivedCounts(tmp_path / "cache", writable=True)
    read = Counter(fr)
    assert counts.count("extra/fr", digest_of(["a"]), [fr], read) == 1
    assert read.calls == 1


def test_a_file_changed_within_the_racy_window_is_not_kept(tmp_path: Path) -> None:
    fr = tmp_path / "fr.json"
    fr.write_text('{"a": 1}')
    run(tmp_path / "cache", "extra/fr", [fr])
    assert run(tmp_path / "cache", "extra/fr", [fr])[1] == DerivedStatistics(1, 0)
    assert not (tmp_path / "cache" / DERIVED_FILE_NAME).exists()


def test_a_read_only_run_keeps_its_counts_in_memory(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1}')
    cache = tmp_path / "cache"
    assert run(cache, "extra/fr", [fr], writable=False)[1] == DerivedStatistics(1, 0)
    assert run(cache, "extra/fr", [fr], writable=False)[1] == DerivedStatistics(0, 1)
    assert not cache.exists()


def test_a_read_only_run_reads_the_cache_file_and_writes_nothing(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1}')
    de = settled(tmp_path / "de.json", '{"a": 1}')
    cache = tmp_path / "cache"
    run(cache, "extra/fr", [fr])
    before = (cache / DERIVED_FILE_NAME).read_bytes()
    assert run(cache, "extra/fr", [fr], writable=False)[1] == DerivedStatistics(0, 1)
    assert run(cache, "extra/de", [de], writable=False)[1] == DerivedStatistics(1, 0)
    assert run(cache, "extra/de", [de], writable=False)[1] == DerivedStatistics(0, 1)
    assert (cache / DERIVED_FILE_NAME).read_bytes() == before
    assert sorted(path.name for path in cache.iterdir()) == [DERIVED_FILE_NAME]


def test_without_a_cache_folder_every_run_counts(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1}')
    assert run(None, "extra/fr", [fr])[1] == DerivedStatistics(1, 0)
    assert run(None, "extra/fr", [fr])[1] == DerivedStatistics(1, 0)


def test_a_damaged_cache_is_counted_again_and_replaced(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1}')
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / DERIVED_FILE_NAME).write_bytes(b"\x93not msgpack")
    assert run(cache, "extra/fr", [fr]) == (1, DerivedStatistics(1, 0))
    assert run(cache, "extra/fr", [fr]) == (1, DerivedStatistics(0, 1))


def test_a_count_that_raises_keeps_nothing(tmp_path: Path) -> None:
    fr = settled(tmp_path / "fr.json", '{"a": 1}')
    counts = DerivedCounts(tmp_path / "cache", writable=True)

    def broken() -> int:
        raise ValueError("unreadable")

    with pytest.raises(ValueError):
        counts.count("extra/fr", AGAINST, [fr], broken)
    counts.save()
    assert run(tmp_path / "cache", "extra/fr", [fr])[1] == DerivedStatistics(1, 0)
