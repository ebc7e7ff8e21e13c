"""Snapshots of the scan index: what an op derived from a root's files is kept while nothing
under the root changes, and any change to a source file, a locale file or the configuration
drops it (docs/serve.md#5-root-modes, fresh reads: every request sees the files as they are on
disk now).

Real files, the real inotify watch, and a real server for the op's answers; inotify queues an
event while the editing call runs, so no test waits for anything but answers.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from i18nprune.serve.index import ScanIndex
from i18nprune.testing import ServeClient
from tests.conftest import write_tree
from tests.serve.conftest import ServeFactory, watched_project

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")

KEY = ("validate", "options")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return watched_project(tmp_path / "app")


@pytest.fixture
def index() -> Any:
    kept = ScanIndex()
    yield kept
    kept.close()


def remembered(index: ScanIndex, root: Path, value: object = "value") -> int:
    """Remember `value` for `root` as its files are now; the generation it was kept for."""
    generation, kept = index.recall(root, KEY)
    assert generation is not None and kept is None
    index.remember(root, generation, KEY, value, [root / "locales", root / "locales/en.json"])
    return generation


def test_a_snapshot_is_recalled_while_nothing_changes(index: ScanIndex, project: Path) -> None:
    generation = remembered(index, project)
    assert index.recall(project, KEY) == (generation, "value")
    assert index.recall(project, ("another", "key")) == (generation, None)


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(
            lambda root: (root / "src/app.ts").write_text("t('home.title');\n"), id="source"
        ),
        pytest.param(lambda root: (root / "src/new.ts").write_text("t('x');\n"), id="new-source"),
        pytest.param(lambda root: (root / "src/feature/panel.ts").unlink(), id="deleted-source"),
        pytest.param(
            lambda root: (root / "locales/en.json").write_text('{"home": {"title": "H"}}'),
            id="locale",
        ),
        pytest.param(lambda root: (root / "locales/fr.json").write_text("{}"), id="new-locale"),
        pytest.param(
            lambda root: (root / "i18nprune.config.json").write_text('{"locales": {}}'),
            id="config",
        ),
        pytest.param(lambda root: (root / "package.json").write_text("{}"), id="package-json"),
    ],
)
def test_any_change_under_the_root_drops_the_snapshot(
    index: ScanIndex, project: Path, edit: Any
) -> None:
    generation = remembered(index, project)
    edit(project)
    now, kept = index.recall(project, KEY)
    assert kept is None
    assert now is not None and now != generation


def test_a_value_computed_while_a_file_changed_is_not_kept(index: ScanIndex, project: Path) -> None:
    generation, _ = index.recall(project, KEY)
    assert generation is not None
    (project / "locales/en.json").write_text('{"home": {}}')  # while the value was computed
    index.remember(project, generation, KEY, "stale", [project / "locales"])
    assert index.recall(project, KEY)[1] is None


def test_an_invalidated_root_drops_the_snapshot(index: ScanIndex, project: Path) -> None:
    remembered(index, project)
    index.invalidate(project)
    assert index.recall(project, KEY)[1] is None


def test_a_value_read_from_an_unwatched_folder_is_not_kept(index: ScanIndex, project: Path) -> None:
    # node_modules is never watched: a locale file linked from there changes unseen.
    shared = write_tree(project / "node_modules/shared", {"en.json": {"home": {"title": "H"}}})
    (project / "locales/shared.json").symlink_to(shared / "en.json")
    generation, _ = index.recall(project, KEY)
    assert generation is not None
    index.remember(project, generation, KEY, "value", [project / "locales/shared.json"])
    assert index.recall(project, KEY)[1] is None


def test_an_unwatchable_root_keeps_nothing(project: Path) -> None:
    index = ScanIndex(max_watched_dirs=1)
    try:
        assert index.recall(project, KEY) == (None, None)
        index.remember(project, 1, KEY, "value")
        assert index.recall(project, KEY) == (None, None)
    finally:
        index.close()


# --- through a real server ----------------------------------------------------------------


def validate(client: ServeClient) -> dict[str, Any]:
    envelope: dict[str, Any] = client.request("op.validate", {"options": {}}).unwrap()
    return envelope


@pytest.mark.slow
def test_an_unchanged_tree_answers_the_same_envelope_with_progress(
    serve: ServeFactory, project: Path
) -> None:
    client = serve("--project", str(project))
    first = validate(client)
    raw_id = client.submit("op.validate", {"options": {}})
    second = client.wait_response(raw_id).unwrap()
    assert (second["ok"], second["data"], second["issues"]) == (
        first["ok"],
        first["data"],
        first["issues"],
    )
    phases = [event["phase"] for event in client.progress(raw_id)]
    assert phases[0] == "scan" and phases[-1] == "done"


@pytest.mark.slow
def test_a_description_added_in_a_meta_file_is_seen(serve: ServeFactory, project: Path) -> None:
    client = serve("--project", str(project))
    assert validate(client)["data"]["descriptions"] == {}
    (project / "locales/en.meta.json").write_text(json.dumps({"home": {"title": "Page title"}}))
    assert validate(client)["data"]["descriptions"] == {"home.title": "Page title"}


@pytest.mark.slow
def test_a_locale_folder_linked_from_node_modules_is_read_every_time(
    serve: ServeFactory, project: Path
) -> None:
    shared = write_tree(project / "node_modules/shared", {"en.json": {"home": {"title": "H"}}})
    (project / "locales/en.json").unlink()
    (project / "locales").rmdir()
    (project / "locales").symlink_to(shared, target_is_directory=True)
    client = serve("--project", str(project))
    assert validate(client)["data"]["missing"] == ["home.intro", "home.lost"]
    (shared / "en.json").write_text(json.dumps({"home": {"title": "H", "lost": "L"}}))
    assert validate(client)["data"]["missing"] == ["home.intro"]


@pytest.mark.slow
def test_a_locale_edit_between_two_requests_of_a_busy_session_is_seen(
    serve: ServeFactory, project: Path
) -> None:
    client = serve("--project", str(project))
    for _ in range(3):
        assert validate(client)["data"]["missing"] == ["home.lost"]
    (project / "locales/en.json").write_text(
        json.dumps({"home": {"title": "Home", "intro": "Hi", "lost": "Found"}})
    )
    assert validate(client)["data"]["missing"] == []
    assert validate(client)["data"]["missing"] == []
