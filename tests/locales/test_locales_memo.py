"""The locale-file memo: a result is reused only while the file provably did not change."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from i18nprune.locales.memo import RACY_SECONDS, FileMemo


def settled(path: Path, text: str) -> Path:
    """Write `text` and date the file back past the racy window."""
    path.write_text(text)
    past = time.time() - 10 * RACY_SECONDS
    os.utime(path, (past, past))
    return path


class Reader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return self.path.read_text()


def test_an_unchanged_settled_file_is_read_once(tmp_path: Path) -> None:
    path = settled(tmp_path / "en.json", '{"a": "A"}')
    memo: FileMemo[str] = FileMemo()
    read = Reader(path)

    assert [memo.get(path, None, read) for _ in range(3)] == ['{"a": "A"}'] * 3
    assert read.calls == 1


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(tmp_path: Path) -> None:
    path = settled(tmp_path / "en.json", '{"a": "A"}')
    memo: FileMemo[str] = FileMemo()
    read = Reader(path)
    memo.get(path, None, read)
    before = path.stat()

    path.write_text('{"a": "B"}')  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # same mtime: ctime moves

    assert memo.get(path, None, read) == '{"a": "B"}'


def test_a_file_changed_moments_ago_is_not_remembered(tmp_path: Path) -> None:
    path = tmp_path / "en.json"
    path.write_text('{"a": "A"}')
    memo: FileMemo[str] = FileMemo()
    read = Reader(path)

    memo.get(path, None, read)
    memo.get(path, None, read)

    assert read.calls == 2


def test_results_are_kept_apart_by_key_and_a_failure_is_not_remembered(tmp_path: Path) -> None:
    path = settled(tmp_path / "en.json", "{}")
    memo: FileMemo[str] = FileMemo()

    assert memo.get(path, "x", lambda: "for x") == "for x"
    assert memo.get(path, "y", lambda: "for y") == "for y"

    def broken() -> str:
        raise ValueError("unreadable")

    other = settled(tmp_path / "fr.json", "{}")
    for _ in range(2):
        with contextlib.suppress(ValueError):
            memo.get(other, None, broken)
    assert memo.get(other, None, lambda: "read at last") == "read at last"
