"""Parsing in worker processes gives exactly what parsing in the scanning process gives."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from i18nprune.scan import scan_project
from i18nprune.scan.discovery import SourceFile
from i18nprune.scan.examine import Examined, examine_path
from i18nprune.scan.parallel import ParseWorkers, _Queue, examine_in_processes
from tests.scan.conftest import ScanProject

FILES = 40


def make_large_app(project: ScanProject) -> None:
    """Enough source (over 2 MB in 40 files) for a scan to use worker processes."""
    for index in range(FILES):
        body = "".join(
            f"export function f{line}() {{ return t('file{index}.key{line}', {{ count }}); }}\n"
            for line in range(900)
        )
        extra = f"t(`dynamic{index}.${{x}}`);\n// t('commented{index}')\n"
        project.write(f"src/part{index % 4}/file{index}.ts", body + extra)
    project.write("src/broken.ts", "const = ;\nt('after.error');\n")


def source_file(project: ScanProject, path: Path) -> SourceFile:
    status = path.stat()
    return SourceFile(
        str(path.relative_to(project.root)), status.st_size, status.st_mtime_ns, status.st_ino
    )


def test_parallel_scan_equals_serial_scan(project: ScanProject) -> None:
    make_large_app(project)

    serial = project.scan(jobs=1)
    parallel = project.scan(jobs=2)

    assert parallel.observations == serial.observations
    assert parallel.dynamic == serial.dynamic
    assert parallel.issues == serial.issues
    assert parallel.parsed == serial.parsed == FILES + 1
    assert len(serial.observations) == FILES * 900 + 1


def test_worker_processes_examine_like_the_scanning_process(project: ScanProject) -> None:
    make_large_app(project)
    files = sorted(path for path in (project.root / "src").rglob("*.ts"))
    items = [source_file(project, path) for path in files]
    received: list[Examined] = []

    examine_in_processes(str(project.root), items, ("t",), 2, received.extend)

    expected = [
        examine_path(relpath, str(project.root / relpath), ("t",), force=False)
        for relpath, _, _, _ in items
    ]
    assert sorted(received, key=lambda item: item.relpath) == expected


def test_examining_here_beside_one_worker_gives_what_workers_give(project: ScanProject) -> None:
    make_large_app(project)
    files = sorted(path for path in (project.root / "src").rglob("*.ts"))
    items = [source_file(project, path) for path in files]
    received: list[Examined] = []

    examine_in_processes(str(project.root), items, ("t",), 2, received.extend, examine_here=True)

    expected = [
        examine_path(relpath, str(project.root / relpath), ("t",), force=False)
        for relpath, _, _, _ in items
    ]
    assert sorted(received, key=lambda item: item.relpath) == expected


def test_examining_here_without_workers_examines_every_file_once(project: ScanProject) -> None:
    make_large_app(project)
    files = sorted(path for path in (project.root / "src").rglob("*.ts"))
    items = [source_file(project, path) for path in files]
    received: list[Examined] = []

    examine_in_processes(str(project.root), items, ("t",), 1, received.extend, examine_here=True)

    assert sorted(item.relpath for item in received) == sorted(
        relpath for relpath, _, _, _ in items
    )


def test_scan_examining_here_equals_serial_scan(project: ScanProject) -> None:
    make_large_app(project)
    project.write("src/unreadable.ts", b"t('x')\n\xff\xfe not utf-8\n")
    serial = project.scan(jobs=1)

    beside = scan_project(msgspec.structs.replace(project.options(jobs=2), examine_here=True))

    assert beside.observations == serial.observations
    assert beside.dynamic == serial.dynamic
    assert beside.issues == serial.issues
    assert any(issue.path == "src/unreadable.ts" for issue in beside.issues)
    assert beside.parsed == serial.parsed == FILES + 1


def test_progress_reaches_the_total(project: ScanProject) -> None:
    for index in range(5):
        project.write(f"src/f{index}.ts", f"t('k{index}');\n")
    calls: list[tuple[int, int]] = []

    scan_project(project.options(), on_progress=lambda done, total: calls.append((done, total)))

    assert calls[-1] == (5, 5)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def child_processes() -> set[int]:
    """The processes this one started that have not been reaped (Linux)."""
    found: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as children:
            found.update(int(pid) for pid in children.read().split())
    return found


def test_workers_started_early_examine_like_the_scanning_process(project: ScanProject) -> None:
    make_large_app(project)
    files = sorted(path for path in (project.root / "src").rglob("*.ts"))
    items = [source_file(project, path) for path in files]
    received: list[Examined] = []
    started = ParseWorkers(2)
    assert len(started) == 2

    examine_in_processes(str(project.root), items, ("t",), 2, received.extend, started=started)

    assert len(started) == 0  # both were taken, and stopped by the examination
    expected = [
        examine_path(relpath, str(project.root / relpath), ("t",), force=False)
        for relpath, _, _, _ in items
    ]
    assert sorted(received, key=lambda item: item.relpath) == expected


def test_early_workers_nobody_took_end_when_stopped() -> None:
    before = child_processes()
    started = ParseWorkers(2)
    running = child_processes() - before
    assert len(running) == 2

    started.stop()
    started.stop()

    assert not child_processes() & running
    assert len(started) == 0


def test_cold_cached_scan_with_early_workers_equals_serial_scan(project: ScanProject) -> None:
    make_large_app(project)
    serial = project.scan(jobs=1)
    before = child_processes()

    cold = scan_project(
        msgspec.structs.replace(project.options(jobs=2, cached=True), examine_here=True)
    )
    warm = scan_project(
        msgspec.structs.replace(project.options(jobs=2, cached=True), examine_here=True)
    )

    assert not child_processes() - before
    assert cold.observations == warm.observations == serial.observations
    assert cold.dynamic == warm.dynamic == serial.dynamic
    assert cold.issues == warm.issues == serial.issues
    assert (cold.parsed, cold.cache_hits) == (FILES + 1, 0)
    assert (warm.parsed, warm.cache_hits) == (0, FILES + 1)


def test_cold_scan_of_a_project_without_source_files(project: ScanProject) -> None:
    project.write("src/notes.txt", "t('not.source')\n")
    before = child_processes()

    result = scan_project(
        msgspec.structs.replace(project.options(jobs=2, cached=True), examine_here=True)
    )

    assert not child_processes() - before  # the workers started early were stopped unused
    assert (result.files, result.parsed, result.observations, result.issues) == (0, 0, [], [])


def test_batches_shrink_towards_the_end_and_each_file_is_given_once() -> None:
    files = [SourceFile(f"src/f{index:03}.ts", 16 << 10, 0, index) for index in range(400)]
    queue = _Queue("/project", files, ("t",), 2)
    given: list[str] = []
    batch_sizes: list[int] = []

    while queue:  # a worker takes batches from the front, this process files from the end
        batch = queue.take()
        given += batch.files
        batch_sizes.append(len(batch.files))
        if queue:
            given += queue.take_last_file().files

    assert sorted(given) == [file.relpath for file in files]
    assert batch_sizes == sorted(batch_sizes, reverse=True)
    assert batch_sizes[0] > 4 * batch_sizes[-1]


def test_a_batch_put_back_is_given_again_whole() -> None:
    files = [SourceFile(f"src/f{index:03}.ts", 10_000 + index, 0, index) for index in range(300)]
    queue = _Queue("/project", files, ("t",), 2)
    queue.take_last_file()
    batch = queue.take()

    queue.put_back(batch)

    assert queue.take() == batch
