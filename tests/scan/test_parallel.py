"""Parsing in worker processes gives exactly what parsing in the scanning process gives."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest

from i18nprune.scan import ScanResult, scan_project
from i18nprune.scan.discovery import SourceFile
from i18nprune.scan.examine import Examined, examine_path
from i18nprune.scan.parallel import ParseWorkers, _Queue, examine_in_processes
from i18nprune.scan.project_scan import _PARALLEL_MIN_BYTES, _PARALLEL_MIN_FILES
from tests.scan.conftest import ScanProject

FILES = 40
CALLS = 120
# A scan uses worker processes past 2 MB of source (`project_scan._PARALLEL_MIN_BYTES`): each
# file is padded to its share with a block comment, which costs the parser one token, so the
# tests pay for the sites they compare and not for 36,000 of them.
PADDING = "/*\n" + "A comment with no key site in it, only words to fill the file.\n" * 800 + "*/\n"


def make_large_app(project: ScanProject) -> None:
    """Enough source (over 2 MB in 40 files) for a scan to use worker processes."""
    for index in range(FILES):
        body = "".join(
            f"export function f{line}() {{ return t('file{index}.key{line}', {{ count }}); }}\n"
            for line in range(CALLS)
        )
        extra = f"t(`dynamic{index}.${{x}}`);\n// t('commented{index}')\n"
        project.write(f"src/part{index % 4}/file{index}.ts", body + PADDING + extra)
    project.write("src/broken.ts", "const = ;\nt('after.error');\n")


def source_file(project: ScanProject, path: Path) -> SourceFile:
    status = path.stat()
    return SourceFile(
        str(path.relative_to(project.root)), status.st_size, status.st_mtime_ns, status.st_ino
    )


# The large app is written, listed, scanned and examined here once for the module: writing and
# examining 2 MB of source took most of each test's time. The tests that share it only read its
# files (a cached scan gets a cache folder of its own); a test that adds a file writes its own app.


@pytest.fixture(scope="module")
def large_app(tmp_path_factory: pytest.TempPathFactory) -> ScanProject:
    """The large app, shared read-only by the module's tests."""
    project = ScanProject(tmp_path_factory.mktemp("large-app").resolve())
    make_large_app(project)
    sizes = [path.stat().st_size for path in (project.root / "src").rglob("*.ts")]
    # Past both thresholds, a scan with jobs > 1 takes the worker processes' path.
    assert sum(sizes) >= _PARALLEL_MIN_BYTES and len(sizes) >= _PARALLEL_MIN_FILES
    return project


@pytest.fixture(scope="module")
def serial(large_app: ScanProject) -> ScanResult:
    """The large app scanned in this process alone (`jobs=1`)."""
    return large_app.scan(jobs=1)


@pytest.fixture(scope="module")
def items(large_app: ScanProject) -> list[SourceFile]:
    """The large app's source files, as discovery hands them to the examination."""
    files = sorted(path for path in (large_app.root / "src").rglob("*.ts"))
    return [source_file(large_app, path) for path in files]


@pytest.fixture(scope="module")
def examined_here(large_app: ScanProject, items: list[SourceFile]) -> list[Examined]:
    """Each of `items` examined in this process, in their order."""
    return [
        examine_path(relpath, str(large_app.root / relpath), ("t",), force=False)
        for relpath, _, _, _ in items
    ]


@pytest.mark.slow
def test_parallel_scan_equals_serial_scan(large_app: ScanProject, serial: ScanResult) -> None:
    parallel = large_app.scan(jobs=2)

    assert parallel.observations == serial.observations
    assert parallel.dynamic == serial.dynamic
    assert parallel.issues == serial.issues
    assert parallel.parsed == serial.parsed == FILES + 1
    assert len(serial.observations) == FILES * CALLS + 1


@pytest.mark.slow
def test_worker_processes_examine_like_the_scanning_process(
    large_app: ScanProject, items: list[SourceFile], examined_here: list[Examined]
) -> None:
    received: list[Examined] = []

    examine_in_processes(str(large_app.root), items, ("t",), 2, received.extend)

    assert sorted(received, key=lambda item: item.relpath) == examined_here


@pytest.mark.slow
def test_examining_here_beside_one_worker_gives_what_workers_give(
    large_app: ScanProject, items: list[SourceFile], examined_here: list[Examined]
) -> None:
    received: list[Examined] = []

    examine_in_processes(str(large_app.root), items, ("t",), 2, received.extend, examine_here=True)

    assert sorted(received, key=lambda item: item.relpath) == examined_here


@pytest.mark.slow
def test_examining_here_without_workers_examines_every_file_once(
    large_app: ScanProject, items: list[SourceFile]
) -> None:
    received: list[Examined] = []

    examine_in_processes(str(large_app.root), items, ("t",), 1, received.extend, examine_here=True)

    assert sorted(item.relpath for item in received) == sorted(
        relpath for relpath, _, _, _ in items
    )


@pytest.mark.slow
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


@pytest.mark.slow
def test_workers_started_early_examine_like_the_scanning_process(
    large_app: ScanProject, items: list[SourceFile], examined_here: list[Examined]
) -> None:
    received: list[Examined] = []
    started = ParseWorkers(2)
    assert len(started) == 2

    examine_in_processes(str(large_app.root), items, ("t",), 2, received.extend, started=started)

    assert len(started) == 0  # both were taken, and stopped by the examination
    assert sorted(received, key=lambda item: item.relpath) == examined_here


def test_early_workers_nobody_took_end_when_stopped() -> None:
    before = child_processes()
    started = ParseWorkers(2)
    running = child_processes() - before
    assert len(running) == 2

    started.stop()
    started.stop()

    assert not child_processes() & running
    assert len(started) == 0


@pytest.mark.slow
def test_cold_cached_scan_with_early_workers_equals_serial_scan(
    large_app: ScanProject, serial: ScanResult, tmp_path: Path
) -> None:
    app = ScanProject(large_app.root)
    app.cache_dir = tmp_path / "cache"  # this test's own: the shared app stays as written
    before = child_processes()

    cold = scan_project(
        msgspec.structs.replace(app.options(jobs=2, cached=True), examine_here=True)
    )
    warm = scan_project(
        msgspec.structs.replace(app.options(jobs=2, cached=True), examine_here=True)
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
