"""The compact list of discovered files: what a walk lists, and how `rediscover` edits it."""

from __future__ import annotations

import os

from i18nprune.config.schema import ExcludeConfig
from i18nprune.scan.discovery import SourceFile, SourceFiles, discover_sources
from tests.scan.conftest import ScanProject

SITE = "t('k');\n"


def stat_of(project: ScanProject, relpath: str) -> SourceFile:
    status = os.stat(project.root / relpath)
    return SourceFile(relpath, status.st_size, status.st_mtime_ns, status.st_ino)


def test_a_walk_lists_each_real_file_once_sorted_with_its_stat(project: ScanProject) -> None:
    project.write("src/z.ts", SITE)
    project.write("src/a.b.ts", SITE * 2)
    project.write("src/a/inner.tsx", SITE * 3)
    project.write("src/shared/s.ts", SITE * 4)
    # A file link and a folder link to what the walk also reaches directly.
    (project.root / "src/alias.ts").symlink_to(project.root / "src/shared/s.ts")
    (project.root / "src/again").symlink_to(project.root / "src/shared")

    found = discover_sources(project.root, [project.root / "src"], ExcludeConfig())

    expected = ["src/a.b.ts", "src/a/inner.tsx", "src/shared/s.ts", "src/z.ts"]
    assert found.files.relpaths == expected  # `.` sorts before `/`, as the strings do
    assert list(found.files) == [stat_of(project, relpath) for relpath in expected]
    assert [found.files[index] for index in range(len(expected))] == list(found.files)
    assert found.files.total_size() == sum(len(SITE) * n for n in (2, 3, 4, 1))


def test_edits_keep_the_order_and_leave_copies_alone() -> None:
    files = SourceFiles([SourceFile("a.ts", 1, 10, 100), SourceFile("c.ts", 3, 30, 300)])
    copy = files.copy()

    files.insert(files.position("b.ts"), SourceFile("b.ts", 2, 20, 200))
    files.replace(files.position("c.ts"), SourceFile("c.ts", 4, 40, 400))
    del files[files.position("a.ts")]

    assert files == [SourceFile("b.ts", 2, 20, 200), SourceFile("c.ts", 4, 40, 400)]
    assert copy == SourceFiles([SourceFile("a.ts", 1, 10, 100), SourceFile("c.ts", 3, 30, 300)])
    assert files != copy
    assert files.find("c.ts") == SourceFile("c.ts", 4, 40, 400)
    assert files.find("a.ts") is None
    assert files.find("zz.ts") is None
    assert files[1:] == [SourceFile("c.ts", 4, 40, 400)]


def test_stats_past_32_bits_are_kept_exactly() -> None:
    big = SourceFile("big.ts", 5 << 33, 1_796_156_363_436_492_359, (1 << 63) + 7)

    assert list(SourceFiles([big])) == [big]


def test_a_path_is_found_at_its_position_and_nowhere_else() -> None:
    files = SourceFiles(SourceFile(f"src/{name}", 1, 2, 3) for name in ("a.ts", "b.ts", "c.ts"))

    assert [files.index_of(f"src/{name}") for name in ("a.ts", "b.ts", "c.ts")] == [0, 1, 2]
    assert [files.index_of(path) for path in ("src/", "src/b", "src/bb.ts", "src/d.ts")] == [
        None
    ] * 4
    assert files.find("src/b.ts") == SourceFile("src/b.ts", 1, 2, 3)
    assert SourceFiles().index_of("src/a.ts") is None
