"""`op.workspace` (docs/serve.md#workspace-roots): the projects of the workspace at the
request's root."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18nprune.workspace import WORKSPACE_FILE
from tests.serve.conftest import ServeFactory

pytestmark = pytest.mark.slow


def make_workspace(root: Path) -> Path:
    for name, locales in (("web", ("en", "fr")), ("admin", ("en",))):
        project = root / "packages" / name
        (project / "locales").mkdir(parents=True)
        (project / "i18nprune.config.json").write_text('{"locales": {"source": "en"}}')
        for code in locales:
            (project / "locales" / f"{code}.json").write_text("{}\n")
    (root / WORKSPACE_FILE).write_text('{"projects": ["packages/*"]}')
    return root


def test_op_workspace_lists_the_projects_of_the_pinned_root(
    serve: ServeFactory, tmp_path: Path
) -> None:
    root = make_workspace(tmp_path / "mono")
    server = serve("--project", str(root))

    envelope = server.request("op.workspace", {"options": {}}).unwrap()

    assert envelope["ok"] is True and envelope["kind"] == "workspace"
    assert envelope["data"] == {
        "workspaceFile": WORKSPACE_FILE,
        "discovered": False,
        "projects": [
            {
                "root": "packages/admin",
                "configPath": "packages/admin/i18nprune.config.json",
                "source": "en",
                "locales": ["en"],
                "localeNames": {"en": "en"},
                "reason": None,
            },
            {
                "root": "packages/web",
                "configPath": "packages/web/i18nprune.config.json",
                "source": "en",
                "locales": ["en", "fr"],
                "localeNames": {"en": "en", "fr": "fr"},
                "reason": None,
            },
        ],
    }


def test_op_workspace_in_hub_mode_needs_a_root(serve: ServeFactory, tmp_path: Path) -> None:
    root = make_workspace(tmp_path / "mono")
    server = serve()

    refused = server.request("op.workspace", {"options": {}})
    answered = server.workspace(root=root)

    assert refused.error is not None and refused.error.data["code"] == "SERVE_ROOT_REQUIRED"
    assert [project["root"] for project in answered["data"]["projects"]] == [
        "packages/admin",
        "packages/web",
    ]


def test_op_workspace_without_projects_is_an_error_issue(
    serve: ServeFactory, tmp_path: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    server = serve("--project", str(empty))

    envelope = server.request("op.workspace", {"options": {}}).unwrap()

    assert envelope["ok"] is False
    assert envelope["issues"][0]["code"] == "i18nprune.workspace.no_projects"
