"""A `serve` root that is a workspace root (a monorepo's root, as an editor opens it): ops answer
per project as the CLI's `--workspace` run does, ops about one file run in the project that owns
it, and the watcher pushes per project (issue 29).

Every test runs a real server over a real workspace of two configured projects in a temp dir
(no workspace file: the projects are found by their configs, as a new user's monorepo is).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.testing import ServeClient
from i18nprune.workspace import WORKSPACE_FILE
from tests.conftest import CliResult, write_tree
from tests.serve.conftest import ServeFactory

pytestmark = pytest.mark.slow

RunCli = Callable[..., CliResult]
WATCH = {"capabilities": {"watch": True}}
NOTICE_TIMEOUT = 10.0
SETTLED_SECONDS = 1.0
"""Longer than a burst takes to be reported: after it, a watcher that would report has done so."""
CONFIG = {"locales": {"source": "en"}}


@pytest.fixture
def mono(tmp_path: Path) -> Path:
    """`packages/web` uses `home.title` (defined) and `home.lost` (missing); `packages/admin`
    uses `panel.title` (defined); `tools/` belongs to no project. Each project defines only its
    own keys, so a run that took the root for one project would miss them all."""
    return write_tree(
        tmp_path / "mono",
        {
            "package.json": {"name": "mono", "private": True},
            "packages/web/i18nprune.config.json": CONFIG,
            "packages/web/locales/en.json": {"home": {"title": "Home"}, "shared": "Web"},
            "packages/web/locales/fr.json": {"home": {"title": "Accueil"}},
            "packages/web/src/app.ts": "t('home.title');\nt('home.lost');\nt('shared');\n",
            "packages/admin/i18nprune.config.json": CONFIG,
            "packages/admin/locales/en.json": {"panel": {"title": "Panel"}, "shared": "Admin"},
            "packages/admin/src/panel.ts": "t('panel.title');\nt('shared');\n",
            "tools/build.ts": "t('not.a.key');\n",
        },
    )


def projects_of(envelope: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {project["root"]: project for project in envelope["data"]["projects"]}


def test_op_validate_at_a_workspace_root_answers_per_project(
    serve: ServeFactory, mono: Path
) -> None:
    client = serve("--project", str(mono))

    envelope = client.op("validate")

    projects = projects_of(envelope)
    assert sorted(projects) == ["packages/admin", "packages/web"]
    assert projects["packages/web"]["data"]["missing"] == ["home.lost"]
    assert projects["packages/admin"]["data"]["missing"] == []
    assert envelope["ok"] is False
    assert [issue["code"] for issue in envelope["issues"]] == ["i18nprune.workspace.project_failed"]
    assert envelope["meta"]["cwd"] == str(mono)


def test_op_validate_at_a_workspace_root_is_the_clis_workspace_run(
    serve: ServeFactory, mono: Path, run_cli: RunCli
) -> None:
    client = serve("--project", str(mono))

    served = client.op("validate")
    cli = run_cli("--workspace", "validate", "--json", cwd=mono).envelope

    assert served["data"] == cli["data"]
    assert served["issues"] == cli["issues"]


def test_a_hub_request_naming_a_workspace_root_fans_out(serve: ServeFactory, mono: Path) -> None:
    client = serve()

    envelope = client.op("locales.list", root=mono)

    assert sorted(projects_of(envelope)) == ["packages/admin", "packages/web"]


def test_op_workspace_at_the_root_still_lists_the_projects(serve: ServeFactory, mono: Path) -> None:
    client = serve("--project", str(mono))

    rows = client.workspace()["data"]["projects"]

    assert [row["root"] for row in rows] == ["packages/admin", "packages/web"]


def test_op_file_runs_in_the_project_that_owns_the_path(serve: ServeFactory, mono: Path) -> None:
    client = serve("--project", str(mono))

    envelope = client.file("packages/web/src/app.ts")

    assert envelope["ok"] is True
    assert envelope["meta"]["cwd"] == str(mono / "packages/web")
    assert envelope["data"]["path"] == "src/app.ts"
    assert [d["key"] for d in envelope["data"]["diagnostics"]] == ["home.lost"]
    assert [site["status"] for site in envelope["data"]["sites"]] == ["ok", "missing", "ok"]


def test_op_file_of_an_unsaved_buffer_is_routed_too(serve: ServeFactory, mono: Path) -> None:
    client = serve("--project", str(mono))

    envelope = client.file("packages/admin/src/panel.ts", text="t('panel.gone');\n")

    assert envelope["meta"]["cwd"] == str(mono / "packages/admin")
    assert [d["key"] for d in envelope["data"]["diagnostics"]] == ["panel.gone"]


def test_a_path_in_no_project_is_an_ok_false_issue(serve: ServeFactory, mono: Path) -> None:
    client = serve("--project", str(mono))

    envelope = client.file("tools/build.ts")

    assert envelope["ok"] is False and envelope["data"] is None
    [issue] = envelope["issues"]
    assert issue["code"] == "i18nprune.workspace.outside_projects"
    assert issue["message"] == (
        f"`tools/build.ts` is in none of the projects of the workspace at {mono} "
        "(packages/admin, packages/web)"
    )


def test_op_key_by_position_runs_in_the_project_that_owns_the_path(
    serve: ServeFactory, mono: Path
) -> None:
    client = serve("--project", str(mono))

    envelope = client.key(path="packages/web/src/app.ts", line=1, column=4)

    assert envelope["meta"]["cwd"] == str(mono / "packages/web")
    assert envelope["data"]["key"] == "home.title"
    assert envelope["data"]["values"] == {"en": "Home", "fr": "Accueil"}


def test_op_key_by_name_answers_from_every_project_that_knows_it(
    serve: ServeFactory, mono: Path
) -> None:
    client = serve("--project", str(mono))

    shared = client.key("shared")
    only_admin = client.key("panel.title")

    values = {root: project["data"]["values"] for root, project in projects_of(shared).items()}
    assert values == {"packages/admin": {"en": "Admin"}, "packages/web": {"en": "Web", "fr": None}}
    assert shared["ok"] is True
    assert list(projects_of(only_admin)) == ["packages/admin"]
    assert only_admin["ok"] is True and only_admin["issues"] == []


def test_op_key_by_name_that_no_project_knows_is_not_found(serve: ServeFactory, mono: Path) -> None:
    client = serve("--project", str(mono))

    envelope = client.key("nowhere.at.all")

    assert envelope["ok"] is False
    assert envelope["data"]["projects"] == []
    assert [issue["code"] for issue in envelope["issues"]] == ["i18nprune.key.not_found"]


def test_op_key_set_at_the_workspace_root_asks_for_the_project(
    serve: ServeFactory, mono: Path
) -> None:
    client = serve("--project", str(mono), "--allow-writes")
    before = (mono / "packages/web/locales/en.json").read_bytes()

    envelope = client.set_key("home.lost", "en", "Lost")

    assert envelope["ok"] is False
    [issue] = envelope["issues"]
    assert issue["code"] == "i18nprune.workspace.project_required"
    assert str(mono / "packages/web") in issue["message"]
    assert (mono / "packages/web/locales/en.json").read_bytes() == before


def test_a_sandbox_at_a_workspace_root_accepts_one_of_its_projects_as_project_root(
    serve: ServeFactory, mono: Path
) -> None:
    client = serve("--project", str(mono), "--allow-writes")
    web = mono / "packages/web"

    written = client.op("key.set", {"key": "home.lost", "locale": "en", "value": "Lost"}, root=web)
    validated = client.op("validate", root=web)

    assert written["ok"] is True and written["meta"]["cwd"] == str(web)
    assert json.loads((web / "locales/en.json").read_text())["home"]["lost"] == "Lost"
    assert validated["data"]["missing"] == []


def test_a_sandbox_refuses_a_folder_below_it_that_is_no_project(
    serve: ServeFactory, mono: Path
) -> None:
    client = serve("--project", str(mono))

    response = client.request("op.validate", {"projectRoot": str(mono / "tools"), "options": {}})

    assert response.error is not None
    assert (response.error.code, response.error.data["code"]) == (-32602, "SERVE_ROOT_MISMATCH")
    assert response.error.data["key"] == "projectRoot"


def test_a_write_op_at_a_workspace_root_writes_each_project(
    serve: ServeFactory, mono: Path
) -> None:
    client = serve("--project", str(mono), "--allow-writes")

    envelope = client.op("missing", {"yes": True})

    assert envelope["ok"] is True
    assert sorted(projects_of(envelope)) == ["packages/admin", "packages/web"]
    web = json.loads((mono / "packages/web/locales/en.json").read_text())
    assert "lost" in web["home"]
    assert client.op("validate")["ok"] is True  # the next read sees both projects' files


def test_a_project_added_to_the_workspace_is_routed_to(serve: ServeFactory, mono: Path) -> None:
    client = serve("--project", str(mono))
    assert client.file("tools/build.ts")["ok"] is False

    write_tree(mono, {"tools/i18nprune.config.json": CONFIG, "tools/locales/en.json": {}})

    envelope = client.file("tools/build.ts")
    assert envelope["meta"]["cwd"] == str(mono / "tools")
    assert [d["key"] for d in envelope["data"]["diagnostics"]] == ["not.a.key"]
    assert "tools" in projects_of(client.op("validate"))


def test_a_workspace_file_decides_the_projects_at_once(serve: ServeFactory, mono: Path) -> None:
    client = serve("--project", str(mono))
    assert sorted(projects_of(client.op("validate"))) == ["packages/admin", "packages/web"]

    (mono / WORKSPACE_FILE).write_text(json.dumps({"projects": ["packages/web"]}))

    assert list(projects_of(client.op("validate"))) == ["packages/web"]
    assert client.op("validate")["data"]["workspaceFile"] == WORKSPACE_FILE


# --- pushed changes -------------------------------------------------------------------------

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def watching(serve: ServeFactory, *args: str) -> ServeClient:
    client = serve(*args, init=False)
    assert client.initialize(**WATCH)["capabilities"]["watch"] is True
    return client


def pushed(client: ServeClient, method: str, root: Path, since: int) -> dict[str, Any]:
    found: dict[str, Any] = client.wait_notification(
        method,
        lambda params: params["projectRoot"] == str(root),
        after=since,
        timeout=NOTICE_TIMEOUT,
    ).params
    return found


@linux_only
def test_the_watcher_at_a_workspace_root_pushes_per_project(
    serve: ServeFactory, mono: Path
) -> None:
    client = watching(serve, "--project", str(mono))
    web, admin = mono / "packages/web", mono / "packages/admin"

    since = len(client.notifications())
    (web / "src/app.ts").write_text("t('home.title');\nt('shared');\n")
    diagnostics = pushed(client, "$/diagnostics", web, since)
    changed = pushed(client, "$/changed", web, since)

    assert (diagnostics["path"], diagnostics["diagnostics"]) == ("src/app.ts", [])
    assert changed["files"] == ["src/app.ts"]
    assert changed["summary"] == {"missing": 0, "unused": 0, "dynamic": 0}

    since = len(client.notifications())
    (admin / "src/panel.ts").write_text("t('panel.title');\nt('panel.new');\n")
    diagnostics = pushed(client, "$/diagnostics", admin, since)
    changed = pushed(client, "$/changed", admin, since)

    assert [d["key"] for d in diagnostics["diagnostics"]] == ["panel.new"]
    assert changed["summary"] == {"missing": 1, "unused": 1, "dynamic": 0}
    assert all(n.params["projectRoot"] in (str(web), str(admin)) for n in client.notifications())


@linux_only
def test_the_watcher_reports_a_project_added_to_the_workspace(
    serve: ServeFactory, mono: Path
) -> None:
    client = watching(serve, "--project", str(mono))
    tools = mono / "tools"

    since = len(client.notifications())
    write_tree(mono, {"tools/i18nprune.config.json": CONFIG, "tools/locales/en.json": {}})
    changed = pushed(client, "$/changed", tools, since)
    assert changed["summary"]["missing"] == 1

    since = len(client.notifications())
    (tools / "build.ts").write_text("t('not.a.key');\nt('another');\n")
    diagnostics = pushed(client, "$/diagnostics", tools, since)
    assert [d["key"] for d in diagnostics["diagnostics"]] == ["not.a.key", "another"]


@linux_only
def test_a_change_outside_every_project_is_not_reported(serve: ServeFactory, mono: Path) -> None:
    client = watching(serve, "--project", str(mono))
    web = mono / "packages/web"

    since = len(client.notifications())
    (mono / "tools/build.ts").write_text("t('still.nothing');\n")
    (web / "src/app.ts").write_text("t('home.title');\n")
    pushed(client, "$/changed", web, since)

    roots = {n.params["projectRoot"] for n in client.notifications()[since:]}
    assert roots == {str(web)}


@linux_only
@pytest.mark.parametrize("first", ["workspace", "project"])
def test_a_project_of_the_watched_workspace_is_not_watched_twice(
    serve: ServeFactory, mono: Path, first: str
) -> None:
    # Whichever a hub client names first, one watch reports the project's changes.
    client = watching(serve)
    web = mono / "packages/web"
    roots = [mono, web] if first == "workspace" else [web, mono]
    for root in roots:
        assert client.op("validate", root=root)["ok"] is False

    since = len(client.notifications())
    (web / "src/app.ts").write_text("t('home.title');\n")
    pushed(client, "$/changed", web, since)
    time.sleep(SETTLED_SECONDS)

    methods = [n.method for n in client.notifications()[since:]]
    assert methods == ["$/diagnostics", "$/changed"]
