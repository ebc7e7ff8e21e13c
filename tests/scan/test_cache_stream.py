"""A command's scan writes each record it makes into the new cache file at once (keeping only
what linking needs), and puts the file in place whole at the end: the file holds what a scan
that keeps every record whole holds, a scan that is interrupted leaves the previous cache, and
a cache in the layout written whole (the linked output first) is read as before.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import zlib
from pathlib import Path

import msgspec
import pytest

from i18nprune.envelope import Code
from i18nprune.scan import ScanResult
from i18nprune.scan.cache import (
    CACHE_FILE_NAME,
    CacheStream,
    decode_file,
    load_cache_document,
    recall_scan,
    save_cache,
)
from i18nprune.scan.link import records_checksum
from i18nprune.system.atomic import AtomicFile
from tests.scan.conftest import ScanProject
from tests.scan.test_cache import age_files, make_app

LITERALS = frozenset({"cart.items", "home.title", "labels.save"})


def identity_of(project: ScanProject) -> str:
    identity: str = msgspec.msgpack.decode((project.cache_dir / CACHE_FILE_NAME).read_bytes())[
        "identity"
    ]
    return identity


def document(project: ScanProject) -> tuple[dict[str, bytes], bytes | None]:
    """The cache file's records and linked output, as its reader loads them."""
    files, link, issues = load_cache_document(project.cache_dir, identity_of(project))
    assert issues == []
    return {path: bytes(record) for path, record in files.items()}, (
        None if link is None else bytes(link)
    )


def outcome(result: ScanResult) -> tuple[object, ...]:
    return (result.files, result.observations, result.dynamic, result.issues, result.literals)


def written_entries(project: ScanProject) -> int:
    """The number of file entries the cache file's map says it holds (a path written twice
    counts twice)."""
    data = (project.cache_dir / CACHE_FILE_NAME).read_bytes()
    marker = msgspec.msgpack.encode("files") + b"\xdf"
    at = data.index(marker) + len(marker)
    return int.from_bytes(data[at : at + 4], "big")


def literal_app(project: ScanProject) -> None:
    make_app(project)
    project.write("src/labels.ts", "export const labels = { save: 'labels.save' };\n")
    age_files(project)


def test_streamed_cache_holds_the_records_a_whole_scan_keeps(project: ScanProject) -> None:
    literal_app(project)
    # A scan that may not write keeps every record whole (in memory): the oracle.
    whole = project.scan(cached=True, writable=False, literal_texts=LITERALS)
    remembered = {
        path: bytes(record) for path, record in recall_scan(identity_for(project)).items()
    }

    streamed = project.scan(cached=True, literal_texts=LITERALS)

    files, link = document(project)
    assert files == remembered
    assert sorted(files) == [
        "src/app.tsx",
        "src/keys.ts",
        "src/labels.ts",
        "src/page.vue",
        "src/plain.ts",
    ]
    assert link is not None
    assert outcome(streamed) == outcome(whole)
    assert [site.text for site in streamed.literals] == ["labels.save"]  # not a call's key


def identity_for(project: ScanProject) -> str:
    """The identity a scan of `project` files its cache under (from a throwaway scan)."""
    scratch = ScanProject(project.root)
    scratch.cache_dir = project.root.parent / "identity-cache"
    scratch.scan(cached=True)
    identity = identity_of(scratch)
    return identity


def test_a_record_made_twice_is_read_as_the_last_one_made(project: ScanProject) -> None:
    make_app(project)  # keys.ts has no key site: linking then extracts its exports
    age_files(project)

    cold = project.scan(cached=True)

    files, _ = document(project)
    assert written_entries(project) == len(files) + 1  # keys.ts, without and with its facts
    keys = decode_file(files["src/keys.ts"])
    assert keys is not None and keys.facts is not None and "NS" in keys.facts.exports
    warm = project.scan(cached=True)
    assert warm.parsed == 0 and outcome(warm) == outcome(cold)


