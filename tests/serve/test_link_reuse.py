"""`serve` keeps each file's linked output and re-links after a change only what the change can
affect (`LinkMemo`): every change of an import/export relation must still give what a fresh
command-line `validate --json` gives.

The in-process tests drive `scan_project` with a memo over real files and compare with a scan
without one; the served tests edit real files between requests to a real server.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import msgspec
import pytest

from i18nprune.project import ProjectRequest, open_project
from i18nprune.scan import ScanOptions, ScanResult, scan_project
from i18nprune.scan.link import LinkMemo
from i18nprune.testing import ServeClient
from tests.conftest import write_tree
from tests.file_changes import Change, remove, rename, write
from tests.serve.conftest import LONG_AGO_NS, ServeFactory
from tests.serve.test_index import cli_validate, validate
from tests.serve.test_index import outcome as outcome_of

KEYS = "export const TITLE = 'home.title';\nexport const INTRO = 'home.intro';\n"


def linked_project(root: Path) -> Path:
    """Sources whose keys come from other files: a direct import, an `export *` chain, a
    namespace import, a folder index, and a module outside `src`."""
    write_tree(
        root,
        {
            "i18nprune.config.json": {"locales": {"source": "en"}},
            "locales/en.json": {"home": {"title": "T", "intro": "I", "a": "A", "b": "B"}},
            "shared/keys.ts": "export const SHARED = 'home.title';\n",
            "src/keys.ts": KEYS,
            "src/all.ts": "export * from './keys';\n",
            "src/k/index.ts": "export const K = 'home.a';\n",
            "src/direct.ts": "import { TITLE } from './keys';\nt(TITLE);\n",
            "src/chain.ts": "import { INTRO } from './all';\nt(INTRO);\n",
            "src/space.ts": "import * as keys from './keys';\nt(keys.TITLE);\n",
            "src/folder.ts": "import { K } from './k';\nt(K);\n",
            "src/outer.ts": "import { SHARED } from '../shared/keys';\nt(SHARED);\n",
            "src/plain.ts": "t('home.b');\n",
        },
    )
    for path in root.rglob("*.ts"):
        os.utime(path, ns=(LONG_AGO_NS, LONG_AGO_NS))
    return root


CHANGES: list[Change] = [
    # An exported value changes: every file reading it, directly or through re-exports.
    write("src/keys.ts", "export const TITLE = 'home.a';\nexport const INTRO = 'home.lost';\n"),
    # A re-export is redirected.
    write("src/all.ts", "export { INTRO } from './keys';\nexport * from './k';\n"),
    write("src/all.ts", "export * from './k';\nexport * from './keys';\n"),
    # A module that an import resolves to appears ahead of the folder index, and goes again.
    write("src/k.ts", "export const K = 'home.b';\n"),
    remove("src/k.ts"),
    # The module outside `src` changes.
    write("shared/keys.ts", "export const SHARED = 'home.gone';\n"),
    # An exporter with a syntax error (its warning is reported once it is read).
    write("src/keys.ts", "export const TITLE = 'home.title';\nexport const INTRO = (;\n"),
    write("src/keys.ts", KEYS),
    # An importer changes what it imports; an exporter is renamed away and back.
    write("src/direct.ts", "import { INTRO } from './keys';\nt(INTRO);\n"),
    rename("src/keys.ts", "src/keys2.ts"),
    rename("src/keys2.ts", "src/keys.ts"),
    # An `export *` cycle: a linking that is not pure is never reused.
    write("src/all.ts", "export * from './loop';\nexport * from './keys';\n"),
    write("src/loop.ts", "export * from './all';\n"),
    write("src/chain.ts", "import { INTRO, MISSING } from './all';\nt(INTRO);\nt(MISSING);\n"),
    remove("src/loop.ts"),
    # A file deleted, and one that imports from a file that does not exist yet.
    remove("src/space.ts"),
    write("src/late.ts", "import { LATE } from './later';\nt(LATE);\n"),
    write("src/later.ts", "export const LATE = 'home.late';\n"),
]


def options(root: Path) -> ScanOptions:
    project = open_project(ProjectRequest(cwd=root, project=root, read_only=True))
    return msgspec.structs.replace(project.scan_options(), cache_dir=None)


def outcome(result: ScanResult) -> tuple[object, ...]:
    return (result.files, result.observations, result.dynamic, result.issues)


@pytest.mark.slow
def test_a_scan_with_a_memo_equals_one_without_after_each_change(tmp_path: Path) -> None:
    root = linked_project(tmp_path / "app")
    memo = LinkMemo()
    first = scan_project(options(root), link_memo=memo)
    assert outcome(first) == outcome(scan_project(options(root)))
    assert memo.files  # the first scan's output is kept
    for change in CHANGES:
        change(root)
        with_memo = scan_project(options(root), link_memo=memo)
        assert outcome(with_memo) == outcome(scan_project(options(root))), change.__name__


def test_output_is_reused_only_while_what_it_read_is_unchanged(tmp_path: Path) -> None:
    root = linked_project(tmp_path / "app")
    memo = LinkMemo()
    scan_project(options(root), link_memo=memo)
    kept = dict(memo.files)
    write("src/keys.ts", "export const TITLE = 'home.b';\nexport const INTRO = 'home.a';\n")(root)
    result = scan_project(options(root), link_memo=memo)
    keys = {(o.file, o.key) for o in result.observations}
    assert {("src/direct.ts", "home.b"), ("src/chain.ts", "home.a")} <= keys
    assert ("src/space.ts", "home.b") in keys
    # A file that reads nothing from another keeps the very output it had.
    assert memo.files["src/plain.ts"] is kept["src/plain.ts"]
    assert memo.files["src/direct.ts"] is not kept["src/direct.ts"]


def test_a_chain_too_deep_to_link_purely_is_never_reused(tmp_path: Path) -> None:
    files: dict[str, str] = {f"src/m{n}.ts": f"export * from './m{n + 1}';\n" for n in range(40)}
    files["src/m40.ts"] = "export const DEEP = 'home.title';\n"
    files["src/use.ts"] = "import { DEEP } from './m0';\nt(DEEP);\n"
    files["i18nprune.config.json"] = '{"locales": {"source": "en"}}'
    files["locales/en.json"] = '{"home": {"title": "T"}}'
    root = write_tree(tmp_path / "app", files)  # type: ignore[arg-type]
    memo = LinkMemo()
    result = scan_project(options(root), link_memo=memo)
    assert outcome(result) == outcome(scan_project(options(root)))
    assert memo.files == {}
    (root / "src/m40.ts").write_text("export const DEEP = 'home.other';\n")
    again = scan_project(options(root), link_memo=memo)
    assert outcome(again) == outcome(scan_project(options(root)))


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
def test_a_session_of_relation_changes_keeps_equalling_fresh_cli_runs(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = linked_project(tmp_path / "app")
    client: ServeClient = serve("--project", str(root))
    validate(client)  # builds the index and the memo
    for number, change in enumerate(CHANGES):
        change(root)
        served = validate(client)
        fresh = cli_validate(root, tmp_path / f"cli-{number}")
        assert outcome_of(served) == outcome_of(fresh), change.__name__
