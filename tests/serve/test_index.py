"""The scan index of a `serve` session: what changes on disk between two requests, the next
request sees (docs/serve.md#5-root-modes, fresh reads), and its results equal a cold run's.

Each test edits real files between requests to a real server; inotify queues an event while the
editing call runs, so no test waits for anything but the server's answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.project import ProjectRequest, open_project
from i18nprune.serve.index import ScanIndex
from i18nprune.testing import ServeClient
from tests.conftest import cli_environment
from tests.serve.conftest import ServeFactory, watched_project

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return watched_project(tmp_path / "app")


@pytest.fixture(params=["read-only", "writes"])
def server(request: pytest.FixtureRequest, serve: ServeFactory, project: Path) -> ServeClient:
    flags = ["--allow-writes"] if request.param == "writes" else []
    client = serve("--project", str(project), *flags)
    assert missing(client) == ["home.lost"]  # the first request builds the index
    return client


def validate(client: ServeClient) -> dict[str, Any]:
    envelope: dict[str, Any] = client.request("op.validate", {"options": {}}).unwrap()
    return envelope


def missing(client: ServeClient) -> list[str]:
    found: list[str] = validate(client)["data"]["missing"]
    return found


@pytest.mark.slow
def test_an_edited_file_is_seen_by_the_next_request(server: ServeClient, project: Path) -> None:
    (project / "src/app.ts").write_text("t('home.title');\nt('home.gone');\n")
    assert missing(server) == ["home.gone"]


@pytest.mark.slow
def test_an_edit_that_keeps_size_and_mtime_is_seen(server: ServeClient, project: Path) -> None:
    # A filesystem with coarse timestamps gives an edit within the same tick the same mtime;
    # only the watch can tell the file changed.
    path = project / "src/app.ts"
    before = path.stat()
    path.write_text("t('home.title');\nt('home.miss');\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        before.st_size,
        before.st_mtime_ns,
        before.st_ino,
    )
    assert missing(server) == ["home.miss"]


@pytest.mark.slow
def test_a_created_file_is_seen(server: ServeClient, project: Path) -> None:
    (project / "src/more.ts").write_text("t('home.extra');\n")
    assert missing(server) == ["home.extra", "home.lost"]


@pytest.mark.slow
def test_a_deleted_file_is_seen(server: ServeClient, project: Path) -> None:
    (project / "src/app.ts").unlink()
    assert missing(server) == []


@pytest.mark.slow
def test_a_file_renamed_out_of_the_scan_is_seen(server: ServeClient, project: Path) -> None:
    (project / "src/app.ts").rename(project / "src/app.ts.bak")
    assert missing(server) == []


@pytest.mark.slow
def test_a_file_renamed_into_the_scan_is_seen(server: ServeClient, project: Path) -> None:
    (project / "notes.txt").write_text("t('home.moved');\n")
    (project / "notes.txt").rename(project / "src/moved.ts")
    assert missing(server) == ["home.lost", "home.moved"]


@pytest.mark.slow
def test_files_in_a_new_directory_are_seen_and_so_are_their_edits(
    server: ServeClient, project: Path
) -> None:
    deep = project / "src/new/deeper"
    deep.mkdir(parents=True)
    (deep / "x.ts").write_text("t('home.deep');\n")
    assert missing(server) == ["home.deep", "home.lost"]
    (deep / "x.ts").write_text("t('home.deeper');\n")
    assert missing(server) == ["home.deeper", "home.lost"]


@pytest.mark.slow
def test_a_moved_directory_is_seen_and_so_are_edits_at_its_new_place(
    server: ServeClient, project: Path
) -> None:
    (project / "src/feature").rename(project / "src/renamed")
    assert missing(server) == ["home.lost"]
    (project / "src/renamed/panel.ts").write_text("t('home.after');\n")
    assert missing(server) == ["home.after", "home.lost"]
    (project / "src/renamed").rename(project.parent / "outside")
    assert missing(server) == ["home.lost"]


@pytest.mark.slow
def test_a_locale_file_change_is_seen(server: ServeClient, project: Path) -> None:
    (project / "locales/en.json").write_text(json.dumps({"home": {"title": "Home", "lost": "L"}}))
    assert missing(server) == ["home.intro"]


@pytest.mark.slow
def test_a_config_change_is_seen(server: ServeClient, project: Path) -> None:
    config = {"locales": {"source": "en"}, "exclude": {"dirs": ["feature"]}}
    (project / "i18nprune.config.json").write_text(json.dumps(config))
    assert validate(server)["data"]["filesScanned"] == 1


@pytest.mark.slow
def test_warm_results_equal_a_cold_run(
    server: ServeClient, serve: ServeFactory, project: Path
) -> None:
    (project / "src/app.ts").write_text("t('home.title');\nt(`home.${x}`);\nt('home.new');\n")
    (project / "src/feature/panel.ts").unlink()
    (project / "src/b.ts").write_text("export const K = 'home.intro';\n")
    warm = [validate(server) for _ in range(2)]
    cold = validate(serve("--project", str(project)))
    for envelope in warm:
        assert (envelope["ok"], envelope["data"], envelope["issues"]) == (
            cold["ok"],
            cold["data"],
            cold["issues"],
        )


@pytest.mark.slow
def test_a_write_op_result_is_seen_by_the_next_read(serve: ServeFactory, project: Path) -> None:
    client = serve("--project", str(project), "--allow-writes")
    assert missing(client) == ["home.lost"]
    client.request("op.missing", {"options": {"yes": True}}).unwrap()
    assert missing(client) == []


def scan_options(root: Path) -> Any:
    return open_project(ProjectRequest(cwd=root, project=root, read_only=True)).scan_options()


def test_a_kept_scan_is_returned_while_nothing_changes(project: Path) -> None:
    index = ScanIndex()
    try:
        first = index.scan(scan_options(project))
        assert index.scan(scan_options(project)) is first
        (project / "src/app.ts").write_text("t('home.title');\n")
        changed = index.scan(scan_options(project))
        assert changed is not first
        assert [o.key for o in changed.observations] == ["home.title", "home.intro"]
    finally:
        index.close()


def test_a_lasting_value_is_kept_until_a_path_it_depends_on_changes(project: Path) -> None:
    index = ScanIndex()

    def config_changes(path: str) -> bool:
        return path == "i18nprune.config.json"

    try:
        generation, kept = index.recall_lasting(project, "routing")
        assert generation is not None and kept is None
        index.remember_lasting(project, generation, "routing", "found", config_changes)
        (project / "src/app.ts").write_text("t('home.title');\n")
        assert index.recall_lasting(project, "routing")[1] == "found"
        (project / "i18nprune.config.json").write_text('{"locales": {"source": "en"}}')
        assert index.recall_lasting(project, "routing")[1] is None
    finally:
        index.close()


def test_a_lasting_value_computed_before_a_change_is_not_kept(project: Path) -> None:
    index = ScanIndex()
    try:
        generation, _ = index.recall_lasting(project, "routing")
        assert generation is not None
        (project / "src/app.ts").write_text("t('home.title');\n")
        index.remember_lasting(project, generation, "routing", "stale", lambda _: False)
        assert index.recall_lasting(project, "routing")[1] is None
    finally:
        index.close()


def test_a_root_too_large_to_watch_is_walked_every_time(project: Path) -> None:
    index = ScanIndex(max_watched_dirs=1)
    try:
        first = index.scan(scan_options(project))
        second = index.scan(scan_options(project))
        assert second is not first and second.observations == first.observations
        (project / "src/feature/panel.ts").write_text("t('home.other');\n")
        keys = {o.key for o in index.scan(scan_options(project)).observations}
        assert keys == {"home.title", "home.lost", "home.other"}
    finally:
        index.close()


def outcome(envelope: dict[str, Any]) -> tuple[object, object, object]:
    """What a served result and a CLI run must agree on: `ok`, `data` and `issues` (not
    `meta`, whose duration and working directory differ)."""
    return envelope["ok"], envelope["data"], envelope["issues"]


def cli_validate(project: Path, home: Path) -> dict[str, Any]:
    """A fresh CLI `validate --json` of the tree as it is now (its own, empty home), run in
    the project, as the server is pointed at it (suggested commands name no `-C`)."""
    home.mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "i18nprune", "validate", "--json"],
        cwd=project,
        env=cli_environment(home),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    envelope: dict[str, Any] = json.loads(done.stdout)
    return envelope


def edit(project: Path) -> None:
    (project / "src/app.ts").write_text("t('home.title');\nt('home.edited');\n")


def add(project: Path) -> None:
    (project / "src/feature").mkdir(exist_ok=True)
    (project / "src/feature/extra.ts").write_text("import { K } from '../b';\nt(K);\n")
    (project / "src/b.ts").write_text("export const K = 'home.added';\n")


def delete(project: Path) -> None:
    (project / "src/feature/panel.ts").unlink()


def rename_directory(project: Path) -> None:
    (project / "src/feature").rename(project / "src/moved")
    (project / "src/moved/late.ts").write_text("t('home.late');\n")


@pytest.mark.slow
@pytest.mark.parametrize("change", [edit, add, delete, rename_directory])
def test_each_change_then_validate_equals_a_fresh_cli_run(
    server: ServeClient, project: Path, tmp_path: Path, change: Callable[[Path], None]
) -> None:
    change(project)
    served = validate(server)
    fresh = cli_validate(project, tmp_path / f"cli-{change.__name__}")
    assert outcome(served) == outcome(fresh)


@pytest.mark.slow
def test_a_session_of_changes_keeps_equalling_fresh_cli_runs(
    server: ServeClient, project: Path, tmp_path: Path
) -> None:
    for number, change in enumerate([edit, add, edit, delete, rename_directory, add]):
        change(project)
        served = validate(server)
        fresh = cli_validate(project, tmp_path / f"cli-{number}")
        assert (served["data"], served["issues"]) == (fresh["data"], fresh["issues"]), change


@pytest.mark.slow
def test_a_removed_directory_is_walked_again(server: ServeClient, project: Path) -> None:
    (project / "src/feature/panel.ts").unlink()
    (project / "src/feature").rmdir()
    (project / "src/feature").mkdir()
    (project / "src/feature/panel.ts").write_text("t('home.back');\n")
    assert missing(server) == ["home.back", "home.lost"]