def test_streamed_cache_recalls_its_linking_and_reads_as_one_written_whole(
    project: ScanProject, tmp_path: Path
) -> None:
    literal_app(project)
    cold = project.scan(cached=True, literal_texts=LITERALS)
    files, link = document(project)
    assert link is not None
    cache_file = project.cache_dir / CACHE_FILE_NAME
    streamed_inode = os.stat(cache_file).st_ino

    # A warm scan recalls the saved linking: nothing changed, so nothing is written.
    warm = project.scan(cached=True, literal_texts=LITERALS)
    assert os.stat(cache_file).st_ino == streamed_inode
    assert warm.parsed == 0 and outcome(warm) == outcome(cold)

    # The same content in the layout written whole (linked output before the files).
    assert save_cache(project.cache_dir, identity_of(project), dict(files), [link]) == []
    whole_inode = os.stat(cache_file).st_ino
    assert whole_inode != streamed_inode
    assert document(project) == (files, link)
    again = project.scan(cached=True, literal_texts=LITERALS)
    assert again.parsed == 0 and outcome(again) == outcome(cold)
    assert os.stat(cache_file).st_ino == whole_inode  # recalled: not written again


def test_a_link_saved_under_the_whole_records_checksum_is_linked_again(
    project: ScanProject,
) -> None:
    """Caches written before records were streamed checksummed the records' bytes in one run;
    their saved linking no longer matches, so the scan links again (and saves it anew)."""
    literal_app(project)
    cold = project.scan(cached=True, literal_texts=LITERALS)
    files, link = document(project)
    assert link is not None
    snapshot = msgspec.msgpack.decode(link)
    # The records checksummed: every linked file's in order, then those of the files read.
    paths = sorted(files) + [read[0] for read in snapshot[3] if len(read) == 1]
    old_checksum = 0
    for path in paths:  # the former `records_checksum`: each record's bytes, then a NUL
        old_checksum = zlib.crc32(b"\0", zlib.crc32(files[path], old_checksum))
    assert snapshot[2] == records_checksum(zlib.crc32(files[path]) for path in paths)
    assert snapshot[2] != old_checksum
    snapshot[2] = old_checksum
    old_link = msgspec.msgpack.encode(snapshot)
    assert save_cache(project.cache_dir, identity_of(project), dict(files), [old_link]) == []
    old_inode = os.stat(project.cache_dir / CACHE_FILE_NAME).st_ino

    warm = project.scan(cached=True, literal_texts=LITERALS)

    assert warm.parsed == 0 and outcome(warm) == outcome(cold)
    assert os.stat(project.cache_dir / CACHE_FILE_NAME).st_ino != old_inode
    assert document(project) == (files, link)  # linked again and saved with today's checksum


def test_an_interrupted_stream_leaves_the_previous_cache(project: ScanProject) -> None:
    make_app(project)
    project.scan(cached=True)
    before = (project.cache_dir / CACHE_FILE_NAME).read_bytes()
    stream = CacheStream(project.cache_dir, identity_of(project))
    stream.add("src/app.tsx", b"\x90")
    assert len(list(project.cache_dir.iterdir())) == 2  # the cache and the stream's temp file

    stream.abort()

    assert [path.name for path in project.cache_dir.iterdir()] == [CACHE_FILE_NAME]
    assert (project.cache_dir / CACHE_FILE_NAME).read_bytes() == before


_SCAN = """
import sys
from pathlib import Path
from i18nprune.config.schema import ExcludeConfig
from i18nprune.keys import KeySyntax
from i18nprune.scan import ScanOptions, scan_project
root = Path(sys.argv[1])
result = scan_project(ScanOptions(root=root, src_dirs=[root / "src"], functions=["t"],
    exclude=ExcludeConfig(), syntax=KeySyntax(), cache_dir=root / ".cache", jobs=1))
"""


def streamed_a_while(cache_dir: Path) -> bool:
    """Whether a temp file beside the cache has received its first 64 KB of records."""
    for path in cache_dir.iterdir():
        if path.name.endswith(".tmp"):
            try:
                return path.stat().st_size >= 1 << 16
            except FileNotFoundError:
                return False
    return False


