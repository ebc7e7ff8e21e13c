"""A command's scan saves its linked output beside the cache records it was computed from, and a
later scan whose records are all reused by their stat uses it instead of linking again, while
everything else linking read is unchanged. Each change below must still give what a scan
without any cache gives, in the run right after it and in the one after that (which recalls).
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import msgspec
import pytest

from i18nprune.project import ProjectRequest, open_project
from i18nprune.scan import ScanOptions, ScanResult, scan_project
from i18nprune.scan.cache import CACHE_FILE_NAME, load_cache_document
from i18nprune.scan.literals import keyed_by_hash
from tests.conftest import write_tree
from tests.file_changes import Change, remove, rename, write

LONG_AGO_NS = 1_600_000_000 * 10**9
KEYS = "export const TITLE = 'home.title';\nexport const INTRO = 'home.intro';\n"


def age(root: Path) -> None:
    """Date every file long ago, at a time its content decides: the stat of a file left alone
    keeps vouching for it, and an edited file's stat changes."""
    for path in root.rglob("*"):
        if path.is_file():
            when = LONG_AGO_NS + zlib.crc32(path.read_bytes()) * 1000
            os.utime(path, ns=(when, when))


def project(root: Path) -> Path:
    write_tree(
        root,
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"home": {"title": "T", "intro": "I", "a": "A"}},
            "shared/keys.ts": "export const SHARED = 'home.title';\n",
            "src/keys.ts": KEYS,
            "src/all.ts": "export * from './keys';\n",
            "src/direct.ts": "import { TITLE } from './keys';\nt(TITLE);\n",
            "src/chain.ts": "import { INTRO } from './all';\nt(INTRO);\n",
            "src/space.ts": "import * as keys from './keys';\nt(keys.TITLE);\n",
            "src/folder.ts": "import { K } from './k';\nt(K);\n",
            "src/k/index.ts": "export const K = 'home.a';\n",
            "src/outer.ts": "import { SHARED } from '../shared/keys';\nt(SHARED);\n",
            "src/broken.ts": "t('home.title');\nconst = ;\n",
            "src/plain.ts": "t(`home.${x}`);\n",
            "src/ns.ts": "t('common:home.title');\n",
        },
    )
    age(root)
    return root


def namespaces(root: Path) -> None:
    """The key syntax changes (namespaces on) while no source file does."""
    (root / "locales/en.json").unlink()
    write_tree(root, {"locales/en/common.json": {"home": {"title": "T"}}})
    write_tree(
        root,
        {"i18nprune.config.json": {"locales": {"source": "en", "namespaces": "file"}}},
    )


CHANGES: list[Change] = [
    write("src/keys.ts", "export const TITLE = 'home.a';\nexport const INTRO = 'home.lost';\n"),
    write("shared/keys.ts", "export const SHARED = 'home.gone';\n"),  # outside the sources
    write("shared/more.ts", "export const MORE = 'home.more';\n"),
    write(
        "src/outer.ts",
        "import { SHARED } from '../shared/keys';\nimport { M } from '../shared/m';\n"
        "t(SHARED);\nt(M);\n",
    ),
    write("shared/m.ts", "export const M = 'home.m';\n"),  # an import outside now resolves
    write("src/k.ts", "export const K = 'home.b';\n"),  # an import resolves elsewhere
    remove("src/k.ts"),
    write("src/keys.ts", "export const TITLE = 'home.title';\nexport const INTRO = (;\n"),
    write("src/keys.ts", KEYS),
    rename("src/keys.ts", "src/keys2.ts"),
    rename("src/keys2.ts", "src/keys.ts"),
    write("src/all.ts", "export * from './loop';\nexport * from './keys';\n"),
    write("src/loop.ts", "export * from './all';\n"),  # a cycle: that linking is not saved
    remove("src/loop.ts"),
    remove("src/plain.ts"),
    write("src/late.ts", "import { LATE } from './later';\nt(LATE);\n"),
    write("src/later.ts", "export const LATE = 'home.late';\n"),
    namespaces,
]


def options(root: Path, home: Path) -> ScanOptions:
    request = ProjectRequest(cwd=root, project=root)
    opened = open_project(request, env={**os.environ, "I18NPRUNE_HOME": str(home)})
    return opened.scan_options(keyed_by_hash({"T"}))


def outcome(result: ScanResult) -> tuple[object, ...]:
    issues = [issue for issue in result.issues if "scan cache" not in issue.message]
    return (result.files, result.observations, result.dynamic, issues, result.literals)


def uncached(root: Path, home: Path) -> tuple[object, ...]:
    return outcome(scan_project(msgspec.structs.replace(options(root, home), cache_dir=None)))


def saved_link(root: Path, home: Path) -> msgspec.Raw | None:
    scan_options = options(root, home)
    assert scan_options.cache_dir is not None
    identity = msgspec.msgpack.decode((scan_options.cache_dir / CACHE_FILE_NAME).read_bytes())
    return load_cache_document(scan_options.cache_dir, identity["identity"])[1]


def test_the_linked_output_is_saved_and_recalled(tmp_path: Path) -> None:
    root = project(tmp_path / "app")
    home = tmp_path / "home"
    cold = scan_project(options(root, home))
    assert saved_link(root, home) is not None
    warm = scan_project(options(root, home))
    assert outcome(warm) == outcome(cold) == uncached(root, home)
    assert (warm.parsed, warm.cache_hits) == (0, cold.parsed)  # the outside module too


@pytest.mark.slow
def test_a_session_of_changes_keeps_equalling_uncached_scans(tmp_path: Path) -> None:
    root = project(tmp_path / "app")
    home = tmp_path / "home"
    scan_project(options(root, home))
    for change in CHANGES:
        change(root)
        age(root)
        expected = uncached(root, home)
        # The run right after the change, and the runs that may recall its linking.
        for _ in range(3):
            assert outcome(scan_project(options(root, home))) == expected, change.__name__


def test_a_damaged_saved_linking_is_linked_again(tmp_path: Path) -> None:
    root = project(tmp_path / "app")
    home = tmp_path / "home"
    scan_project(options(root, home))
    cache_file = options(root, home).cache_dir / CACHE_FILE_NAME  # type: ignore[operator]
    document = msgspec.msgpack.decode(cache_file.read_bytes())
    document["link"] = [1, 2, 3]
    cache_file.write_bytes(msgspec.msgpack.encode(document))
    assert outcome(scan_project(options(root, home))) == uncached(root, home)