@pytest.mark.slow
@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGKILL])
def test_a_scan_stopped_while_it_streams_leaves_the_previous_cache(
    project: ScanProject, signal_number: int
) -> None:
    make_app(project)
    project.scan(cached=True)
    cache_file = project.cache_dir / CACHE_FILE_NAME
    before = cache_file.read_bytes()
    for index in range(3000):  # new files: the next scan examines them, streaming each record
        project.write(f"src/gen/file{index}.ts", f"export const k{index} = t('gen.k{index}');\n")
    child = subprocess.Popen(
        [sys.executable, "-c", _SCAN, str(project.root)], stderr=subprocess.DEVNULL
    )
    try:
        while not streamed_a_while(project.cache_dir):
            assert child.poll() is None, "the scan ended before it streamed its records"
        child.send_signal(signal_number)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()

    assert child.returncode != 0
    assert cache_file.read_bytes() == before
    left = sorted(path.name for path in project.cache_dir.iterdir())
    if signal_number == signal.SIGINT:  # the scan removed its temp file as it unwound
        assert left == [CACHE_FILE_NAME]
    cold = project.scan()
    warm = project.scan(cached=True)
    assert outcome(warm) == outcome(cold) and warm.files == 3004


@pytest.mark.slow
def test_a_stream_that_cannot_be_written_reports_it_and_leaves_the_previous_cache(
    project: ScanProject, tmp_path: Path
) -> None:
    """A write that fails midway (here the file-size limit, as a full disk would) abandons
    the new file: the scan says so once, as for a cache that cannot be written at all."""
    make_app(project)
    project.scan(cached=True)
    cache_file = project.cache_dir / CACHE_FILE_NAME
    before = cache_file.read_bytes()
    for index in range(400):
        project.write(f"src/gen/file{index}.ts", f"export const k{index} = t('gen.k{index}');\n")
    limit = len(before) + 4096
    script = (
        "import resource\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
        + _SCAN
        + "print(len(result.observations))\n"
        + "print('\\n'.join(f'{i.code} {i.message}' for i in result.issues))\n"
    )

    done = subprocess.run(
        [sys.executable, "-c", script, str(project.root)],
        capture_output=True,
        text=True,
        check=True,
    )

    lines = done.stdout.splitlines()
    assert lines[0] == str(len(project.scan().observations))
    failures = [line for line in lines[1:] if line.startswith(Code.SCAN_CACHE_ERROR)]
    assert len(failures) == 1 and "cannot be written (File too large)" in failures[0]
    assert cache_file.read_bytes() == before
    assert sorted(path.name for path in project.cache_dir.iterdir()) == [CACHE_FILE_NAME]


def test_atomic_file_replaces_its_target_only_when_committed(tmp_path: Path) -> None:
    target = tmp_path / "data.bin"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    replacement = AtomicFile(target)
    replacement.write(b"\0\0\0\0")
    replacement.write(b"x" * 100_000)  # past the buffer: written out at once
    replacement.write(b"tail")
    assert replacement.tell() == 100_008
    replacement.overwrite(0, b"head")
    assert target.read_bytes() == b"old"

    replacement.commit()
    replacement.abort()  # nothing left to give up

    assert target.read_bytes() == b"head" + b"x" * 100_000 + b"tail"
    assert os.stat(target).st_mode & 0o777 == 0o640
    assert [path.name for path in tmp_path.iterdir()] == ["data.bin"]
    with pytest.raises(OSError):
        replacement.write(b"more" * 20_000)


def test_sites_come_sorted_by_file_then_position(project: ScanProject) -> None:
    """Linking sorts each file's sites on their own (the files come in order): the result is
    the one sorting them all at once gives."""
    for index in range(12):
        project.write(
            f"src/f{index % 3}/m{index}.tsx",
            "const x = t(cond ? 'b.two' : 'a.one');\n"
            "t(`dyn.${x}`); t('c.three'); t(t('nested.key') + y);\n"
            "// t('commented.key')\n",
        )

    result = project.scan(cached=True)

    assert len(result.observations) == 12 * 4 and len(result.dynamic) == 12 * 3
    assert result.observations == sorted(
        result.observations, key=lambda o: (o.file, o.line, o.column, o.key)
    )
    assert result.dynamic == sorted(
        result.dynamic, key=lambda d: (d.file, d.line, d.column, d.kind, d.preview)
    )
    assert outcome(project.scan(cached=True)) == outcome(result)
